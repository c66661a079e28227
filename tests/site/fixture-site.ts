/** The fixture build behind the text host (API same-origin) on a store of the suite's own, and chromium, for the site suites. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { buildTextApp, loadSiteHandler } from "../../sidecar/text/app.ts";
import { fixtureCatalogue } from "../helpers/app.ts";
import { fixtureBuild } from "../helpers/fixture-build.ts";
import { launchChromium } from "../helpers/chromium.ts";

/** Where the text host answers, and the browser; both set before the suite's tests run. */
export type FixtureSite = { base: string; browser: Browser };

/**
 * Starts the API and the text host over the fixture build and a store in a fresh folder (named
 * `${dataPrefix}…`, seeded by `seed`), and chromium, for the calling suite; stops all after it.
 */
export function useFixtureSite(options: {
  executablePath: string;
  dataPrefix: string;
  setUpTimeout: number;
  seed?: (store: EmbeddedStore) => Promise<unknown>;
}): FixtureSite {
  const site = {} as FixtureSite;
  let data: string;
  let store: EmbeddedStore;
  let api: FastifyInstance;
  let text: FastifyInstance;
  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), options.dataPrefix));
    // The run's one build of the fixture for these URLs (helpers/fixture-build.ts): shared, so read only.
    const dist = await fixtureBuild({ apiUrl: "http://127.0.0.1:1", textUrl: "http://127.0.0.1:2" });
    store = await EmbeddedStore.open(data);
    await options.seed?.(store);
    const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: undefined };
    api = await buildApp({ config, catalogue: fixtureCatalogue(), store, urls: { apiUrl: "", textUrl: "" } });
    const siteHandler = await loadSiteHandler(dist);
    text = await buildTextApp({
      config,
      catalogue: fixtureCatalogue(),
      store,
      files: await BuiltFiles.open(dist),
      api,
      perMinute: 100_000,
      ...(siteHandler ? { siteHandler } : {}),
    });
    await text.listen({ port: 0, host: "127.0.0.1" });
    site.base = `http://127.0.0.1:${(text.server.address() as { port: number }).port}`;
    site.browser = await launchChromium(options.executablePath);
  }, options.setUpTimeout);
  afterAll(async () => {
    await site.browser?.close();
    await text?.close();
    await api?.close();
    await store?.close();
    if (data) rmSync(data, { recursive: true, force: true });
  });
  return site;
}
