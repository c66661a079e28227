/**
 * A mixed read/write load (autocannon) against `npm start` (scripts/start.ts) with Redis: no 5xx,
 * no connection errors, no non-2xx but the intended 429s of the strict and relaxed buckets.
 * LOAD_SECONDS (default 60) and LOAD_CONNECTIONS (default 50) set the size.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, freePort, requireComponent, startRedis, waitFor, type RedisServer } from "../helpers/components.ts";

const redisBinary = requireComponent("redis-server");
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 50);
const START = fileURLToPath(new URL("../../scripts/start.ts", import.meta.url));

describe.skipIf(!redisBinary)("load", () => {
  let redis: RedisServer;
  let server: ChildProcess;
  let api: string;
  beforeAll(async () => {
    redis = await startRedis(redisBinary!);
    const [port, textPort] = [await freePort(), await freePort()];
    api = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [START], {
      env: { ...process.env, PORT: String(port), TEXT_PORT: String(textPort), REDIS_URL: redis.url, LOG_LEVEL: "warn" },
      stdio: "ignore",
    });
    await waitFor(async () => (await fetch(`${api}/v1/health`)).ok, 180_000, "npm start");
  }, 200_000);
  afterAll(async () => {
    server?.kill("SIGTERM");
    if (redis) await cleanup(redis);
  });

  it(
    `serves ${CONNECTIONS} connections for ${SECONDS} s of mixed reads and writes with no 5xx`,
    async () => {
      const statuses: Record<number, number> = {};
      const json = { "content-type": "application/json" };
      const instance = autocannon({
        url: api,
        connections: CONNECTIONS,
        duration: SECONDS,
        requests: [
          { method: "GET", path: "/v1/providers" },
          { method: "GET", path: "/v1/services?q=object%20storage&limit=20" },
          { method: "GET", path: "/v1/services/aws-s3" },
          { method: "GET", path: "/v1/compare?ids=aws-s3,azure-blob-storage,gcp-cloud-storage" },
          {
            method: "GET",
            path: "/v1/exposure?ids=aws-s3,azure-blob-storage,gcp-cloud-storage,ovhcloud-object-storage",
          },
          {
            method: "POST",
            path: "/v1/lists",
            headers: json,
            body: JSON.stringify({ name: "Load", approvedServiceIds: ["aws-s3", "gcp-cloud-storage"] }),
          },
          {
            method: "POST",
            path: "/v1/feedback",
            headers: json,
            body: JSON.stringify({ message: "Load test feedback" }),
          },
          { method: "GET", path: "/v1/status" },
        ],
      });
      (instance as unknown as NodeJS.EventEmitter).on("response", (_client: unknown, statusCode: number) => {
        statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      });
      const result = await instance;
      const summary = {
        requests: result.requests.total,
        rps: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors,
        timeouts: result.timeouts,
        statuses,
      };
      console.log(`load: ${JSON.stringify(summary)}`);
      expect(result.errors).toBe(0);
      expect(result.timeouts).toBe(0);
      for (const status of Object.keys(statuses).map(Number))
        expect([200, 201, 429], `status ${status}`).toContain(status);
      expect(statuses[200]).toBeGreaterThan(1000);
    },
    (SECONDS + 60) * 1000,
  );
});
