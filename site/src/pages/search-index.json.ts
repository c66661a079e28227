/** /search-index.json: the search box's index (lib/search-index.ts), built from the catalogue. */
import { catalogue } from "../lib/catalogue.ts";
import { siteSearchIndex } from "../lib/search-index.ts";

export function GET(): Response {
  return new Response(JSON.stringify(siteSearchIndex(catalogue())), {
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}
