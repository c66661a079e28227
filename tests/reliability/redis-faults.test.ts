/**
 * Redis stopped mid-load: writes answer 503 in the Error shape within 2 s (no hanging request),
 * reads are unaffected, health and status report the store, and service recovers without a
 * restart when Redis returns. Redis down at start: the server starts and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, freePort, requireComponent, startRedis, waitFor, type RedisServer } from "../helpers/components.ts";
import { spawnServer, type ServerProcess } from "../helpers/process.ts";

const redisBinary = requireComponent("redis-server");
const measured: Record<string, number> = {};

async function timed(url: string, init?: RequestInit): Promise<{ status: number; ms: number; body: unknown }> {
  const started = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const body = response.headers.get("content-type")?.includes("json") ? await response.json() : await response.text();
  return { status: response.status, ms: performance.now() - started, body };
}

let n = 0;
/** Each request from a client of its own (a /64 of the documentation prefix): this suite is about the store, not the limits. */
const createList = (server: ServerProcess) =>
  timed(`${server.api}/v1/lists`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `2001:db8:${n++ % 65536}:${n >> 16}::1` },
    body: JSON.stringify({ approvedServiceIds: ["aws-s3"] }),
  });

describe.skipIf(!redisBinary)("Redis faults", () => {
  let redis: RedisServer;
  let server: ServerProcess;
  beforeAll(async () => {
    redis = await startRedis(redisBinary!);
    server = await spawnServer({ REDIS_URL: redis.url, TRUST_PROXY: "127.0.0.1" });
  });
  afterAll(async () => {
    await server?.kill();
    if (redis) await cleanup(redis);
  });

  it("answers writes with 503 within 2 s while Redis is down, keeps reads, and recovers without a restart", async () => {
    expect((await createList(server)).status).toBe(200);
    // Keep a mixed load running across the outage.
    let running = true;
    const writes: { status: number; ms: number }[] = [];
    const reads: number[] = [];
    const load = Promise.all([
      (async () => {
        while (running) writes.push(await createList(server));
      })(),
      (async () => {
        while (running) reads.push((await timed(`${server.api}/v1/services/aws-s3`)).status);
      })(),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await redis.stop();
    const downAt = writes.length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const duringOutage = writes.slice(downAt);
    expect(duringOutage.length).toBeGreaterThan(0);
    expect(duringOutage.filter((w) => w.status === 503).length).toBeGreaterThan(0);
    expect(duringOutage.every((w) => w.status === 503 || w.status === 200)).toBe(true);
    const slowest = Math.max(...duringOutage.map((w) => w.ms));
    measured.slowestWriteDuringOutageMs = Math.round(slowest);
    expect(slowest).toBeLessThan(2000);
    const failure = await createList(server);
    expect(failure.status).toBe(503);
    expect(failure.body).toMatchObject({ status: 503, error: expect.any(String) });
    expect((await timed(`${server.api}/v1/health`)).body).toMatchObject({ status: "degraded", store: "redis" });
    const status = (await timed(`${server.api}/v1/status`)).body as {
      status: string;
      components: { component: string; status: string }[];
    };
    expect(status.components.find((c) => c.component === "store")!.status).toBe("down");
    expect(status.status).toBe("down");

    const restartedAt = performance.now();
    await redis.start();
    await waitFor(async () => (await createList(server)).status === 200, 15_000, "writes to recover");
    measured.recoveryMs = Math.round(performance.now() - restartedAt);
    running = false;
    await load;
    expect(reads.every((status) => status === 200)).toBe(true);
    measured.readsDuringOutage = reads.length;
    expect((await timed(`${server.api}/v1/health`)).body).toMatchObject({ status: "ok" });
    console.log(
      `redis-faults: ${duringOutage.length} writes during the outage, slowest ${measured.slowestWriteDuringOutageMs} ms; ${reads.length} reads all 200; writes recovered ${measured.recoveryMs} ms after Redis restarted`,
    );
  }, 60_000);

  it("starts with Redis down and reports the store down", async () => {
    const port = await freePort();
    const lonely = await spawnServer({ REDIS_URL: `redis://127.0.0.1:${port}` });
    try {
      expect((await timed(`${lonely.api}/v1/providers`)).status).toBe(200);
      expect((await timed(`${lonely.api}/v1/health`)).body).toMatchObject({ status: "degraded" });
      const status = (await timed(`${lonely.api}/v1/status`)).body as {
        components: { component: string; status: string }[];
      };
      expect(status.components.find((c) => c.component === "store")!.status).toBe("down");
      const write = await createList(lonely);
      expect(write.status).toBe(503);
      expect(write.ms).toBeLessThan(2000);
    } finally {
      await lonely.kill();
    }
  }, 30_000);
});
