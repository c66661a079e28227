/**
 * Node-only: which catalogue service each item of a deployment belongs to, from what the catalogue
 * already knows through its inventories: CloudFormation types through aws/cloudformation's map.yaml
 * (with the IAM actions each type's handlers need), Azure resource types through the services' own
 * types and the vendored Bicep index (which says whether Indexed mode evaluates a type), Google APIs
 * through the services' API names, Terraform types through the services' terraformResources and the
 * map.yaml of the <provider>/terraform inventories (gcp/terraform: each google_* type to its API's services,
 * and in apis.yaml the API itself, so a plan gets the Google verdict a list of APIs gets).
 * Built once per catalogue.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { azureResourceTypeIndex } from "../dependencies/dependencies.node.ts";
import { reconcileInventory } from "../inventory/inventory.ts";
import { CLOUDFORMATION_INVENTORY, readHandlerPermissions } from "../inventory/cloudformation.node.ts";
import { DEFAULT_INVENTORY_DIR, inventoryIds, readInventory } from "../inventory/load.node.ts";
import type { Catalogue } from "../load/load.ts";

export interface TemplateIndex {
  /** CloudFormation type → owning slugs (map.yaml, exact item or namespace pattern). */
  readonly cloudFormationOwners: (type: string) => readonly string[];
  /** CloudFormation type → the IAM actions its create, update and delete handlers need, when the schemas say. */
  readonly handlerPermissions: (type: string) => readonly string[] | undefined;
  /** Azure type → owning slugs; a child type falls to the owner of its nearest owned parent. */
  readonly azureOwners: (type: string) => readonly string[];
  /** Azure type → whether Indexed mode evaluates it (undefined: not in the Bicep index). */
  readonly azureIndexed: (type: string) => boolean | undefined;
  /** Azure type → the services whose dependencies name it (a type no service owns). */
  readonly azureNeededBy: (type: string) => readonly string[];
  readonly gcpOwners: (api: string) => readonly string[];
  readonly terraformOwners: (type: string) => readonly string[];
  /** google_* Terraform type → the API its provider product calls (gcp/terraform's apis.yaml). */
  readonly terraformApi: (type: string) => string | undefined;
  /** What the types' APIs were read from (the provider at its commit), for the answer's sources. */
  readonly terraformApiSource: string;
  /** Commit of the CloudFormation schemas read, for the answer's sources. */
  readonly cloudFormationSource: string;
}

const GCP_TERRAFORM = "gcp/terraform";

/** gcp/terraform's apis.yaml (written by scripts/terraform-google-map.ts): type → API; empty when absent. */
function readTerraformApis(inventoryDir: string): Map<string, string> {
  const path = join(inventoryDir, GCP_TERRAFORM, "apis.yaml");
  if (!existsSync(path)) return new Map();
  const entries = Object.entries((parseYaml(readFileSync(path, "utf8")) ?? {}) as Record<string, unknown>);
  return new Map(
    entries.filter((entry): entry is [string, string] => /^[a-z0-9.-]+\.googleapis\.com$/.test(String(entry[1]))),
  );
}

const cache = new WeakMap<Catalogue, TemplateIndex>();

const push = (map: Map<string, string[]>, key: string, slug: string) => {
  const list = map.get(key) ?? [];
  if (!list.includes(slug)) list.push(slug);
  map.set(key, list);
};

export function templateIndex(catalogue: Catalogue, inventoryDir = DEFAULT_INVENTORY_DIR): TemplateIndex {
  const cached = cache.get(catalogue);
  if (cached) return cached;
  const services = catalogue.services.map((service) => ({
    slug: service.slug,
    providerId: service.providerId,
    policyIdentifiers: catalogue.bySlug.get(service.slug)!.policyIdentifiers,
  }));
  const inventory = readInventory(inventoryDir, CLOUDFORMATION_INVENTORY, []);
  const report = inventory ? reconcileInventory(inventory, services, (slug) => catalogue.bySlug.has(slug)) : undefined;
  const patterns = Object.entries(inventory?.map ?? {}).filter(([item]) => item.endsWith("*"));
  const permissions = readHandlerPermissions(inventoryDir) ?? {};
  const azure = new Map<string, string[]>();
  const azureNeeded = new Map<string, string[]>();
  const gcp = new Map<string, string[]>();
  const terraform = new Map<string, string[]>();
  for (const service of catalogue.services) {
    const record = catalogue.bySlug.get(service.slug)!;
    for (const type of record.policyIdentifiers.resourceTypes ?? []) push(azure, type.toLowerCase(), service.slug);
    for (const api of record.policyIdentifiers.apiServices ?? []) push(gcp, api.name, service.slug);
    for (const type of record.terraformResources) push(terraform, type, service.slug);
    if (service.providerId === "azure")
      for (const group of record.dependencies)
        for (const type of group.identifiers) push(azureNeeded, type.toLowerCase(), service.slug);
  }
  for (const id of inventoryIds(inventoryDir).filter((id) => id.endsWith("/terraform")))
    for (const [type, owners] of Object.entries(readInventory(inventoryDir, id, [])?.map ?? {}))
      if (!type.endsWith("*"))
        for (const slug of typeof owners === "string" ? [owners] : owners) push(terraform, type, slug);
  const bicep = azureResourceTypeIndex();
  const terraformApis = readTerraformApis(inventoryDir);
  const gcpTerraform = readInventory(inventoryDir, GCP_TERRAFORM, [])?.source;
  const index: TemplateIndex = {
    cloudFormationOwners: (type) => {
      const owners = report?.owners.get(type);
      if (owners) return owners;
      const match = patterns.find(([pattern]) => type.startsWith(pattern.slice(0, -1)));
      if (!match) return [];
      return typeof match[1] === "string" ? [match[1]] : [...match[1]];
    },
    handlerPermissions: (type) => permissions[type]?.permissions,
    azureOwners: (type) => {
      const parts = type.toLowerCase().split("/");
      for (let end = parts.length; end >= 2; end--) {
        const owners = azure.get(parts.slice(0, end).join("/"));
        if (owners) return owners;
      }
      return [];
    },
    azureIndexed: (type) => bicep.get(type.toLowerCase())?.indexed,
    azureNeededBy: (type) => azureNeeded.get(type.toLowerCase()) ?? [],
    gcpOwners: (api) => gcp.get(api) ?? [],
    terraformOwners: (type) => terraform.get(type) ?? [],
    terraformApi: (type) => terraformApis.get(type),
    terraformApiSource: gcpTerraform
      ? `inventory gcp/terraform apis.yaml (${gcpTerraform.repository}/tree/${gcpTerraform.commit})`
      : "",
    cloudFormationSource: inventory ? `${inventory.source.repository}/tree/${inventory.source.commit}` : "",
  };
  cache.set(catalogue, index);
  return index;
}
