/**
 * What the deployment check says of a plan's Terraform types beyond their owners (check.ts): the vendor
 * whose document governs a type and the identifier it checks (index.node.ts reads them from the
 * <provider>/terraform inventories), why a type is unplaced, and why one was not checked.
 */
import type { Deployment, DeploymentItem } from "../model/deployment.ts";
import type { TemplateIndex, TerraformNeed } from "../index.node.ts";
import { endpointItemParts, endpointUse } from "../tables/endpoints.ts";

/** The providers whose types a vendor's document governs, by the type's prefix. */
const GOVERNED = new Map<
  string,
  {
    vendor: TerraformNeed["vendor"];
    inventory: string;
    file: string;
    what: string;
    owners: string;
    needs: string;
    /** Why a type of the provider may be missing from its inventory, and what to send instead. */
    missing: string;
  }
>([
  [
    "aws",
    {
      vendor: "aws",
      inventory: "aws/terraform",
      file: "iam.yaml",
      what: "IAM prefix",
      owners: "each aws_* type to the services of its package's IAM prefix",
      needs: "for its aws_* types, every action of the IAM prefix each type's provider package drives",
      missing:
        "a type newer than the provider version read, or renamed: send the CloudFormation template instead, or the services' list",
    },
  ],
  [
    "azurerm",
    {
      vendor: "azure",
      inventory: "azure/terraform",
      file: "arm.yaml",
      what: "ARM type",
      owners: "each azurerm_* type to the services of the ARM type it imports",
      needs: "for its azurerm_* types, the ARM type each imports",
      missing:
        "a type newer than the provider commit read, or renamed: send the ARM template (az bicep build, or the portal's export) or azapi resources, which name their ARM type",
    },
  ],
  [
    "google",
    {
      vendor: "gcp",
      inventory: "gcp/terraform",
      file: "apis.yaml",
      what: "API",
      owners: "each google_* type to the services of its API",
      needs: "the APIs its google_* types call",
      missing:
        "the catalogue places a google_* type through the API its provider product calls, and holds no service of this one's API: send the list of Google APIs the project enables (gcloud services list --enabled)",
    },
  ],
]);
const governed = (type: string) => GOVERNED.get(type.split("_")[0]!);

/** The vendor whose document governs a type the check could not give an identifier (undefined: none does). */
export const uncheckedVendor = (type: string): TerraformNeed["vendor"] | undefined => governed(type)?.vendor;

/** The Azure type an item asks Azure Policy for: an ARM template's type, or an azurerm_* type's ARM type. */
export function azureTypeOf(index: TemplateIndex, { kind, item }: DeploymentItem): string | undefined {
  if (kind === "azure-type") return item;
  const need = kind === "terraform-type" ? index.terraformNeed(item) : undefined;
  return need?.vendor === "azure" ? need.identifier : undefined;
}

/** Why a Terraform type is not placed in a catalogue service. */
export function terraformUnplacedReason(index: TemplateIndex, type: string): string {
  const redirected = endpointItemParts(type);
  if (redirected) {
    const use = endpointUse(`https://${redirected.host}`);
    return `Not placed: its AWS provider block's endpoints send ${redirected.type} to ${redirected.host}, not to AWS${use?.kind === "other" ? `: ${use.why}` : ""}; no AWS verdict governs it.`;
  }
  const need = index.terraformNeed(type);
  const verdict = need
    ? `; the ${need.vendor === "gcp" ? "Google" : need.vendor === "aws" ? "AWS" : "Azure"} verdict evaluates ${need.identifier}`
    : "";
  const exclusion = index.terraformExclusion(type);
  if (exclusion) return `Not placed: ${exclusion}${verdict}.`;
  if (need?.vendor === "gcp")
    return `Not placed: the type calls ${need.identifier} (gcp/terraform's apis.yaml), which no catalogue service names; the Google verdict evaluates that API.`;
  const provider = governed(type);
  if (provider)
    return `Not placed: the type is not in the ${provider.inventory} inventory (${provider.missing})${verdict}.`;
  return "No catalogue service owns this Terraform resource type (the services' terraformResources).";
}

/** Why a type of a vendor's deployment was not checked: a CloudFormation type without handler permissions, a Terraform type without an identifier. */
export function uncheckedWhy(type: string): string {
  const provider = governed(type);
  return provider
    ? `no ${provider.what} in ${provider.inventory}'s ${provider.file}`
    : "no handler permissions in the schemas";
}

const terraformTypes = (deployment: Deployment) =>
  deployment.items.filter((item) => item.kind === "terraform-type").map((item) => item.item);

/** The inventories that placed a plan's types, one line each, for the statements' `checked`. */
export function terraformInventoriesChecked(deployment: Deployment): string[] {
  const prefixes = new Set(terraformTypes(deployment).map((type) => type.split("_")[0]!));
  return [...GOVERNED].flatMap(([prefix, { inventory, owners }]) =>
    prefixes.has(prefix) ? [`inventory ${inventory} (map.yaml: ${owners})`] : [],
  );
}

/** Per vendor whose identifiers a plan's types gave, what the verdict's "needed" says they are. */
export function planIdentifiersFrom(
  index: TemplateIndex,
  deployment: Deployment,
  withNeeds: boolean,
): Partial<Record<TerraformNeed["vendor"], string>> {
  const vendors = new Set(terraformTypes(deployment).map((type) => index.terraformNeed(type)?.vendor));
  return Object.fromEntries(
    [...GOVERNED.values()]
      .filter(({ vendor }) => vendors.has(vendor))
      .map(({ vendor, inventory, file, needs }) => [
        vendor,
        ` (${needs}, per ${inventory}'s ${file}${vendor === "gcp" && withNeeds ? ", and those of the implicit needs listed" : ""})`,
      ]),
  );
}

/** The types a vendor's verdict could not check: CloudFormation types without handler permissions, Terraform types without an identifier. */
export function uncheckedNote(vendor: TerraformNeed["vendor"], unchecked: readonly string[]): string {
  const types = unchecked.filter((type) => (uncheckedVendor(type) ?? "aws") === vendor);
  if (types.length === 0) return "";
  return `; ${types.length} resource type${types.length === 1 ? " has" : "s have"} ${uncheckedWhy(types[0]!)} and ${types.length === 1 ? "was" : "were"} not checked (${types.slice(0, 4).join(", ")}${types.length > 4 ? ", …" : ""})`;
}
