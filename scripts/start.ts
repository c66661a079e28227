/**
 * `npm start`: builds first when dist/ is missing or stale (its recorded input hash differs from
 * the sources'), then serves the API on PORT and the text host on TEXT_PORT from one process.
 */
import { loadConfig, publicUrls } from "../sidecar/config.ts";
import { handleSignals, startOrExit } from "../sidecar/server.ts";
import { build } from "./build.ts";
import { buildInputsHash, buildIsFresh, DIST_DIR } from "./inputs.ts";

const config = loadConfig(process.env);
const urls = publicUrls(config);
if (await buildIsFresh(DIST_DIR, await buildInputsHash(urls))) {
  console.log("start: dist/ is up to date");
} else {
  console.log("start: dist/ is missing or older than the sources; building");
  await build({ urls });
}
const server = await startOrExit(config, { distDir: DIST_DIR });
handleSignals(server);
console.log(`start: API on ${urls.apiUrl}, text host on ${urls.textUrl}`);
