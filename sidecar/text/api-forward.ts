/**
 * The text host answers /v1/* with the API app itself: the request, unread, is handed to the API
 * server's own request handler (`api.routing`, what the API's HTTP server calls) before this host
 * reads its body or runs any other hook. So a /v1/ answer here passes through exactly what it does
 * on the API host: its Host check, pipelining cap, buckets (the client's address read from the same
 * socket, and X-Forwarded-For under the same TRUST_PROXY), bodies streamed under the process's
 * response budget (response-budget.ts), compression and the Error shape. Simpler than a loopback
 * proxy (no second connection, no body or header copied) and bounded the same way; an in-process
 * `inject` built every answer whole in memory (1 GB for 200 × 16 pipelined /v1/equivalents).
 */
import type { FastifyInstance } from "fastify";
import { isApiPath } from "../plugins/errors.ts";

/** Hands this host's /v1/ requests to `api`; call it before registering any other hook. */
export async function forwardApi(app: FastifyInstance, api: FastifyInstance): Promise<void> {
  // The API's routes and plugins are registered once it is ready.
  await api.ready();
  app.addHook("onRequest", (request, reply, done) => {
    if (!isApiPath(request.raw.url ?? "")) return done();
    // Hijacked: this host sends nothing and runs none of its later hooks for the request.
    reply.hijack();
    api.routing(request.raw, reply.raw);
  });
}
