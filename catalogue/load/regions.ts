/**
 * Locations (docs/decisions.md#locations): each provider region with its operator and, for AWS,
 * its partition; each service's regions from the vendor's per-service data (level service) or,
 * where the catalogue reads none, the provider's regions (level provider). Pure.
 */
import type {
  EndpointRegionData,
  EndpointRegionsT,
  ProviderFileT,
  RegionT,
  ServiceRegionT,
  VendorRegionData,
} from "../schema/index.ts";

/** The provider's regions as the API shows them: operator where known, partition where the vendored data has the region. */
export function publicRegions(file: ProviderFileT, partitionOf: Readonly<Record<string, string>> = {}): RegionT[] {
  return file.regions.map(({ unnamedOperatorSource, ...region }) => {
    const partition = file.id === "aws" && Object.hasOwn(partitionOf, region.id) ? partitionOf[region.id] : undefined;
    // A region of a separate market (the AWS European Sovereign Cloud, China), or one a provider
    // page says another entity runs, is not the head office's: without a name, no operator is stated.
    const otherEntity =
      unnamedOperatorSource !== undefined || (region.market !== undefined && region.market !== "global");
    return {
      ...region,
      ...(region.operator || !otherEntity ? { operator: region.operator ?? file.headOffice.company } : {}),
      ...(partition ? { partition } : {}),
    };
  });
}

/**
 * A service's regions: those of the provider's list its per-service data names (a partition-wide
 * endpoint names every region of that partition), else the provider's whole list, marked so.
 */
export function serviceRegions(regions: readonly RegionT[], endpoint: EndpointRegionsT | undefined): ServiceRegionT[] {
  // Provider level leaves out a separate EU sovereign partition: it offers a subset of the
  // provider's services, so a service is placed there only where the per-service data says so.
  if (!endpoint)
    return regions
      .filter((region) => region.market !== "eu-sovereign")
      .map((region) => ({ id: region.id, country: region.country, level: "provider" as const }));
  const named = new Set(endpoint.regions);
  const global = new Set(endpoint.globalIn);
  return regions
    .filter((region) => named.has(region.id) || (region.partition !== undefined && global.has(region.partition)))
    .map((region) => ({ id: region.id, country: region.country, level: "service" as const }));
}

/** The per-service data of one slug, when the load derived any. */
export const endpointOf = (data: EndpointRegionData | undefined, slug: string): EndpointRegionsT | undefined =>
  data && Object.hasOwn(data.services, slug) ? data.services[slug] : undefined;

/** The per-service data of one slug from its provider's vendored availability data, when there is any. */
export function vendorRegionsOf(
  data: readonly VendorRegionData[] | undefined,
  providerId: string,
  slug: string,
): EndpointRegionsT | undefined {
  const own = data?.find((entry) => entry.provider === providerId);
  return own && Object.hasOwn(own.services, slug) ? own.services[slug] : undefined;
}
