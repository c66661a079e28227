/**
 * Redis Sentinel failover under load, for real: three redis-sentinel processes, one primary and
 * two replicas, two sidecars (REDIS_SENTINELS) behind Debian's nginx. Clients on many loopback
 * addresses create lists through nginx; the primary gets kill -9 mid-load; Sentinel promotes a
 * replica and the sidecars follow it without a restart. Every list acknowledged with 200 must then
 * read through both sidecars, writes must resume within RESUME_LIMIT_MS, the strict bucket must
 * still hold across both instances, and /v1/status must name the new primary and the failover.
 */
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, requireComponent, waitFor } from "../helpers/components.ts";
import { startTwoSidecarsBehindNginx, stopSidecarsBehindNginx, type Nginx } from "../helpers/nginx.ts";
import type { ServerProcess } from "../helpers/process.ts";
import { startSentinelGroup, type SentinelGroup } from "../helpers/sentinel.ts";

const nginxBinary = requireComponent("nginx", ["/usr/sbin/nginx", "/usr/bin/nginx"]);
const redisBinary = requireComponent("redis-server");
const sentinelBinary = requireComponent("redis-sentinel");

/** The target: writes accepted again within 10 s of the primary's death. */
const RESUME_LIMIT_MS = 10_000;
const WORKERS = 8;
/** Lists per client address over the whole run: well under the strict bucket's 10 a minute. */
const PER_ADDRESS = 5;

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** A request from `from` (a loopback address), so nginx sees that client address. */
function send(url: string, from: string, method = "GET", body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url,
      {
        method,
        localAddress: from,
        agent: false,
        timeout: 15_000,
        headers: payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {},
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          let parsed: Record<string, unknown>;
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = { text };
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end(payload);
  });
}

const address = (n: number) => `127.10.${(n >> 8) & 255}.${n & 255 || 1}`;

describe.skipIf(!nginxBinary || !redisBinary || !sentinelBinary)(
  "Sentinel failover under load: nginx + two sidecars + 3 Sentinels, a primary and two replicas",
  () => {
    let group: SentinelGroup;
    let nginx: Nginx | undefined;
    const sidecars: ServerProcess[] = [];
    let api: string;
    let dist: string;

    beforeAll(async () => {
      group = await startSentinelGroup(redisBinary!, sentinelBinary!);
      const [apiPort, textPort] = [await freePort(), await freePort()];
      api = `http://127.0.0.1:${apiPort}`;
      const env = {
        REDIS_SENTINELS: group.sentinels,
        REDIS_SENTINEL_NAME: group.name,
        TRUST_PROXY: "127.0.0.1",
        PUBLIC_API_URL: api,
        PUBLIC_TEXT_URL: `http://127.0.0.1:${textPort}`,
      };
      // Lists and every POST go to the sidecars, so nginx needs no build here: an empty dist/.
      dist = mkdtempSync(join(tmpdir(), "csc-sentinel-dist-"));
      nginx = await startTwoSidecarsBehindNginx({
        binary: nginxBinary!,
        env,
        dist,
        apiPort,
        textPort,
        sidecars,
        readyUrl: `${api}/v1/health`,
      });
    }, 120_000);

    afterAll(async () => {
      await stopSidecarsBehindNginx(nginx, sidecars);
      await group?.stop();
      if (dist) rmSync(dist, { recursive: true, force: true });
    });

    it("keeps every acknowledged list through kill -9 of the primary, resumes writes within 10 s, and still limits across instances", async () => {
      const acknowledged: { id: string; slug: string; at: number; sentAt: number }[] = [];
      const unknown: string[] = [];
      const statuses = new Map<number, number>();
      let refused = 0;
      const samples: Answer[] = [];
      let counter = 0;
      let killedAt = Infinity;
      let running = true;

      const worker = async () => {
        while (running) {
          const n = counter++;
          const sentAt = performance.now();
          try {
            const answer = await send(`${api}/v1/lists`, address(Math.floor(n / PER_ADDRESS)), "POST", {
              name: `Failover ${n}`,
              approvedServiceIds: ["aws-s3"],
            });
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            if (answer.status !== 200 && samples.length < 3) samples.push(answer);
            if (answer.status === 200)
              acknowledged.push({ ...(answer.body as { id: string; slug: string }), at: performance.now(), sentAt });
            else if (answer.status === 503) {
              const details = String(answer.body.details ?? "");
              const check = /may have been saved\. GET \/v1\/lists\/([\w-]+)/.exec(details);
              if (check) unknown.push(check[1]!);
              else refused++;
              // A client backs off a little rather than spinning on 503s.
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          } catch {
            statuses.set(0, (statuses.get(0) ?? 0) + 1);
          }
        }
      };
      const load = Promise.all(Array.from({ length: WORKERS }, worker));

      await new Promise((resolve) => setTimeout(resolve, 3000));
      const before = acknowledged.length;
      expect(before, JSON.stringify({ statuses: Object.fromEntries(statuses), samples })).toBeGreaterThan(20);
      const oldPrimary = await group.primary();
      await group.kill(Number(oldPrimary.split(":")[1]));
      killedAt = performance.now();
      // Writes sent after the kill that were acknowledged: the first one marks the resumption.
      await waitFor(
        () => acknowledged.some((list) => list.sentAt > killedAt),
        RESUME_LIMIT_MS * 3,
        "writes to resume after the failover",
      );
      const resumed = acknowledged.find((list) => list.sentAt > killedAt)!;
      const resumeMs = Math.round(resumed.at - killedAt);
      const lastBefore = Math.max(...acknowledged.filter((list) => list.at <= killedAt).map((list) => list.at));
      // Keep the load on a little after the failover, then stop it.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      running = false;
      await load;

      const newPrimary = await group.primary();
      expect(newPrimary).not.toBe(oldPrimary);

      // Every acknowledged list reads through both sidecars, by id and by slug.
      const lost: string[] = [];
      for (let i = 0; i < acknowledged.length; i += 16) {
        await Promise.all(
          acknowledged.slice(i, i + 16).map(async (list) => {
            for (const sidecar of sidecars) {
              const [byId, bySlug] = await Promise.all([
                fetch(`${sidecar.api}/v1/lists/${list.id}`),
                fetch(`${sidecar.api}/v1/lists/${list.slug}`),
              ]);
              const slugId = bySlug.status === 200 ? ((await bySlug.json()) as { id: string }).id : null;
              if (byId.status !== 200 || slugId !== list.id) {
                lost.push(list.id);
                return;
              }
            }
          }),
        );
      }
      // The writes answered "may have been saved": how many were.
      let unknownSaved = 0;
      for (const id of unknown) if ((await fetch(`${sidecars[0]!.api}/v1/lists/${id}`)).status === 200) unknownSaved++;

      const figures = {
        requests: counter,
        acknowledged: acknowledged.length,
        acknowledgedBeforeKill: before,
        lost: lost.length,
        resumeMs,
        writeGapMs: Math.round(resumed.at - lastBefore),
        unknownOutcome: unknown.length,
        unknownSaved,
        refused,
        statuses: Object.fromEntries(statuses),
      };
      console.log(`sentinel-failover: ${JSON.stringify(figures)}`);
      expect(lost).toEqual([]);
      expect(resumeMs).toBeLessThan(RESUME_LIMIT_MS);
      // Every answer is 200 or 503 (in the Error shape): no 5xx from a crash, no hung request.
      expect([...statuses.keys()].every((status) => status === 200 || status === 503)).toBe(true);

      // Both sidecars followed the failover: status names the new primary and the failover.
      for (const sidecar of sidecars) {
        let lastSeen: unknown;
        await waitFor(
          async () => {
            const status = (await (await fetch(`${sidecar.api}/v1/status`)).json()) as {
              replication?: {
                primary: string | null;
                replicas: { address: string; state: string }[];
                lastFailover: { from: string; to: string } | null;
              };
            };
            const replication = status.replication;
            lastSeen = replication;
            return (
              replication?.primary === newPrimary &&
              replication.lastFailover?.from === oldPrimary &&
              replication.lastFailover.to === newPrimary &&
              replication.replicas.some((replica) => replica.state === "online")
            );
          },
          10_000,
          "status to show the new primary, an online replica and the failover",
        ).catch((error: Error) => {
          throw new Error(
            `${error.message}: expected ${newPrimary} (was ${oldPrimary}), saw ${JSON.stringify(lastSeen)}`,
          );
        });
      }

      // The strict bucket (10 a minute per client IP) still holds across both instances.
      const client = "127.20.0.1";
      const limited: number[] = [];
      for (let i = 0; i < 11; i++)
        limited.push(
          (await send(`${api}/v1/export/markdown`, client, "POST", { approvedServiceIds: ["aws-s3"] })).status,
        );
      expect(limited.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(limited[10]).toBe(429);
      // And straight to the sidecars in turn (they trust loopback's X-Forwarded-For).
      const alternating: number[] = [];
      for (let i = 0; i < 11; i++)
        alternating.push(
          (
            await fetch(`${sidecars[i % 2]!.api}/v1/export/markdown`, {
              method: "POST",
              headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.99" },
              body: JSON.stringify({ approvedServiceIds: ["aws-s3"] }),
            })
          ).status,
        );
      expect(alternating.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(alternating[10]).toBe(429);
    }, 120_000);
  },
);
