/**
 * A service's "Where it runs" section, shared by the text renderings (service-page.ts) and the
 * site's component (site/src/components/service/Regions.astro): one sentence saying which of the
 * three kinds of place it is (docs/decisions.md#places) — global, regional with its own list, or
 * provider level — where that comes from and the copy's date, then the regions grouped by country,
 * in the provider's order.
 */
import type { Catalogue } from "../load/load.ts";
import type { ServicePlacementT, VendorRegionData } from "../schema/index.ts";

export interface RegionsSection {
  /** One sentence: the kind of place, where the list comes from and as of when. */
  readonly level: string;
  /** Country code, then the region ids there with their names. */
  readonly rows: readonly (readonly [string, string])[];
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

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
  const level = record.placement
    ? placementSentence(catalogue, provider.provider.id, record.placement, record.regions.length)
    : "";
  return { level, rows: [...byCountry].map(([country, ids]) => [country, ids.join(", ")] as const) };
}

/** The section's sentence for one kind of place, with its source and date. */
export function placementSentence(
  catalogue: Catalogue,
  providerId: string,
  placement: ServicePlacementT,
  count: number,
): string {
  const name = catalogue.providerById.get(providerId)?.provider.shortName ?? providerId;
  const asOf = `as of ${placement.asOf}`;
  switch (placement.kind) {
    case "global":
      return `Global: answered from ${name}'s global endpoint, not chosen per region${
        placement.homeRegions
          ? `; ${name} names ${placement.homeRegions.join(" and ")} for it (where its control plane and configuration are)`
          : `; ${name} names no region for it`
      } (${placement.source}, ${asOf}). A region filter finds it only for global or that region.`;
    case "regional":
      return `${plural(count, "region")}, per service from ${perServiceSource(catalogue, name, placement)}, ${asOf}; a region opened since is not named.`;
    case "provider-level": {
      const vendor = catalogue.source.vendorRegions?.find((data) => data.provider === providerId);
      const why = vendor
        ? `${name}'s per-service data the catalogue reads (${vendor.origin}) does not place this service in a region`
        : `${name} publishes no per-service region list the catalogue reads`;
      return `Provider level: ${why}, so these are its ${plural(count, "region")} in general availability (${asOf}); the service may not be offered in every one, and no filter counts it as running there.`;
    }
    case "on-premises":
      return `On premises: it runs in the customer's own datacentre, in none of ${name}'s regions (${placement.source}, ${asOf}); no region filter finds it.`;
  }
}

/** Where a per-service list comes from, in words. */
function perServiceSource(catalogue: Catalogue, name: string, placement: ServicePlacementT): string {
  const endpoints = catalogue.source.endpointRegions;
  if (endpoints && placement.source === endpoints.origin)
    return `${name}'s SDK endpoint metadata (${endpoints.origin}), which does not name every region a service has`;
  const vendor: VendorRegionData | undefined = catalogue.source.vendorRegions?.find(
    (data) => data.origin === placement.source,
  );
  if (!vendor) return `${name}'s page ${placement.source}`;
  const what: Readonly<Record<string, string>> = {
    azure: "Azure Resource Manager's locations of the resource types it names",
    gcp: `${name}'s locations page, by product`,
    otc: `${name}'s regions-and-endpoints tables, by service`,
    scaleway: `${name}'s SDK, the regions each API serves`,
  };
  return `${what[vendor.provider] ?? `${name}'s availability data`} (${vendor.origin})`;
}
