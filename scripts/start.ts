/**
 * `npm start`: builds first when dist/ is missing or stale (its recorded input hash differs from
 * the sources'), then serves the API on PORT and the text host on TEXT_PORT from one process.
 * The store is opened before the build, so a second instance on the same DATA_DIR stops before it
 * rewrites the dist/ the first one serves.
 */
import { loadConfig, publicUrls } from "../sidecar/config.ts";
import { handleSignals, openStore, orExitIfInUse, startServer } from "../sidecar/server.ts";
import { build } from "./build.ts";
import { buildInputsHash, buildIsFresh, DIST_DIR } from "./inputs.ts";

const config = loadConfig(process.env);
const urls = publicUrls(config);
const store = await orExitIfInUse(openStore(config, (message) => console.error(message)));
if (await buildIsFresh(DIST_DIR, await buildInputsHash(urls))) {
  console.log("start: dist/ is up to date");
} else {
  console.log("start: dist/ is missing or older than the sources; building");
  await build({ urls });
}
const server = await orExitIfInUse(startServer(config, { distDir: DIST_DIR, store }));
handleSignals(server);
console.log(`start: API on ${urls.apiUrl}, text host on ${urls.textUrl}`);
