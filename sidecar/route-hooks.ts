/**
 * Hooks that only some routes need, put on those routes alone (as each is declared: Fastify's
 * onRoute), never on the app: an app-level onRequest hook is one more step of every request's
 * hook chain, /v1/health's and every kept answer's included (issue 125: the DNS-rebinding check of
 * /mcp and the upload gate of the template rows ran on every request of the API host).
 */
import type { FastifyInstance, onRequestHookHandler, RouteOptions } from "fastify";

/**
 * Runs `hook` on every route declared after this call (in `app` and the plugins under it) for
 * which `applies` holds, before the route's other onRequest hooks (those a plugin such as
 * @fastify/rate-limit adds as the route is declared), as an app-level hook registered earlier ran.
 */
export function onRequestOfRoutes(
  app: FastifyInstance,
  applies: (route: RouteOptions) => boolean,
  hook: onRequestHookHandler,
): void {
  app.addHook("onRoute", (route) => {
    if (!applies(route)) return;
    const hooks = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [hook, ...hooks];
  });
}
