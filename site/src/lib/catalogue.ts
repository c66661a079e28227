/**
 * The catalogue the prerendered pages are built from: the same loader and data as the API. A build
 * hands over the source it validated (CATALOGUE_SOURCE_FILE, as a build ships it in
 * api/catalogue-source.json); else CATALOGUE_DATA_DIR when set, else catalogue/data.
 * Under `npm run dev` (scripts/dev.ts) it is the dev server's current one, reloaded on every data edit.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  assembleCatalogue,
  loadCatalogue,
  type Catalogue,
  type CatalogueSource,
} from "../../../catalogue/load/load.ts";

/** Set by scripts/dev.ts, which runs Astro's dev server in its own process. */
const DEV_CATALOGUE = Symbol.for("cloud-services-catalogue.devCatalogue");

let loaded: Catalogue | undefined;
export function catalogue(): Catalogue {
  const dev = (globalThis as Record<symbol, (() => Catalogue) | undefined>)[DEV_CATALOGUE];
  if (dev) return dev();
  const sourceFile = process.env.CATALOGUE_SOURCE_FILE;
  return (loaded ??= sourceFile
    ? assembleCatalogue(JSON.parse(readFileSync(sourceFile, "utf8")) as CatalogueSource)
    : loadCatalogue(process.env.CATALOGUE_DATA_DIR || join(process.cwd(), "catalogue", "data")));
}

/** The API's public URL, baked into pages for the interactive parts. */
export const apiUrl = (process.env.SITE_API_URL ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
