/**
 * The site's search index (/search-index.json): what the search box needs to run the one search
 * (catalogue/search/search.ts) in the browser, so its results are the API's, in the API's order, and
 * never replaced.
 */
import type { Catalogue } from "../../../catalogue/load/load.ts";
import type { ProviderT } from "../../../catalogue/schema/index.ts";
import { lifecycleLabel, servicePath } from "../../../catalogue/render/pages.ts";
import { searchData, type SearchData } from "../../../catalogue/search/search.ts";

export interface SiteSearchIndex {
  readonly search: SearchData;
  /** provider id → short name, for the result lines. */
  readonly providerNames: Readonly<Record<string, string>>;
  /** Per service (search.docs order): its page's path (/aws/s3), as the text host links it. */
  readonly paths: readonly string[];
  /** Per service (search.docs order): its lifecycle as the text host labels it ("active", "sunset 2027-03-31"). */
  readonly lifecycle: readonly string[];
  /** Per service (search.docs order), one character: "1" when it has a free tier, else "0" (the freeTier filter). */
  readonly freeTier?: string;
  /**
   * The compliance filter's inputs, read by the one rule (catalogue/compliance/compliance.ts): per
   * service (search.docs order) its own programmes, space-separated; per provider what it holds and
   * where it lists the services in scope; the programmes' names.
   */
  readonly compliance: {
    readonly own: readonly string[];
    readonly providers: Readonly<Record<string, Pick<ProviderT, "defaultCompliance" | "complianceScope">>>;
    readonly names: Readonly<Record<string, string>>;
  };
}

export function siteSearchIndex(catalogue: Catalogue): SiteSearchIndex {
  return {
    search: searchData(catalogue),
    providerNames: Object.fromEntries(catalogue.providers.map((provider) => [provider.id, provider.shortName])),
    paths: catalogue.services.map((service) => servicePath(service)),
    lifecycle: catalogue.services.map((service) => lifecycleLabel(service.lifecycle)),
    freeTier: catalogue.services.map((service) => (service.hasFreeTier ? "1" : "0")).join(""),
    compliance: {
      own: catalogue.services.map((service) => (service.compliance ?? []).join(" ")),
      providers: Object.fromEntries(
        catalogue.providers.map((provider) => [
          provider.id,
          {
            ...(provider.defaultCompliance ? { defaultCompliance: provider.defaultCompliance } : {}),
            ...(provider.complianceScope ? { complianceScope: provider.complianceScope } : {}),
          },
        ]),
      ),
      names: Object.fromEntries(catalogue.compliance),
    },
  };
}
