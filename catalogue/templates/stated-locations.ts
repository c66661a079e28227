/**
 * Where a deployment's resources say they go (added in 1.11.0): the literal region, location or
 * zone a resource states, read by the readers (read.ts, terraform-config.ts) and judged by
 * ./location-check.ts against the catalogue's provider regions. Only what the input states is
 * read: a provider block's region is in no plan's resource values, an expression is not a literal.
 */
import type { StatedLocation } from "./deployment.ts";

/** The attributes that state where a resource goes, in the order one is taken when several are. */
export const LOCATION_ATTRIBUTES = ["region", "location", "zone"] as const;

/** At most this many located resources are recorded; the rest are counted as read but not listed. */
export const MAX_LOCATED = 500;

/**
 * Each Terraform provider's resource type prefix, and the catalogue provider it deploys to (the
 * prefixes the inventories' items.txt name; tests check the two agree).
 */
export const TERRAFORM_PROVIDERS: ReadonlyMap<string, string> = new Map([
  ["aws", "aws"],
  ["azurerm", "azure"],
  ["azapi", "azure"],
  ["bunnynet", "bunny"],
  ["google", "gcp"],
  ["alicloud", "alibaba"],
  ["arubacloud", "aruba"],
  ["clevercloud", "clevercloud"],
  ["cloudflare", "cloudflare"],
  ["digitalocean", "digitalocean"],
  ["exoscale", "exoscale"],
  ["gcore", "gcore"],
  ["hcloud", "hetzner"],
  ["heroku", "heroku"],
  ["huaweicloud", "huawei"],
  ["ibm", "ibm"],
  ["infomaniak", "infomaniak"],
  ["ionoscloud", "ionos"],
  ["linode", "akamai"],
  ["ncloud", "naver"],
  ["nhncloud", "nhn"],
  ["oci", "oci"],
  ["opentelekomcloud", "otc"],
  ["outscale", "outscale"],
  ["ovh", "ovhcloud"],
  ["sakuracloud", "sakura"],
  ["scaleway", "scaleway"],
  ["stackit", "stackit"],
  ["tencentcloud", "tencent"],
  ["upcloud", "upcloud"],
  ["vultr", "vultr"],
]);

/** The catalogue provider a Terraform resource type deploys to, by its prefix. */
export const terraformProviderOf = (type: string): string | undefined =>
  TERRAFORM_PROVIDERS.get(type.slice(0, Math.max(0, type.indexOf("_"))));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The location a resource's attributes state, when one is a literal: "global" (Azure's and
 * Google's word for no region) and an ARM expression ("[resourceGroup().location]") state none.
 */
export function statedLocation(values: unknown): { attribute: string; value: string } | undefined {
  if (!isObject(values)) return undefined;
  for (const attribute of LOCATION_ATTRIBUTES) {
    const value = values[attribute];
    if (typeof value !== "string") continue;
    const trimmed = value.trim();
    if (trimmed === "" || trimmed.startsWith("[") || trimmed.includes("${") || trimmed.toLowerCase() === "global")
      continue;
    return { attribute, value: trimmed.slice(0, 100) };
  }
  return undefined;
}

/** Collects the located resources of a deployment, and counts those that state no location. */
export class LocatedResources {
  readonly located: StatedLocation[] = [];
  unlocated = 0;
  /** Reads one resource's stated location from its attributes (values), or counts it as stating none. */
  read(type: string, providerId: string | undefined, values: unknown, from: string) {
    const stated = statedLocation(values);
    if (!stated) {
      this.unlocated++;
      return;
    }
    if (this.located.length < MAX_LOCATED)
      this.located.push({ type, from, ...(providerId ? { providerId } : {}), ...stated });
  }
  /** The deployment's optional fields. */
  fields(): { locations?: readonly StatedLocation[]; unlocated?: number } {
    return {
      ...(this.located.length > 0 ? { locations: this.located } : {}),
      ...(this.unlocated > 0 ? { unlocated: this.unlocated } : {}),
    };
  }
}
