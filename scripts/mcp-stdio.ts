#!/usr/bin/env node
/**
 * `npm run mcp` / `cloud-catalogue-mcp`: the catalogue's MCP server over stdio, for desktop
 * assistants and IDEs. It reads the built catalogue (dist/api/catalogue-source.json); when dist/
 * is missing or stale it answers at once from the catalogue data in memory and rebuilds dist/ in
 * the background for the next start. It needs no server running. stdout carries the protocol
 * only: the build's output and every message go to stderr.
 *
 *   --dist <folder>          serve this build as it is (never build): a mirror, or a test's build
 *   --link <path>            the dist/ link to check (default ./dist; tests)
 *   --build-script <file>    the background build (default scripts/build.ts; "none": no build)
 *
 * Saved lists live in the API server's store, which this process does not open (DATA_DIR is
 * locked by the server that writes it): get_saved_list says so and points to the HTTP endpoint.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { setPriority } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ENDPOINTS } from "../catalogue/contract/index.ts";
import { loadBuiltCatalogue, loadCatalogue, type Catalogue } from "../catalogue/load/load.ts";
import { StoreUnavailableError, type RecordStore, type StatusSource } from "../catalogue/contract/ports.ts";
import { buildUrls, CANONICAL_URLS, loadConfig, publicUrls } from "../sidecar/config.ts";
import { builtApiUrl, buildsDirOf, cleanStaleStaging, serving } from "../build/dist.ts";
import { buildInputsHash, buildIsFresh, DIST_DIR, ROOT_DIR } from "../build/inputs.ts";
import { catalogueMcpServer } from "../mcp/server.ts";

const NO_STORE = "The stdio server has no store";

/** Refuses every store operation: no tool of this server writes, and lists are answered before reaching it. */
const noStore: RecordStore = {
  kind: "embedded",
  available: false,
  createList: () => Promise.reject(new StoreUnavailableError(NO_STORE)),
  getList: () => Promise.reject(new StoreUnavailableError(NO_STORE)),
  renewList: () => Promise.reject(new StoreUnavailableError(NO_STORE)),
  recordFeedback: () => Promise.reject(new StoreUnavailableError(NO_STORE)),
  recordOutboundClick: () => Promise.reject(new StoreUnavailableError(NO_STORE)),
};

/** No status sampler runs here; no tool reads status. */
const noStatus: StatusSource = {
  current: async () => [],
  storeResponds: async () => false,
  history: () => Promise.reject(new StoreUnavailableError(NO_STORE)),
  replication: async () => undefined,
};

const log = (line: string) => process.stderr.write(`mcp: ${line}\n`);

/** The build for these inputs is current: the catalogue data and code, whatever URLs it was built for. */
async function isFresh(link: string, config: ReturnType<typeof loadConfig>): Promise<boolean> {
  // Public URLs change the links in the built files, not the catalogue this server reads.
  for (const urls of [buildUrls(config), CANONICAL_URLS])
    if (await buildIsFresh(link, await buildInputsHash(urls))) return true;
  return false;
}

/**
 * A build for next time, in a child process at low priority, its output on stderr; stopped (and
 * its staging folder removed by build/dist.ts) when this server exits.
 */
function buildInBackground(script: string): void {
  const child = spawn(process.execPath, [script], {
    stdio: ["ignore", process.stderr, process.stderr],
    env: process.env,
  });
  try {
    if (child.pid) setPriority(child.pid, 10);
  } catch {
    // not permitted here: it builds at normal priority
  }
  child.once("exit", (code) =>
    log(code === 0 ? "build finished: the next start serves it" : `build stopped (${code})`),
  );
  process.once("exit", () => child.kill("SIGTERM"));
}

/** What to serve now: the named build, a fresh dist/, or the catalogue data in memory while dist/ is rebuilt. */
async function catalogueToServe(
  dist: string | undefined,
  link: string,
  buildScript: string | undefined,
): Promise<{ catalogue: Catalogue; distDir?: string }> {
  if (dist) {
    if (!existsSync(join(dist, "api", "catalogue-source.json")))
      throw new Error(`${dist} holds no build (api/catalogue-source.json is missing)`);
    return { catalogue: loadBuiltCatalogue(dist), distDir: dist };
  }
  const stale = await cleanStaleStaging(buildsDirOf(link));
  if (stale.length > 0) log(`removed ${stale.length} staging folder(s) left by stopped builds`);
  if (existsSync(join(link, "api", "catalogue-source.json")) && (await isFresh(link, loadConfig(process.env)))) {
    const distDir = serving(link);
    return { catalogue: loadBuiltCatalogue(distDir), distDir };
  }
  // Answer initialize now: the data folder is the current catalogue; the build only makes the next start faster.
  log("dist/ is missing or older than the sources: serving the catalogue data in memory while dist/ is rebuilt");
  if (buildScript !== "none") buildInBackground(buildScript ?? join(ROOT_DIR, "scripts", "build.ts"));
  return { catalogue: loadCatalogue() };
}

/**
 * The API this server names (where saved lists live): PUBLIC_API_URL, PORT or HOST when set, as the
 * server's own configuration says it; else the one the build served was made for, as its discovery
 * document names it (a mirror's is its origin's); else the default address. The default alone
 * named 127.0.0.1:8080 whatever the API's address (issue 126).
 */
function apiUrlToName(env: NodeJS.ProcessEnv, distDir: string | undefined): string {
  const configured = publicUrls(loadConfig(env)).apiUrl;
  if (env.PUBLIC_API_URL || env.PORT || env.HOST || !distDir) return configured;
  const built = builtApiUrl(distDir);
  return built ?? configured;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { dist: { type: "string" }, link: { type: "string" }, "build-script": { type: "string" } },
  });
  const config = loadConfig(process.env);
  const urls = publicUrls(config);
  const { catalogue, distDir } = await catalogueToServe(
    values.dist ? resolve(values.dist) : undefined,
    values.link ? resolve(values.link) : DIST_DIR,
    values["build-script"],
  );
  const apiUrl = apiUrlToName(process.env, distDir);
  // Stdin closed: the client is gone; "exit" stops a background build.
  process.stdin.once("end", () => process.exit(0));
  const server = catalogueMcpServer({
    catalogue,
    store: noStore,
    status: noStatus,
    urls: { ...urls, apiUrl },
    table: ENDPOINTS,
    now: () => new Date(),
    startedAt: Date.now(),
    client: "stdio",
    listsUnavailable: `Saved lists live in the API server's store, which the stdio server does not open. Ask the HTTP endpoint (POST ${apiUrl}/mcp, tool get_saved_list) or GET ${apiUrl}/v1/lists/{id} (PUBLIC_API_URL names another API).`,
  });
  await server.connect(new StdioServerTransport());
  log(`serving ${catalogue.services.length} services over stdio`);
}

main().catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
