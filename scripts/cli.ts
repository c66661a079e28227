#!/usr/bin/env node
/**
 * cloud-catalogue — mirror a deployment for offline use, and serve a mirror.
 *   cloud-catalogue mirror <api-url> <dir>   fetch (or update) a verified copy of the build
 *   cloud-catalogue serve <dir>              serve it on PORT/TEXT_PORT with no network
 * serve answers every read, the text host and the site from the copy, and computes search,
 * compare, exposure, policies and the Markdown export from the mirrored catalogue. Lists and
 * feedback use the embedded store in <dir>/data (they stay on this machine).
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { loadBuiltCatalogue, type Catalogue } from "../catalogue/load.ts";
import { loadConfig } from "../sidecar/config.ts";
import { handleSignals, startServer } from "../sidecar/server.ts";
import { currentDir, mirror, MirrorError } from "./mirror.ts";

const USAGE = "usage: cloud-catalogue mirror <api-url> <dir> | cloud-catalogue serve <dir>";

async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  if (command === "mirror" && rest.length === 2) {
    const [apiUrl, dir] = rest as [string, string];
    if (!/^https?:\/\//.test(apiUrl)) throw new MirrorError(`not an http(s) URL: ${apiUrl}`);
    await mirror(apiUrl, dir);
    return;
  }
  if (command === "serve" && rest.length === 1) {
    const dir = rest[0]!;
    let distDir: string;
    let catalogue: Catalogue;
    try {
      distDir = realpathSync(currentDir(dir));
      catalogue = loadBuiltCatalogue(distDir);
    } catch {
      throw new MirrorError(`${dir} holds no complete mirror; run: cloud-catalogue mirror <api-url> ${dir}`);
    }
    const config = loadConfig({ DATA_DIR: join(dir, "data"), ...process.env });
    const server = await startServer(config, { distDir, catalogue });
    handleSignals(server);
    console.error(
      `serve: mirror ${distDir} on http://${config.HOST}:${config.PORT} (API) and http://${config.HOST}:${config.TEXT_PORT} (text host)`,
    );
    return;
  }
  console.error(USAGE);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`cloud-catalogue: ${error instanceof MirrorError ? error.message : (error as Error).stack}`);
  process.exit(1);
});
