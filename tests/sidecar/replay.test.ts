import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build as buildDist } from "../../scripts/build.ts";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { clientAddress } from "../../sidecar/plugins/limit-store.ts";
import { buildTextApp } from "../../sidecar/text.ts";
import { FIXTURE_DIR, fixtureCatalogue, tempStore, URLS } from "../helpers/app.ts";

let dist: string;
let app: FastifyInstance;
let text: FastifyInstance;
let base: string;
let textBase: string;
/** Requests that reached Fastify (a replayed answer does not). */
let seen = 0;
/** The text host's page limit in these tests. */
const PER_MINUTE = 5;

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
  // Clients named in X-Forwarded-For, as behind a proxy, so each test has its own limit.
  text = await buildTextApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: ["127.0.0.1"] },
    catalogue: fixtureCatalogue(),
    store: await tempStore(),
    files: await BuiltFiles.open(dist),
    perMinute: PER_MINUTE,
  });
  text.addHook("onSend", async () => void seen++);
  textBase = await text.listen({ port: 0, host: "127.0.0.1" });
}, 120_000);
afterAll(async () => {
  await app.close();
  await text.close();
  rmSync(dist, { recursive: true, force: true });
});

async function get(path: string, headers: Record<string, string> = {}, host = base) {
  const before = seen;
  const response = await fetch(`${host}${path}`, { headers: { "accept-encoding": "br", ...headers } });
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

describe("requests that arrive together (answered as one batch)", () => {
  it("gives each of many concurrent requests its own answer, replayed or not", async () => {
    const slugs = fixtureCatalogue()
      .services.slice(0, 4)
      .map((service) => service.slug);
    // Kept first, so the batch below mixes replayed answers with Fastify's (a 404, a POST).
    for (const slug of slugs) for (let i = 0; i < 2; i++) await get(`/v1/services/${slug}`);
    const requests = Array.from({ length: 40 }, (_, i) => {
      const slug = slugs[i % slugs.length]!;
      if (i % 5 === 3) return { path: `/v1/nowhere-${i}`, status: 404, contains: `/v1/nowhere-${i}` };
      if (i % 5 === 4) return { path: "/v1/export/markdown", status: 200, contains: slug, post: slug };
      return { path: `/v1/services/${slug}`, status: 200, contains: `"slug":"${slug}"` };
    });
    const answers = await Promise.all(
      requests.map(async ({ path, post }) => {
        const response = await fetch(
          `${base}${path}`,
          post
            ? {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ approvedServiceIds: [post] }),
              }
            : {},
        );
        return { status: response.status, text: await response.text() };
      }),
    );
    answers.forEach((answer, i) => {
      expect(answer.status, requests[i]!.path).toBe(requests[i]!.status);
      expect(answer.text, requests[i]!.path).toContain(requests[i]!.contains);
    });
  });

  it("answers requests pipelined on one connection in the order they were sent", async () => {
    const slug = fixtureCatalogue().services[1]!.slug;
    for (let i = 0; i < 2; i++) await get(`/v1/services/${slug}`);
    const paths = [`/v1/services/${slug}`, "/v1/providers", "/v1/nowhere", `/v1/services/${slug}`];
    const { port } = new URL(base);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1");
      const chunks: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      socket.on("error", reject);
      // All in one write: the server reads them in one go.
      socket.write(
        paths
          .map(
            (path, i) =>
              `GET ${path} HTTP/1.1\r\nHost: x\r\n${i === paths.length - 1 ? "Connection: close\r\n" : ""}\r\n`,
          )
          .join(""),
      );
    });
    // Each response follows the previous body directly.
    const responses = raw.split(/HTTP\/1\.1 (?=\d{3} )/).slice(1);
    expect(responses.map((response) => Number(response.slice(0, 3)))).toEqual([200, 200, 404, 200]);
    const [first, providers, missing] = responses;
    expect(first).toContain(`"slug":"${slug}"`);
    expect(providers).toContain(`"id":"${fixtureCatalogue().providers[0]!.id}"`);
    expect(missing).toContain("/v1/nowhere");
  });
});

describe("the text host's built pages sent again from memory", () => {
  const service = fixtureCatalogue().services[0]!;
  const page = `/${service.providerId}/${service.slug}`;
  const as = (client: string, accept: string) => ({ accept, "x-forwarded-for": client });

  it("keeps each negotiated rendering apart and sends it again without Fastify", async () => {
    const ansi = [];
    for (let i = 0; i < 3; i++) ansi.push(await get(page, as("192.0.2.1", "*/*"), textBase));
    expect(ansi.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(ansi.map((answer) => answer.reachedFastify)).toEqual([true, true, false]);
    // The same answer, with the limiter's count of this request (as @fastify/rate-limit gives it).
    const { "x-ratelimit-remaining": _, ...kept } = ansi[2]!.headers;
    const { "x-ratelimit-remaining": __, ...first } = ansi[0]!.headers;
    expect(kept).toEqual(first);
    expect(ansi.map((answer) => answer.headers["x-ratelimit-remaining"])).toEqual(["4", "3", "2"]);
    expect(ansi[2]!.headers["x-ratelimit-limit"]).toBe(String(PER_MINUTE));
    expect(ansi[2]!.body.equals(ansi[0]!.body)).toBe(true);
    // The same URL asked for as Markdown is another answer: never the kept ANSI one.
    const markdown = await get(page, as("192.0.2.1", "text/markdown"), textBase);
    expect(markdown.reachedFastify).toBe(true);
    expect(markdown.headers["content-type"]).toMatch(/^text\/markdown/);
    expect(ansi[0]!.headers["content-type"]).toMatch(/^text\/plain/);
  });

  it("counts every replayed page against the client's limit", async () => {
    const answers = [];
    for (let i = 0; i < PER_MINUTE + 2; i++) answers.push(await get(page, as("192.0.2.2", "*/*"), textBase));
    expect(answers.map((answer) => answer.status)).toEqual([...Array<number>(PER_MINUTE).fill(200), 429, 429]);
    // Replayed from the third request on, and still counted: the limit falls where Fastify alone puts it.
    expect(answers.slice(2, PER_MINUTE).every((answer) => !answer.reachedFastify)).toBe(true);
    expect(answers[PER_MINUTE]!.headers["retry-after"]).toBeDefined();
    // Another client is counted on its own.
    expect((await get(page, as("192.0.2.3", "*/*"), textBase)).status).toBe(200);
  });
});

it("finds the client where Fastify's request.ip does, under the same TRUST_PROXY", async () => {
  for (const trust of [undefined, ["127.0.0.1"], ["10.0.0.0/8", "127.0.0.1"]]) {
    const clientOf = clientAddress(trust);
    const probe = Fastify({ trustProxy: trust ?? false });
    probe.get("/", async (request) => ({ fastify: request.ip, ours: clientOf(request.raw) }));
    const url = await probe.listen({ port: 0, host: "127.0.0.1" });
    try {
      for (const forwarded of [undefined, "198.51.100.7", "198.51.100.7, 10.1.2.3", "bogus, 10.1.2.3", "2001:db8::1"]) {
        const answer = (await (
          await fetch(url, { headers: forwarded ? { "x-forwarded-for": forwarded } : {} })
        ).json()) as { fastify: string; ours: string };
        expect(answer.ours, `${String(trust)} / ${String(forwarded)}`).toBe(answer.fastify);
      }
    } finally {
      await probe.close();
    }
  }
});
