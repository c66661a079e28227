/**
 * Policy documents from an approved list: an AWS service control policy, an Azure policy set
 * definition (initiative) and a Google Cloud organization policy. Pure functions over a Catalogue.
 *
 * Decisions (../shared/DESIGN.md, "Decisions"; issue 18):
 * - each function returns the document *explained*; the endpoint answers the bare document
 *   (`policyAnswer`/`scpAnswer`) unless `?explain=true`;
 * - the vendor's account-operation essentials (policies/essentials.ts) stay usable unless the
 *   caller opts out, so an approved list never locks administrators out;
 * - nothing to allow (no approved service of the provider, or none with identifiers) throws
 *   PolicyRequestError (400), never a deny-everything document;
 * - a deny-list SCP over AWS's 5,120 characters throws PolicyTooLargeError, which says it cannot be
 *   split and points at the allow-list strategy, whose Allow SCPs add up on one target.
 */
import type { ListCatalogue } from "./list-catalogue.ts";
import {
  AWS_ESSENTIAL_PREFIXES,
  AZURE_ESSENTIAL_RESOURCE_TYPES,
  GCP_ESSENTIAL_SERVICES,
} from "./policies/essentials.ts";
import { SCP_MAX_CHARACTERS, SCP_MAX_PER_TARGET } from "./limits.ts";
import type {
  AzurePolicySetDocumentT,
  AzurePolicySetExplainedT,
  GcpOrgPolicyDocumentT,
  GcpOrgPolicyExplainedT,
  ImpliedServiceT,
  PolicyIdentifiersT,
  ScpDocumentT,
  ScpExplainedT,
  ServiceT,
  SkippedServiceT,
} from "./schema.ts";

/** Built-in Azure Policy "Allowed resource types" (mode Indexed, effect deny). */
export const AZURE_ALLOWED_RESOURCE_TYPES_DEFINITION =
  "/providers/Microsoft.Authorization/policyDefinitions/a08ec900-254a-4555-9bf5-e42af04b5c5c";
export const GCP_CONSTRAINT = "gcp.restrictServiceUsage";
export const GCP_ORGANIZATION_PLACEHOLDER = "ORGANIZATION_ID";

/** A request the generators cannot answer with a usable document: the endpoint answers 400. */
export class PolicyRequestError extends Error {
  readonly title: string;
  constructor(title: string, details: string) {
    super(details);
    this.title = title;
  }
}

export class PolicyTooLargeError extends PolicyRequestError {
  constructor(details: string) {
    super("Policy too large", details);
  }
}

export interface PolicyOptions {
  /** Keep the vendor's account-operation essentials usable (default true). */
  readonly essentials?: boolean;
}
export type ScpStrategy = "deny-list" | "allow-list";
export interface ScpOptions extends PolicyOptions {
  readonly strategy?: ScpStrategy;
}
export interface GcpOptions extends PolicyOptions {
  /** Numeric organization id for the policy name; a placeholder to replace when omitted. */
  readonly organizationId?: string;
}

/** "1 approved service", "2 approved services". */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();
/** Length of the document as AWS counts it: JSON without white space. */
export const minifiedLength = (document: unknown) => JSON.stringify(document).length;

interface Vendor {
  readonly providerId: string;
  readonly providerName: string;
  /** "an AWS", "a Google Cloud". */
  readonly aProvider: string;
  /** What a document of this vendor is made of, e.g. "IAM service prefix". */
  readonly identifierName: string;
  /** The same with its article: "an IAM service prefix". */
  readonly anIdentifier: string;
  readonly identifiersOf: (identifiers: PolicyIdentifiersT) => readonly string[] | undefined;
  readonly essentials: readonly string[];
}

const AWS: Vendor = {
  providerId: "aws",
  providerName: "AWS",
  aProvider: "an AWS",
  identifierName: "IAM service prefix",
  anIdentifier: "an IAM service prefix",
  identifiersOf: (identifiers) => identifiers.iamPrefixes,
  essentials: AWS_ESSENTIAL_PREFIXES,
};
const AZURE: Vendor = {
  providerId: "azure",
  providerName: "Azure",
  aProvider: "an Azure",
  identifierName: "Azure resource type",
  anIdentifier: "an Azure resource type",
  identifiersOf: (identifiers) => identifiers.resourceTypes,
  essentials: AZURE_ESSENTIAL_RESOURCE_TYPES,
};
const GCP: Vendor = {
  providerId: "gcp",
  providerName: "Google Cloud",
  aProvider: "a Google Cloud",
  identifierName: "Google API service name",
  anIdentifier: "a Google API service name",
  identifiersOf: (identifiers) => identifiers.apiServices?.map((api) => api.name),
  essentials: GCP_ESSENTIAL_SERVICES,
};

/** What every generator starts from: the identifiers to allow and what the explain mode reports. */
interface Selection {
  /** Approved services of the vendor that have identifiers. */
  readonly included: readonly ServiceT[];
  /** The approved services' identifiers, sorted, without the essentials. */
  readonly approved: readonly string[];
  /** The essentials kept (empty when the caller opted out). */
  readonly essentials: readonly string[];
  /** approved ∪ essentials, sorted: what the document allows. */
  readonly allowed: readonly string[];
  readonly skipped: SkippedServiceT[];
  readonly implied: ImpliedServiceT[];
}

function select(catalogue: ListCatalogue, ids: readonly string[], vendor: Vendor, options: PolicyOptions): Selection {
  const approvedIds = new Set(ids);
  const own: ServiceT[] = [];
  const included: ServiceT[] = [];
  const skipped: SkippedServiceT[] = [];
  const identifiers: string[] = [];
  for (const id of approvedIds) {
    const entry = catalogue.bySlug.get(id)!;
    const service = entry.service;
    if (service.providerId !== vendor.providerId) {
      skipped.push({ id, providerId: service.providerId, reason: `not a service of ${vendor.providerName}` });
      continue;
    }
    own.push(service);
    const found = vendor.identifiersOf(entry.policyIdentifiers);
    if (found && found.length > 0) {
      included.push(service);
      identifiers.push(...found);
    } else {
      skipped.push({
        id,
        providerId: service.providerId,
        reason: entry.policyIdentifiers.noneReason ?? `has no ${vendor.identifierName}`,
      });
    }
  }
  if (own.length === 0)
    throw new PolicyRequestError(
      "Nothing to allow",
      `${approvedIds.size === 1 ? "The approved service is not" : `None of the ${approvedIds.size} approved services is`} ${vendor.aProvider} service, so there is nothing for ${vendor.aProvider} policy to allow. Add ${vendor.providerName} services (provider "${vendor.providerId}") to the list.`,
    );
  if (included.length === 0)
    throw new PolicyRequestError(
      "Nothing to allow",
      `${own.length === 1 ? `The approved ${vendor.providerName} service has no ${vendor.identifierName}` : `None of the ${own.length} approved ${vendor.providerName} services has ${vendor.anIdentifier}`} (${own
        .slice(0, 10)
        .map((service) => service.slug)
        .join(", ")}), so there is nothing for the policy to allow.`,
    );
  const approved = sortedUnique(identifiers);
  const essentials = options.essentials === false ? [] : sortedUnique(vendor.essentials);
  const allowed = sortedUnique([...approved, ...essentials]);
  return {
    included,
    approved,
    essentials,
    allowed,
    skipped,
    implied: impliedServices(catalogue, vendor, approvedIds, included, new Set(allowed)),
  };
}

/** Catalogue services not approved that the document allows anyway, through a shared identifier. */
function impliedServices(
  catalogue: ListCatalogue,
  vendor: Vendor,
  approvedIds: ReadonlySet<string>,
  included: readonly ServiceT[],
  allowed: ReadonlySet<string>,
): ImpliedServiceT[] {
  const carriers = new Map<string, string[]>();
  for (const service of included)
    for (const identifier of vendor.identifiersOf(catalogue.bySlug.get(service.slug)!.policyIdentifiers) ?? [])
      carriers.set(identifier, [...(carriers.get(identifier) ?? []), service.slug]);
  const implied: ImpliedServiceT[] = [];
  for (const service of catalogue.services) {
    if (service.providerId !== vendor.providerId || approvedIds.has(service.slug)) continue;
    const own = vendor.identifiersOf(catalogue.bySlug.get(service.slug)!.policyIdentifiers) ?? [];
    const shared = sortedUnique(own.filter((identifier) => allowed.has(identifier)));
    if (shared.length === 0) continue;
    implied.push({
      id: service.slug,
      identifiers: shared,
      linkedTo: sortedUnique(shared.flatMap((identifier) => carriers.get(identifier) ?? [])),
      complete: own.every((identifier) => allowed.has(identifier)),
    });
  }
  return implied;
}

function commonNotes(selection: Selection, vendor: Vendor, optOut: string): string[] {
  return [
    ...(selection.implied.length > 0
      ? [
          `The ${vendor.identifierName}s in this document also allow ${count(selection.implied.length, "other catalogue service")} (see implied in explain mode): approving one service approves everything sharing its identifiers.`,
        ]
      : []),
    selection.essentials.length > 0
      ? `Account-operation essentials are kept usable so administrators are never locked out (${optOut} leaves them out).`
      : "Essentials left out (essentials=false): make sure administrators keep what they need to sign in and manage the account.",
  ];
}

// ---------------------------------------------------------------------------------------------
// AWS service control policies

const SCP_VERSION = "2012-10-17" as const;

function denyListScp(actions: readonly string[]): ScpDocumentT {
  return {
    Version: SCP_VERSION,
    Statement: [{ Sid: "DenyAllButApprovedServices", Effect: "Deny", NotAction: [...actions], Resource: "*" }],
  };
}

function allowListScp(actions: readonly string[], part: number, parts: number): ScpDocumentT {
  return {
    Version: SCP_VERSION,
    Statement: [
      {
        Sid: parts === 1 ? "AllowApprovedServices" : `AllowApprovedServicesPart${part}`,
        Effect: "Allow",
        Action: [...actions],
        Resource: "*",
      },
    ],
  };
}

/** Splits the actions into as few allow-list SCPs as fit AWS's size limit, in order. */
function allowListParts(actions: readonly string[]): ScpDocumentT[] {
  const groups: string[][] = [];
  // The longest Sid a part can carry, so that numbering the parts afterwards cannot push one over.
  const empty = minifiedLength(allowListScp([], SCP_MAX_PER_TARGET, SCP_MAX_PER_TARGET));
  let current: string[] = [];
  let size = empty;
  for (const action of actions) {
    const added = JSON.stringify(action).length + (current.length > 0 ? 1 : 0);
    if (current.length > 0 && size + added > SCP_MAX_CHARACTERS) {
      groups.push(current);
      current = [];
      size = empty;
    }
    size += JSON.stringify(action).length + (current.length > 0 ? 1 : 0);
    current.push(action);
  }
  groups.push(current);
  return groups.map((group, index) => allowListScp(group, index + 1, groups.length));
}

export function scpPolicy(catalogue: ListCatalogue, ids: readonly string[], options: ScpOptions = {}): ScpExplainedT {
  const strategy = options.strategy ?? "deny-list";
  const selection = select(catalogue, ids, AWS, options);
  const actions = selection.allowed.map((prefix) => `${prefix}:*`);
  const notes = [
    "A starting point: review the actions, add co-required permissions, and test in a non-production organisational unit before use.",
    ...commonNotes(selection, AWS, "essentials=false"),
    "SCPs do not affect the management account or service-linked roles, and grant nothing: identity policies must still allow the actions.",
  ];
  if (strategy === "deny-list") {
    const policy = denyListScp(actions);
    const characters = minifiedLength(policy);
    if (characters > SCP_MAX_CHARACTERS)
      throw new PolicyTooLargeError(
        `The deny-list SCP would be ${characters} characters; AWS allows ${SCP_MAX_CHARACTERS}. A deny-list SCP cannot be split: two deny-all-but SCPs on one target deny everything not in both lists. Remove services from the list, or use strategy=allow-list, whose Allow SCPs add up on one target (up to ${SCP_MAX_PER_TARGET}).`,
      );
    return {
      policy,
      strategy,
      characters,
      skipped: selection.skipped,
      implied: selection.implied,
      essentials: [...selection.essentials],
      unconfirmed: [],
      notes: [
        'Deny-list: attach beside FullAWSAccess (aws organizations create-policy --type SERVICE_CONTROL_POLICY --name approved-services --description "Approved services" --content file://scp.json, then aws organizations attach-policy --policy-id <id> --target-id <ou-or-account>). Everything not listed in NotAction is denied.',
        ...notes,
      ],
    };
  }
  const policies = allowListParts(actions);
  if (policies.length > SCP_MAX_PER_TARGET)
    throw new PolicyTooLargeError(
      `The allow-list needs ${policies.length} SCPs of at most ${SCP_MAX_CHARACTERS} characters; AWS attaches at most ${SCP_MAX_PER_TARGET} to one target. Remove services from the list.`,
    );
  return {
    policy: policies[0]!,
    ...(policies.length > 1 ? { policies } : {}),
    strategy,
    characters: minifiedLength(policies[0]),
    skipped: selection.skipped,
    implied: selection.implied,
    essentials: [...selection.essentials],
    unconfirmed: [],
    notes: [
      `Allow-list: attach ${policies.length === 1 ? "this SCP" : `all ${policies.length} SCPs`} to the target in place of FullAWSAccess (attach first, then detach FullAWSAccess). Allows of several SCPs on one target add up; AWS allows ${SCP_MAX_PER_TARGET} SCPs per target, counting any other SCP attached there.`,
      "An action must be allowed at every level above the account too (root and each OU): keep FullAWSAccess there, or attach the same allow-list.",
      ...notes,
    ],
  };
}

/**
 * The body of POST /v1/policies/alpha-scp: the SCP itself, the `part`-th allow-list SCP, or with
 * `explain` the explained result. An allow-list needing several SCPs and no `part` is a 400 that
 * says how to fetch them, so the body is never a file AWS would refuse.
 */
export function scpAnswer(result: ScpExplainedT, request: { explain?: boolean; part?: number }): unknown {
  const parts = result.policies ?? [result.policy];
  if (request.part !== undefined) {
    if (result.strategy !== "allow-list")
      throw new PolicyRequestError("Invalid query", "part applies to strategy=allow-list only.");
    if (request.part > parts.length)
      throw new PolicyRequestError(
        "Invalid query",
        `This allow-list needs ${count(parts.length, "SCP")}; part must be 1 to ${parts.length}.`,
      );
  }
  const policy = parts[(request.part ?? 1) - 1]!;
  if (request.explain) return { ...result, policy, characters: minifiedLength(policy) };
  if (parts.length > 1 && request.part === undefined)
    throw new PolicyRequestError(
      "Several SCPs needed",
      `This allow-list needs ${parts.length} SCPs, all attached to the same target: download each with part=1 to part=${parts.length}, or all of them with explain=true (policies).`,
    );
  return policy;
}

/** The body of the Azure and GCP endpoints: the document, or with `explain` the explained result. */
export function policyAnswer<T extends { policy: unknown }>(result: T, request: { explain?: boolean }): unknown {
  return request.explain ? result : result.policy;
}

// ---------------------------------------------------------------------------------------------
// Azure policy set definitions

export function azurePolicySet(
  catalogue: ListCatalogue,
  ids: readonly string[],
  options: PolicyOptions = {},
): AzurePolicySetExplainedT {
  const selection = select(catalogue, ids, AZURE, options);
  const policy: AzurePolicySetDocumentT = {
    properties: {
      displayName: "Approved Azure services",
      description: `Allows only the resource types of ${count(selection.included.length, "approved service")}${selection.essentials.length > 0 ? " and the account-operation essentials (resource groups, deployments, role assignments, policy, monitoring)" : ""}. Generated by the Cloud Services Catalogue.`,
      policyType: "Custom",
      metadata: { category: "General", version: "1.0.0", generatedBy: "cloud-services-catalogue" },
      parameters: {
        allowedResourceTypes: {
          type: "Array",
          metadata: { displayName: "Allowed resource types", description: "Resource types that may be deployed" },
          defaultValue: [...selection.allowed],
        },
      },
      policyDefinitions: [
        {
          policyDefinitionReferenceId: "allowedResourceTypes",
          policyDefinitionId: AZURE_ALLOWED_RESOURCE_TYPES_DEFINITION,
          parameters: { listOfResourceTypesAllowed: { value: "[parameters('allowedResourceTypes')]" } },
        },
      ],
    },
  };
  return {
    policy,
    characters: minifiedLength(policy),
    skipped: selection.skipped,
    implied: selection.implied,
    essentials: [...selection.essentials],
    unconfirmed: [],
    notes: [
      'Create at a management group with the ARM shape: az rest --method put --url \'https://management.azure.com/providers/Microsoft.Management/managementGroups/<group>/providers/Microsoft.Authorization/policySetDefinitions/approved-services?api-version=2023-04-01\' --body @policy-set.json; or az policy set-definition create --name approved-services --management-group <group> --definitions "$(jq .properties.policyDefinitions policy-set.json)" --params "$(jq .properties.parameters policy-set.json)". Then assign it (az policy assignment create --policy-set-definition approved-services …).',
      "The built-in 'Allowed resource types' runs in Indexed mode: only resource types that support tags and location are checked.",
      "Services deploy supporting resources of other types (network interfaces, disks, child resources such as databases): add those types, and assign with enforcement mode DoNotEnforce first to see what would be denied.",
      ...commonNotes(selection, AZURE, "essentials=false"),
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Google Cloud organization policies

export function gcpOrgPolicy(
  catalogue: ListCatalogue,
  ids: readonly string[],
  options: GcpOptions = {},
): GcpOrgPolicyExplainedT {
  const selection = select(catalogue, ids, GCP, options);
  const unconfirmed = sortedUnique(
    selection.included.flatMap(
      (service) =>
        catalogue.bySlug
          .get(service.slug)!
          .policyIdentifiers.apiServices?.filter((api) => !api.restrictServiceUsage)
          .map((api) => api.name) ?? [],
    ),
  );
  const organization = options.organizationId ?? GCP_ORGANIZATION_PLACEHOLDER;
  const policy: GcpOrgPolicyDocumentT = {
    name: `organizations/${organization}/policies/${GCP_CONSTRAINT}`,
    spec: { rules: [{ values: { allowedValues: [...selection.allowed] } }] },
  };
  return {
    policy,
    characters: minifiedLength(policy),
    skipped: selection.skipped,
    implied: selection.implied,
    essentials: [...selection.essentials],
    unconfirmed,
    notes: [
      options.organizationId
        ? "Apply with: gcloud org-policies set-policy policy.json"
        : `Replace ${GCP_ORGANIZATION_PLACEHOLDER} (or request organizationId=<id>), then apply with: gcloud org-policies set-policy policy.json`,
      "Every approved service's API names are listed, whether or not Google confirms gcp.restrictServiceUsage supports them: naming an unsupported service is harmless, leaving out a supported one would block it. unconfirmed (explain mode) lists those not confirmed.",
      "Google exempts some essential services (IAM, Cloud Logging, Cloud Monitoring) from this constraint whatever the policy says.",
      ...commonNotes(selection, GCP, "essentials=false"),
    ],
  };
}
