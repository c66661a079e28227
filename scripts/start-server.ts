/**
 * The server `npm start` runs (scripts/start.ts supervises it, starting it again when it dies):
 * serves the API on PORT and the text host on TEXT_PORT from one process, from dist/.
 * Both ports listen first, holding requests until the first hosts are ready (start-holding.ts).
 * When dist/ is missing or stale (its recorded input hash differs from the sources'), it serves
 * from the sources (every answer computed, as the sidecar does without a build, the data folder
 * read in a thread) while dist/ is built, compressed fast; the hosts over the build then take the listening sockets
 * without cutting a request (serve-retire.ts), and the best-compressed build is made behind them.
 * The store is opened before the build, so a second instance on the same DATA_DIR stops before it
 * builds. The build runs in a child process (`npm run build`), so the server does not keep the
 * builder's heap, and it writes a new folder that dist/ is then linked to (build/dist.ts): a
 * server still running on the previous build keeps its files.
 *
 * It tells its supervisor (over the IPC channel it was started with, when it was) that it serves,
 * and that it stops on purpose before a deliberate exit: only a server that served and ended
 * otherwise is started again. Its supervisor gone, it stops too.
 */
import { spawn } from "node:child_process";
import { setPriority } from "node:os";
import { join } from "node:path";
import { buildUrls, loadConfig, publicUrls } from "../sidecar/config.ts";
import { openStore, orExitIfInUse, prepareServer, runAsProcess, type PreparedServer } from "../sidecar/server.ts";
import { buildCacheProblem, cannotWriteLine, isNotWritable } from "../build/build-cache.ts";
import { serving } from "../build/dist.ts";
import { buildInputsHash, buildIsFresh, DIST_DIR, ROOT_DIR } from "../build/inputs.ts";
import { loadBuiltCatalogueInTurns, loadCatalogueInTurns } from "../sidecar/catalogue-in-turns.ts";
import { LiveHosts, serveWhileBuilding } from "./serve-retire.ts";
import { holdingHosts } from "./start-holding.ts";
import { tellSupervisor } from "./supervisor.ts";

/**
 * The build's environment: the server's malloc tuning left out (package.json's start script sets
 * it so that the chunks of files streamed to clients go back to the system when freed; the build
 * allocates many such buffers and gains nothing from it).
 */
function buildEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { MALLOC_MMAP_THRESHOLD_: _tuning, MALLOC_ARENA_MAX: _arenas, ...rest } = env;
  return rest;
}

const config = loadConfig(process.env);
const urls = publicUrls(config);
// The ports listen first, before anything is read: a request waits for the hosts rather than
// finding the port closed (issue 126: 37 s refused at a load of 13; start-holding.ts).
const hosts = await orExitIfInUse(LiveHosts.listenAtOnce(holdingHosts(config), config));
const store = await orExitIfInUse(openStore(config, (message) => console.error(message)));
let closing: Promise<void> | undefined;
runAsProcess({ close: closeAll });
// Left by its supervisor (killed, say): nothing would stop this server or start it again.
process.once("disconnect", () => void closeAll().finally(() => process.exit(0)));
console.log(`start: API on ${urls.apiUrl}, text host on ${urls.textUrl}`);
tellSupervisor({ kind: "serving", pid: process.pid });
const BUILDS_DIR = join(ROOT_DIR, ".cache", "builds");
/** Stops with one line when the build cache cannot be written (npm start as another user than the builder's). */
function exitCannotWrite(line: string): never {
  console.error(line);
  stopOnPurpose(1);
}

/** Exits on purpose: the supervisor (scripts/start.ts) is told not to start this server again. */
function stopOnPurpose(code: number): never {
  tellSupervisor({ kind: "stopping" });
  process.exit(code);
}

// The build's URLs are not the listen port's: a start on another port serves the same dist/.
const inputs = await buildInputsHash(buildUrls(config));
const BUILD_SCRIPT = join(ROOT_DIR, "scripts", "build.ts");
let served: string | undefined;
if (await buildIsFresh(DIST_DIR, inputs)) {
  console.log("start: dist/ is up to date");
  await hosts.replaceWith(() => prepareBuild(servedBuild()));
} else {
  const problem = buildCacheProblem(BUILDS_DIR, ROOT_DIR);
  if (problem) exitCannotWrite(problem);
  console.log(
    "start: dist/ is missing or older than the sources; serving answers computed from the sources while it builds",
  );
  // Started before the hosts load the sources, so that the build's longest step starts first.
  const building = runBuild(["--fast"], "inherit").then((code) => code === 0);
  const first = serveWhileBuilding(
    hosts,
    // The data folder read in a thread while the loop answers (sidecar/catalogue-in-turns.ts).
    loadCatalogueInTurns().then((catalogue) => prepareServer(config, { store, catalogue, catalogueSource: {} })),
    building,
    () => prepareBuild(servedBuild()),
    (line) => console.error(line),
  );
  if (!(await first.built)) {
    console.error("start: the build failed");
    await closeAll();
    stopOnPurpose(1);
  }
  console.log("start: now serving the built files");
}
if (!(await buildIsFresh(servedBuild(), inputs, true))) buildBestBehind();

/** The build dist/ links to, resolved once: a later build swaps the link, not these files. */
function servedBuild(): string {
  try {
    return (served ??= serving(DIST_DIR));
  } catch (error) {
    if (!isNotWritable(error)) throw error;
    exitCannotWrite(cannotWriteLine(BUILDS_DIR, ROOT_DIR, error));
  }
}

async function prepareBuild(distDir: string): Promise<PreparedServer> {
  return prepareServer(config, {
    distDir,
    store,
    catalogue: await loadBuiltCatalogueInTurns(distDir),
    catalogueSource: { distDir },
  });
}

function closeAll(): Promise<void> {
  return (closing ??= hosts.close().then(() => store.close()));
}

/**
 * Runs scripts/build.ts in a process group of its own, so that stopping this server stops the build
 * and the site's build it runs (killing build.ts alone left Astro running). `lowest`: at the
 * lowest priority, behind what the server answers. Resolves with its exit code.
 */
function runBuild(args: string[], output: "inherit" | "ignore", lowest = false): Promise<number | null> {
  const builder = spawn(process.execPath, [BUILD_SCRIPT, ...args], {
    stdio: ["ignore", output, "inherit"],
    env: buildEnv(process.env),
    detached: true,
  });
  const stop = () => {
    try {
      if (builder.pid !== undefined && builder.exitCode === null) process.kill(-builder.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  process.once("exit", stop);
  try {
    if (lowest && builder.pid !== undefined) setPriority(builder.pid, 19);
  } catch {
    // Not allowed: it runs at the server's priority.
  }
  return new Promise((resolve, reject) =>
    builder.once("error", reject).once("exit", (code) => {
      process.off("exit", stop);
      resolve(code);
    }),
  );
}

/**
 * The build served was compressed fast (a first start): the best one is built behind it and dist/
 * is linked to it when done; this server keeps serving the files it started with, the next start
 * serves the best. It stops with the server.
 */
function buildBestBehind(): void {
  console.log("start: building the best-compressed files in the background");
  void runBuild([], "ignore", true).then((code) => {
    if (code === 0) console.log("start: the best-compressed build is ready; the next start serves it");
  });
}
