/**
 * Two app instances on one Redis share the rate-limit buckets and the lists; while Redis hangs,
 * neither grants a strict request it cannot count there.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../sidecar/app.ts";
import { RedisStore } from "../../sidecar/store/redis.ts";
import { fixtureCatalogue, URLS } from "../helpers/app.ts";
import { cleanup, requireComponent, startRedis, waitFor, type RedisServer } from "../helpers/components.ts";

const redisBinary = requireComponent("redis-server");

describe.skipIf(!redisBinary)("two instances on one Redis", () => {
  let redis: RedisServer;
  const apps: FastifyInstance[] = [];
  const stores: RedisStore[] = [];
  beforeAll(async () => {
    redis = await startRedis(redisBinary!);
    for (let i = 0; i < 2; i++) {
      const store = await RedisStore.connect(redis.url);
      stores.push(store);
      apps.push(
        await buildApp({
          config: { LOG_LEVEL: "silent", TRUST_PROXY: ["127.0.0.1"] },
          catalogue: fixtureCatalogue(),
          store,
          urls: URLS,
        }),
      );
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
    if (redis) await cleanup(redis);
  });

  // inject() comes from 127.0.0.1, the trusted proxy, so X-Forwarded-For names the client.
  const post = (url: string, body: unknown, client: string) => ({
    method: "POST" as const,
    url,
    headers: { "content-type": "application/json", "x-forwarded-for": client },
    payload: JSON.stringify(body),
  });

  it("counts the strict bucket across both: 10 pass, the 11th is refused whichever answers", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 11 }, (_, i) =>
        apps[i % 2]!.inject(post("/v1/export/markdown", { approvedServiceIds: ["aws-s3"] }, "203.0.113.10")).then(
          (r) => r.statusCode,
        ),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
  });

  it("reads a list through one instance that was created through the other", async () => {
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    const created = await a.inject(
      post("/v1/lists", { approvedServiceIds: ["aws-s3"], slug: "shared-list" }, "203.0.113.20"),
    );
    expect(created.statusCode).toBe(200);
    expect((await b.inject("/v1/lists/shared-list")).json().id).toBe(created.json().id);
    expect(
      (await b.inject(post("/v1/lists", { approvedServiceIds: ["aws-s3"], slug: "shared-list" }, "203.0.113.20")))
        .statusCode,
    ).toBe(409);
  });

  it("grants no strict request on either instance while Redis hangs, and counts again once it answers", async () => {
    const markdown = (i: number, client: string) =>
      apps[i % 2]!.inject(post("/v1/export/markdown", { approvedServiceIds: ["aws-s3"] }, client)).then(
        (r) => r.statusCode,
      );
    // Three counted in Redis before the hang.
    for (let i = 0; i < 3; i++) expect(await markdown(i, "203.0.113.30")).toBe(200);
    redis.signal("SIGSTOP");
    let during: number[];
    try {
      // Two bursts of ten, half on each instance: each instance's first asks Redis, the rest wait for it.
      during = [];
      for (let burst = 0; burst < 2; burst++)
        during.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => markdown(i, "203.0.113.30")))));
    } finally {
      redis.signal("SIGCONT");
    }
    // Counted in memory, each instance would have granted its own 10 (20 in all).
    expect(during.filter((status) => status === 200)).toEqual([]);
    expect(new Set(during)).toEqual(new Set([503]));
    // Each instance asks Redis again within a second.
    const resumed = performance.now();
    for (const i of [0, 1])
      await waitFor(async () => (await markdown(i, `203.0.113.3${i + 1}`)) === 200, 5000, "strict counted again");
    expect(performance.now() - resumed).toBeLessThan(3000);
    console.log(
      `shared-limits: Redis hung, ${during.filter((status) => status === 200).length} of ${during.length} strict requests granted over two instances; both counting again ${Math.round(performance.now() - resumed)} ms after it answered`,
    );
  }, 30_000);
});
