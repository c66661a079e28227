/**
 * The whole product on free ports, in this process: the API and the text host serving the build
 * `npm start` serves (dist/, built once for the sources as they are and reused by every suite and
 * run until they change), its URLs rewritten to these ports as a start on another port rewrites
 * them; one embedded store.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { build as buildDist } from "../../scripts/build.ts";
import { buildAndSwap, markServed } from "../../build/dist.ts";
import { buildApp } from "../../sidecar/app.ts";
import { buildUrls, loadConfig } from "../../sidecar/config.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { urlRewrites } from "../../sidecar/server.ts";
import { buildTextApp, loadSiteHandler } from "../../sidecar/text/app.ts";
import { realCatalogue } from "./catalogue.ts";
import { freePort } from "./components.ts";

export interface Stack {
  readonly apiUrl: string;
  readonly textUrl: string;
  readonly distDir: string;
  close(): Promise<void>;
}

export async function startStack(options: { textPerMinute?: number } = {}): Promise<Stack> {
  const [apiPort, textPort] = [await freePort(), await freePort()];
  const urls = { apiUrl: `http://127.0.0.1:${apiPort}`, textUrl: `http://127.0.0.1:${textPort}` };
  // Suites that start at once may both build a stale dist/: each writes its own folder, and the
  // link ends on one of two identical builds.
  // The folder built, not the link: a suite building for other URLs may swap it meanwhile.
  const distDir = markServed(
    await buildAndSwap({ urls: buildUrls(loadConfig({})), build: buildDist, log: () => undefined }),
  );
  const dataDir = mkdtempSync(join(tmpdir(), "csc-stack-data-"));
  const catalogue = realCatalogue();
  const store = await EmbeddedStore.open(dataDir);
  const files = await BuiltFiles.open(distDir, { rewrite: urlRewrites(distDir, urls) });
  const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: undefined };
  const siteHandler = await loadSiteHandler(distDir);
  const api = await buildApp({ config, catalogue, store, urls, files });
  const apps: FastifyInstance[] = [
    api,
    await buildTextApp({
      config,
      catalogue,
      store,
      files,
      api,
      urls,
      ...(siteHandler ? { siteHandler } : {}),
      ...(options.textPerMinute ? { perMinute: options.textPerMinute } : {}),
    }),
  ];
  await apps[0]!.listen({ port: apiPort, host: "127.0.0.1" });
  await apps[1]!.listen({ port: textPort, host: "127.0.0.1" });
  return {
    ...urls,
    distDir,
    async close() {
      await Promise.all(apps.map((app) => app.close()));
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
