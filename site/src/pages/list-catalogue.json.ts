/**
 * /list-catalogue.json: the compact catalogue the list builder, compare and exposure pages run on
 * in the browser (catalogue/lists/list-catalogue.ts), so policy and Markdown downloads cost no API call.
 */
import { compactListCatalogue } from "../../../catalogue/lists/list-catalogue.ts";
import { catalogue } from "../lib/catalogue.ts";

export function GET(): Response {
  return new Response(JSON.stringify(compactListCatalogue(catalogue())), {
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}
