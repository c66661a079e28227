/**
 * `npm start`: builds first when dist/ is missing or stale (its recorded input hash differs from
 * the sources'), compressed fast, then serves the API on PORT and the text host on TEXT_PORT from
 * one process while the best-compressed build is made behind it.
 * The store is opened before the build, so a second instance on the same DATA_DIR stops before it
 * builds. The build runs in a child process (`npm run build`), so the server does not keep the
 * builder's heap, and it writes a new folder that dist/ is then linked to (build/dist.ts): a
 * server still running on the previous build keeps its files.
 */
import { spawn } from "node:child_process";
import { setPriority } from "node:os";
import { join } from "node:path";
import { loadBuiltCatalogue } from "../catalogue/load/load.ts";
import { buildUrls, loadConfig, publicUrls } from "../sidecar/config.ts";
import { runAsProcess, openStore, orExitIfInUse, startServer } from "../sidecar/server.ts";
import { buildCacheProblem, cannotWriteLine, isNotWritable } from "../build/build-cache.ts";
import { serving } from "../build/dist.ts";
import { buildInputsHash, buildIsFresh, DIST_DIR, ROOT_DIR } from "../build/inputs.ts";

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
const store = await orExitIfInUse(openStore(config, (message) => console.error(message)));
const BUILDS_DIR = join(ROOT_DIR, ".cache", "builds");
/** Stops with one line when the build cache cannot be written (npm start as another user than the builder's). */
function exitCannotWrite(line: string): never {
  console.error(line);
  process.exit(1);
}

// The build's URLs are not the listen port's: a start on another port serves the same dist/.
const inputs = await buildInputsHash(buildUrls(config));
const BUILD_SCRIPT = join(ROOT_DIR, "scripts", "build.ts");
if (await buildIsFresh(DIST_DIR, inputs)) {
  console.log("start: dist/ is up to date");
} else {
  const problem = buildCacheProblem(BUILDS_DIR, ROOT_DIR);
  if (problem) exitCannotWrite(problem);
  console.log("start: dist/ is missing or older than the sources; building (compressed fast, the best follows)");
  const code = await new Promise<number | null>((resolve, reject) =>
    spawn(process.execPath, [BUILD_SCRIPT, "--fast"], { stdio: "inherit", env: buildEnv(process.env) })
      .once("error", reject)
      .once("exit", resolve),
  );
  if (code !== 0) {
    console.error("start: the build failed");
    await store.close();
    process.exit(1);
  }
}
// The build this process serves, resolved once: a later build swaps the link, not these files.
let distDir: string;
try {
  distDir = serving(DIST_DIR);
} catch (error) {
  if (!isNotWritable(error)) throw error;
  exitCannotWrite(cannotWriteLine(BUILDS_DIR, ROOT_DIR, error));
}
const server = await orExitIfInUse(
  startServer(config, { distDir, store, catalogue: loadBuiltCatalogue(distDir), catalogueSource: { distDir } }),
);
runAsProcess(server);
console.log(`start: API on ${urls.apiUrl}, text host on ${urls.textUrl}`);
if (!(await buildIsFresh(distDir, inputs, true))) buildBestBehind();

/**
 * The build served was compressed fast (a first start): the best one is built behind it, at the
 * lowest priority, and dist/ is linked to it when done; this server keeps serving the files it
 * started with, the next start serves the best. It stops with the server.
 */
function buildBestBehind(): void {
  const builder = spawn(process.execPath, [BUILD_SCRIPT], {
    stdio: ["ignore", "ignore", "inherit"],
    env: buildEnv(process.env),
  });
  try {
    if (builder.pid !== undefined) setPriority(builder.pid, 19);
  } catch {
    // Not allowed: it runs at the server's priority.
  }
  builder.once("exit", (code) => {
    if (code === 0) console.log("start: the best-compressed build is ready; the next start serves it");
  });
  process.once("exit", () => builder.kill());
  console.log("start: building the best-compressed files in the background");
}
