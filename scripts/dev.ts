/**
 * `npm run dev`: the catalogue served from memory, without a build. It loads the data folder
 * (CATALOGUE_DATA_DIR, else catalogue/data), answers the API on PORT and the text host on TEXT_PORT
 * with every read computed from that catalogue, and the text host's HTML through Astro's dev server
 * (run in this process, so its pages read the same catalogue: site/src/lib/catalogue.ts). An edit
 * under the data folder reloads the catalogue and swaps in new apps; one that fails validation
 * keeps the previous catalogue and prints the loader's problems. `npm start` and the build are
 * untouched: this is for seeing a data edit at once, not for serving.
 */
import { existsSync, readdirSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  CatalogueError,
  DEFAULT_DATA_DIR,
  keepParsedYaml,
  loadCatalogue,
  releasesDirOf,
  type Catalogue,
} from "../catalogue/load/load.ts";
import { buildApp } from "../sidecar/app.ts";
import { loadConfig, publicUrls } from "../sidecar/config.ts";
import { isApiPath } from "../sidecar/plugins/errors.ts";
import { openStore, orExitIfInUse } from "../sidecar/server.ts";
import { buildTextApp, type SiteHandler } from "../sidecar/text/app.ts";
import { negotiate } from "../sidecar/text/render.ts";
import { pathPattern, TEXT_ROUTES } from "../sidecar/text/routes.ts";
import { freePort } from "./components.ts";
import { ROOT_DIR } from "../build/inputs.ts";

/** Edits arrive as bursts of events (an editor's temporary file, then the rename): one reload per burst. */
const DEBOUNCE_MS = 80;
/** An old app finishes the requests it had before it is closed. */
const GRACE_MS = 5_000;
/** Where the site's dev server reads the catalogue (site/src/lib/catalogue.ts). */
const DEV_CATALOGUE = Symbol.for("cloud-services-catalogue.devCatalogue");
/** Where Astro's dev server reads a request's locals (what @astrojs/node takes as an argument). */
const ASTRO_LOCALS = Symbol.for("astro.locals");

interface Apps {
  readonly catalogue: Catalogue;
  readonly api: FastifyInstance;
  readonly text: FastifyInstance;
}

interface AstroDevServer {
  handle(request: IncomingMessage, response: ServerResponse): unknown;
  stop(): Promise<void>;
}

const config = loadConfig(process.env);
const urls = publicUrls(config);
const dataDir = process.env.CATALOGUE_DATA_DIR || DEFAULT_DATA_DIR;
const log = (line: string) => console.log(`dev: ${line}`);

/** The catalogue, or the loader's problems (file, entry, field), one a line. */
function load(): Catalogue | string[] {
  try {
    return loadCatalogue(dataDir);
  } catch (error) {
    if (error instanceof CatalogueError) return [...error.problems];
    return [error instanceof Error ? error.message : String(error)];
  }
}

// A reload parses only the files that changed.
keepParsedYaml();
const first = load();
if (Array.isArray(first)) {
  console.error(`dev: ${dataDir} does not load:\n  ${first.join("\n  ")}`);
  process.exit(1);
}
const store = await orExitIfInUse(openStore(config, (message) => console.error(message)));
let current: Apps;
(globalThis as Record<symbol, unknown>)[DEV_CATALOGUE] = () => current.catalogue;
const site = process.env.DEV_SITE === "off" ? undefined : await startSite();

/** The site's pages through Astro's dev server, handed the catalogue and store as the built handler is. */
const siteHandler: SiteHandler | undefined = site
  ? (request, response, _next, locals) => {
      Reflect.set(request, ASTRO_LOCALS, locals);
      return void site.handle(request, response);
    }
  : undefined;

/** Heavy rows run on the main thread (no catalogueSource): a worker would load the folder, maybe mid-edit. */
async function buildApps(catalogue: Catalogue): Promise<Apps> {
  const api = await buildApp({ config, catalogue, store, urls, searchIndexOnFirstQuery: true });
  const text = await buildTextApp({ config, catalogue, store, api, urls, ...(siteHandler ? { siteHandler } : {}) });
  await Promise.all([api.ready(), text.ready()]);
  return { catalogue, api, text };
}

current = await buildApps(first);
const apiServer = dispatching(() => current.api);
const textServer = dispatching(() => current.text, sendsToSite);
await Promise.all([listen(apiServer, config.PORT), listen(textServer, config.TEXT_PORT)]);
log(`API on ${urls.apiUrl}, text host on ${urls.textUrl}${site ? " (HTML by Astro's dev server)" : ""}`);
log(`serving ${dataDir} from memory; edits reload it`);

let reloading: Promise<void> = Promise.resolve();
let timer: NodeJS.Timeout | undefined;
const onEdit = () => {
  clearTimeout(timer);
  timer = setTimeout(() => {
    reloading = reloading.then(reload);
  }, DEBOUNCE_MS);
};
/**
 * Every folder watched on its own: Node's recursive watch on Linux watches files, and loses one that
 * an editor (or sed -i) replaces by renaming a new file over it; a folder's watch sees every such save.
 */
const watchers = new Map<string, FSWatcher>();
function watchFolders(root: string) {
  if (!existsSync(root)) return;
  const folders = [
    root,
    ...readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(entry.parentPath, entry.name)),
  ];
  for (const folder of folders)
    if (!watchers.has(folder))
      watchers.set(
        folder,
        watch(folder, () => {
          onEdit();
          watchFolders(root);
        }),
      );
}
// The release snapshots beside the data folder feed /v1/changes.
for (const root of [dataDir, releasesDirOf(dataDir)]) watchFolders(root);

async function reload(): Promise<void> {
  const started = performance.now();
  const loaded = load();
  if (Array.isArray(loaded)) {
    console.error(`dev: the edit does not load; still serving the previous catalogue:\n  ${loaded.join("\n  ")}`);
    return;
  }
  let next: Apps;
  try {
    next = await buildApps(loaded);
  } catch (error) {
    console.error(
      `dev: the reloaded catalogue's apps failed to start; still serving the previous one: ${String(error)}`,
    );
    return;
  }
  const previous = current;
  current = next;
  log(`reloaded ${loaded.services.length} services in ${Math.round(performance.now() - started)} ms`);
  setTimeout(() => void Promise.all([previous.api.close(), previous.text.close()]), GRACE_MS).unref();
}

/**
 * One server per port for the whole session, handing each request to the app of the moment: a
 * swapped app serves the next request, on the same keep-alive connection too. A Fastify app's own
 * server never listens here; its listeners (the request handler, client errors, CONNECT) are called.
 */
function dispatching(app: () => FastifyInstance, toSite?: (request: IncomingMessage) => boolean): Server {
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    if (site && toSite?.(request)) {
      Reflect.set(request, ASTRO_LOCALS, { catalogue: current.catalogue, store, apiUrl: urls.apiUrl });
      return void site.handle(request, response);
    }
    app().server.emit("request", request, response);
  });
  server.on("clientError", (error, socket) => app().server.emit("clientError", error, socket));
  server.on("connect", (request, socket, head) => app().server.emit("connect", request, socket, head));
  return server;
}

/** The text host's own routes (search, compare, saved lists…), which render the site's pages themselves. */
const TEXT_HOST_ROUTES = TEXT_ROUTES.filter((route) => route.path !== "/*").map(
  (route) => new RegExp(pathPattern(route.path)),
);
/** What only Astro's dev server has: its client, modules, sources and public files. */
const SITE_ASSETS = /^\/(@|_astro\/|node_modules\/|site\/|\.astro\/|favicon\.svg$|[\w-]+\.json$)/;

/** HTML pages the text host would have read from the build, and the dev server's own files. */
function sendsToSite(request: IncomingMessage): boolean {
  const [pathname = "/", query = ""] = (request.url ?? "/").split("?", 2);
  if (isApiPath(pathname)) return false;
  if (SITE_ASSETS.test(pathname)) return true;
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (TEXT_HOST_ROUTES.some((pattern) => pattern.test(pathname))) return false;
  const asked = { query: Object.fromEntries(new URLSearchParams(query)), headers: request.headers };
  return negotiate(asked as unknown as FastifyRequest, config.NO_COLOR !== undefined) === "html";
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, config.HOST, () => resolve());
  });
}

/** Astro's dev server with the project's astro.config.mjs, on a loopback port of its own (its HMR socket). */
async function startSite(): Promise<AstroDevServer> {
  // The dev server reports to Astro's telemetry no more than a build does.
  process.env.ASTRO_TELEMETRY_DISABLED = "1";
  const { dev } = await import("astro");
  const port = await freePort();
  return await dev({
    root: ROOT_DIR,
    configFile: "site/astro.dev.config.mjs",
    logLevel: "warn",
    server: { host: "127.0.0.1", port },
    // The page is the text host's; the browser's live-reload socket goes to Astro's own port.
    vite: { server: { ws: { clientPort: port } } },
  });
}

async function shutdown() {
  for (const watcher of watchers.values()) watcher.close();
  clearTimeout(timer);
  await reloading;
  apiServer.closeAllConnections();
  textServer.closeAllConnections();
  await Promise.all([
    new Promise((resolve) => apiServer.close(resolve)),
    new Promise((resolve) => textServer.close(resolve)),
    current.api.close(),
    current.text.close(),
    site?.stop(),
  ]);
  await store.close();
  process.exit(0);
}
process.once("SIGINT", () => void shutdown());
process.once("SIGTERM", () => void shutdown());
