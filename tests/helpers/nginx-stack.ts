/**
 * Debian's nginx with the generated configuration in front of an API and a text sidecar listening
 * in-process over the fixture catalogue and a fake build, for the suites that test what nginx
 * answers itself (tests/deploy/nginx-errors.test.ts, nginx-refusals.test.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { fixtureCatalogue, URLS } from "./app.ts";
import { freePort } from "./components.ts";
import { fakeBuild } from "./fake-build.ts";
import { startNginx } from "./nginx.ts";

export interface NginxStack {
  /** nginx's API host and text host. */
  readonly api: string;
  readonly text: string;
  /** The sidecars themselves, to compare nginx's answer with theirs. */
  readonly direct: { readonly api: string; readonly text: string };
  /** Stops nginx, closes the sidecars and removes their store. */
  stop(): Promise<void>;
}

const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: ["127.0.0.1"] };
const port = (app: FastifyInstance) => (app.server.address() as { port: number }).port;

/** Starts the sidecars, then nginx in front of them; `files` is the build both serve (paths inside dist/). */
export async function startNginxStack(binary: string, files: Record<string, string>): Promise<NginxStack> {
  const storeDir = mkdtempSync(join(tmpdir(), "csc-store-"));
  const store = await EmbeddedStore.open(storeDir);
  const apps: FastifyInstance[] = [];
  const close = async () => {
    for (const app of apps) await app.close();
    await store.close();
    rmSync(storeDir, { recursive: true, force: true });
  };
  try {
    const catalogue = fixtureCatalogue();
    const dist = fakeBuild(files);
    const built = await BuiltFiles.open(dist);
    const apiApp = await buildApp({ config, catalogue, store, urls: URLS, files: built });
    apps.push(apiApp);
    const textApp = await buildTextApp({
      config,
      catalogue,
      store,
      urls: URLS,
      api: apiApp,
      files: built,
      perMinute: 10_000,
    });
    apps.unshift(textApp);
    await apiApp.listen({ port: 0, host: "127.0.0.1" });
    await textApp.listen({ port: 0, host: "127.0.0.1" });
    const direct = { api: `http://127.0.0.1:${port(apiApp)}`, text: `http://127.0.0.1:${port(textApp)}` };
    const [apiPort, textPort] = [await freePort(), await freePort()];
    const api = `http://127.0.0.1:${apiPort}`;
    const nginx = await startNginx({
      binary,
      dist,
      apiPort,
      textPort,
      sidecars: [direct],
      readyUrl: `${api}/v1/providers`,
    });
    return {
      api,
      text: `http://127.0.0.1:${textPort}`,
      direct,
      stop: async () => {
        nginx.stop();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
