/**
 * Starts the API host (PORT) and the text host (TEXT_PORT) in one process: the built files from
 * dist/ when present, the sidecar routes for everything else, one store (Redis when REDIS_URL or
 * REDIS_SENTINELS is set, else the embedded store in DATA_DIR). Handles SIGINT/SIGTERM by closing both and the store.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { loadBuiltCatalogue, loadCatalogue, type Catalogue } from "../catalogue/load/load.ts";
import { buildApp } from "./app.ts";
import { nextTurn } from "./catalogue-in-turns.ts";
import type { PublicUrls } from "../catalogue/base/urls.ts";
import { loadConfig, publicUrls, type ConfigT } from "./config.ts";
import { BuiltFiles } from "./files.ts";
import { guardMemory } from "./memory-guard.ts";
import { HeavyWorker, type CatalogueSource } from "./worker/pool.ts";
import { TemplateReader } from "./threads/reader.ts";
import { uploadSlots } from "./upload-gate.ts";
import { DataDirInUseError, EmbeddedStore } from "./store/embedded.ts";
import { describeSkipped } from "./store/records.ts";
import { cannotOpenLine, UnavailableStore } from "./store/unavailable.ts";
import type { Store } from "./store/store.ts";
import { buildTextApp, loadSiteHandler, siteEntry } from "./text/app.ts";

export interface RunningServer {
  readonly api: FastifyInstance;
  readonly text: FastifyInstance;
  readonly store: Store;
  close(): Promise<void>;
}

/** Both hosts built and ready, not yet listening: `startServer` without the listen. */
export interface PreparedServer {
  readonly api: FastifyInstance;
  readonly text: FastifyInstance;
  readonly store: Store;
}

/** The embedded store; a DATA_DIR it cannot open leaves the catalogue served and writes answering 503. */
async function openEmbedded(dataDir: string, log: (message: string) => void): Promise<Store> {
  let store: EmbeddedStore;
  try {
    store = await EmbeddedStore.open(dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError) throw error;
    log(cannotOpenLine(dataDir, error));
    return new UnavailableStore(cannotOpenLine(dataDir, error).replace(/^store: /, ""));
  }
  const skipped = describeSkipped(store.skipped);
  if (skipped) log(`store: ${dataDir}/store.jsonl: ${skipped}`);
  return store;
}

export async function openStore(config: ConfigT, log: (message: string) => void): Promise<Store> {
  if (!config.REDIS_URL && !config.REDIS_SENTINELS) return openEmbedded(config.DATA_DIR, log);
  // Loaded only when used: the Redis client is ~6 MB of heap an embedded server has no use for.
  const { RedisStore } = await import("./store/redis.ts");
  const onError = (error: Error) => log(`redis: ${error.message}`);
  const store = config.REDIS_SENTINELS
    ? await RedisStore.connectSentinel(
        { sentinels: config.REDIS_SENTINELS, name: config.REDIS_SENTINEL_NAME! },
        onError,
      )
    : await RedisStore.connect(config.REDIS_URL!, onError);
  if (store.durabilityWarning) log(`redis: ${store.durabilityWarning}`);
  return store;
}

export interface ServerOptions {
  readonly distDir?: string;
  readonly catalogue?: Catalogue;
  readonly catalogueSource?: CatalogueSource;
  readonly store?: Store;
}

export async function startServer(config: ConfigT, options: ServerOptions = {}): Promise<RunningServer> {
  const { api, text, store } = await prepareServer(config, options);
  await api.listen({ port: config.PORT, host: config.HOST });
  await text.listen({ port: config.TEXT_PORT, host: config.HOST });
  let closing: Promise<void> | undefined;
  return {
    api,
    text,
    store,
    close: () => (closing ??= Promise.all([api.close(), text.close()]).then(() => store.close())),
  };
}

/** Builds both hosts over one store (the one given, else opened from the configuration), ready to listen. */
export async function prepareServer(config: ConfigT, options: ServerOptions = {}): Promise<PreparedServer> {
  const catalogue = options.catalogue ?? loadCatalogue();
  // The heavy rows' worker loads the same catalogue: the one named, or the data folder's by default.
  const catalogueSource = options.catalogue ? options.catalogueSource : {};
  const urls = publicUrls(config);
  const store = options.store ?? (await openStore(config, (message) => console.error(message)));
  const distDir = options.distDir;
  const files =
    distDir && existsSync(join(distDir, "api", "manifest.json"))
      ? await BuiltFiles.open(distDir, { rewrite: urlRewrites(distDir, urls) })
      : undefined;
  // Turns of the event loop between the steps: a server preparing its next hosts keeps answering (catalogue-in-turns.ts).
  await nextTurn();
  const siteHandler = distDir && files ? await loadSiteHandler(distDir) : undefined;
  // One thread for the API's heavy rows and the text host's computed pages: one more catalogue in memory, not two.
  const heavyWorker = catalogueSource
    ? new HeavyWorker(catalogueSource, urls, store, siteHandler && distDir ? siteEntry(distDir) : undefined)
    : undefined;
  // One set of template readers and upload slots for both hosts: what a server holds of templates.
  const templateReader = new TemplateReader();
  const uploads = uploadSlots();
  const api = await buildApp({
    config,
    catalogue,
    store,
    urls,
    files,
    sampleStatus: true,
    templateReader,
    uploadSlots: uploads,
    ...(heavyWorker ? { heavyWorker } : {}),
  });
  api.addHook("onClose", () => templateReader.close());
  await nextTurn();
  const text = await buildTextApp({
    config,
    catalogue,
    store,
    api,
    urls,
    ...(files ? { files } : {}),
    ...(siteHandler ? { siteHandler } : {}),
    templateReader,
    uploadSlots: uploads,
    ...(heavyWorker ? { pageWorker: heavyWorker } : {}),
  });
  await nextTurn();
  await api.ready();
  await nextTurn();
  await text.ready();
  return { api, text, store };
}

/**
 * The build's public URLs → this server's, when they differ (a mirror served elsewhere, a build
 * moved to another address): read from the build's discovery document.
 */
export function urlRewrites(distDir: string, urls: PublicUrls): [string, string][] {
  try {
    const discovery = JSON.parse(readFileSync(join(distDir, "api", "index.json"), "utf8")) as {
      documentation?: { openapi?: string; textHost?: string };
    };
    const builtApi = discovery.documentation?.openapi?.replace(/\/openapi\.json$/, "");
    const builtText = discovery.documentation?.textHost;
    const pairs: [string, string][] = [];
    if (builtApi && builtApi !== urls.apiUrl) pairs.push([builtApi, urls.apiUrl]);
    if (builtText && builtText !== urls.textUrl) pairs.push([builtText, urls.textUrl]);
    return pairs;
  } catch {
    return [];
  }
}

/**
 * Waits for `starting` (opening the store, or starting the server), or exits with one line when
 * another instance holds the port or DATA_DIR: an operator's mistake, not a bug worth a stack trace.
 */
export async function orExitIfInUse<T>(starting: Promise<T>): Promise<T> {
  try {
    return await starting;
  } catch (error) {
    if (error instanceof DataDirInUseError || (error as NodeJS.ErrnoException | undefined)?.code === "EADDRINUSE") {
      console.error(`start: ${(error as Error).message}`);
      process.exit(1);
    }
    throw error;
  }
}

/** What a process that serves does for itself: close on SIGINT/SIGTERM, and bound its memory. */
export function runAsProcess(server: Pick<RunningServer, "close">): void {
  guardMemory();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

if (import.meta.main) {
  const config = loadConfig(process.env);
  const distDir = process.env.DIST_DIR;
  // A build is served with the catalogue it was built from (its catalogue-source.json).
  const catalogue = distDir ? loadBuiltCatalogue(distDir) : undefined;
  const server = await orExitIfInUse(
    startServer(config, { distDir, ...(catalogue && distDir ? { catalogue, catalogueSource: { distDir } } : {}) }),
  );
  runAsProcess(server);
}
