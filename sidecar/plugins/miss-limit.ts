/**
 * Reads that can be guessed — a saved list by its slug — are metered by their misses: a read a
 * route answers 404 counts in the route's `missBucket` (route config), in the same counters as the
 * API's buckets (rate-limit.ts hitBucket: Redis when shared, both hosts alike). Past the bucket's
 * limit, every read of those routes by that client is 429 until the window is over — hits too, or
 * a 429 would still tell a miss from a hit. Reads that find a list are otherwise not counted.
 *
 * The refusal is remembered in this process (each instance learns it at the client's first miss
 * past the limit there); the count itself is shared.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { BUCKETS, type BucketName } from "../../catalogue/base/limits.ts";
import type { Store } from "../store/store.ts";
import { HttpError } from "./errors.ts";
import { clientKey } from "./limit-store.ts";
import { hitBucket } from "./rate-limit.ts";

/** Clients refused at once; past this the oldest refusals are dropped (their count still holds). */
const MAX_REFUSED = 100_000;

class MissLimiter {
  private readonly store: Store;
  /** Client key + bucket → epoch ms until which its reads are refused. */
  private readonly refusedUntil = new LRUCache<string, number>({ max: MAX_REFUSED });

  constructor(store: Store) {
    this.store = store;
  }

  /** Seconds the client must wait before reading again, or undefined when it may read. */
  waitFor(ip: string, bucket: BucketName): number | undefined {
    const until = this.refusedUntil.get(`${clientKey(ip)}\0${bucket}`);
    if (until === undefined) return undefined;
    const ms = until - Date.now();
    return ms > 0 ? Math.ceil(ms / 1000) : undefined;
  }

  /**
   * Counts a miss; at the limit the client is refused until the window ends: `max` misses are
   * answered, not one more (the 21st of 20 was answered 404, issue 101).
   */
  async miss(ip: string, bucket: BucketName): Promise<void> {
    const { current, ttl } = await hitBucket(this.store, bucket, ip);
    if (current >= BUCKETS[bucket].max) this.refusedUntil.set(`${clientKey(ip)}\0${bucket}`, Date.now() + ttl);
  }
}

const limiters = new WeakMap<Store, MissLimiter>();
/** One per store: both hosts of a process share what they have refused. */
function limiterOf(store: Store): MissLimiter {
  let limiter = limiters.get(store);
  if (!limiter) limiters.set(store, (limiter = new MissLimiter(store)));
  return limiter;
}

const missBucketOf = (request: FastifyRequest) =>
  (request.routeOptions.config as { missBucket?: BucketName } | undefined)?.missBucket;

/**
 * The 429 of a client past a miss bucket, as each host's error handler reads it: the API's an
 * HttpError (title, details), the text host's an error whose message says what was limited.
 */
function missLimitError(host: "api" | "text", bucket: BucketName, seconds: number): Error {
  const limited = `Reads of saved lists that find none are limited to ${BUCKETS[bucket].max} a minute per IP (the ${bucket} bucket), so list addresses cannot be guessed quickly.`;
  const error =
    host === "api"
      ? new HttpError(429, "Too many requests", `${limited} Retry in ${seconds} second${seconds === 1 ? "" : "s"}.`)
      : Object.assign(new Error(limited), { statusCode: 429 });
  return Object.assign(error, { retryAfter: seconds });
}

/**
 * Meters the misses of the routes whose config names a `missBucket`. The hooks are the routes' own
 * (added as each route is declared), so no other route pays for them: a promise-returning hook on
 * every request moves each request's whole hook chain onto the microtask queue.
 */
export function limitMisses(app: FastifyInstance, store: Store, host: "api" | "text"): void {
  const limiter = limiterOf(store);
  const refuse = async (request: FastifyRequest) => {
    const bucket = missBucketOf(request)!;
    const seconds = limiter.waitFor(request.ip, bucket);
    if (seconds !== undefined) throw missLimitError(host, bucket, seconds);
  };
  const count = async (request: FastifyRequest, reply: FastifyReply) => {
    if (reply.statusCode !== 404) return;
    // A store that cannot count now leaves this miss uncounted: the read was answered already.
    await limiter.miss(request.ip, missBucketOf(request)!).catch(() => undefined);
  };
  app.addHook("onRoute", (route) => {
    if (!(route.config as { missBucket?: BucketName } | undefined)?.missBucket) return;
    route.preHandler = [route.preHandler ?? [], refuse].flat();
    route.onResponse = [route.onResponse ?? [], count].flat();
  });
}
