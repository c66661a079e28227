/**
 * Redis hung (SIGSTOP: connections stay open, nothing answers): a list write whose answer never
 * came says it may have been saved and how to check — and it was; a retry with the same
 * Idempotency-Key gets the first list; health and status report the hang; reads of the store say
 * nothing about saving.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

  it("says a write may have been saved, reports the hang, and a keyed retry returns the first list", async () => {
    expect((await call(`${server.api}/v1/health`)).body.status).toBe("ok");
    redis.signal("SIGSTOP");
    try {
      const body = { slug: "saved-while-hung", approvedServiceIds: ["aws-s3"] };
      const write = await createList(server, body, "retry-key-1");
      expect(write.status).toBe(503);
      expect(write.body.details).toMatch(
        /^The outcome is unknown: the list may have been saved\. GET \/v1\/lists\/saved-while-hung \(or \/v1\/lists\/[\w-]{21}\) to check before retrying, or retry with the same Idempotency-Key\.$/,
      );
      expect(write.body.details).not.toMatch(/Nothing was saved/);

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
        `redis-hang: ambiguous write answered in ${Math.round(write.ms)} ms, health degraded in ${Math.round(health.ms)} ms`,
      );
      const history = await call(`${server.api}/v1/status/history`);
      expect(history.status).toBe(503);
      expect(history.body.details).not.toMatch(/saved/);
    } finally {
      redis.signal("SIGCONT");
    }
    await waitFor(async () => (await call(`${server.api}/v1/health`)).body.status === "ok", 10_000, "health ok");
    const saved = await call(`${server.api}/v1/lists/saved-while-hung`);
    expect(saved.status).toBe(200);
    const retry = await createList(server, { slug: "saved-while-hung", approvedServiceIds: ["aws-s3"] }, "retry-key-1");
    expect(retry.status).toBe(200);
    expect(retry.body.id).toBe(saved.body.id);
    expect((await createList(server, { slug: "saved-while-hung", approvedServiceIds: ["aws-s3"] })).status).toBe(409);
  }, 60_000);
});
