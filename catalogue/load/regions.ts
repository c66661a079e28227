/**
 * Locations (docs/decisions.md#locations, #places): each provider region with its operator and, for
 * AWS, its partition; each service's place — global, regional from the vendor's per-service data
 * (level service), or, where the catalogue reads none, the provider's regions (level provider). Pure.
 */
import type {
  EndpointRegionData,
  EndpointRegionsT,
  ProviderFileT,
  RegionT,
  ServicePlacementT,
  ServiceRegionT,
  StatedPlacementT,
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

/** Where a service's regions come from: derived data (vendored) or a vendor page (data/locations/). */
export interface PlacementInputs {
  /** The provider's regions as the API shows them. */
  readonly regions: readonly RegionT[];
  /** The day the provider's region list was last reviewed (its file's lastVerified). */
  readonly providerListAsOf: string;
  readonly providerName: string;
  /** The vendored per-service data of the service, with where it came from. */
  readonly derived?: { readonly data: EndpointRegionsT; readonly origin: string; readonly asOf: string } | undefined;
  /** What a vendor page states of the service's place, which overrides the derived data. */
  readonly stated?: StatedPlacementT | undefined;
}

export interface PlacedService {
  readonly regions: ServiceRegionT[];
  readonly placement: ServicePlacementT;
}

const asRegion = (region: RegionT, level: ServiceRegionT["level"]): ServiceRegionT => ({
  id: region.id,
  country: region.country,
  level,
});

/** The listed regions among ids, in the provider's order. */
const listedAmong = (regions: readonly RegionT[], ids: ReadonlySet<string>) => regions.filter(({ id }) => ids.has(id));

function globalPlacement(
  regions: readonly RegionT[],
  homes: readonly string[],
  source: string,
  asOf: string,
): PlacedService {
  const home = listedAmong(regions, new Set(homes));
  return {
    regions: home.map((region) => asRegion(region, "global")),
    placement: {
      kind: "global",
      source,
      asOf,
      ...(home.length > 0 ? { homeRegions: home.map(({ id }) => id) } : {}),
    },
  };
}

/** A vendor page's address and date, as a placement's source. */
const statedSource = (stated: StatedPlacementT) => ({
  source: `${stated.source.url}${stated.source.via ? ` (read from ${stated.source.via})` : ""}`,
  asOf: stated.source.asOf ?? stated.source.retrieved,
});

/**
 * A service's kinds of place (docs/decisions.md#places): a vendor page's statement first (on-premises
 * only from one)
 * (data/locations/), then the vendored data — regional where its items name listed regions, global
 * where they name only a global endpoint (AWS: partition-wide endpoints; Azure: the "global"
 * location), the global endpoint's signing region its home — else the provider's list, provider
 * level. A partition-wide endpoint beside regional ones is a part of a regional service, never a
 * reason to list every region of the partition. Provider level leaves out a separate EU sovereign
 * partition: it offers a subset of the provider's services.
 */
export function servicePlacement(inputs: PlacementInputs): PlacedService {
  const { regions, stated, derived } = inputs;
  if (stated?.regions) {
    const { source, asOf } = statedSource(stated);
    return {
      regions: listedAmong(regions, new Set(stated.regions)).map((region) => asRegion(region, "service")),
      placement: { kind: "regional", source, asOf },
    };
  }
  if (stated?.onPremises) {
    const { source, asOf } = statedSource(stated);
    return { regions: [], placement: { kind: "on-premises", source, asOf } };
  }
  if (stated?.global) {
    const { source, asOf } = statedSource(stated);
    return globalPlacement(regions, stated.global.homeRegions ?? derived?.data.homeRegions ?? [], source, asOf);
  }
  if (derived) {
    const named = listedAmong(regions, new Set(derived.data.regions));
    if (named.length > 0)
      return {
        regions: named.map((region) => asRegion(region, "service")),
        placement: { kind: "regional", source: derived.origin, asOf: derived.asOf },
      };
    if (derived.data.globalIn.length > 0)
      return globalPlacement(regions, derived.data.homeRegions ?? [], derived.origin, derived.asOf);
  }
  return {
    regions: regions.filter((region) => region.market !== "eu-sovereign").map((region) => asRegion(region, "provider")),
    placement: {
      kind: "provider-level",
      source: `${inputs.providerName}'s regions in general availability (data/providers/)`,
      asOf: inputs.providerListAsOf,
    },
  };
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

/** The first date (YYYY-MM-DD) an origin line names: a vendored copy's date when asOf was not recorded. */
const dateIn = (origin: string) => /\d{4}-\d{2}-\d{2}/.exec(origin)?.[0];

/** A service's vendored per-service data with its origin and date (AWS's endpoints, else its vendor's availability data). */
export function derivedRegionsOf(
  endpoints: EndpointRegionData | undefined,
  vendors: readonly VendorRegionData[] | undefined,
  providerId: string,
  slug: string,
): PlacementInputs["derived"] {
  const endpoint = endpointOf(endpoints, slug);
  if (endpoints && endpoint)
    return { data: endpoint, origin: endpoints.origin, asOf: endpoints.asOf ?? dateIn(endpoints.origin) ?? "" };
  const vendor = vendors?.find((entry) => entry.provider === providerId);
  const data = vendorRegionsOf(vendors, providerId, slug);
  return vendor && data ? { data, origin: vendor.origin, asOf: vendor.asOf ?? dateIn(vendor.origin) ?? "" } : undefined;
}
