/**
 * A service's "Where it runs" section, shared by the text renderings (service-page.ts) and the
 * site's component (site/src/components/service/Regions.astro): the level line and the regions
 * grouped by country, in the provider's order.
 */
import type { Catalogue } from "../load/load.ts";
import type { VendorRegionData } from "../schema/index.ts";

export interface RegionsSection {
  /** One sentence: where the list comes from (per service, or the provider's, marked so). */
  readonly level: string;
  /** Country code, then the region ids there with their names. */
  readonly rows: readonly (readonly [string, string])[];
}

export function regionsSection(catalogue: Catalogue, slug: string): RegionsSection {
  const record = catalogue.bySlug.get(slug)!;
  const provider = catalogue.providerById.get(record.service.providerId)!;
  const names = new Map(provider.regions.map((region) => [region.id, region]));
  const byCountry = new Map<string, string[]>();
  for (const { id, country } of record.regions) {
    const region = names.get(id);
    const label = region?.partition && region.partition !== "aws" ? `${id} (${region.partition})` : id;
    byCountry.set(country, [...(byCountry.get(country) ?? []), label]);
  }
  const perService = record.regions[0]?.level === "service";
  const count = record.regions.length;
  const name = provider.provider.shortName;
  const vendor = catalogue.source.vendorRegions?.find((data) => data.provider === provider.provider.id);
  const level = perService
    ? `${count} region${count === 1 ? "" : "s"}, per service from ${perServiceSource(name, catalogue, vendor)}.`
    : vendor
      ? `Provider level: ${name}'s per-service data the catalogue reads (${vendor.origin}) does not place this service in a region, so these are its ${count} regions in general availability; the service may not be offered in every one.`
      : `Provider level: ${name} publishes no per-service region list the catalogue reads, so these are its ${count} regions in general availability; the service may not be offered in every one.`;
  return { level, rows: [...byCountry].map(([country, ids]) => [country, ids.join(", ")] as const) };
}

/** Where a per-service list comes from, and what it cannot say. */
function perServiceSource(name: string, catalogue: Catalogue, vendor: VendorRegionData | undefined): string {
  if (!vendor)
    return `${name}'s SDK endpoint metadata (${catalogue.source.endpointRegions?.origin ?? "vendored"}); a region it does not name may still serve the service`;
  const what =
    vendor.provider === "azure"
      ? "Azure Resource Manager's locations of the resource types it names"
      : `${name}'s locations page, by product`;
  return `${what} (${vendor.origin}); a region opened since that date is not named`;
}
