/**
 * The three policies' verdicts for a deployment (rule "policies"): what each vendor's document must
 * allow for it (each identifier with what needs it), the document generated from the approved list
 * (../../policies/documents.ts) and its verdict, what it does not govern, what to add for what stays
 * denied, and the tool commands' needs.
 */
import { azurePolicySet, gcpOrgPolicy, scpAllows, scpPolicy } from "../../policies/documents.ts";
import { PolicyRequestError } from "../../policies/errors.ts";
import type { ImplicitNeed } from "../../dependencies/implicit-needs.ts";
import type { Catalogue } from "../../load/load.ts";
import type { Deployment } from "../model/deployment.ts";
import type { DeniedIdentifier, NeedAnswer, NotGoverned, PolicyVerdict, UsedService, Vendor } from "../model/answer.ts";
import type { TemplateIndex } from "../index.node.ts";
import { triggeredNeeds } from "./needs.ts";
import { closedToNew, itemVendor, sortedUnique, vendorOf, type Placement } from "./services.ts";
import { uncheckedVendor } from "./terraform-types.ts";

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

export type Document =
  | { allows: (identifier: string) => boolean; implied: { id: string; linkedTo: string[]; complete: boolean }[] }
  | string;
/** The generated document's test for an identifier, or why there is no document. */
export function documentFor(catalogue: Catalogue, vendor: Vendor, ids: readonly string[]): Document {
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

export function verdict(
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
    const reason =
      vendor === "gcp"
        ? ungovernedReason(index, identifier, approve)
        : vendor === "azure"
          ? azureNotGoverned(identifier)
          : undefined;
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
 * Azure types the initiative never governs, whatever the list: Indexed mode, the built-in 'Allowed
 * resource types' policy's, never evaluates resource groups or subscriptions (Azure Policy's
 * definition structure: "The exception is resource groups and subscriptions … set mode to all").
 */
const AZURE_NOT_GOVERNED: ReadonlyMap<string, string> = new Map(
  [
    "microsoft.resources/resourcegroups",
    "microsoft.resources/subscriptions/resourcegroups",
    "microsoft.resources/subscriptions",
  ].map((type) => [
    type,
    "A resource group or subscription: the 'Allowed resource types' policy runs in mode Indexed, which never evaluates them (https://learn.microsoft.com/en-us/azure/governance/policy/concepts/definition-structure-basics#resource-manager-modes); their location is governed by 'Allowed locations for resource groups'.",
  ]),
);
const azureNotGoverned = (type: string) => AZURE_NOT_GOVERNED.get(type.toLowerCase());

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
export function allowing(
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

/** A tool's commands are no part of the deployment: each named with what to approve to run it, in no verdict. */
export function toolNeedsOf(
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
export function usedServices(
  index: TemplateIndex,
  deployment: Deployment,
  placement: Placement,
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

/**
 * Each vendor's verdict for the deployment, from the approved list and from the list with what the
 * check says to add: the implicit needs (what each would have approved), the tool needs, the
 * services used with their status, the suggested list, and the types no verdict could check.
 */
export function policyVerdicts(
  catalogue: Catalogue,
  index: TemplateIndex,
  deployment: Deployment,
  placement: Placement,
  approvedServiceIds: readonly string[],
) {
  const approved = new Set(approvedServiceIds);
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
  return { needs: needAnswers, unchecked, services, verdicts, suggested, toolNeeds };
}
