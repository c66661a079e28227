/**
 * Issue 101: the text host's computed pages are compressed as the API's answers are (app.ts
 * COMPRESSION): brotli, else gzip, from 1 KiB, with `Vary: Accept-Encoding`. One check per kind
 * of computed page, in HTML (the site's pages, rendered in the heavy computations' thread as the
 * server runs them); `/equivalents/?category=` was sent as 146 KB of plain HTML to a client that
 * asked for brotli.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BuiltFiles } from "../../sidecar/files.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { HeavyWorker } from "../../sidecar/worker/pool.ts";
import { buildTextApp, loadSiteHandler, siteEntry } from "../../sidecar/text/app.ts";
import { fixtureCatalogue, URLS } from "../helpers/app.ts";
import { fixtureBuild } from "../helpers/fixture-build.ts";

/** A computed page of each kind (catalogue/outputs/pages.ts rows served "computed" or "static+computed" with a query). */
const COMPUTED_PAGES = {
  search: "/search?q=object+storage",
  "compare (ids)": "/compare?ids=aws-s3,gcp-cloud-storage",
  "compare (path)": "/compare/aws-s3,gcp-cloud-storage",
  "equivalents with a selection": "/equivalents/?category=storage",
  "saved list": "/lists/compressed",
  "exit plan": "/lists/compressed/exit-plan?provider=stackit",
  "exit planner's plain form": "/list/exit/?ids=aws-s3,aws-lambda&providers=stackit,ovhcloud",
} as const;

describe("the text host's computed pages, compressed", () => {
  let dist: string;
  let data: string;
  let store: EmbeddedStore;
  let text: FastifyInstance;
  let worker: HeavyWorker;
  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), "csc-text-compression-data-"));
    // The run's one build of the fixture for these URLs (helpers/fixture-build.ts): shared, so read only.
    dist = await fixtureBuild(URLS);
    store = await EmbeddedStore.open(data);
    const now = new Date();
    await store.createList({
      id: "compressed-list-id",
      slug: "compressed",
      name: "Storage we approve",
      approvedServiceIds: ["aws-s3", "gcp-cloud-storage", "azure-blob-storage"],
      createdAt: now,
      expiresAt: new Date(now.getTime() + 86_400_000),
    });
    const siteHandler = await loadSiteHandler(dist);
    if (!siteHandler) throw new Error("the build has no on-demand handler");
    worker = new HeavyWorker({ distDir: dist }, URLS, store, siteEntry(dist));
    text = await buildTextApp({
      pageWorker: worker,
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: fixtureCatalogue(),
      store,
      files: await BuiltFiles.open(dist),
      siteHandler,
      perMinute: 10_000,
    });
  }, 240_000);
  afterAll(async () => {
    await text?.close();
    await worker?.close();
    await store?.close();
    if (data) rmSync(data, { recursive: true, force: true });
  });

  for (const [kind, url] of Object.entries(COMPUTED_PAGES))
    for (const accept of ["text/html"])
      it(`sends ${kind} (${url}) as ${accept} in brotli, else gzip, the same page as unencoded`, async () => {
        const plain = await text.inject({ url, headers: { accept } });
        expect(plain.statusCode, plain.body.slice(0, 300)).toBe(200);
        expect(plain.rawPayload.length).toBeGreaterThan(1024);
        expect(plain.headers["content-encoding"]).toBeUndefined();
        const br = await text.inject({ url, headers: { accept, "accept-encoding": "gzip, deflate, br" } });
        expect(br.statusCode).toBe(200);
        expect(br.headers["content-encoding"]).toBe("br");
        expect(String(br.headers.vary)).toMatch(/Accept-Encoding/i);
        expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
        expect(brotliDecompressSync(br.rawPayload).toString("utf8")).toBe(plain.body);
        const gz = await text.inject({ url, headers: { accept, "accept-encoding": "gzip" } });
        expect(gz.headers["content-encoding"]).toBe("gzip");
        expect(gunzipSync(gz.rawPayload).toString("utf8")).toBe(plain.body);
      });

  it("still sends a small answer as it is", async () => {
    const answer = await text.inject({
      url: "/lists/no-such-list",
      headers: { accept: "text/plain", "accept-encoding": "br" },
    });
    expect(answer.statusCode).toBe(404);
    expect(answer.rawPayload.length).toBeLessThan(1024);
    expect(answer.headers["content-encoding"]).toBeUndefined();
  });
});
