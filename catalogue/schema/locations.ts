/**
 * Where a service runs (contract 1.11.0, "Locations"): its regions, each with country and the level
 * the vendor publishes it at, and the derived per-service region data a load hands to assembly.
 */
import { z } from "zod";
import { CountryCode, d } from "./vocabulary.ts";

/** service: the vendor's machine-readable per-service data names it; provider: only the provider's list does. */
export const REGION_LEVELS = ["service", "provider"] as const;

export const ServiceRegion = z
  .object({
    id: z.string().min(1).meta(d("The provider's region identifier (Provider.regions[].id)")),
    country: CountryCode.meta(d("Country the region is in (ISO 3166-1 alpha-2)")),
    level: z
      .enum(REGION_LEVELS)
      .meta(
        d(
          "service: the vendor's per-service machine-readable data lists the service in this region (AWS: its SDK endpoint metadata, which AWS no longer completes for every service and region: a region it does not name may still serve the service, e.g. IAM in the AWS European Sovereign Cloud; Azure: Azure Resource Manager's locations of the resource types the service names; Google Cloud: the product's regions on Google's locations page; each as of the vendored copy's date, so a region opened since is not named); provider: the vendor publishes no such data the catalogue reads for this service, so the provider's regions in general availability are given, and the service may not be offered in every one",
        ),
      ),
  })
  .meta({ id: "ServiceRegion", description: "A region a service runs in (ServiceDetail.regions)" });
export type ServiceRegionT = z.infer<typeof ServiceRegion>;

/** A service's regions as a vendor's per-service data gives them (before the provider's list filters them). */
export const EndpointRegions = z.object({
  /** Endpoint prefixes of the vendored data that the service owns. */
  prefixes: z.array(z.string()),
  /** Region ids (of any partition) at least one of those prefixes has an endpoint in. */
  regions: z.array(z.string()),
  /** Partitions where one of its prefixes is a partition-wide (global) endpoint. */
  globalIn: z.array(z.string()),
});
export type EndpointRegionsT = z.infer<typeof EndpointRegions>;

/** What a load derives from the vendored AWS endpoint data (CatalogueSource.endpointRegions). */
export interface EndpointRegionData {
  /** Where the data came from (repository, path, commit, date). */
  readonly origin: string;
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
  /** Services whose items name no listed region (only "global" or a geography): provider level. */
  readonly unplaced: readonly string[];
}
