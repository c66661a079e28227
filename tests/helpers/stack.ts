/**
 * The whole product on free ports, in this process: a build in a temporary dist/ (with the public
 * URLs baked in), the API and the text host serving it, one embedded store.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { loadCatalogue } from "../../catalogue/load.ts";
import { build as buildDist } from "../../scripts/build.ts";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { buildTextApp, loadSiteHandler } from "../../sidecar/text/app.ts";
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
  const distDir = mkdtempSync(join(tmpdir(), "csc-stack-dist-"));
  const dataDir = mkdtempSync(join(tmpdir(), "csc-stack-data-"));
  await buildDist({ outDir: distDir, urls, log: () => undefined });
  const catalogue = loadCatalogue();
  const store = await EmbeddedStore.open(dataDir);
  const files = await BuiltFiles.open(distDir);
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
      rmSync(distDir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
