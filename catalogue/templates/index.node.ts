/**
 * Node-only: which catalogue service each item of a deployment belongs to, from what the catalogue
 * already knows through its inventories: CloudFormation types through aws/cloudformation's map.yaml
 * (with the IAM actions each type's handlers need), Azure resource types through the services' own
 * types and the vendored Bicep index (which says whether Indexed mode evaluates a type), Google APIs
 * through the services' API names, Terraform types through the services' terraformResources and the
 * map.yaml of the <provider>/terraform inventories, and each type's policy identifier where its inventory
 * keeps one (gcp/terraform's apis.yaml: the API a google_* type calls; aws/terraform's iam.yaml: the IAM
 * prefix of an aws_* type's package; azure/terraform's arm.yaml: the ARM type an azurerm_* type imports),
 * so a plan gets the verdicts a list of APIs, an SCP or an ARM template gets.
 * Built once per catalogue.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { azureResourceTypeIndex } from "../dependencies/dependencies.node.ts";
import { CLOUDFORMATION_INVENTORY, readHandlerPermissions } from "../inventory/cloudformation.node.ts";
import { matchesItem, reconcileInventory } from "../inventory/inventory.ts";
import { DEFAULT_INVENTORY_DIR, inventoryIds, readInventory } from "../inventory/load.node.ts";
import { readTypeIdentifiers } from "../inventory/terraform-files.node.ts";
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
  /**
   * Google API → whether gcp.restrictServiceUsage governs it: true when Google's supported-services
   * list (the vendored part) or a catalogue service (apiServices' restrictServiceUsage) says so, false
   * when the vendored part of the list covers its place in the alphabet and does not name it,
   * undefined past that part.
   */
  readonly gcpGoverned: (api: string) => boolean | undefined;
  /** The vendored supported-services list gcpGoverned reads, for the answer's sources. */
  readonly gcpSupportedSource: string;
  readonly terraformOwners: (type: string) => readonly string[];
  /** google_* Terraform type → the API its provider product calls (gcp/terraform's apis.yaml). */
  readonly terraformApi: (type: string) => string | undefined;
  /** What the types' APIs were read from (the provider at its commit), for the answer's sources. */
  readonly terraformApiSource: string;
  /**
   * Terraform type → the identifier a vendor's document checks for it: the API (gcp), `<IAM prefix>:*`
   * (aws: the whole service the type's package drives), or the ARM type (azure); undefined when no
   * inventory keeps one.
   */
  readonly terraformNeed: (type: string) => TerraformNeed | undefined;
  /** Terraform type → its inventory's exclusion ("reason: note"), when an inventory excludes it. */
  readonly terraformExclusion: (type: string) => string | undefined;
  /** Per vendor, the inventory file its Terraform types' identifiers come from, with the provider read. */
  readonly terraformNeedSource: Readonly<Record<TerraformNeed["vendor"], string>>;
  /** Commit of the CloudFormation schemas read, for the answer's sources. */
  readonly cloudFormationSource: string;
}

export interface TerraformNeed {
  readonly vendor: "aws" | "azure" | "gcp";
  readonly identifier: string;
}

const GCP_TERRAFORM = "gcp/terraform";
/** Per vendor: the inventory, its type → identifier file (written by scripts/terraform-*-map.ts), what a value looks like. */
const NEED_FILES = {
  gcp: { id: GCP_TERRAFORM, file: "apis.yaml", valid: /^[a-z0-9.-]+\.googleapis\.com$/ },
  aws: { id: "aws/terraform", file: "iam.yaml", valid: /^[a-z0-9-]+$/ },
  azure: { id: "azure/terraform", file: "arm.yaml", valid: /^[A-Za-z0-9.]+(\/[A-Za-z0-9]+)+$/ },
} as const;

const cache = new WeakMap<Catalogue, TemplateIndex>();

/** Google's "supported services" page for gcp.restrictServiceUsage, vendored in part (its header says which part). */
const GCP_SUPPORTED_SOURCE = "catalogue/reference/gcp-restrict-service-usage.txt";
const GCP_SUPPORTED_FILE = new URL("../reference/gcp-restrict-service-usage.txt", import.meta.url);

/**
 * Whether gcp.restrictServiceUsage governs an API (TemplateIndex.gcpGoverned): the vendored
 * supported services, the range of the page they cover (their first and last names), and the APIs
 * catalogue services confirm (apiServices' restrictServiceUsage).
 */
function gcpGovernedBy(catalogue: Catalogue): (api: string) => boolean | undefined {
  const names = readFileSync(GCP_SUPPORTED_FILE, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const stems = names.map(stem).sort();
  const [from, to] = [stems[0] ?? "", stems.at(-1) ?? ""];
  const supported = new Set([
    ...names,
    ...catalogue.services.flatMap(
      (service) =>
        catalogue.bySlug
          .get(service.slug)!
          .policyIdentifiers.apiServices?.filter((api) => api.restrictServiceUsage)
          .map((api) => api.name) ?? [],
    ),
  ]);
  return (api) => (supported.has(api) ? true : stem(api) >= from && stem(api) <= to ? false : undefined);
}
const stem = (api: string) => api.replace(/\.googleapis\.com$/, "");

const push = (map: Map<string, string[]>, key: string, slug: string) => {
  const list = map.get(key) ?? [];
  if (!list.includes(slug)) list.push(slug);
  map.set(key, list);
};

/**
 * The <provider>/terraform inventories: their map.yaml owners added to `owners`, their exclusions, and
 * per vendor the type → identifier file the deployment check's verdicts read.
 */
function readTerraformInventories(inventoryDir: string, owners: Map<string, string[]>) {
  const excluded: { item: string; why: string }[] = [];
  for (const id of inventoryIds(inventoryDir).filter((id) => id.endsWith("/terraform"))) {
    const read = readInventory(inventoryDir, id, []);
    for (const [type, slugs] of Object.entries(read?.map ?? {}))
      if (!type.endsWith("*")) for (const slug of typeof slugs === "string" ? [slugs] : slugs) push(owners, type, slug);
    for (const exclusion of read?.exclusions ?? [])
      excluded.push({
        item: exclusion.item,
        why: `${id} excludes it as ${exclusion.reason}${exclusion.of ? ` of ${exclusion.of}` : ""}${exclusion.note ? ` (${exclusion.note})` : ""}`,
      });
  }
  const needs = Object.entries(NEED_FILES).map(([vendor, { id, file, valid }]) => {
    const source = readInventory(inventoryDir, id, [])?.source;
    const origin = source ? `${source.repository}/tree/${source.commit ?? source.version}` : "";
    return {
      vendor: vendor as TerraformNeed["vendor"],
      of: readTypeIdentifiers(join(inventoryDir, id, file), valid),
      source: source ? `inventory ${id} ${file} (${origin})` : "",
    };
  });
  return { excluded, needs };
}

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
  const { excluded, needs } = readTerraformInventories(inventoryDir, terraform);
  const bicep = azureResourceTypeIndex();
  const terraformApis = needs[0]!.of;
  const gcpTerraform = readInventory(inventoryDir, GCP_TERRAFORM, [])?.source;
  const index: TemplateIndex = {
    cloudFormationOwners: (type) => {
      const owners = report?.owners.get(type);
      if (owners) return owners;
      const match = patterns.find(([pattern]) => type.startsWith(pattern.slice(0, -1)));
      if (!match) return [];
      return typeof match[1] === "string" ? [match[1]] : [...match[1]];
    },
    handlerPermissions: (type) => {
      const listed = permissions[type]?.permissions;
      if (!listed || listed.length > 0) return listed;
      // A schema listing no handler permission (256 of them, AWS::Cloud9::EnvironmentEC2 among them)
      // does not mean the type calls nothing: it calls its own service, every action of whose IAM
      // prefix its owners' approval allows.
      const prefixes = index
        .cloudFormationOwners(type)
        .flatMap((slug) => catalogue.bySlug.get(slug)?.policyIdentifiers.iamPrefixes ?? []);
      return [...new Set(prefixes)].sort().map((prefix) => `${prefix}:*`);
    },
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
    gcpGoverned: gcpGovernedBy(catalogue),
    gcpSupportedSource: GCP_SUPPORTED_SOURCE,
    terraformOwners: (type) => terraform.get(type) ?? [],
    terraformApi: (type) => terraformApis.get(type),
    terraformNeed: (type) => {
      for (const { vendor, of } of needs) {
        const identifier = of.get(type);
        if (identifier) return { vendor, identifier: vendor === "aws" ? `${identifier}:*` : identifier };
      }
      return undefined;
    },
    terraformExclusion: (type) => excluded.find((entry) => matchesItem(entry.item, type))?.why,
    terraformNeedSource: Object.fromEntries(needs.map(({ vendor, source }) => [vendor, source])) as Record<
      TerraformNeed["vendor"],
      string
    >,
    terraformApiSource: gcpTerraform
      ? `inventory gcp/terraform apis.yaml (${gcpTerraform.repository}/tree/${gcpTerraform.commit})`
      : "",
    cloudFormationSource: inventory ? `${inventory.source.repository}/tree/${inventory.source.commit}` : "",
  };
  cache.set(catalogue, index);
  return index;
}
