#!/usr/bin/env node
/**
 * `npm run mcp` / `cloud-catalogue-mcp`: the catalogue's MCP server over stdio, for desktop
 * assistants and IDEs. It reads the built catalogue (dist/api/catalogue-source.json), building
 * first when dist/ is missing or stale as `npm start` does, and needs no server running. stdout
 * carries the protocol only: the build's output and every message go to stderr.
 *
 *   --dist <folder>   serve this build as it is (never build): a mirror, or a test's build
 *
 * Saved lists live in the API server's store, which this process does not open (DATA_DIR is
 * locked by the server that writes it): get_saved_list says so and points to the HTTP endpoint.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ENDPOINTS } from "../catalogue/contract/index.ts";
import { loadBuiltCatalogue } from "../catalogue/load.ts";
import { StoreUnavailableError, type RecordStore, type StatusSource } from "../catalogue/ports.ts";
import type { PublicUrls } from "../catalogue/urls.ts";
import { buildUrls, loadConfig, publicUrls } from "../sidecar/config.ts";
import { serving } from "../scripts/dist.ts";
import { buildInputsHash, buildIsFresh, DIST_DIR, ROOT_DIR } from "../scripts/inputs.ts";
import { catalogueMcpServer } from "./server.ts";

const NO_STORE = "The stdio server has no store";

/** Refuses every store operation: no tool of this server writes, and lists are answered before reaching it. */
const noStore: RecordStore = {
  kind: "embedded",
  available: false,
  createList: () => Promise.reject(new StoreUnavailableError(NO_STORE)),
  getList: () => Promise.reject(new StoreUnavailableError(NO_STORE)),
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

/** As scripts/start.ts: build when dist/ is missing or stale, the build's output on stderr. */
async function builtDist(urls: PublicUrls): Promise<string> {
  if (await buildIsFresh(DIST_DIR, await buildInputsHash(urls))) return serving(DIST_DIR);
  log("dist/ is missing or older than the sources; building (this takes a minute or more)");
  const code = await new Promise<number | null>((done, fail) =>
    spawn(process.execPath, [join(ROOT_DIR, "scripts", "build.ts")], {
      stdio: ["ignore", process.stderr, process.stderr],
      env: process.env,
    })
      .once("error", fail)
      .once("exit", done),
  );
  if (code !== 0) throw new Error("the build failed");
  return serving(DIST_DIR);
}

async function main() {
  const { values } = parseArgs({ options: { dist: { type: "string" } } });
  const config = loadConfig(process.env);
  const urls = publicUrls(config);
  const dist = values.dist ? resolve(values.dist) : await builtDist(buildUrls(config));
  if (!existsSync(join(dist, "api", "catalogue-source.json")))
    throw new Error(`${dist} holds no build (api/catalogue-source.json is missing)`);
  const catalogue = loadBuiltCatalogue(dist);
  const server = catalogueMcpServer({
    catalogue,
    store: noStore,
    status: noStatus,
    urls,
    table: ENDPOINTS,
    now: () => new Date(),
    startedAt: Date.now(),
    client: "stdio",
    listsUnavailable: `Saved lists live in the API server's store, which the stdio server does not open. Ask the HTTP endpoint (POST ${urls.apiUrl}/mcp, tool get_saved_list) or GET ${urls.apiUrl}/v1/lists/{id}.`,
  });
  await server.connect(new StdioServerTransport());
  log(`serving ${catalogue.services.length} services over stdio`);
}

main().catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
