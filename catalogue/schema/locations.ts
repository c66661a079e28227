/**
 * Where a service runs (contract 1.11.0, "Locations"; 1.12.0, "three kinds of place"): its regions,
 * each with country and the level the vendor publishes it at, its placement (global, regional per
 * service, or provider level) with the date of the data behind it, the data files that state a
 * service's placement or a vendor's multi-regions, and the derived per-service region data a load
 * hands to assembly.
 */
import { z } from "zod";
import { CountryCode, d, HttpsUrl, IsoDate, Slug } from "./vocabulary.ts";

/**
 * service: the vendor's per-service data names it; provider: only the provider's list does;
 * global: the region a global service's vendor names for it (its control plane and configuration).
 */
export const REGION_LEVELS = ["service", "provider", "global"] as const;

/**
 * The three kinds of place a service can be known at (docs/decisions.md#places): answered from a
 * vendor's global endpoint, regional with its own list, or only the provider's list known.
 */
export const PLACEMENT_KINDS = ["global", "regional", "provider-level", "on-premises"] as const;
export type PlacementKind = (typeof PLACEMENT_KINDS)[number];

export const ServiceRegion = z
  .object({
    id: z.string().min(1).meta(d("The provider's region identifier (Provider.regions[].id)")),
    country: CountryCode.meta(d("Country the region is in (ISO 3166-1 alpha-2)")),
    level: z
      .enum(REGION_LEVELS)
      .meta(
        d(
          "service: the vendor's per-service data lists the service in this region (AWS: its SDK endpoint metadata, which AWS no longer completes for every service and region: a region it does not name may still serve the service; Azure: Azure Resource Manager's locations of the resource types the service names; Google Cloud: the product's regions on Google's locations page; or a vendor page data/locations/ cites; each as of the copy's date, ServiceDetail.placement.asOf, so a region opened since is not named); provider: the vendor publishes no such data the catalogue reads for this service, so the provider's regions in general availability are given, and the service may not be offered in every one; global (added in 1.12.0): the service is answered from the vendor's global endpoint, and this is the region the vendor names for it (where its control plane and configuration are), not a region it is chosen in",
        ),
      ),
  })
  .meta({ id: "ServiceRegion", description: "A region a service runs in (ServiceDetail.regions)" });
export type ServiceRegionT = z.infer<typeof ServiceRegion>;

export const ServicePlacement = z
  .object({
    kind: z
      .enum(PLACEMENT_KINDS)
      .meta(
        d(
          "global: answered from the vendor's global endpoint, not chosen per region (regions then hold only the region the vendor names for it, level global); regional: the service's own regions are known (level service); provider-level: only the provider's regions are known, and the service may not run in each one (level provider); on-premises (1.13.0): it runs in the customer's own datacentre, in none of the provider's regions (regions empty). Filters and exposure answer \"runs here\" only from global and regional data",
        ),
      ),
    source: z
      .string()
      .min(1)
      .meta(d("Where the list comes from: the vendor's data or page, with its commit or address")),
    asOf: IsoDate.meta(
      d(
        "The date of the copy the list was read from (a dataset's commit, a page's date, or for provider level the day the provider's region list was last reviewed): a region opened since is not named",
      ),
    ),
    homeRegions: z
      .array(z.string())
      .optional()
      .meta(
        d(
          "global only: the region ids the vendor names for the service (AWS: where its global endpoint signs requests, its control plane; e.g. us-east-1 for IAM and CloudFront); absent when the vendor names none",
        ),
      ),
  })
  .meta({
    id: "ServicePlacement",
    description:
      "How the service's place is known: global, regional or provider level, from which data, as of which date (ServiceDetail.placement; added in 1.12.0)",
  });
export type ServicePlacementT = z.infer<typeof ServicePlacement>;

/** The kinds of word a place parameter takes (locations/places.ts). */
export const PLACE_KIND_NAMES = ["region", "country", "group", "multi-region", "global", "metro"] as const;

export const AskedPlace = z
  .object({
    place: z
      .string()
      .meta(
        d(
          "The place as read: a region id (lower case), a country or group (upper case), a multi-region as its vendor writes it, or global",
        ),
      ),
    kind: z
      .enum(PLACE_KIND_NAMES)
      .meta(d("What the word was read as (metro, a metro area people name such as Frankfurt: since 1.13.0)")),
    given: z
      .string()
      .optional()
      .meta(
        d(
          "The word as the request gave it, when it was read from a name: a metro's other name, a country's name (Germany → DE) or a region's display name (added in 1.13.0)",
        ),
      ),
    name: z
      .string()
      .optional()
      .meta(d("A metro's or a country's name in English, when the place is one (added in 1.13.0)")),
    providerId: z
      .string()
      .optional()
      .meta(d("The provider whose region or multi-region it is, when it is one provider's")),
    countries: z.array(z.string()).meta(d("The countries it covers (none for global)")),
    regions: z.number().int().nonnegative().meta(d("How many catalogue regions it covers, of every provider")),
  })
  .meta({ id: "AskedPlace", description: "A place a request named, and what it covers (added in 1.12.0)" });

/** Where a region's city comes from (data/places/metros.yaml citySources): the vendor's page or dataset. */
export const CitySourceRef = z
  .object({
    url: z.string().meta(d("The vendor's page or dataset that states the provider's regions' cities")),
    says: z.string().meta(d("What it says, in a few words")),
    retrieved: z.string().meta(d("The day it was read (YYYY-MM-DD)")),
    via: z.string().optional().meta(d("The copy read instead of the page itself, where one was")),
  })
  .meta({ id: "CitySource", description: "The source of a region's city (added in 1.13.0)" });

/** One region of a place: its provider, id, vendor's name, city and country, and where the city comes from. */
export const PlaceRegionRow = z
  .object({
    providerId: z.string().meta(d("The region's provider")),
    id: z.string().meta(d("The provider's own region id")),
    name: z.string().meta(d("The region's name as its vendor writes it")),
    city: z.string().optional().meta(d("Its city or metro area, where the provider's data names one")),
    country: z.string().meta(d("ISO 3166-1 alpha-2")),
    citySource: CitySourceRef.optional().meta(
      d("Where the city comes from: the provider's page or dataset; absent where the catalogue records none"),
    ),
  })
  .meta({ id: "PlaceRegion", description: "A region a place covers (added in 1.13.0)" });

/** GET /v1/places/{place}: a place people name, read as the place parameters read it, with every provider's regions there. */
export const PlaceDetail = AskedPlace.omit({ regions: true })
  .extend({
    regions: z
      .array(PlaceRegionRow)
      .meta(d("Every provider's regions the place covers, largest providers first, each provider's in its order")),
    byProvider: z
      .array(z.object({ providerId: z.string(), regions: z.array(z.string()) }))
      .meta(d("The same regions by provider: each provider's region ids, largest providers first")),
    metros: z
      .array(z.object({ id: z.string(), name: z.string(), regions: z.number().int().nonnegative() }))
      .meta(
        d(
          "The metro areas the place's regions are in (for a region: its metro, whose other regions are the other providers' there); empty when none is recorded",
        ),
      ),
  })
  .meta({
    id: "PlaceDetail",
    description:
      "A place as people name it — a metro (Frankfurt), a country by code or name (DE, Germany), a group, a multi-region, a region id or name — and each provider's regions there, with where each region's city comes from (added in 1.13.0)",
  });
export type PlaceDetailT = z.infer<typeof PlaceDetail>;

/** GET /v1/services?region=|country=: how the places were read and the services that only may run there. */
export const ServicesPlaces = z
  .object({
    asked: z.array(AskedPlace).meta(d("Every place of region= and country=, as read")),
    global: z
      .array(z.string())
      .meta(
        d(
          "Slugs of this page's services matched as global services (placement.kind global): global was asked, or a place covers the region their vendor names for them; they run from the vendor's global endpoint, not in the region",
        ),
      ),
    providerLevel: z
      .object({
        total: z.number().int().nonnegative().meta(d("How many there are")),
        services: z.array(z.string()).meta(d("Their slugs, in the listing's order")),
      })
      .meta(
        d(
          "Services left out of data because their own regions are not known (placement.kind provider-level) while their provider has a region in the places: they may or may not run there. Listed apart, never as running there",
        ),
      ),
  })
  .meta({
    id: "ServicesPlaces",
    description:
      "With region= or country=: the places as read, which services on the page are global, and the provider-level services listed apart (added in 1.12.0)",
  });

/** A vendor page that states a service's placement or a multi-region's regions (data/locations/). */
export const LocationSource = z
  .object({
    url: HttpsUrl,
    retrieved: IsoDate,
    asOf: IsoDate.optional(),
    /** The copy actually read when it is not the page itself (a repository's copy of the page). */
    via: HttpsUrl.optional(),
    /** What the page states, in the catalogue's words. */
    claims: z.array(z.string().min(1).max(300)).min(1).optional(),
  })
  .strict();

/**
 * data/locations/<provider>.yaml: per service, what a vendor page states of its place, over the
 * vendored machine-readable data (which lacks it, or says less): its regions, or that it is global.
 */
export const StatedPlacement = z
  .object({
    service: Slug,
    /** The provider's region ids (data/providers/<provider>.yaml) the page places the service in. */
    regions: z.array(z.string().min(1)).min(1).optional(),
    /** Answered from the vendor's global endpoint; homeRegions when the page names its region(s). */
    global: z
      .object({ homeRegions: z.array(z.string().min(1)).min(1).optional() })
      .strict()
      .optional(),
    /** Runs in the customer's own datacentre (issue 124): in none of the provider's regions. */
    onPremises: z.literal(true).optional(),
    source: LocationSource,
    note: z.string().min(1).optional(),
  })
  .strict()
  .refine(
    (entry) => [entry.regions, entry.global, entry.onPremises].filter((stated) => stated !== undefined).length === 1,
    { message: "states one of regions, global or onPremises" },
  );
export type StatedPlacementT = z.infer<typeof StatedPlacement>;
export const StatedPlacementsFile = z.array(StatedPlacement);

/** The kinds of multi-region location value a vendor offers. */
export const MULTI_REGION_KINDS = ["multi-region", "dual-region"] as const;

/**
 * data/locations/multi-regions.yaml: a vendor's location values that stand for several regions
 * (Google Cloud Storage's US, EU, ASIA and dual-regions NAM4, EUR4…), with what each covers.
 */
export const MultiRegion = z
  .object({
    providerId: z.string().min(1),
    /** The value as the vendor writes it (upper case for Google's bucket locations). */
    value: z.string().regex(/^[A-Za-z0-9-]+$/),
    kind: z.enum(MULTI_REGION_KINDS),
    name: z.string().min(1),
    /** The provider's region ids it covers, where the vendor names them. */
    regions: z.array(z.string().min(1)).min(1).optional(),
    /** The countries it covers, where the vendor says so without naming regions (EU: the member states); neither when the vendor names neither. */
    countries: z.array(CountryCode).min(1).optional(),
    /** The services that take it as a location. */
    services: z.array(Slug).min(1),
    source: LocationSource,
  })
  .strict();
export type MultiRegionT = z.infer<typeof MultiRegion>;
export const MultiRegionsFile = z.array(MultiRegion);

/** A service's regions as a vendor's per-service data gives them (before the provider's list filters them). */
export const EndpointRegions = z.object({
  /** Endpoint prefixes of the vendored data that the service owns. */
  prefixes: z.array(z.string()),
  /** Region ids (of any partition) at least one of those prefixes has an endpoint in. */
  regions: z.array(z.string()),
  /** Partitions (AWS) where one of its prefixes is a partition-wide (global) endpoint; "global" for a vendor's global location. */
  globalIn: z.array(z.string()),
  /** The regions the global endpoints sign requests in (AWS's credentialScope), where the data names one. */
  homeRegions: z.array(z.string()).optional(),
});
export type EndpointRegionsT = z.infer<typeof EndpointRegions>;

/** What a load derives from the vendored AWS endpoint data (CatalogueSource.endpointRegions). */
export interface EndpointRegionData {
  /** Where the data came from (repository, path, commit, date). */
  readonly origin: string;
  /** The copy's date (absent in builds before 1.12.0). */
  readonly asOf?: string;
  /** Each region id of the data with its partition (aws, aws-eusc, aws-cn…). */
  readonly partitionOf: Readonly<Record<string, string>>;
  /** Per service slug, its regions; a service the data lacks has no key. */
  readonly services: Readonly<Record<string, EndpointRegionsT>>;
}

/**
 * What a load derives from a provider's vendored per-service availability (Azure's resource-type
 * locations, Google Cloud's products by region: inventory/service-regions.node.ts).
 */
export interface VendorRegionData {
  readonly provider: string;
  /** Where the data came from (repository, path, commit, date). */
  readonly origin: string;
  /** The copy's date (absent in builds before 1.12.0). */
  readonly asOf?: string;
  /** Per service slug, the items (resource types, products) it claims and their regions. */
  readonly services: Readonly<Record<string, EndpointRegionsT>>;
  /** Every location the data names, to reconcile against the provider's region list. */
  readonly locations: readonly string[];
  readonly itemCount: number;
  /** Items no service claims. */
  readonly unclaimed: number;
  /** Items no service claims that exclusions.yaml excludes, with a reason. */
  readonly excluded: number;
  /** Items neither claimed nor excluded: check:data fails on each. */
  readonly unreconciled: readonly string[];
  /** Services whose items name no listed region and not "global" (only a geography): provider level. */
  readonly unplaced: readonly string[];
}
