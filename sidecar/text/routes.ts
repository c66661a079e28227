/**
 * The text host's routes: the routed rows of the page table (catalogue/outputs/pages.ts), each given its
 * handler. The router registers them (registerTextRoutes), a 405's Allow is read from them
 * (allowedMethods), and nginx's text-host locations from the table (scripts/deploy-config.ts): one
 * added row is routed, allowed and proxied.
 */
import { gateUploads } from "../upload-gate.ts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { cacheControl } from "../files.ts";
import { MAX_BODY_BYTES } from "../../catalogue/base/limits.ts";
import type { Catalogue } from "../../catalogue/load/load.ts";
import { PAGES, pathPattern, textPageFor } from "../../catalogue/outputs/pages.ts";
import { safeRelativePath, splitRequestUrl, type BuiltFiles } from "../files.ts";
import { pageBudget } from "../response-budget.ts";
import { deploymentCheckPost } from "./deployment-check.ts";
import { isApiPath } from "../plugins/errors.ts";
import { exitPlannerPage, exitPlanPage } from "./exit-plan.ts";
import { registerPage } from "./register.ts";
import { crossSiteRefusal, exposurePage, listBuilderPage, listFile, saveListForm } from "./forms.ts";
import { builtPage, comparePath, savedListPage } from "./pages.ts";
import type { TextContext, TextHandler, TextRoute } from "./context.ts";
import { compareQuery, equivalenceGroupPage, equivalentsPage, feedbackPost, searchPage } from "./site.ts";

/** The rows this host routes itself: every one a sidecar computes, and `/*` for the built pages. */
type RoutedRow = Extract<(typeof PAGES)[number], { serving: "computed" | "static+computed" } | { path: "/*" }>;

/** Each routed row's handler; the type requires one for every routed row of the table. */
const HANDLERS: Record<RoutedRow["id"], TextHandler> = {
  "compare-ids": comparePath,
  compare: compareQuery,
  search: searchPage,
  equivalents: equivalentsPage,
  "equivalence-group": equivalenceGroupPage,
  feedback: feedbackPost,
  exposure: exposurePage,
  "list-builder": listBuilderPage,
  "list-file": listFile,
  "save-list": saveListForm,
  "saved-list": savedListPage,
  "exit-plan": exitPlanPage,
  "exit-planner": exitPlannerPage,
  register: registerPage,
  "deployment-check": deploymentCheckPost,
  built: builtPage,
};

const isRouted = (row: (typeof PAGES)[number]): row is RoutedRow => row.serving !== "static" || row.path === "/*";

/** The routes, in the table's order: `/*` last. */
export const TEXT_ROUTES: readonly TextRoute[] = PAGES.filter(isRouted).map((row) => ({
  ...row,
  handler: HANDLERS[row.id],
}));

export { pathPattern };

/** Registers the rows; form routes in a scope of their own, where a form-encoded body is parsed. */
export function registerTextRoutes(context: TextContext, routes: readonly TextRoute[] = TEXT_ROUTES) {
  const add = (app: FastifyInstance, route: TextRoute) =>
    app.route({
      method: [...route.methods],
      url: route.path,
      ...(route.rawBodyLimit ? { bodyLimit: route.rawBodyLimit } : {}),
      config: { bucket: route.bucket, ...(route.missBucket ? { missBucket: route.missBucket } : {}) },
      // The row's cache policy, unless the handler's answer says otherwise (an error is never kept).
      handler: async (request, reply) => {
        // A computed answer is computed when it is its connection's turn, with a slot of the
        // process's page budget (response-budget.ts): a client pipelining pages it does not read
        // holds one answer in memory, not one per request, and such clients PAGE_STREAMS at most.
        if (route.serving !== "static" && !(await pageBudget.acquire(reply.raw, request.raw.socket))) return reply;
        reply.header("cache-control", cacheControl(route.cache));
        return route.handler(context, request, reply);
      },
    });
  return async (app: FastifyInstance) => {
    for (const route of routes.filter((row) => !row.form)) add(app, route);
    await app.register(async (scope) => {
      scope.addContentTypeParser(
        "application/x-www-form-urlencoded",
        { parseAs: "string", bodyLimit: MAX_BODY_BYTES },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
      // Before the body is read: a post from another site's page is refused (403), whatever it holds.
      scope.addHook("onRequest", (request, reply, done) => {
        const refusal = crossSiteRefusal(request, context.textUrl, context.hosts);
        if (refusal === undefined) return done();
        void context.replies.error(request, reply, 403, "Forbidden", refusal);
      });
      for (const route of routes.filter((row) => row.form && !row.rawBodyLimit)) add(scope, route);
      // Rows that read their body as text, whatever its type (the deployment check): the guard above holds.
      await scope.register(async (raw) => {
        raw.removeAllContentTypeParsers();
        raw.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
        gateUploads(raw, () => true, context.timeouts, context.uploadSlots);
        for (const route of routes.filter((row) => row.form && row.rawBodyLimit)) add(raw, route);
      });
    });
  };
}

/** The bucket a request's route counts it in; undefined for no route (a 404 counts as a page). */
export const bucketOf = (request: FastifyRequest) =>
  (request.routeOptions.config as { bucket?: TextRoute["bucket"] } | undefined)?.bucket;

const READS = ["GET", "HEAD"] as const;
const methodsOf = (route: TextRoute) => route.methods.flatMap((method) => (method === "GET" ? READS : [method]));

/**
 * The methods a path of this host answers, for a request with another one (405 with Allow), from
 * the rows; undefined for a path it has nothing at (404) and for the API's /v1/ paths.
 */
export function allowedMethods(
  catalogue: Catalogue,
  files: BuiltFiles | undefined,
  url: string,
  routes: readonly TextRoute[] = TEXT_ROUTES,
): readonly string[] | undefined {
  const { pathname } = splitRequestUrl(url);
  if (isApiPath(pathname)) return undefined;
  const methods = new Set(
    routes
      .filter((route) => route.path !== "/*" && new RegExp(pathPattern(route.path)).test(pathname))
      .flatMap(methodsOf),
  );
  if (builtPageAt(catalogue, files, pathname)) for (const method of READS) methods.add(method);
  const allowed = (["GET", "HEAD", "POST"] as const).filter((method) => methods.has(method));
  return allowed.length > 0 ? allowed : undefined;
}

/** Whether `/*` has a page at this path: a text page of the catalogue, or a file of the built site. */
function builtPageAt(catalogue: Catalogue, files: BuiltFiles | undefined, pathname: string): boolean {
  if (textPageFor(catalogue, pathname)) return true;
  const decoded = safeRelativePath(pathname);
  if (decoded === undefined || !files) return false;
  const path = decoded.replace(/^\/+|\/+$/g, "");
  return (
    files.has(`site/client/${path ? `${path}/` : ""}index.html`) ||
    (/\.[a-z0-9_]+$/i.test(path) && files.has(`site/client/${path}`))
  );
}

export type { TextContext, TextRoute, TextServing } from "./context.ts";
