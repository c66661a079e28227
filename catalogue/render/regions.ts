/**
 * A service's "Where it runs" section, shared by the text renderings (service-page.ts) and the
 * site's component (site/src/components/service/Regions.astro): the level line and the regions
 * grouped by country, in the provider's order.
 */
import type { Catalogue } from "../load/load.ts";

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
  const level = perService
    ? `${count} region${count === 1 ? "" : "s"}, per service from ${provider.provider.shortName}'s SDK endpoint metadata (${catalogue.source.endpointRegions?.origin ?? "vendored"}); a region it does not name may still serve the service.`
    : `Provider level: ${provider.provider.shortName} publishes no per-service region list the catalogue reads, so these are its ${count} regions in general availability; the service may not be offered in every one.`;
  return { level, rows: [...byCountry].map(([country, ids]) => [country, ids.join(", ")] as const) };
}
