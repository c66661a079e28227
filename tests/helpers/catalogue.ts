/**
 * The real catalogue for the suites, read and validated once per run. Reading catalogue/data takes
 * one to three seconds (YAML, schemas, cross-checks); assembling an already validated source takes
 * a tenth of that. helpers/catalogue-setup.ts reads it once for the run; each test file assembles
 * its own Catalogue from that copy, as a server of a build does from api/catalogue-source.json.
 */
import { readFileSync } from "node:fs";
import { deserialize } from "node:v8";
import { inject } from "vitest";
import { assembleCatalogue, loadCatalogue, type Catalogue, type CatalogueSource } from "../../catalogue/load/load.ts";
import type { CatalogueSource as WorkerSource } from "../../sidecar/worker/pool.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The file holding this run's validated catalogue/data (v8-serialized), when it was valid. */
    realCatalogueSource: string;
    /** A folder holding that source as a build does (api/catalogue-source.json), when it was valid. */
    builtCatalogueDir: string;
  }
}

let real: Catalogue | undefined;
/**
 * The real catalogue, assembled once per test file (once per worker where files share modules) from
 * the run's validated source; loaded from catalogue/data when the run has none (invalid data).
 */
export function realCatalogue(): Catalogue {
  if (real) return real;
  const path = inject("realCatalogueSource") as string | undefined;
  real = path ? assembleCatalogue(deserialize(readFileSync(path)) as CatalogueSource) : loadCatalogue();
  return real;
}

/**
 * Where a heavy computations' thread (sidecar/worker/pool.ts) started by a suite loads the real
 * catalogue: the run's validated source as a build leaves it, as the sidecar's threads load a
 * build's; the data folder itself when the run has none.
 */
export function workerCatalogueSource(): WorkerSource {
  const built = inject("builtCatalogueDir") as string | undefined;
  return built ? { distDir: built } : {};
}
