/**
 * A browser on the site gets the heavy thread ready: the text host starts it (with the site's
 * bundle) when it sends a page of the built site, so that the next page, often one rendered on
 * demand, does not wait for the thread to start. Text clients and error pages start nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BuiltFiles } from "../../sidecar/files.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { HeavyWorker } from "../../sidecar/worker/pool.ts";
import { buildTextApp, loadSiteHandler, siteEntry, type SiteHandler } from "../../sidecar/text/app.ts";
import { fixtureCatalogue, URLS } from "../helpers/app.ts";
import { fixtureBuild } from "../helpers/fixture-build.ts";

describe("the heavy thread made ready by a browser on the site", () => {
  let dist: string;
  let data: string;
  let store: EmbeddedStore;
  let files: BuiltFiles;
  let siteHandler: SiteHandler | undefined;
  const apps: FastifyInstance[] = [];
  const workers: HeavyWorker[] = [];
  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), "csc-site-warm-data-"));
    dist = await fixtureBuild(URLS);
    store = await EmbeddedStore.open(data);
    files = await BuiltFiles.open(dist);
    siteHandler = await loadSiteHandler(dist);
  }, 240_000);
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await Promise.all(workers.map((worker) => worker.close()));
    await store?.close();
    if (data) rmSync(data, { recursive: true, force: true });
  });

  async function textHost() {
    const worker = new HeavyWorker({ distDir: dist }, URLS, store, siteEntry(dist));
    workers.push(worker);
    const app = await buildTextApp({
      pageWorker: worker,
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: fixtureCatalogue(),
      store,
      files,
      ...(siteHandler ? { siteHandler } : {}),
      perMinute: 10_000,
    });
    apps.push(app);
    return { worker, app };
  }

  it("starts the thread when a browser gets a page of the built site, and renders the next page in it", async () => {
    const { worker, app } = await textHost();
    expect(worker.running).toBe(false);
    const page = await app.inject({ url: "/aws", headers: { accept: "text/html" } });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(worker.running).toBe(true);
    const matrix = await app.inject({
      url: "/equivalents/?providers=aws,ovhcloud&category=storage",
      headers: { accept: "text/html" },
    });
    expect(matrix.statusCode).toBe(200);
    expect(matrix.body).toContain("<h1");
  });

  it("starts nothing for a text client or for an error page", async () => {
    const { worker, app } = await textHost();
    expect((await app.inject({ url: "/aws", headers: { accept: "*/*", "user-agent": "curl/8" } })).statusCode).toBe(
      200,
    );
    expect((await app.inject({ url: "/no-such-page", headers: { accept: "text/html" } })).statusCode).toBe(404);
    expect(worker.running).toBe(false);
  });
});
