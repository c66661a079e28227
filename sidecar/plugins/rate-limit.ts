/**
 * The strict and relaxed buckets of the contract, per client IP, through @fastify/rate-limit with
 * its counters in our Store (Redis when shared, so every instance sees one count; in memory while
 * the store is unreachable, see ./limit-store.ts — but the strict bucket is refused then, 503, so
 * that no instance grants more than its 10 a minute). Routes opt in
 * with `config.rateLimit` built by bucketConfig(). The key is request.ip (IPv6: its /64), which
 * follows TRUST_PROXY, so X-Forwarded-For cannot choose the key.
 */
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { BUCKETS, MCP_UNCOUNTED_METHODS, type BucketName } from "../../catalogue/base/limits.ts";
import type { Store } from "../store/store.ts";
import { HttpError } from "./errors.ts";
import { clientKey, limitStore, limitsUncounted } from "./limit-store.ts";

/** Buckets refused rather than counted in one instance's memory while the shared store cannot count. */
const FAIL_CLOSED: readonly BucketName[] = ["strict"];
/** @fastify/rate-limit asks the store with the client's key followed by the route's groupId (its index.js). */
const failsClosed = (key: string) => FAIL_CLOSED.some((bucket) => key.endsWith(bucket));

/** The Store bucket these counters live in; a route's key is its client's key + its bucket's name. */
const COUNTERS = "rl";

export function bucketConfig(bucket: BucketName) {
  const limit = { max: BUCKETS[bucket].max, timeWindow: BUCKETS[bucket].windowMs, groupId: bucket };
  // The mcp bucket reads the JSON-RPC method, so it counts once the body is parsed.
  if (bucket === "mcp")
    return {
      rateLimit: {
        ...limit,
        hook: "preHandler" as const,
        allowList: (request: FastifyRequest) => mcpSetup(request.body),
      },
    };
  return { rateLimit: limit };
}

/** A single JSON-RPC message whose method is a session's setup or discovery (MCP_UNCOUNTED_METHODS). */
function mcpSetup(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const method = (body as { method?: unknown }).method;
  return typeof method === "string" && MCP_UNCOUNTED_METHODS.includes(method);
}

export default fp(
  async (app: FastifyInstance, options: { store: Store }) => {
    // Which routes share each bucket, so a 429 can say what was limited beside the one refused.
    const members = new Map<string, string[]>();
    app.addHook("onRoute", (route) => {
      const groupId = (route.config as { rateLimit?: { groupId?: string } } | undefined)?.rateLimit?.groupId;
      if (!groupId || route.method === "HEAD") return;
      const methods = Array.isArray(route.method) ? route.method.filter((m) => m !== "HEAD") : [route.method];
      for (const method of methods) members.set(groupId, [...(members.get(groupId) ?? []), `${method} ${route.url}`]);
    });
    await app.register(rateLimit, {
      global: false,
      // Counted in memory when the store is unreachable or slow (./limit-store.ts): never open.
      store: limitStore(options.store, COUNTERS, failsClosed),
      skipOnError: true,
      keyGenerator: (request) => clientKey(request.ip),
      addHeaders: {
        "x-ratelimit-limit": true,
        "x-ratelimit-remaining": false,
        "x-ratelimit-reset": false,
        "retry-after": true,
      },
      addHeadersOnExceeding: { "x-ratelimit-limit": true, "x-ratelimit-remaining": false, "x-ratelimit-reset": false },
      errorResponseBuilder: (request, context) => {
        const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
        const groupId = (request.routeOptions.config as { rateLimit?: { groupId?: string } }).rateLimit?.groupId;
        const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
        if (groupId && FAIL_CLOSED.includes(groupId as BucketName) && limitsUncounted(options.store))
          return Object.assign(
            new HttpError(
              503,
              "Service unavailable",
              `${route} is limited to ${context.max} requests per minute per IP, counted in the shared store, which does not answer; it is refused until the store counts again. Nothing was saved; retry in ${seconds} second${seconds === 1 ? "" : "s"}.`,
            ),
            { retryAfter: seconds },
          );
        const others = (groupId ? (members.get(groupId) ?? []) : []).filter((member) => member !== route);
        const bucket = groupId
          ? ` (the ${groupId} bucket${others.length > 0 ? `, shared with ${others.join(", ")}` : ""})`
          : "";
        return Object.assign(
          new HttpError(
            429,
            "Too many requests",
            `${route} is limited to ${context.max} requests per minute per IP${bucket}; retry in ${seconds} second${seconds === 1 ? "" : "s"}.`,
          ),
          { retryAfter: seconds },
        );
      },
    });
  },
  { name: "rate-limit", dependencies: ["errors"] },
);

/**
 * Counts one request of the client at `ip` in `bucket`, exactly as a route with bucketConfig(bucket)
 * is counted (the same counter): for a request the API app does not answer, such as the text
 * host's no-JS feedback form, which shares the relaxed bucket with POST /v1/feedback.
 */
export function hitBucket(store: Store, bucket: BucketName, ip: string): Promise<{ current: number; ttl: number }> {
  const Counter = limitStore(store, COUNTERS);
  return new Promise((resolve, reject) =>
    new Counter().incr(
      `${clientKey(ip)}${bucket}`,
      (error, result) => (error || !result ? reject(error ?? new Error("no count")) : resolve(result)),
      BUCKETS[bucket].windowMs,
    ),
  );
}

/**
 * Counts a request answered under another route in `bucket` too, and refuses it past that bucket's
 * limit: an MCP tool that runs a strict row (a policy) is limited as that row is, so /mcp is no way
 * around the strict bucket. A store that cannot count refuses it (503), as the strict bucket does.
 */
export async function countIn(store: Store, bucket: BucketName, ip: string): Promise<void> {
  let hit;
  try {
    hit = await hitBucket(store, bucket, ip);
  } catch {
    throw Object.assign(
      new HttpError(503, "Service unavailable", `The ${bucket} bucket cannot be counted now; retry in a few seconds.`),
      { retryAfter: 5 },
    );
  }
  const { max } = BUCKETS[bucket];
  if (hit.current <= max) return;
  const seconds = Math.max(1, Math.ceil(hit.ttl / 1000));
  throw Object.assign(
    new HttpError(
      429,
      "Too many requests",
      `This operation is limited to ${max} requests per minute per IP (the ${bucket} bucket); retry in ${seconds} second${seconds === 1 ? "" : "s"}.`,
    ),
    { retryAfter: seconds },
  );
}
