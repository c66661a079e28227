/**
 * Policy documents from an approved list: an AWS service control policy, an Azure policy set
 * definition (initiative) and a Google Cloud organization policy. Pure functions over a Catalogue.
 *
 * Decisions (docs/design.md, "Decisions"; decisions.md#policies-as-documents):
 * - each function returns the document *explained*; the endpoint answers the bare document
 *   (`policyAnswer`/`scpAnswer`) unless `?explain=true`;
 * - the vendor's account-operation essentials (policies/essentials.ts) stay usable unless the
 *   caller opts out, so an approved list never locks administrators out;
 * - nothing to allow (no approved service of the provider, or none with identifiers) throws
 *   PolicyRequestError (400), never a deny-everything document;
 * - a deny-list SCP over AWS's 5,120 characters throws PolicyTooLargeError, which says it cannot be
 *   split and points at the allow-list strategy, whose Allow SCPs add up on one target;
 * - approved means usable (decisions.md#approved-means-usable): each approved service's dependencies (data/dependencies/, see
 *   dependencies.ts) are allowed with it, and so are those of any service the document makes wholly
 *   usable through them; explain mode lists them under `dependencies`, and the catalogue services
 *   they also allow under `implied`;
 * - approved means deployable (decisions.md#approved-means-usable): explain mode checks the list against the vendor's
 *   deployment fixtures (policies/deployments/) under `deployments`, gives the reason for a
 *   dependency no catalogue service owns, says "essentials" in `linkedTo` where they are why a
 *   service is implied, and counts an Azure service whose missing types Indexed mode never
 *   evaluates as `complete`.
 */
import { actionMatches, identifierKey } from "../dependencies.ts";
import { AZURE_NOT_EVALUATED_OWN_TYPES } from "./azure-indexed.ts";
import { DEPLOYMENTS } from "./deployments/index.ts";
import type { ListCatalogue } from "../list-catalogue.ts";
import { AWS_ESSENTIAL_PREFIXES, AZURE_ESSENTIAL_RESOURCE_TYPES, GCP_ESSENTIAL_SERVICES } from "./essentials.ts";
import { SCP_MAX_CHARACTERS, SCP_MAX_PER_TARGET } from "../limits.ts";
import type {
  AzurePolicySetDocumentT,
  AzurePolicySetExplainedT,
  DeploymentCheckT,
  GcpOrgPolicyDocumentT,
  GcpOrgPolicyExplainedT,
  ImpliedServiceT,
  PolicyDependencyT,
  PolicyIdentifiersT,
  ScpDocumentT,
  ScpExplainedT,
  ServiceT,
  SkippedServiceT,
} from "../schema/index.ts";

/**
 * Creating the policy set with az, its display name and description taken from the document (the
 * README shows the same command).
 */
export const AZ_SET_DEFINITION_CREATE =
  'az policy set-definition create --name approved-services --management-group <group> --display-name "$(jq -r .properties.displayName policy-set.json)" --description "$(jq -r .properties.description policy-set.json)" --definitions "$(jq .properties.policyDefinitions policy-set.json)" --params "$(jq .properties.parameters policy-set.json)"';

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
  /** aws:PrincipalARN patterns exempt from the deny-list's deny (an ArnNotLike condition). */
  readonly exemptPrincipalArns?: readonly string[];
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
  /**
   * Which of a service's own identifiers a dependency touches: for AWS an action under the service's
   * prefix, elsewhere the same identifier (Azure types compared case-insensitively).
   */
  readonly touches: (own: string, dependency: string) => boolean;
}

const sameIdentifier = (providerId: string) => (own: string, dependency: string) =>
  identifierKey(providerId, own) === identifierKey(providerId, dependency);

const AWS: Vendor = {
  providerId: "aws",
  providerName: "AWS",
  aProvider: "an AWS",
  identifierName: "IAM service prefix",
  anIdentifier: "an IAM service prefix",
  identifiersOf: (identifiers) => identifiers.iamPrefixes,
  essentials: AWS_ESSENTIAL_PREFIXES,
  touches: (prefix, action) => action.startsWith(`${prefix}:`),
};
const AZURE: Vendor = {
  providerId: "azure",
  providerName: "Azure",
  aProvider: "an Azure",
  identifierName: "Azure resource type",
  anIdentifier: "an Azure resource type",
  identifiersOf: (identifiers) => identifiers.resourceTypes,
  essentials: AZURE_ESSENTIAL_RESOURCE_TYPES,
  touches: sameIdentifier("azure"),
};
const GCP: Vendor = {
  providerId: "gcp",
  providerName: "Google Cloud",
  aProvider: "a Google Cloud",
  identifierName: "Google API service name",
  anIdentifier: "a Google API service name",
  identifiersOf: (identifiers) => identifiers.apiServices?.map((api) => api.name),
  essentials: GCP_ESSENTIAL_SERVICES,
  touches: sameIdentifier("gcp"),
};

/** What every generator starts from: the identifiers to allow and what the explain mode reports. */
interface Selection {
  /** Approved services of the vendor that have identifiers. */
  readonly included: readonly ServiceT[];
  /** The approved services' identifiers, sorted, without the essentials. */
  readonly approved: readonly string[];
  /** The essentials kept (empty when the caller opted out). */
  readonly essentials: readonly string[];
  /** approved ∪ essentials, sorted: the vendor identifiers the document allows as such. */
  readonly allowed: readonly string[];
  /**
   * Dependencies the identifiers above do not already cover, sorted: Azure types and Google APIs
   * joined to `allowed` in the document, AWS actions added beside the `prefix:*` entries.
   */
  readonly extra: readonly string[];
  readonly dependencies: PolicyDependencyT[];
  readonly skipped: SkippedServiceT[];
  readonly implied: ImpliedServiceT[];
}

/** What explain mode reports of a selection, the same for every vendor's document. */
const selectionReport = (selection: Selection) => ({
  skipped: selection.skipped,
  implied: selection.implied,
  dependencies: selection.dependencies,
  essentials: [...selection.essentials],
});

/**
 * The deployment check: each fixture of the vendor naming an approved service, covered when the
 * document allows everything it creates or calls, else a gap with what is missing and the services
 * whose approval would close it.
 */
function deploymentCheck(
  catalogue: ListCatalogue,
  vendor: Vendor,
  ids: readonly string[],
  allows: (identifier: string) => boolean,
): DeploymentCheckT {
  const approved = new Set(ids);
  const ofVendor = DEPLOYMENTS.filter((fixture) => fixture.providerId === vendor.providerId);
  const check = {
    covered: [] as DeploymentCheckT["covered"],
    gaps: [] as DeploymentCheckT["gaps"],
    fixturesChecked: 0,
    fixturesOfVendor: ofVendor.length,
    resourceTypes: resourceTypeCheck(catalogue, vendor, ids, allows),
  };
  for (const fixture of ofVendor) {
    if (!fixture.services.some((id) => approved.has(id))) continue;
    check.fixturesChecked++;
    const sources = fixture.sources.map((source) => source.url);
    const missing = fixture.identifiers.filter((identifier) => !allows(identifier));
    if (missing.length === 0) {
      check.covered.push({ id: fixture.id, name: fixture.name, sources });
      continue;
    }
    const owners = catalogue.services
      .filter(
        (service) =>
          service.providerId === vendor.providerId &&
          (vendor.identifiersOf(catalogue.bySlug.get(service.slug)!.policyIdentifiers) ?? []).some((own) =>
            missing.some((identifier) => vendor.touches(own, identifier)),
          ),
      )
      .map((service) => service.slug);
    const approve = sortedUnique([...fixture.services, ...owners]).filter((id) => !approved.has(id));
    check.gaps.push({ id: fixture.id, name: fixture.name, sources, missing, approve });
  }
  return check;
}

/**
 * The approved services' own resource types (dependency groups from the vendor's resource schemas)
 * checked against the document: each type whose deployment needs something it does not allow.
 */
function resourceTypeCheck(
  catalogue: ListCatalogue,
  vendor: Vendor,
  ids: readonly string[],
  allows: (identifier: string) => boolean,
): NonNullable<DeploymentCheckT["resourceTypes"]> {
  const result = { checked: 0, denied: [] as NonNullable<DeploymentCheckT["resourceTypes"]>["denied"] };
  for (const id of sortedUnique(ids)) {
    const record = catalogue.bySlug.get(id);
    if (!record || record.service.providerId !== vendor.providerId) continue;
    for (const { resourceType, identifiers } of record.dependencies) {
      if (!resourceType) continue;
      result.checked++;
      const missing = identifiers.filter((identifier) => !allows(identifier));
      if (missing.length > 0) result.denied.push({ service: id, resourceType, missing });
    }
  }
  return result;
}

/** Whether an SCP's action list (prefix:* entries and action patterns) allows an action. */
export function scpAllows(actions: readonly string[], action: string): boolean {
  const [prefix, name] = action.split(":") as [string, string];
  return actions.some((entry) => {
    const [entryPrefix, pattern] = entry.split(":") as [string, string];
    return entryPrefix === prefix && actionMatches(pattern, name);
  });
}

/** Sorted, without a second spelling of an identifier the vendor treats as the same. */
function uniqueFor(vendor: Vendor, values: Iterable<string>): string[] {
  const byKey = new Map<string, string>();
  for (const value of values) {
    const key = identifierKey(vendor.providerId, value);
    if (!byKey.has(key)) byKey.set(key, value);
  }
  return [...byKey.values()].sort();
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
      `${approvedIds.size === 1 ? "The approved service is not" : `None of the ${approvedIds.size} approved services is`} ${vendor.aProvider} service, so there is nothing for ${vendor.aProvider} policy to allow, and a list without ${vendor.providerName} services needs none. To allow some, add services of provider "${vendor.providerId}".`,
    );
  if (included.length === 0)
    throw new PolicyRequestError(
      "Nothing to allow",
      `${own.length === 1 ? `The approved ${vendor.providerName} service has no ${vendor.identifierName}` : `None of the ${own.length} approved ${vendor.providerName} services has ${vendor.anIdentifier}`} (${own
        .slice(0, 10)
        .map((service) => service.slug)
        .join(", ")}), so there is nothing for the policy to allow.`,
    );
  const approved = uniqueFor(vendor, identifiers);
  const essentials = options.essentials === false ? [] : uniqueFor(vendor, vendor.essentials);
  const allowed = uniqueFor(vendor, [...approved, ...essentials]);
  const dependencies = withReasons(
    catalogue,
    vendor,
    dependencyClosure(catalogue, vendor, approvedIds, included, allowed),
  );
  const allowedKeys = new Set(allowed.map((identifier) => identifierKey(vendor.providerId, identifier)));
  const covered = (dependency: string) =>
    vendor.providerId === "aws"
      ? allowedKeys.has(dependency.split(":")[0]!)
      : allowedKeys.has(identifierKey(vendor.providerId, dependency));
  const extra = uniqueFor(
    vendor,
    dependencies.map((dependency) => dependency.identifier).filter((identifier) => !covered(identifier)),
  );
  return {
    included,
    approved,
    essentials,
    allowed,
    extra,
    dependencies,
    skipped,
    implied: impliedServices(catalogue, vendor, approvedIds, included, { allowed, essentials }, dependencies),
  };
}

/**
 * The reason for each dependency no catalogue service owns and that is not a child type of a
 * service needing it: a type like an Azure public IP address arrives only as what others need.
 */
function withReasons(catalogue: ListCatalogue, vendor: Vendor, dependencies: PolicyDependencyT[]): PolicyDependencyT[] {
  const ownedBy = (slug: string) => vendor.identifiersOf(catalogue.bySlug.get(slug)!.policyIdentifiers) ?? [];
  const owners = catalogue.services.filter((service) => service.providerId === vendor.providerId);
  return dependencies.map((dependency) => {
    const { identifier, neededBy } = dependency;
    if (owners.some((service) => ownedBy(service.slug).some((own) => vendor.touches(own, identifier))))
      return dependency;
    const child = neededBy.some((slug) =>
      ownedBy(slug).some((own) =>
        identifierKey(vendor.providerId, identifier).startsWith(`${identifierKey(vendor.providerId, own)}/`),
      ),
    );
    if (child) return dependency;
    const needing = owners.filter((service) =>
      catalogue.bySlug
        .get(service.slug)!
        .dependencies.some((group) =>
          group.identifiers.some(
            (id) => identifierKey(vendor.providerId, id) === identifierKey(vendor.providerId, identifier),
          ),
        ),
    );
    return {
      ...dependency,
      reason: `No catalogue service owns ${identifier}: it arrives only as what other services need, so it is allowed with each of them (${count(needing.length, "catalogue service")}, here ${neededBy.join(", ")}). The sources say why.`,
    };
  });
}

/**
 * The dependencies of the approved services, and of every service they make wholly usable (all its
 * own identifiers allowed, though not approved: e.g. GKE when Cloud Composer needs its API), until
 * nothing changes. Each with the services needing it and its sources, sorted by identifier.
 */
function dependencyClosure(
  catalogue: ListCatalogue,
  vendor: Vendor,
  approvedIds: ReadonlySet<string>,
  included: readonly ServiceT[],
  allowed: readonly string[],
): PolicyDependencyT[] {
  const key = (identifier: string) => identifierKey(vendor.providerId, identifier);
  const entries = new Map<string, { identifier: string; neededBy: Set<string>; sources: Set<string> }>();
  const allowedKeys = new Set(allowed.map(key));
  const needing = new Map(included.map((service) => [service.slug, service]));
  const candidates = catalogue.services.filter(
    (service) =>
      service.providerId === vendor.providerId &&
      !approvedIds.has(service.slug) &&
      catalogue.bySlug.get(service.slug)!.dependencies.length > 0,
  );
  for (let grown = true; grown;) {
    grown = false;
    for (const service of needing.values())
      for (const { identifiers, source, resourceType } of catalogue.bySlug.get(service.slug)!.dependencies) {
        // What a resource type needs to deploy is needed only when its service is approved.
        if (resourceType && !approvedIds.has(service.slug)) continue;
        for (const identifier of identifiers) {
          const entry = entries.get(key(identifier)) ?? { identifier, neededBy: new Set(), sources: new Set() };
          entries.set(key(identifier), entry);
          entry.neededBy.add(service.slug);
          entry.sources.add(source.url);
          allowedKeys.add(key(identifier));
        }
      }
    for (const service of candidates) {
      if (needing.has(service.slug)) continue;
      const owned = vendor.identifiersOf(catalogue.bySlug.get(service.slug)!.policyIdentifiers) ?? [];
      if (owned.length > 0 && owned.every((identifier) => allowedKeys.has(key(identifier)))) {
        needing.set(service.slug, service);
        grown = true;
      }
    }
  }
  return [...entries.values()]
    .map(({ identifier, neededBy, sources }) => ({
      identifier,
      neededBy: [...neededBy].sort(),
      sources: [...sources].sort(),
    }))
    .sort((a, b) => (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0));
}

/**
 * Catalogue services not approved that the document allows anyway: through a shared identifier, or
 * through an approved service's dependency that is (or, for AWS, falls under) one of theirs.
 */
function impliedServices(
  catalogue: ListCatalogue,
  vendor: Vendor,
  approvedIds: ReadonlySet<string>,
  included: readonly ServiceT[],
  kept: { readonly allowed: readonly string[]; readonly essentials: readonly string[] },
  dependencies: readonly PolicyDependencyT[],
): ImpliedServiceT[] {
  const key = (identifier: string) => identifierKey(vendor.providerId, identifier);
  const { allowed } = kept;
  const essentialKeys = new Set(kept.essentials.map(key));
  // Types Indexed mode never evaluates do not keep an Azure service from being wholly usable.
  const unevaluated = new Set(vendor.providerId === "azure" ? AZURE_NOT_EVALUATED_OWN_TYPES.map(key) : []);
  const carriers = new Map<string, string[]>();
  for (const service of included)
    for (const identifier of vendor.identifiersOf(catalogue.bySlug.get(service.slug)!.policyIdentifiers) ?? [])
      carriers.set(key(identifier), [...(carriers.get(key(identifier)) ?? []), service.slug]);
  const allowedKeys = new Set(allowed.map(key));
  // Azure and Google dependencies are whole identifiers: they allow a service as its own would.
  if (vendor.providerId !== "aws") for (const dependency of dependencies) allowedKeys.add(key(dependency.identifier));
  const implied: ImpliedServiceT[] = [];
  for (const service of catalogue.services) {
    if (service.providerId !== vendor.providerId || approvedIds.has(service.slug)) continue;
    const own = vendor.identifiersOf(catalogue.bySlug.get(service.slug)!.policyIdentifiers) ?? [];
    const shared = own.filter((identifier) => allowedKeys.has(key(identifier)));
    // An AWS dependency under a prefix the document allows whole approves nothing more.
    const through = dependencies.filter(
      (dependency) =>
        own.some((identifier) => vendor.touches(identifier, dependency.identifier)) &&
        !(vendor.providerId === "aws" && allowedKeys.has(dependency.identifier.split(":")[0]!)),
    );
    if (shared.length === 0 && through.length === 0) continue;
    const named = uniqueFor(vendor, [
      ...shared,
      ...(vendor.providerId === "aws" ? through.map((dependency) => dependency.identifier) : []),
    ]);
    implied.push({
      id: service.slug,
      identifiers: named,
      linkedTo: sortedUnique([
        ...shared.flatMap((identifier) => carriers.get(key(identifier)) ?? []),
        ...through.flatMap((dependency) => dependency.neededBy),
        ...(shared.some((identifier) => essentialKeys.has(key(identifier))) ? ["essentials"] : []),
      ]),
      complete: own.every((identifier) => allowedKeys.has(key(identifier)) || unevaluated.has(key(identifier))),
    });
  }
  return implied;
}

/** One line on the deployment check, when the list touches any fixture. */
function deploymentNote(check: DeploymentCheckT, vendor: Vendor): string[] {
  const { covered, gaps } = check;
  const types = check.resourceTypes;
  const checked = check.fixturesChecked ?? covered.length + gaps.length;
  const of = `${count(checked, "fixture")} of the catalogue's ${check.fixturesOfVendor ?? "?"} ${vendor.providerName} deployment fixtures ${checked === 1 ? "names" : "name"} these services`;
  const workloads =
    covered.length + gaps.length === 0
      ? `Deployment check: none of the catalogue's ${check.fixturesOfVendor ?? "?"} ${vendor.providerName} deployment fixtures names these services, so no common workload was checked.`
      : gaps.length === 0
        ? `Deployment check: ${of}; the document allows all of them, as the vendor's own guides deploy them (see deployments in explain mode).`
        : `Deployment check: ${of}; ${count(gaps.length, "common workload")} would be denied something (${gaps.map((gap) => gap.id).join(", ")}); deployments in explain mode says what is missing and which services to approve.`;
  const resources =
    !types || types.checked === 0
      ? []
      : types.denied.length === 0
        ? [
            `Resource types: the document allows what ${count(types.checked, "resource type")} of the approved services need to deploy beyond their own identifiers, per ${vendor.providerName}'s resource schemas.`,
          ]
        : [
            `Resource types: ${count(types.denied.length, "resource type")} of the approved services (of ${types.checked} checked against ${vendor.providerName}'s resource schemas) need what the document does not allow: ${types.denied
              .slice(0, 5)
              .map(
                (entry) =>
                  `${entry.resourceType} (${entry.missing.slice(0, 3).join(", ")}${entry.missing.length > 3 ? ", …" : ""})`,
              )
              .join(
                "; ",
              )}${types.denied.length > 5 ? "; …" : ""} (deployments.resourceTypes.denied in explain mode lists them all).`,
          ];
  return [workloads, ...resources];
}

function commonNotes(selection: Selection, vendor: Vendor, optOut: string): string[] {
  return [
    ...(selection.dependencies.length > 0
      ? [
          `Allowed too: ${count(selection.dependencies.length, "identifier")} the approved services need besides their own (see dependencies in explain mode, each with who needs it and the source).`,
        ]
      : []),
    ...(selection.implied.length > 0
      ? [
          `The identifiers in this document also allow ${count(selection.implied.length, "other catalogue service")} (see implied in explain mode): approving one service approves everything sharing its identifiers, and a dependency approves what it names.`,
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

function denyListScp(actions: readonly string[], exemptPrincipalArns: readonly string[]): ScpDocumentT {
  return {
    Version: SCP_VERSION,
    Statement: [
      {
        Sid: "DenyAllButApprovedServices",
        Effect: "Deny",
        NotAction: [...actions],
        Resource: "*",
        // AWS's own SCP examples exempt roles this way (e.g. AWSControlTowerExecution).
        ...(exemptPrincipalArns.length > 0
          ? { Condition: { ArnNotLike: { "aws:PrincipalARN": [...exemptPrincipalArns] } } }
          : {}),
      },
    ],
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
  const exempt = sortedUnique(options.exemptPrincipalArns ?? []);
  if (exempt.length > 0 && strategy !== "deny-list")
    throw new PolicyRequestError(
      "Invalid request",
      "exemptPrincipalArns applies to strategy=deny-list only: an exemption is a condition on the Deny statement, and an allow-list SCP has none. Use the deny-list, or attach the allow-list only to OUs the exempt roles do not act in.",
    );
  const selection = select(catalogue, ids, AWS, options);
  // Each approved prefix whole, and the dependencies under prefixes not approved (e.g. ec2:*VerifiedAccess*).
  const actions = [...selection.allowed.map((prefix) => `${prefix}:*`), ...selection.extra];
  const deployments = deploymentCheck(catalogue, AWS, ids, (action) => scpAllows(actions, action));
  const notes = [
    "A starting point: review the actions, add co-required permissions, and test in a non-production organisational unit before use.",
    ...commonNotes(selection, AWS, "essentials=false"),
    ...deploymentNote(deployments, AWS),
    "SCPs do not affect the management account or service-linked roles, and grant nothing: identity policies must still allow the actions.",
  ];
  if (strategy === "deny-list") {
    const policy = denyListScp(actions, exempt);
    const characters = minifiedLength(policy);
    if (characters > SCP_MAX_CHARACTERS)
      throw new PolicyTooLargeError(
        `The deny-list SCP would be ${characters} characters; AWS allows ${SCP_MAX_CHARACTERS}. A deny-list SCP cannot be split: two deny-all-but SCPs on one target deny everything not in both lists. Remove services from the list, or use strategy=allow-list, whose Allow SCPs add up on one target (up to ${SCP_MAX_PER_TARGET}).`,
      );
    return {
      policy,
      strategy,
      characters,
      ...selectionReport(selection),
      unconfirmed: [],
      deployments,
      notes: [
        'Deny-list: attach beside FullAWSAccess (aws organizations create-policy --type SERVICE_CONTROL_POLICY --name approved-services --description "Approved services" --content file://scp.json, then aws organizations attach-policy --policy-id <id> --target-id <ou-or-account>). Everything not listed in NotAction is denied.',
        ...(exempt.length > 0
          ? [
              `Exempt from the deny: principals whose ARN matches ${exempt.join(", ")} (Condition ArnNotLike aws:PrincipalARN). Keep that list short and those roles guarded: they may use every service.`,
            ]
          : []),
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
    ...selectionReport(selection),
    unconfirmed: [],
    deployments,
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
          defaultValue: uniqueFor(AZURE, [...selection.allowed, ...selection.extra]),
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
  const allowedTypes = new Set(
    policy.properties.parameters.allowedResourceTypes!.defaultValue.map((type) => identifierKey("azure", type)),
  );
  const deployments = deploymentCheck(catalogue, AZURE, ids, (type) => allowedTypes.has(identifierKey("azure", type)));
  return {
    policy,
    characters: minifiedLength(policy),
    ...selectionReport(selection),
    unconfirmed: [],
    deployments,
    notes: [
      `Create at a management group with the ARM shape: az rest --method put --url 'https://management.azure.com/providers/Microsoft.Management/managementGroups/<group>/providers/Microsoft.Authorization/policySetDefinitions/approved-services?api-version=2023-04-01' --body @policy-set.json; or ${AZ_SET_DEFINITION_CREATE}. Then assign it (az policy assignment create --policy-set-definition approved-services …).`,
      "The built-in 'Allowed resource types' runs in Indexed mode: only resource types that support tags and location are checked.",
      "The approved services' child types that the policy evaluates and the companion types their quickstart deployments create are allowed (dependencies in explain mode). A deployment may still create other types: assign with enforcement mode DoNotEnforce first to see what would be denied.",
      ...commonNotes(selection, AZURE, "essentials=false"),
      ...deploymentNote(deployments, AZURE),
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
  // A dependency is confirmed when a catalogue service names it as an API Google confirms.
  const confirmed = new Set(
    catalogue.services.flatMap(
      (service) =>
        catalogue.bySlug
          .get(service.slug)!
          .policyIdentifiers.apiServices?.filter((api) => api.restrictServiceUsage)
          .map((api) => api.name) ?? [],
    ),
  );
  const unconfirmed = sortedUnique([
    ...selection.included.flatMap(
      (service) =>
        catalogue.bySlug
          .get(service.slug)!
          .policyIdentifiers.apiServices?.filter((api) => !api.restrictServiceUsage)
          .map((api) => api.name) ?? [],
    ),
    ...selection.extra.filter((name) => !confirmed.has(name)),
  ]);
  const organization = options.organizationId ?? GCP_ORGANIZATION_PLACEHOLDER;
  const policy: GcpOrgPolicyDocumentT = {
    name: `organizations/${organization}/policies/${GCP_CONSTRAINT}`,
    spec: { rules: [{ values: { allowedValues: uniqueFor(GCP, [...selection.allowed, ...selection.extra]) } }] },
  };
  const allowedApis = new Set(policy.spec.rules[0]!.values.allowedValues);
  const deployments = deploymentCheck(catalogue, GCP, ids, (api) => allowedApis.has(api));
  return {
    policy,
    characters: minifiedLength(policy),
    ...selectionReport(selection),
    unconfirmed,
    deployments,
    notes: [
      options.organizationId
        ? "Apply with: gcloud org-policies set-policy policy.json"
        : `Replace ${GCP_ORGANIZATION_PLACEHOLDER} (or request organizationId=<id>), then apply with: gcloud org-policies set-policy policy.json`,
      "Every approved service's API names are listed, whether or not Google confirms gcp.restrictServiceUsage supports them: naming an unsupported service is harmless, leaving out a supported one would block it. unconfirmed (explain mode) lists those not confirmed.",
      "Google exempts some essential services (IAM, Cloud Logging, Cloud Monitoring) from this constraint whatever the policy says.",
      ...commonNotes(selection, GCP, "essentials=false"),
      ...deploymentNote(deployments, GCP),
    ],
  };
}
