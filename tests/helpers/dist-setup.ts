/**
 * Global setup of the suites that serve the build (vitest.config.ts): builds dist/ once for the run
 * when it is missing or stale, before any suite starts. Suites that start at once and find it
 * stale would each build it (on a fresh clone, two builds of half a minute side by side); they now
 * find it fresh. `npm run test:fast` leaves it to the few suites of its own that need it.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { buildUrls, loadConfig } from "../../sidecar/config.ts";
import { buildInputsHash, buildIsFresh, DIST_DIR, ROOT_DIR } from "../../build/inputs.ts";

export default async function setup(): Promise<void> {
  if (process.env.VITEST_FAST) return;
  // The canonical URLs, as helpers/stack.ts and `npm start` build for, whatever this shell sets.
  if (await buildIsFresh(DIST_DIR, await buildInputsHash(buildUrls(loadConfig({}))))) return;
  const env = { ...process.env };
  delete env.PUBLIC_API_URL;
  delete env.PUBLIC_TEXT_URL;
  const started = performance.now();
  const build = spawnSync(process.execPath, [join(ROOT_DIR, "scripts", "build.ts")], { env, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`the build for the suites failed (exit ${build.status ?? build.signal})`);
  console.log(`dist/ built for the run in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
