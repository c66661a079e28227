/**
 * Azure's, Google Cloud's and Open Telekom Cloud's per-service regions from the vendored availability data
 * (data/<provider>/locations/: origin.yaml, regions.json written by scripts/maintenance/vendor-service-regions.ts,
 * optional map.yaml). Azure: each resource type's ARM locations, claimed by the services whose
 * policyIdentifiers.resourceTypes name the type (case-insensitively) or map.yaml maps; Google Cloud:
 * each product's regions, claimed only through map.yaml (the page names products, not APIs); OTC:
 * each service row of its regions-and-endpoints tables (the public and the Swiss cloud's), claimed
 * through map.yaml. A
 * service's regions are the union of its items' that the provider's list has; a service whose items
 * name only "global" is global; one that claims none, or whose items name only a geography, has no
 * key, so the provider's list applies (level provider). Reconciled like an inventory (issue 97): every item is claimed or named
 * by exclusions.yaml with a reason (inventory.ts's schema and rules; Azure's compared
 * case-insensitively), and check:data fails on an item that is neither.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { EndpointRegionsT, PolicyIdentifiersT, VendorRegionData } from "../schema/index.ts";
import { ExclusionsFile, reconcileInventory, type InventoryExclusionT, type InventoryReport } from "./inventory.ts";

/** The location ARM gives a resource type that is not placed in a region (Front Door, Traffic Manager, DNS zones). */
const GLOBAL_LOCATION = "global";

/** The providers with vendored per-service availability, and how their services claim items. */
export const SERVICE_REGION_PROVIDERS = {
  azure: "resource-type",
  gcp: "map-only",
  otc: "map-only",
  scaleway: "map-only",
} as const;
export type ServiceRegionProvider = keyof typeof SERVICE_REGION_PROVIDERS;

/** origin.yaml: where the vendored data came from (the fields of an inventory's source.yaml that apply). */
export const RegionOrigin = z
  .object({
    provider: z.enum(Object.keys(SERVICE_REGION_PROVIDERS) as [ServiceRegionProvider, ...ServiceRegionProvider[]]),
    title: z.string().min(1),
    repository: z.url({ protocol: /^https$/ }),
    path: z.string().min(1),
    commit: z.string().regex(/^[0-9a-f]{40}$/, "must be 40 hex digits"),
    asOf: z.iso.date(),
    retrieved: z.iso.date(),
    licence: z.string().min(1),
    note: z.string().min(1),
    /** Further files of the same kind the data was read from (OTC's Swiss cloud has its own table). */
    alsoFrom: z
      .array(
        z
          .object({
            repository: z.url({ protocol: /^https$/ }),
            path: z.string().min(1),
            commit: z.string().regex(/^[0-9a-f]{40}$/, "must be 40 hex digits"),
            asOf: z.iso.date(),
          })
          .strict(),
      )
      .optional(),
  })
  .strict();
export type RegionOriginT = z.infer<typeof RegionOrigin>;

/** regions.json: per item its regions, or the index of its list in locationSets. */
export const RegionsFile = z.object({
  origin: z.string().min(1),
  missingNamespaces: z.array(z.string()).optional(),
  /** Per item, regions the source has no cell for (its row is missing from that table): not known. */
  notInTable: z.record(z.string(), z.array(z.string())).optional(),
  locationSets: z.array(z.array(z.string())).optional(),
  items: z.record(z.string(), z.union([z.array(z.string()), z.number().int().nonnegative()])),
});
export type RegionsFileT = z.infer<typeof RegionsFile>;

interface ClaimingService {
  readonly slug: string;
  readonly providerId: string;
  readonly policyIdentifiers?: PolicyIdentifiersT | undefined;
}

/** An item's regions, resolving a locationSets index; a bad index is an error, not an empty list. */
export function itemRegions(file: RegionsFileT, item: string): string[] {
  const value = file.items[item];
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  const set = file.locationSets?.[value];
  if (!set) throw new Error(`regions.json: item ${item} names location set ${value}, which is not there`);
  return set;
}

/** Pure: per service, the items it claims and the union of their regions. */
export function claimRegions(
  provider: ServiceRegionProvider,
  file: RegionsFileT,
  map: Readonly<Record<string, string | readonly string[]>>,
  services: readonly ClaimingService[],
  listed: ReadonlySet<string>,
): { services: Record<string, EndpointRegionsT>; unclaimed: number; unplaced: string[] } {
  const claims = new Map<string, Set<string>>();
  const claim = (slug: string, item: string) => claims.set(slug, (claims.get(slug) ?? new Set()).add(item));
  const lowerItems = new Map(Object.keys(file.items).map((item) => [item.toLowerCase(), item]));
  for (const service of services) {
    if (service.providerId !== provider || SERVICE_REGION_PROVIDERS[provider] !== "resource-type") continue;
    for (const type of service.policyIdentifiers?.resourceTypes ?? []) {
      const item = lowerItems.get(type.toLowerCase());
      if (item) claim(service.slug, item);
    }
  }
  const slugs = new Set(services.filter((service) => service.providerId === provider).map(({ slug }) => slug));
  for (const [item, owners] of Object.entries(map))
    if (Object.hasOwn(file.items, item))
      for (const slug of typeof owners === "string" ? [owners] : owners) if (slugs.has(slug)) claim(slug, item);
  const claimed = new Set([...claims.values()].flatMap((items) => [...items]));
  const result: Record<string, EndpointRegionsT> = {};
  const unplaced: string[] = [];
  for (const [slug, items] of [...claims].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const named = [...items].flatMap((item) => itemRegions(file, item));
    const regions = new Set(named.filter((id) => listed.has(id)));
    if (regions.size > 0) result[slug] = { prefixes: [...items].sort(), regions: [...regions].sort(), globalIn: [] };
    // Only Azure's "global" location: answered from its global endpoint (load/regions.ts, kind global).
    else if (named.includes(GLOBAL_LOCATION))
      result[slug] = { prefixes: [...items].sort(), regions: [], globalIn: [GLOBAL_LOCATION] };
    // Only a geography ("europe"): no region to place it in, so the provider's list applies.
    else unplaced.push(slug);
  }
  return { services: result, unclaimed: Object.keys(file.items).length - claimed.size, unplaced };
}

/** Reads data/<provider>/locations/; undefined when the folder is absent. Problems go to `problems`. */
export function readServiceRegions(
  inventoryDir: string,
  provider: ServiceRegionProvider,
  services: readonly ClaimingService[],
  listed: ReadonlySet<string>,
  problems: string[],
): VendorRegionData | undefined {
  const folder = join(inventoryDir, provider, "locations");
  if (!existsSync(join(folder, "regions.json"))) return undefined;
  const at = `inventory ${provider}/locations`;
  const origin = RegionOrigin.safeParse(parseYaml(readFileSync(join(folder, "origin.yaml"), "utf8")));
  const file = RegionsFile.safeParse(JSON.parse(readFileSync(join(folder, "regions.json"), "utf8")));
  const mapPath = join(folder, "map.yaml");
  const map = z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .safeParse(existsSync(mapPath) ? (parseYaml(readFileSync(mapPath, "utf8")) ?? {}) : {});
  const exclusionsPath = join(folder, "exclusions.yaml");
  const exclusions = ExclusionsFile.safeParse(
    existsSync(exclusionsPath) ? (parseYaml(readFileSync(exclusionsPath, "utf8")) ?? []) : [],
  );
  for (const [name, parsed] of [
    ["origin.yaml", origin],
    ["regions.json", file],
    ["map.yaml", map],
    ["exclusions.yaml", exclusions],
  ] as const)
    if (!parsed.success)
      problems.push(...parsed.error.issues.map((issue) => `${at}/${name}: ${issue.path.join(".")}: ${issue.message}`));
  if (!origin.success || !file.success || !map.success || !exclusions.success) return undefined;
  if (origin.data.provider !== provider)
    problems.push(`${at}/origin.yaml: provider "${origin.data.provider}" is not the folder's "${provider}"`);
  const slugs = new Set(services.map(({ slug }) => slug));
  for (const [item, owners] of Object.entries(map.data)) {
    if (!Object.hasOwn(file.data.items, item)) problems.push(`${at}/map.yaml: ${item} is no item of regions.json`);
    for (const slug of typeof owners === "string" ? [owners] : owners)
      if (!slugs.has(slug)) problems.push(`${at}/map.yaml: ${item} maps to unknown service ${slug}`);
  }
  problems.push(...uncoveredProblems(at, file.data, map.data));
  const locations = new Set<string>();
  for (const item of Object.keys(file.data.items)) {
    try {
      for (const location of itemRegions(file.data, item)) locations.add(location);
    } catch (error) {
      problems.push(`${at}/${(error as Error).message}`);
      return undefined;
    }
  }
  const claimed = claimRegions(provider, file.data, map.data, services, listed);
  const report = reconcileRegionItems(origin.data, file.data, map.data, exclusions.data, services);
  // map.yaml's own problems are reported above; the exclusions' (stale, contradicting, misfiled) here.
  problems.push(...report.problems.filter((problem) => !problem.includes("/map.yaml: ")));
  const also = (origin.data.alsoFrom ?? []).map(
    (file) => ` and ${file.repository} ${file.path} ${file.commit}, as of ${file.asOf}`,
  );
  return {
    provider,
    origin: `${origin.data.repository} ${origin.data.path} ${origin.data.commit}, as of ${origin.data.asOf}${also.join("")}; licence ${origin.data.licence}`,
    // The oldest copy read: a region opened since it may be missing.
    asOf: [origin.data.asOf, ...(origin.data.alsoFrom ?? []).map((file) => file.asOf)].sort()[0]!,
    services: claimed.services,
    locations: [...locations].sort(),
    unclaimed: claimed.unclaimed,
    excluded: report.excluded,
    unreconciled: report.unreconciled,
    unplaced: claimed.unplaced,
    itemCount: Object.keys(file.data.items).length,
  };
}

/**
 * Pure: every item of a provider's availability data claimed (as claimRegions claims it), excluded
 * by exclusions.yaml or unreconciled, by the inventories' rules (inventory.ts). Azure's items are
 * ARM types, which Azure compares case-insensitively: exclusions and map entries are compared
 * lower-cased, as regions.json writes its items.
 */
export function reconcileRegionItems(
  origin: RegionOriginT,
  file: RegionsFileT,
  map: Readonly<Record<string, string | readonly string[]>>,
  exclusions: readonly InventoryExclusionT[],
  services: readonly ClaimingService[],
): InventoryReport {
  const caseless = SERVICE_REGION_PROVIDERS[origin.provider] === "resource-type";
  const key = (item: string) => (caseless ? item.toLowerCase() : item);
  const slugs = new Set(services.map(({ slug }) => slug));
  const report = reconcileInventory(
    {
      id: `${origin.provider}/locations`,
      source: {
        ...origin,
        itemKind: caseless ? "resource type" : "product",
        mapping: caseless ? "azure-type" : "map-only",
      },
      items: Object.keys(file.items).map(key),
      exclusions: exclusions.map((exclusion) => ({ ...exclusion, item: key(exclusion.item) })),
      map: Object.fromEntries(Object.entries(map).map(([item, owners]) => [key(item), owners])),
    },
    services,
    (slug) => slugs.has(slug),
  );
  // The inventories' messages name items.txt; here the items are regions.json's.
  return { ...report, problems: report.problems.map((problem) => problem.replace("of items.txt", "of regions.json")) };
}

/**
 * A service mapped to rows that leave regions unknown (no cell in any of its rows: a continent's
 * table lacks the product) would be placed by half a page: refuse the mapping.
 */
export function uncoveredProblems(
  at: string,
  file: RegionsFileT,
  map: Readonly<Record<string, string | readonly string[]>>,
): string[] {
  const rowsOf = new Map<string, string[]>();
  for (const [item, owners] of Object.entries(map))
    for (const slug of typeof owners === "string" ? [owners] : owners)
      rowsOf.set(slug, [...(rowsOf.get(slug) ?? []), item]);
  const problems: string[] = [];
  for (const [slug, rows] of rowsOf) {
    const unknown = rows
      .map((row) => new Set(file.notInTable?.[row] ?? []))
      .reduce((left, right) => new Set([...left].filter((region) => right.has(region))));
    if (unknown.size > 0)
      problems.push(
        `${at}/map.yaml: ${slug}: no row of ${rows.join(", ")} has a cell for ${[...unknown].join(", ")}, so its regions there are not known; leave it unmapped (provider level)`,
      );
  }
  return problems;
}

/** Every provider's vendored data that a data folder has; `regionIdsOf` gives a provider's listed regions. */
export function vendorRegions(
  inventoryDir: string,
  services: readonly ClaimingService[],
  regionIdsOf: (provider: string) => ReadonlySet<string>,
  problems: string[],
): VendorRegionData[] {
  return (Object.keys(SERVICE_REGION_PROVIDERS) as ServiceRegionProvider[]).flatMap(
    (provider) => readServiceRegions(inventoryDir, provider, services, regionIdsOf(provider), problems) ?? [],
  );
}
