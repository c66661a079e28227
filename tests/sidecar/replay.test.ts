import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build as buildDist } from "../../scripts/build.ts";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { FIXTURE_DIR, fixtureCatalogue, tempStore, URLS } from "../helpers/app.ts";

let dist: string;
let app: FastifyInstance;
let base: string;
/** Requests that reached Fastify (a replayed answer does not). */
let seen = 0;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), "csc-replay-"));
  await buildDist({ dataDir: FIXTURE_DIR, outDir: dist, urls: URLS, log: () => undefined });
  app = await buildApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: fixtureCatalogue(),
    store: await tempStore(),
    urls: URLS,
    files: await BuiltFiles.open(dist),
  });
  app.addHook("onSend", async () => void seen++);
  base = await app.listen({ port: 0, host: "127.0.0.1" });
}, 120_000);
afterAll(async () => {
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

async function get(path: string, headers: Record<string, string> = {}) {
  const before = seen;
  const response = await fetch(`${base}${path}`, { headers: { "accept-encoding": "br", ...headers } });
  const body = Buffer.from(await response.arrayBuffer());
  const all = Object.fromEntries([...response.headers].filter(([name]) => name !== "date"));
  return { status: response.status, headers: all, body, reachedFastify: seen > before };
}

describe("answers sent again from memory", () => {
  it("sends the same status, headers and bytes as Fastify did the first time, without Fastify", async () => {
    const slug = fixtureCatalogue().services[0]!.slug;
    const first = await get(`/v1/services/${slug}`);
    const second = await get(`/v1/services/${slug}`);
    const again = await get(`/v1/services/${slug}`);
    expect(first.status).toBe(200);
    // Kept from its second answer: a URL asked for once is not kept.
    expect([first.reachedFastify, second.reachedFastify, again.reachedFastify]).toEqual([true, true, false]);
    expect(again.headers).toEqual(first.headers);
    expect(again.body.equals(first.body)).toBe(true);
    expect(again.headers["access-control-allow-origin"]).toBe("*");
    // Another encoding is another answer, learnt on its own.
    const plain = await get(`/v1/services/${slug}`, { "accept-encoding": "identity" });
    expect(plain.reachedFastify).toBe(true);
    expect((await get(`/v1/services/${slug}`, { "accept-encoding": "identity" })).reachedFastify).toBe(true);
    expect((await get(`/v1/services/${slug}`, { "accept-encoding": "identity" })).reachedFastify).toBe(false);
    expect(plain.headers["content-encoding"]).toBeUndefined();
  });

  it("sends a pure row's computed answer again, and leaves revalidation, HEAD and lists to Fastify", async () => {
    const search = "/v1/services?q=storage&limit=5";
    const first = await get(search);
    await get(search);
    const again = await get(search);
    expect(first.status).toBe(200);
    expect([first.reachedFastify, again.reachedFastify]).toEqual([true, false]);
    // URLs that differ on every request (a parameter the API ignores) are never kept.
    for (let n = 0; n < 3; n++) expect((await get(`${search}&n=${n}`)).reachedFastify).toBe(true);
    expect(again.headers).toEqual(first.headers);
    expect(again.body.equals(first.body)).toBe(true);
    // Invalid queries are answered by Fastify every time.
    for (let i = 0; i < 2; i++) expect((await get("/v1/services?limit=0")).reachedFastify).toBe(true);

    const path = "/v1/providers";
    await get(path);
    const kept = await get(path);
    const revalidated = await get(path, { "if-none-match": String(kept.headers.etag) });
    expect(revalidated.status).toBe(304);
    expect(revalidated.reachedFastify).toBe(true);
    const head = await fetch(`${base}${path}`, { method: "HEAD" });
    expect(head.status).toBe(200);

    // A saved list is not pure (it expires): never replayed.
    const created = (await (
      await fetch(`${base}/v1/lists`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ approvedServiceIds: [fixtureCatalogue().services[0]!.slug] }),
      })
    ).json()) as { id: string };
    for (let i = 0; i < 2; i++) expect((await get(`/v1/lists/${created.id}`)).reachedFastify).toBe(true);
  });
});
