/**
 * kill -9 of the server while lists are being created: every list acknowledged with 200 before the
 * kill is readable after a restart, with the embedded store (killed twice in a row) and with Redis
 * (and with Redis itself killed -9 too, since it runs with appendfsync always).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanup, requireComponent, startRedis, type RedisServer } from "../helpers/components.ts";
import { refusedServer, START, spawnServer, type ServerProcess } from "../helpers/process.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Creates lists from `workers` concurrent loops until stopped; returns the acknowledged ones. */
async function createUnderLoad(server: ServerProcess, killAfterMs: number, workers = 8) {
  const acknowledged: { id: string; slug: string }[] = [];
  let running = true;
  let counter = 0;
  const loop = async () => {
    while (running) {
      const n = counter++;
      try {
        // TRUST_PROXY names loopback, so each request may carry its own client address and the
        // strict bucket does not stop the load.
        const response = await fetch(`${server.api}/v1/lists`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": `198.51.${(n >> 8) & 255}.${n & 255}` },
          body: JSON.stringify({ name: `Load ${n}`, approvedServiceIds: ["aws-s3"] }),
        });
        if (response.status === 200) acknowledged.push((await response.json()) as { id: string; slug: string });
      } catch {
        // the connection died with the process: not acknowledged
      }
    }
  };
  const loops = Array.from({ length: workers }, loop);
  await new Promise((resolve) => setTimeout(resolve, killAfterMs));
  await server.kill("SIGKILL");
  running = false;
  await Promise.all(loops);
  return acknowledged;
}

async function expectAllReadable(server: ServerProcess, lists: { id: string; slug: string }[], label: string) {
  const missing: string[] = [];
  for (const list of lists) {
    const [byId, bySlug] = await Promise.all([
      fetch(`${server.api}/v1/lists/${list.id}`),
      fetch(`${server.api}/v1/lists/${list.slug}`),
    ]);
    if (byId.status !== 200 || bySlug.status !== 200 || ((await bySlug.json()) as { id: string }).id !== list.id)
      missing.push(list.id);
  }
  expect(missing).toEqual([]);
  console.log(
    `durability (${label}): ${lists.length} lists acknowledged before kill -9, ${lists.length - missing.length} readable after restart`,
  );
}

describe("kill -9 under load", () => {
  it("loses no acknowledged list with the embedded store, killed twice in a row", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "csc-kill-"));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, TRUST_PROXY: "127.0.0.1" };
    const LABEL = "embedded store, killed twice";
    const first = await spawnServer(env);
    const acknowledged = await createUnderLoad(first, 1500);
    expect(acknowledged.length).toBeGreaterThan(20);
    // What the restarted process appends after the first crash must survive the second one.
    const second = await spawnServer(env);
    const afterRestart = await createUnderLoad(second, 1000);
    expect(afterRestart.length).toBeGreaterThan(20);
    const third = await spawnServer(env);
    try {
      await expectAllReadable(third, [...acknowledged, ...afterRestart], LABEL);
      // The killed processes' locks were taken over; a live one's is not.
      const inUse = `start: ${dataDir} is in use by process ${third.child.pid}: one process at a time may use an embedded store (set DATA_DIR, or REDIS_URL to share one store)\n`;
      const refused = await refusedServer(env);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toBe(inUse);
      // `npm start` on other ports (so other public URLs) stops before rebuilding the dist/ in use.
      const refusedStart = await refusedServer(env, START);
      expect(refusedStart).toEqual({ status: 1, stdout: "", stderr: inUse });
    } finally {
      await third.kill();
    }
  });

  const redisBinary = requireComponent("redis-server");
  it.skipIf(!redisBinary)(
    "loses no acknowledged list with Redis, when the server and Redis are both killed",
    async () => {
      const redis: RedisServer = await startRedis(redisBinary!);
      try {
        const env = { REDIS_URL: redis.url, TRUST_PROXY: "127.0.0.1" };
        const LABEL = "Redis, server and Redis killed";
        const first = await spawnServer(env);
        const acknowledged = await createUnderLoad(first, 1500);
        expect(acknowledged.length).toBeGreaterThan(20);
        await redis.stop();
        await redis.start();
        const second = await spawnServer(env);
        try {
          await expectAllReadable(second, acknowledged, LABEL);
        } finally {
          await second.kill();
        }
      } finally {
        await cleanup(redis);
      }
    },
  );
});
