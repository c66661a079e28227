/**
 * /exit-catalogue.json: what "Plan an exit" (/list/exit/) runs exitPlan on in the browser
 * (catalogue/exit/catalogue.ts), so the plan costs no API call and works on a mirror.
 */
import { compactExitCatalogue } from "../../../catalogue/exit/catalogue.ts";
import { catalogue } from "../lib/catalogue.ts";

export function GET(): Response {
  return new Response(JSON.stringify(compactExitCatalogue(catalogue())), {
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}
