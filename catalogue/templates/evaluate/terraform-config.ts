/**
 * Terraform configuration (`.tf` files, ../readers/hcl.ts reads their HCL) as a deployment, for a user who
 * cannot run `terraform plan` (no credentials) to check it all the same: the files evaluated as a
 * plan would (./evaluate/terraform.ts: variables, locals, provider blocks, count and for_each,
 * local and installed modules), each resource instance then resolved (./evaluate/instances.ts).
 * Each `resource` is its type, from its address (`aws_s3_bucket.logs`); each `data` block too
 * (reading calls the provider's API, which AWS's SCPs and Google's service restriction govern),
 * except azurerm's and azapi's, whose reads Azure Policy never evaluates (as an ARM template's
 * `existing` resources); an azapi resource is its ARM type. A module whose files are not in the
 * input is listed as not read (Deployment.notRead), with the verdicts it concerns.
 */
import type { Deployment, Vendor } from "../model/deployment.ts";
import { terraformInstance } from "./instances.ts";
import { PLACE_ATTRIBUTES } from "../tables/places.ts";
import { evaluateTerraform } from "./terraform.ts";
import { keepAttributes, TOP_LEVEL } from "../readers/terraform-modules.ts";
import { TRAIT_ATTRIBUTES } from "../tables/generic-types.ts";
import { resolvedDeployment } from "../resolved.ts";
import { terraformProviderOf } from "../tables/terraform-providers.ts";
import { VERSION_ATTRIBUTES } from "../tables/versioned.ts";

/** What the check reads of a Terraform configuration beside its files. */
export interface TerraformInputs {
  /** Values of the root module's variables (terraform plan -var). */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** The region a provider block without one deploys to (the environment's AWS_REGION, GOOGLE_REGION). */
  readonly region?: string;
  /** The root module's folder among the files ("" or absent: the top), the files being the repository's. */
  readonly root?: string;
}

/** The resource attributes the rules read: places, versions (nested blocks' too), traits, azapi's type. */
const KEEP = keepAttributes(
  new Set(["type", ...PLACE_ATTRIBUTES, ...TRAIT_ATTRIBUTES, ...VERSION_ATTRIBUTES.flatMap((path) => path.split("."))]),
);

const VENDORS: readonly Vendor[] = ["aws", "azure", "gcp"];

/** The vendor whose policy governs a Terraform type (aws_, azurerm_ and azapi_, google_), when one does. */
function vendorOf(type: string): Vendor | undefined {
  const provider = terraformProviderOf(type);
  return VENDORS.find((vendor) => vendor === provider);
}

/** A registry module's source (`[host/]namespace/name/provider`): the provider names the vendor it deploys to. */
const REGISTRY_SOURCE = /^(?:[a-z0-9.-]+\.[a-z]{2,}\/)?[\w-]+\/[\w-]+\/([a-z0-9]+)(?:\/\/.*)?$/;
const REGISTRY_VENDOR: Record<string, Vendor> = {
  aws: "aws",
  azurerm: "azure",
  azapi: "azure",
  google: "gcp",
  "google-beta": "gcp",
};

/** Text that reads as a Terraform configuration: its first line that is not blank or a comment opens one of its blocks. */
export function looksLikeTerraform(text: string): boolean {
  const head = text
    .slice(0, 20_000)
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .split("\n")
    .find((line) => !/^\s*(#.*|\/\/.*)?$/.test(line));
  return (
    head !== undefined &&
    /^\s*([a-z]+)(\s+("[^"\n]*"|[A-Za-z_][\w-]*))*\s*\{/.test(head) &&
    TOP_LEVEL.has(/^\s*([a-z]+)/.exec(head)![1]!)
  );
}

/** Reads a configuration's files (path → text: the root module's `.tf` files, modules' folders, variable files). */
export function readTerraformConfig(files: Readonly<Record<string, string>>, inputs: TerraformInputs = {}): Deployment {
  const evaluation = evaluateTerraform(files, inputs.variables, KEEP, inputs.root ?? "");
  // Azure Policy evaluates what is written, never a read.
  const resources = evaluation.resources.filter(
    (resource) => resource.mode === "resource" || vendorOf(resource.type) !== "azure",
  );
  const instances = resources.map((resource) => terraformInstance(resource, inputs.region));
  // A module not read: its verdicts are those of the vendor its registry source names, else of
  // every vendor the configuration uses, else of all three.
  const used = new Set<Vendor>([
    ...evaluation.providers.flatMap((name) => REGISTRY_VENDOR[name] ?? []),
    ...instances.flatMap((instance) => vendorOf(instance.item) ?? []),
  ]);
  if (instances.some((instance) => instance.kind === "azure-type")) used.add("azure");
  const notReadVendors = Object.fromEntries(
    evaluation.unreadModules.map(({ entry, source }) => {
      const named = source ? REGISTRY_VENDOR[REGISTRY_SOURCE.exec(source)?.[1] ?? ""] : undefined;
      return [entry, named ? [named] : used.size > 0 ? [...used] : [...VENDORS]];
    }),
  );
  return resolvedDeployment("terraform-config", instances, {
    notRead: evaluation.unreadModules.map(({ entry }) => entry),
    notReadVendors,
    ...(evaluation.inputs.length > 0 ? { inputs: evaluation.inputs } : {}),
  });
}
