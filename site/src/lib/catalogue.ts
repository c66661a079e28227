/**
 * The catalogue the prerendered pages are built from: the same loader and data as the API, from
 * CATALOGUE_DATA_DIR when the build sets it (the bench's synthetic catalogue), else catalogue/data.
 */
import { join } from "node:path";
import { loadCatalogue, type Catalogue } from "../../../catalogue/load.ts";

let loaded: Catalogue | undefined;
export function catalogue(): Catalogue {
  return (loaded ??= loadCatalogue(process.env.CATALOGUE_DATA_DIR || join(process.cwd(), "catalogue", "data")));
}

/** The API's public URL, baked into pages for the interactive parts. */
export const apiUrl = (process.env.SITE_API_URL ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
