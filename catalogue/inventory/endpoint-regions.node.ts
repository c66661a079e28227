/**
 * The regions of each AWS service, from the vendored endpoint metadata (data/aws/endpoints/:
 * regions.json, written from botocore's endpoints.json by scripts/maintenance/inventory-aws-endpoints.ts). A
 * service owns a prefix when its iamPrefixes name it or map.yaml maps it to the service, as the
 * inventory's reconciliation counts it; its regions are the union of its prefixes' regions, and a
 * partition-wide (global) endpoint's signing region is its home region (load/regions.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import type { EndpointRegionData, EndpointRegionsT, PolicyIdentifiersT } from "../schema/index.ts";

/** regions.json as the script writes it. */
export interface EndpointRegionsFile {
  readonly origin: string;
  readonly partitions: readonly {
    readonly partition: string;
    readonly regions: Readonly<Record<string, string>>;
    readonly services: Readonly<Record<string, readonly string[] | { readonly global: string }>>;
  }[];
}

export const ENDPOINTS_INVENTORY = join("aws", "endpoints");

/** The vendored file, or undefined when the folder has none (a data folder without inventories). */
export function readEndpointRegionsFile(inventoryDir: string): EndpointRegionsFile | undefined {
  const path = join(inventoryDir, ENDPOINTS_INVENTORY, "regions.json");
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as EndpointRegionsFile) : undefined;
}

/** Per AWS service slug, the endpoint prefixes it owns and their regions; services without any are left out. */
export function endpointRegions(
  inventoryDir: string,
  services: readonly { slug: string; providerId: string; policyIdentifiers?: PolicyIdentifiersT | undefined }[],
): EndpointRegionData | undefined {
  const file = readEndpointRegionsFile(inventoryDir);
  if (!file) return undefined;
  const mapPath = join(inventoryDir, ENDPOINTS_INVENTORY, "map.yaml");
  const mapped = existsSync(mapPath)
    ? ((parseYaml(readFileSync(mapPath, "utf8")) ?? {}) as Record<string, string | string[]>)
    : {};
  const partitionOf: Record<string, string> = {};
  for (const partition of file.partitions)
    for (const region of Object.keys(partition.regions)) partitionOf[region] = partition.partition;
  const result: Record<string, EndpointRegionsT> = {};
  for (const service of services) {
    if (service.providerId !== "aws") continue;
    const own = new Set(service.policyIdentifiers?.iamPrefixes ?? []);
    for (const [prefix, slugs] of Object.entries(mapped))
      if ((Array.isArray(slugs) ? slugs : [slugs]).includes(service.slug)) own.add(prefix);
    const prefixes = new Set<string>();
    const regions = new Set<string>();
    const globalIn = new Set<string>();
    const homeRegions = new Set<string>();
    for (const partition of file.partitions)
      for (const prefix of own) {
        const served = Object.hasOwn(partition.services, prefix) ? partition.services[prefix] : undefined;
        if (!served) continue;
        prefixes.add(prefix);
        if ("global" in served) {
          globalIn.add(partition.partition);
          // The region the global endpoint signs in, when it is one (aws-global names none).
          if (Object.hasOwn(partition.regions, served.global)) homeRegions.add(served.global);
        } else for (const region of served) regions.add(region);
      }
    if (prefixes.size > 0)
      result[service.slug] = {
        prefixes: [...prefixes].sort(),
        regions: [...regions].sort(),
        globalIn: [...globalIn],
        ...(homeRegions.size > 0 ? { homeRegions: [...homeRegions].sort() } : {}),
      };
  }
  const asOf = /\d{4}-\d{2}-\d{2}/.exec(file.origin)?.[0];
  return { origin: file.origin, ...(asOf ? { asOf } : {}), partitionOf, services: result };
}
