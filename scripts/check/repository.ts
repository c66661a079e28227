/**
 * The catalogue of the repository the command runs from: dist/'s build when it is fresh for the
 * sources (fast), else catalogue/data, read and validated (a few seconds; mcp-stdio.ts does the
 * same). The package never loads this module: it holds a snapshot instead (catalogue.ts).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadBuiltCatalogue, loadCatalogue, type Catalogue } from "../../catalogue/load/load.ts";
import { serving } from "../../build/dist.ts";
import { buildInputsHash, buildIsFresh, DIST_DIR } from "../../build/inputs.ts";
import { buildUrls, CANONICAL_URLS, loadConfig } from "../../sidecar/config.ts";

export async function repositoryCatalogue(): Promise<{ catalogue: Catalogue; from: string }> {
  if (existsSync(join(DIST_DIR, "api", "catalogue-source.json"))) {
    let urls = [CANONICAL_URLS];
    try {
      urls = [buildUrls(loadConfig(process.env)), CANONICAL_URLS];
    } catch {
      // An environment the server would refuse changes nothing here: the canonical build is compared.
    }
    for (const candidate of urls)
      if (await buildIsFresh(DIST_DIR, await buildInputsHash(candidate)))
        return { catalogue: loadBuiltCatalogue(serving(DIST_DIR)), from: "the repository's build (dist/)" };
  }
  return { catalogue: loadCatalogue(), from: "the repository's data (catalogue/data)" };
}
