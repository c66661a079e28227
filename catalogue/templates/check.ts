/**
 * The deployment check (POST /v1/deployments/check): a deployment read by read.ts, the approved
 * list, and the answer — the services the deployment uses with the items that made it so, what the
 * catalogue cannot place, the slugs the list lacks, the implicit needs its tools and types bring
 * (dependencies/implicit-needs.ts, each with its vendor page), and the three policies' verdict for this
 * deployment: the document generated from the approved list, then from the list with what the
 * check says to add. Every statement says what it checked (decisions.md#approved-means-usable).
 */
import { azurePolicySet, gcpOrgPolicy, scpAllows, scpPolicy } from "../policies/documents.ts";
import { PolicyRequestError } from "../policies/errors.ts";
import { IMPLICIT_NEEDS, type ImplicitNeed } from "../dependencies/implicit-needs.ts";
import type { Catalogue } from "../load/load.ts";
import type { FailOn } from "../schema/index.ts";
import type { Deployment, DeploymentItem } from "./deployment.ts";
import { versionAnswers, versionStatements } from "./retiring.ts";
import { locationAnswers, locationStatements } from "./location-check.ts";
import type {
  DeniedIdentifier,
  DeploymentCheckAnswer,
  NeedAnswer,
  NotGoverned,
  PolicyVerdict,
  UnplacedItem,
  UsedService,
  Vendor,
} from "./answer.ts";
import type { TemplateIndex } from "./index.node.ts";
import { statementsOf } from "./statements.ts";
import { azureTypeOf, terraformUnplacedReason, uncheckedVendor } from "./terraform.ts";

export type {
  DeniedIdentifier,
  DeploymentCheckAnswer,
  LocationAnswer,
  NeedAnswer,
  NotGoverned,
  PolicyVerdict,
  Statement,
  StatementKind,
  UnplacedItem,
  UsedService,
  Vendor,
} from "./answer.ts";

const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();
const vendorOf = (kind: DeploymentItem["kind"]): Vendor | undefined =>
  kind === "cloudformation-type" ? "aws" : kind === "azure-type" ? "azure" : kind === "gcp-api" ? "gcp" : undefined;
/** The vendor whose document governs an item: a Terraform type's is that of the identifier its inventory keeps. */
const itemVendor = (index: TemplateIndex, { kind, item }: DeploymentItem): Vendor | undefined =>
  kind === "terraform-type" ? index.terraformNeed(item)?.vendor : vendorOf(kind);
/** The Google APIs a deployment names: its API list, or the APIs its google_* Terraform types call. */
const googleApis = (index: TemplateIndex, deployment: Deployment): string[] =>
  deployment.items.flatMap(({ kind, item }) =>
    kind === "gcp-api" ? [item] : kind === "terraform-type" ? [index.terraformApi(item) ?? []].flat() : [],
  );

interface Placement {
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

/**
 * Which service each item belongs to: its approved owners when it has some, else its one owner;
 * an item several services own, none approved, goes to the owner already used or the one owning
 * most such items, and the others are named (choices). What cannot be placed is kept with the reason.
 */
function place(catalogue: Catalogue, index: TemplateIndex, deployment: Deployment, approved: Set<string>): Placement {
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

/**
 * The implicit-needs rows the deployment's tools and types trigger (a plan's APIs through `index`):
 * what deploying it needs, or (`tools`) the tool commands a user may run beside it (sam logs).
 */
export function triggeredNeeds(deployment: Deployment, index?: TemplateIndex, tools = false): ImplicitNeed[] {
  const apis = new Set(index ? googleApis(index, deployment) : []);
  // A plan's azurerm_* types ask for their ARM types as an ARM template's resources do.
  const azure = new Set(index ? deployment.items.flatMap((item) => azureTypeOf(index, item)?.toLowerCase() ?? []) : []);
  const has = (kind: DeploymentItem["kind"], type: string) =>
    (kind === "gcp-api" && apis.has(type)) ||
    (kind === "azure-type" && azure.has(type.toLowerCase())) ||
    deployment.items.some((item) => item.kind === kind && item.item.toLowerCase() === type.toLowerCase());
  return IMPLICIT_NEEDS.filter((row) => {
    if ((row.tool === true) !== tools) return false;
    const trigger = row.trigger;
    if (trigger.kind === "cloudformation-template") return deployment.format === "cloudformation";
    if (trigger.kind === "parameter-type")
      return deployment.parameterTypes.some((type) => type.startsWith(trigger.prefix));
    if (trigger.kind === "cdk") return deployment.cdk;
    if (trigger.kind === "sam") return deployment.sam;
    if (trigger.kind === "property") return deployment.shows?.includes(row.id) === true;
    const kind =
      row.providerId === "aws" ? "cloudformation-type" : row.providerId === "azure" ? "azure-type" : "gcp-api";
    return has(kind, trigger.type) && (trigger.with === undefined || has(kind, trigger.with));
  });
}

const VENDORS: readonly Vendor[] = ["aws", "azure", "gcp"];

/** What the reader did not read that a vendor's verdict concerns (an ARM linked template: Azure's). */
export const unreadFor = (deployment: Deployment, vendor: Vendor): string[] =>
  deployment.notRead.filter((entry) => (deployment.notReadVendors?.[entry] ?? ["azure"]).includes(vendor));

/** Per identifier key, the identifier as first spelt and what in the deployment needs it. */
export type Required = Map<string, { identifier: string; why: Set<string> }>;

/** What each vendor's document must allow for this deployment, each identifier with what needs it. */
export function deploymentRequirements(index: TemplateIndex, deployment: Deployment, needs: readonly ImplicitNeed[]) {
  const byVendor = new Map<Vendor, Required>();
  const need = (vendor: Vendor, identifier: string, why: string) => {
    const map: Required = byVendor.get(vendor) ?? (new Map() as Required);
    byVendor.set(vendor, map);
    const key = vendor === "azure" ? identifier.toLowerCase() : identifier;
    const entry = map.get(key) ?? { identifier, why: new Set<string>() };
    entry.why.add(why);
    map.set(key, entry);
  };
  const unchecked: string[] = [];
  for (const { kind, item } of deployment.items) {
    const vendor = vendorOf(kind);
    // A Terraform type needs the identifier its inventory keeps (the API, the IAM prefix's actions, the
    // ARM type an Indexed-mode policy evaluates); a type of a governed provider without one is unchecked.
    if (kind === "terraform-type") {
      const wanted = index.terraformNeed(item);
      if (!wanted) {
        if (uncheckedVendor(item)) unchecked.push(item);
      } else if (wanted.vendor !== "azure" || index.azureIndexed(wanted.identifier) !== false)
        need(wanted.vendor, wanted.identifier, item);
    }
    if (!vendor) continue;
    if (vendor === "aws") {
      const actions = index.handlerPermissions(item);
      if (!actions) unchecked.push(item);
      for (const action of actions ?? []) need("aws", action, item);
    } else if (vendor === "gcp" || index.azureIndexed(item) !== false) need(vendor, item, item);
  }
  for (const row of needs) for (const identifier of row.identifiers) need(row.providerId, identifier, row.id);
  // What was not read gets the verdicts it concerns, if only to say so (an ARM linked template: Azure's).
  for (const vendor of VENDORS)
    if (unreadFor(deployment, vendor).length > 0 && !byVendor.has(vendor)) byVendor.set(vendor, new Map() as Required);
  return { byVendor, unchecked: sortedUnique(unchecked) };
}

type Document =
  | { allows: (identifier: string) => boolean; implied: { id: string; linkedTo: string[]; complete: boolean }[] }
  | string;

/** The generated document's test for an identifier, or why there is no document. */
function documentFor(catalogue: Catalogue, vendor: Vendor, ids: readonly string[]): Document {
  try {
    if (vendor === "aws") {
      const result = scpPolicy(catalogue, ids, { strategy: "allow-list" });
      const actions = (result.policies ?? [result.policy]).flatMap((policy) =>
        policy.Statement.flatMap((statement) => statement.Action ?? []),
      );
      return { allows: (action) => scpAllows(actions, action), implied: result.implied };
    }
    if (vendor === "azure") {
      const result = azurePolicySet(catalogue, ids);
      const types = new Set(
        result.policy.properties.parameters.allowedResourceTypes!.defaultValue.map((type) => type.toLowerCase()),
      );
      return { allows: (type) => types.has(type.toLowerCase()), implied: result.implied };
    }
    const result = gcpOrgPolicy(catalogue, ids);
    const apis = new Set(result.policy.spec.rules[0]!.values.allowedValues);
    return { allows: (api) => apis.has(api), implied: result.implied };
  } catch (error) {
    if (error instanceof PolicyRequestError) return error.message;
    throw error;
  }
}

/** The catalogue services of a vendor whose approval allows an identifier. */
function allowersOf(catalogue: Catalogue, index: TemplateIndex, vendor: Vendor, identifier: string): string[] {
  if (vendor === "azure") return [...index.azureOwners(identifier), ...index.azureNeededBy(identifier)];
  if (vendor === "gcp") return [...index.gcpOwners(identifier)];
  const prefix = identifier.split(":")[0]!;
  return catalogue.services
    .filter((service) => catalogue.bySlug.get(service.slug)!.policyIdentifiers.iamPrefixes?.includes(prefix))
    .map((service) => service.slug);
}

function verdict(
  catalogue: Catalogue,
  index: TemplateIndex,
  vendor: Vendor,
  required: Required,
  ids: readonly string[],
  document: Document = documentFor(catalogue, vendor, ids),
  unread: readonly string[] = [],
): PolicyVerdict {
  const refused = typeof document === "string" ? document : undefined;
  const denied: DeniedIdentifier[] = [];
  const notGoverned: NotGoverned[] = [];
  for (const { identifier, why } of [...required.values()].sort((a, b) => (a.identifier < b.identifier ? -1 : 1))) {
    if (typeof document !== "string" && document.allows(identifier)) continue;
    const approve = sortedUnique(allowersOf(catalogue, index, vendor, identifier)).slice(0, 10);
    const reason = vendor === "gcp" ? ungovernedReason(index, identifier, approve) : undefined;
    if (reason) notGoverned.push({ identifier, neededFor: [...why].sort(), reason });
    else denied.push({ identifier, neededFor: [...why].sort(), approve });
  }
  return {
    providerId: vendor,
    approvedServiceIds: [...ids],
    // What was not read is not allowed: the verdict speaks only of what it saw.
    allowed: denied.length === 0 && unread.length === 0,
    checked: required.size,
    denied,
    ...(refused ? { refused } : {}),
    ...(unread.length > 0 ? { notEvaluated: [...unread] } : {}),
    wider:
      typeof document === "string"
        ? []
        : document.implied
            .filter((entry) => !entry.linkedTo.every((link) => link === "essentials"))
            .map((entry) => ({ id: entry.id, cameWith: entry.linkedTo, complete: entry.complete })),
    notGoverned,
  };
}

/**
 * Why gcp.restrictServiceUsage does not govern an API, when it does not: the constraint governs only
 * the services Google lists as supported (index.gcpSupportedSource). An API the vendored part of that list
 * would hold and does not is not governed; one past that part is counted so only when nothing in the
 * catalogue can approve it (no list could allow it, so a denial would be the catalogue's, not Google's).
 */
function ungovernedReason(index: TemplateIndex, api: string, approve: readonly string[]): string | undefined {
  const governed = index.gcpGoverned(api);
  if (governed === false)
    return `Not on Google's list of the services gcp.restrictServiceUsage supports (${index.gcpSupportedSource}): the constraint does not govern it.`;
  if (governed === undefined && approve.length === 0)
    return `No catalogue service names it, and neither the vendored part of Google's supported-services list (${index.gcpSupportedSource}, accessapproval … bigtabletableadmin) nor any service confirms the constraint supports it: counted as not governed; Google's page is the authority.`;
  return undefined;
}

/**
 * For each denied item no service being added covers, nor the document generated with them allows,
 * the one service to approve for it: the first of those allowing it that is still open to new
 * customers (as place() chooses among owners).
 */
function allowing(
  catalogue: Catalogue,
  verdicts: readonly PolicyVerdict[],
  approved: ReadonlySet<string>,
  adding: ReadonlySet<string>,
  needs: readonly NeedAnswer[],
): string[] {
  // A row with services to approve is allowed by them (a row of a service, through its dependencies).
  const rows = new Set(needs.filter((row) => row.approve.length > 0).map((row) => row.id));
  const picks = new Set<string>();
  const known = sortedUnique([...approved, ...adding]).filter((id) => catalogue.bySlug.has(id));
  for (const { providerId, denied } of verdicts) {
    // What the services being added already allow (a Lambda function's ec2:Describe* and kms: calls come
    // with aws-lambda's dependencies) needs no further service: none is suggested for it.
    const document = adding.size > 0 ? documentFor(catalogue, providerId, known) : undefined;
    const allowedByAdding = (identifier: string) => typeof document === "object" && document.allows(identifier);
    for (const { identifier, approve, neededFor } of denied) {
      const covered = approve.some((id) => approved.has(id) || adding.has(id) || picks.has(id));
      if (covered || approve.length === 0 || neededFor.every((why) => rows.has(why))) continue;
      if (allowedByAdding(identifier)) continue;
      const open = approve.find((id) => !closedToNew(catalogue, id)) ?? approve[0]!;
      picks.add(open);
    }
  }
  return [...picks];
}

const closedToNew = (catalogue: Catalogue, id: string) =>
  ["deprecated", "sunset", "retired"].includes(catalogue.bySlug.get(id)?.service.lifecycle?.status ?? "");

/** A tool's commands are no part of the deployment: each named with what to approve to run it, in no verdict. */
function toolNeedsOf(
  catalogue: Catalogue,
  index: TemplateIndex,
  deployment: Deployment,
  documents: ReadonlyMap<Vendor, Document>,
  ids: readonly string[],
): NeedAnswer[] {
  return triggeredNeeds(deployment, index, true).map((row) => {
    const document = documents.get(row.providerId) ?? documentFor(catalogue, row.providerId, ids);
    const allowed = typeof document !== "string" && row.identifiers.every((identifier) => document.allows(identifier));
    return {
      id: row.id,
      what: row.what,
      identifiers: row.identifiers,
      services: row.services,
      approve: allowed ? [] : row.services.filter((id) => !ids.includes(id)),
      source: row.source,
    };
  });
}

/**
 * The services used: an approved one as it is; one not approved is missing when something of it is
 * denied (or no document speaks its provider's language), else allowed, with what brought it.
 */
function usedServices(
  index: TemplateIndex,
  deployment: Deployment,
  placement: ReturnType<typeof place>,
  documents: ReadonlyMap<Vendor, Document | string>,
  denied: ReadonlySet<string>,
): UsedService[] {
  const through = new Map<string, string[]>();
  for (const document of documents.values())
    if (typeof document !== "string")
      for (const entry of document.implied) if (entry.complete) through.set(entry.id, entry.linkedTo);
  return [...placement.services.values()]
    .map((service): UsedService => {
      if (service.approved) return service;
      const vendor = itemVendor(
        index,
        deployment.items.find((item) => item.item === service.items[0]!.item)!,
      );
      const lacking = !vendor || !documents.has(vendor) || service.items.some((item) => denied.has(item.item));
      return {
        ...service,
        status: lacking ? "missing" : "allowed",
        ...(through.has(service.id) ? { allowedThrough: through.get(service.id)! } : {}),
      };
    })
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** The day versions are judged on, and the window within which one is retiring. */
export interface VersionWindow {
  readonly asOf: string;
  readonly withinDays: number;
  /** The first phase a version fails on (deprecated when absent; ./retiring.ts). */
  readonly failOn?: FailOn;
}
/** The window when a request gives none. */
export const RETIRING_WITHIN_DAYS = 180;

/**
 * The check's answer. `approvedServiceIds` are known ids (the endpoint checked them); an unknown
 * location of `allowedLocations` is a PolicyRequestError (a 400, as at the policy endpoints).
 */
export function checkDeployment(
  catalogue: Catalogue,
  index: TemplateIndex,
  deployment: Deployment,
  approvedServiceIds: readonly string[],
  window: VersionWindow,
  allowedLocations?: readonly string[],
): DeploymentCheckAnswer {
  const locations = locationAnswers(catalogue, deployment, allowedLocations);
  const approved = new Set(approvedServiceIds);
  const placement = place(catalogue, index, deployment, approved);
  const needs = triggeredNeeds(deployment, index);
  const { byVendor, unchecked } = deploymentRequirements(index, deployment, needs);
  // What the reader did not read (a linked template, a module): the verdicts it concerns say so.
  const unread = (vendor: Vendor) => unreadFor(deployment, vendor);
  const ids = sortedUnique(approvedServiceIds);
  const documents = new Map([...byVendor.keys()].map((vendor) => [vendor, documentFor(catalogue, vendor, ids)]));
  const first = [...byVendor].map(([vendor, required]) =>
    verdict(catalogue, index, vendor, required, ids, documents.get(vendor), unread(vendor)),
  );
  // What the approved list's documents deny, by what needs it: a service not approved is missing
  // only when something of it is denied (or no document speaks its provider's language).
  const denied = new Set(first.flatMap((entry) => entry.denied.flatMap((item) => item.neededFor)));
  const services = usedServices(index, deployment, placement, documents, denied);
  const missing = services.filter((service) => service.status === "missing").map((service) => service.id);
  const needAnswers: NeedAnswer[] = needs.map((row) => ({
    id: row.id,
    what: row.what,
    identifiers: row.identifiers,
    services: row.services,
    // A row that belongs to a service is allowed with that service's approval (its dependencies);
    // the services owning the identifiers are suggested only for a row of no service.
    approve: denied.has(row.id) ? (row.service ? [row.service] : row.services).filter((id) => !approved.has(id)) : [],
    source: row.source,
  }));
  const toolNeeds = toolNeedsOf(catalogue, index, deployment, documents, ids);
  const arrivals = placement.unplaced.flatMap((entry) =>
    entry.arrivesWith && denied.has(entry.item) && !entry.arrivesWith.some((id) => missing.includes(id))
      ? [entry.arrivesWith[0]!]
      : [],
  );
  const adding = new Set([...missing, ...needAnswers.flatMap((row) => row.approve), ...arrivals]);
  // Only services this catalogue holds: the implicit-needs table names ids a smaller catalogue (a
  // test's, a mirror's subset) may lack, and a document cannot be generated from an unknown id.
  const suggested = sortedUnique([
    ...ids,
    ...adding,
    ...allowing(catalogue, first, approved, adding, needAnswers),
  ]).filter((id) => catalogue.bySlug.has(id));
  const verdicts = [...byVendor].flatMap(([vendor, required], at) => [
    first[at]!,
    ...(suggested.length > ids.length
      ? [verdict(catalogue, index, vendor, required, suggested, undefined, unread(vendor))]
      : []),
  ]);
  const answer = {
    format: deployment.format,
    tools: [...(deployment.cdk ? ["aws-cdk"] : []), ...(deployment.sam ? ["aws-sam"] : [])],
    expanded: deployment.expanded,
    items: deployment.items.length,
    services,
    // Every service the suggested list adds: the verdict needs each one's approval.
    missingServiceIds: suggested.filter((id) => !approved.has(id)),
    choices: placement.choices,
    unplaced: placement.unplaced,
    notEvaluated: [...placement.notEvaluated, ...deployment.notRead],
    implicitNeeds: needAnswers,
    toolNeeds,
    verdicts,
    suggestedServiceIds: suggested,
    versions: versionAnswers(catalogue, deployment, window.asOf, window.withinDays, window.failOn),
    locations,
  };
  return {
    ...answer,
    statements: [
      ...statementsOf(index, deployment, answer, unchecked),
      ...versionStatements(answer.versions, window.withinDays, window.failOn),
      ...locationStatements(deployment, locations, allowedLocations),
    ],
  };
}
