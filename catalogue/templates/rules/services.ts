/**
 * The services a deployment uses (rule "services"): which catalogue service each item belongs to,
 * from the inventories (index.node.ts) and a generic type's traits (tables/generic-types.ts); what
 * no service owns, with why; and, with the policies' verdicts (./policies.ts), whether each service
 * not approved is missing or allowed through another's approval.
 */
import type { Catalogue } from "../../load/load.ts";
import type { Deployment, DeploymentItem } from "../model/deployment.ts";
import type { UnplacedItem, UsedService, Vendor } from "../model/answer.ts";
import type { TemplateIndex } from "../index.node.ts";
import { serviceOfTraits, unmappedTrait } from "../tables/generic-types.ts";
import { azureTypeOf, terraformUnplacedReason } from "./terraform-types.ts";

export const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();
export const vendorOf = (kind: DeploymentItem["kind"]): Vendor | undefined =>
  kind === "cloudformation-type" ? "aws" : kind === "azure-type" ? "azure" : kind === "gcp-api" ? "gcp" : undefined;
/** The vendor whose document governs an item: a Terraform type's is that of the identifier its inventory keeps. */
export const itemVendor = (index: TemplateIndex, { kind, item }: DeploymentItem): Vendor | undefined =>
  kind === "terraform-type" ? index.terraformNeed(item)?.vendor : vendorOf(kind);

export interface Placement {
  readonly services: Map<string, UsedService>;
  readonly unplaced: UnplacedItem[];
  readonly notEvaluated: string[];
  /** Items several services own, none approved: the one chosen, and the others that would do. */
  readonly choices: { item: string; chosen: string; oneOf: string[] }[];
}

/** The services owning an item, of the deployment's own provider (S3NS shares Google's API names). */
function ownersOf(catalogue: Catalogue, index: TemplateIndex, { kind, item }: DeploymentItem): string[] {
  const owners =
    kind === "cloudformation-type"
      ? index.cloudFormationOwners(item)
      : kind === "gcp-api"
        ? index.gcpOwners(item)
        : kind === "terraform-type"
          ? index.terraformOwners(item)
          : index.azureOwners(item);
  const vendor = vendorOf(kind);
  return [...owners].filter((id) => !vendor || catalogue.bySlug.get(id)!.service.providerId === vendor).sort();
}
/** The services a generic type's instances name by their traits (an engine, a kind), where the catalogue holds them. */
function tracedOwners(catalogue: Catalogue, deployment: Deployment, { kind, item }: DeploymentItem): string[] {
  // A row that names its service whatever the attributes (ionoscloud_datacenter) needs no trait.
  const traits = deployment.traits?.[item] ?? [{}];
  return sortedUnique(
    traits.flatMap((entry) => serviceOfTraits(kind, item, entry) ?? []).filter((id) => catalogue.bySlug.has(id)),
  );
}
/**
 * Which service each item belongs to: its approved owners when it has some, else its one owner;
 * an item several services own, none approved, goes to the owner already used or the one owning
 * most such items, and the others are named (choices). What cannot be placed is kept with the reason.
 */
export function place(
  catalogue: Catalogue,
  index: TemplateIndex,
  deployment: Deployment,
  approved: Set<string>,
): Placement {
  const services = new Map<string, UsedService>();
  const unplaced: UnplacedItem[] = [];
  const notEvaluated: string[] = [];
  const open: { item: DeploymentItem; owners: string[] }[] = [];
  const use = (id: string, { item, from }: DeploymentItem) => {
    const entry = services.get(id) ?? {
      id,
      providerId: catalogue.bySlug.get(id)!.service.providerId,
      approved: approved.has(id),
      items: [],
    };
    entry.items.push({ item, from });
    services.set(id, entry);
  };
  for (const item of deployment.items) {
    const azureType = azureTypeOf(index, item);
    if (azureType && index.azureIndexed(azureType) === false) notEvaluated.push(azureType);
    // A generic type is placed in the services its instances' traits name, approved or not: each is used.
    const traced = tracedOwners(catalogue, deployment, item);
    if (traced.length > 0) {
      for (const id of traced) use(id, item);
      continue;
    }
    const unmapped = (deployment.traits?.[item.item] ?? [])
      .map((traits) => unmappedTrait(item.kind, item.item, traits))
      .find((reason) => reason !== undefined);
    if (unmapped) {
      unplaced.push({ item: item.item, kind: item.kind, from: item.from, reason: unmapped });
      continue;
    }
    const owners = ownersOf(catalogue, index, item);
    const chosen = owners.filter((id) => approved.has(id));
    if (owners.length === 0)
      unplaced.push({
        item: item.item,
        kind: item.kind,
        from: item.from,
        ...unplacedReason(index, item.kind, item.item, item.from),
      });
    else if (chosen.length > 0) for (const id of chosen) use(id, item);
    else if (owners.length === 1) use(owners[0]!, item);
    else open.push({ item, owners });
  }
  const choices: Placement["choices"] = [];
  const tally = new Map<string, number>();
  for (const { owners } of open) for (const id of owners) tally.set(id, (tally.get(id) ?? 0) + 1);
  for (const { item, owners } of open) {
    // A service no longer open to new customers is never suggested while another would do.
    const closed = (id: string) => closedToNew(catalogue, id);
    const chosen =
      owners.find((id) => services.has(id)) ??
      [...owners].sort(
        (a, b) => Number(closed(a)) - Number(closed(b)) || tally.get(b)! - tally.get(a)! || (a < b ? -1 : 1),
      )[0]!;
    use(chosen, item);
    choices.push({ item: item.item, chosen, oneOf: owners.filter((id) => id !== chosen) });
  }
  return { services, unplaced, notEvaluated: sortedUnique(notEvaluated), choices };
}
function unplacedReason(
  index: TemplateIndex,
  kind: DeploymentItem["kind"],
  item: string,
  from: readonly string[],
): { reason: string; arrivesWith?: string[] } {
  // A .tf file's data sources only (data.<type>.<name>): the inventories map resource types.
  if (kind === "terraform-type" && from.every((address) => /^(data|ephemeral)\./.test(address)))
    return {
      reason: `A data source, which no inventory maps (they map resource types): reading it may call the provider's API, and no verdict checks that call. ${terraformUnplacedReason(index, item)}`,
    };
  if (kind === "cloudformation-type")
    return { reason: "No catalogue service owns this CloudFormation type (inventory aws/cloudformation, map.yaml)." };
  if (kind === "gcp-api") return { reason: "No catalogue service names this Google API." };
  if (kind === "terraform-type") return { reason: terraformUnplacedReason(index, item) };
  const arrivesWith = [...index.azureNeededBy(item)].sort();
  if (arrivesWith.length > 0)
    return {
      reason: `No catalogue service owns this Azure type; it is allowed as a dependency of ${arrivesWith.slice(0, 8).join(", ")}${arrivesWith.length > 8 ? ", …" : ""}.`,
      arrivesWith,
    };
  return {
    reason:
      index.azureIndexed(item) === undefined
        ? "Not a deployable type of the vendored Bicep type index, and no catalogue service owns it."
        : "No catalogue service owns this Azure type, and no service's dependencies name it.",
  };
}
/** A service no longer open to new customers: never suggested while another would do. */
export const closedToNew = (catalogue: Catalogue, id: string) =>
  ["deprecated", "sunset", "retired"].includes(catalogue.bySlug.get(id)?.service.lifecycle?.status ?? "");
