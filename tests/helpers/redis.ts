/** A redis-server of the calling suite's own, on a free port, for the suites that run the Redis store. */
import { afterAll, beforeAll } from "vitest";
import { cleanup, startRedis, type RedisServer } from "./components.ts";

/** Starts redis-server before the calling describe block's tests and stops it after them; the getter answers it once started. */
export function useRedis(binary: string): () => RedisServer {
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    redis = await startRedis(binary);
  });
  afterAll(async () => {
    if (redis) await cleanup(redis);
  });
  return () => redis!;
}
