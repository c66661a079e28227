/**
 * Redis hung (SIGSTOP: connections stay open, nothing answers): strict requests are refused before
 * they reach it (their limit cannot be counted, and counting in each instance's memory would grant
 * 10 more per instance), saying nothing was saved; health and status report the hang; reads of the
 * store say nothing about saving. A list write that reached Redis before it hung says it may have
 * been saved and how to check — and it was; a retry with the same Idempotency-Key gets the first list.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../sidecar/app.ts";
import { RedisStore } from "../../sidecar/store/redis.ts";
import type { Store } from "../../sidecar/store/store.ts";
import { WindowCounters } from "../../sidecar/store/window-counters.ts";
import { realCatalogue, URLS } from "../helpers/app.ts";
import { cleanup, requireComponent, startRedis, waitFor, type RedisServer } from "../helpers/components.ts";
import { spawnServer, type ServerProcess } from "../helpers/process.ts";

const redisBinary = requireComponent("redis-server");

async function call(url: string, init?: RequestInit) {
  const started = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const body = (await response.json()) as Record<string, unknown>;
  return { status: response.status, body, ms: performance.now() - started };
}

const createList = (server: ServerProcess, body: object, key?: string) =>
  call(`${server.api}/v1/lists`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { "idempotency-key": key } : {}) },
    body: JSON.stringify(body),
  });

describe.skipIf(!redisBinary)("Redis hung", () => {
  let redis: RedisServer;
  let server: ServerProcess;
  beforeAll(async () => {
    redis = await startRedis(redisBinary!);
    server = await spawnServer({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    redis?.signal("SIGCONT");
    await server?.kill();
    if (redis) await cleanup(redis);
  });

  it("refuses strict requests it cannot count, reports the hang, and serves pages meanwhile", async () => {
    expect((await call(`${server.api}/v1/health`)).body.status).toBe("ok");
    redis.signal("SIGSTOP");
    try {
      const body = { slug: "refused-while-hung", approvedServiceIds: ["aws-s3"] };
      const write = await createList(server, body, "retry-key-1");
      expect(write.status).toBe(503);
      expect(write.body.details).toMatch(/counted in the shared store, which does not answer.*Nothing was saved/);
      // It waited up to a second for the store to count it.
      expect(write.ms).toBeLessThan(2000);

      // A ping that succeeded within the last second still stands; the next one finds the hang.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const health = await call(`${server.api}/v1/health`);
      expect(health.body.status).toBe("degraded");
      expect(health.ms).toBeLessThan(2000);
      const status = await call(`${server.api}/v1/status`);
      const store = (status.body.components as { component: string; status: string; message: string }[]).find(
        (c) => c.component === "store",
      );
      expect(store).toMatchObject({ status: "down", message: expect.stringMatching(/did not answer/) });
      // No catalogue page waits on the hung store (the rate limiter counts in memory meanwhile).
      const pages: number[] = [];
      for (let i = 0; i < 10; i++) {
        const started = performance.now();
        expect((await fetch(`${server.text}/aws`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
        pages.push(performance.now() - started);
      }
      expect(Math.max(...pages)).toBeLessThan(500);
      console.log(`redis-hang: 10 text pages with Redis stopped, slowest ${Math.round(Math.max(...pages))} ms`);
      console.log(
        `redis-hang: strict write refused in ${Math.round(write.ms)} ms, health degraded in ${Math.round(health.ms)} ms`,
      );
      const history = await call(`${server.api}/v1/status/history`);
      expect(history.status).toBe(503);
      expect(history.body.details).not.toMatch(/saved/);
    } finally {
      redis.signal("SIGCONT");
    }
    await waitFor(async () => (await call(`${server.api}/v1/health`)).body.status === "ok", 10_000, "health ok");
    expect((await call(`${server.api}/v1/lists/refused-while-hung`)).status).toBe(404);
    await waitFor(
      async () =>
        (await createList(server, { slug: "refused-while-hung", approvedServiceIds: ["aws-s3"] }, "retry-key-1"))
          .status === 200,
      5000,
      "the write accepted again",
    );
    expect((await call(`${server.api}/v1/lists/refused-while-hung`)).status).toBe(200);
  }, 60_000);

  it("says a write that reached Redis before it hung may have been saved, and a keyed retry returns it", async () => {
    const redisStore = await RedisStore.connect(redis.url);
    // Its limits counted apart, as if Redis had hung just after counting this request.
    const counters = new WindowCounters(100);
    const store = new Proxy(redisStore, {
      get: (target, property) => {
        if (property === "hitNow")
          return (bucket: string, key: string, windowMs: number) => counters.hit(`${bucket}\0${key}`, windowMs);
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as Store;
    const app: FastifyInstance = await buildApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: realCatalogue(),
      store,
      urls: URLS,
    });
    const inject = (key?: string) =>
      app.inject({
        method: "POST",
        url: "/v1/lists",
        headers: { "content-type": "application/json", ...(key ? { "idempotency-key": key } : {}) },
        payload: JSON.stringify({ slug: "saved-while-hung", approvedServiceIds: ["aws-s3"] }),
      });
    try {
      redis.signal("SIGSTOP");
      let write;
      try {
        write = await inject("retry-key-2");
      } finally {
        redis.signal("SIGCONT");
      }
      expect(write.statusCode).toBe(503);
      const details = (write.json() as { details: string }).details;
      expect(details).toMatch(
        /^The outcome is unknown: the list may have been saved\. GET \/v1\/lists\/saved-while-hung \(or \/v1\/lists\/[\w-]{21}\) to check before retrying, or retry with the same Idempotency-Key\.$/,
      );
      expect(details).not.toMatch(/Nothing was saved/);
      await waitFor(async () => (await app.inject("/v1/health")).json().status === "ok", 10_000, "health ok");
      const saved = await app.inject("/v1/lists/saved-while-hung");
      expect(saved.statusCode).toBe(200);
      const retry = await inject("retry-key-2");
      expect(retry.statusCode).toBe(200);
      expect(retry.json().id).toBe(saved.json().id);
      expect((await inject()).statusCode).toBe(409);
    } finally {
      await app.close();
      await redisStore.close();
    }
  }, 60_000);
});
