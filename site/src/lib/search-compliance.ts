/**
 * The compliance filter over the site's search index, for the search box: the API's one rule
 * (catalogue/compliance/compliance.ts complianceHeld, providerWideProgrammes) fed from the index's
 * per-service and per-provider data, so the browser answers what GET /v1/services answers.
 * Browser-safe: it imports the index's type only.
 */
import {
  complianceHeld,
  providerWideProgrammes,
  type ComplianceHeld,
} from "../../../catalogue/compliance/compliance.ts";
import type { SiteSearchIndex } from "./search-index.ts";

/** How the service at `position` (search.docs order) holds the programmes asked: own, provider-wide, or not. */
export function complianceHeldAt(
  index: SiteSearchIndex,
  position: number,
  asked: readonly string[],
): ComplianceHeld | undefined {
  const own = ownAt(index, position);
  const provider = index.compliance.providers[index.search.docs[position]!.provider] ?? {};
  // The lifecycle label's first word is the status ("sunset 2027-03-31"); active has no lifecycle.
  const status = index.lifecycle[position]!.split(" ")[0]!;
  const lifecycle = status === "active" ? {} : { lifecycle: { status } as { status: "preview" } };
  const wide = providerWideProgrammes(provider, { compliance: own, ...lifecycle });
  return complianceHeld(own, wide, asked);
}

/** The service's own programmes at `position`. */
export const ownAt = (index: SiteSearchIndex, position: number): string[] =>
  index.compliance.own[position]!.split(" ").filter(Boolean);
