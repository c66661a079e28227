/**
 * What every policy generator (documents.ts) starts from: each vendor's vocabulary, the selection
 * of identifiers an approved list allows (its services', the essentials, the dependencies they
 * need, the services that makes usable too), and what explain mode says of it (skipped, implied,
 * the deployment fixtures' check and the notes). Pure, so the browser runs it too.
 */
import { identifierKey } from "../dependencies/dependencies.ts";
import { AZURE_NOT_EVALUATED_OWN_TYPES } from "./azure-indexed.ts";
import { DEPLOYMENTS } from "./deployments/index.ts";
import type { ListCatalogue } from "../lists/list-catalogue.ts";
import { AWS_ESSENTIAL_PREFIXES, AZURE_ESSENTIAL_RESOURCE_TYPES, GCP_ESSENTIAL_SERVICES } from "./essentials.ts";
import { PolicyRequestError } from "./errors.ts";
import type {
  DeploymentCheckT,
  ImpliedServiceT,
  PolicyDependencyT,
  PolicyIdentifiersT,
  ServiceT,
  SkippedServiceT,
} from "../schema/index.ts";

export interface PolicyOptions {
  /** Keep the vendor's account-operation essentials usable (default true). */
  readonly essentials?: boolean;
}

/** "1 approved service", "2 approved services". */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
export const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();

export interface Vendor {
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

export const AWS: Vendor = {
  providerId: "aws",
  providerName: "AWS",
  aProvider: "an AWS",
  identifierName: "IAM service prefix",
  anIdentifier: "an IAM service prefix",
  identifiersOf: (identifiers) => identifiers.iamPrefixes,
  essentials: AWS_ESSENTIAL_PREFIXES,
  touches: (prefix, action) => action.startsWith(`${prefix}:`),
};
export const AZURE: Vendor = {
  providerId: "azure",
  providerName: "Azure",
  aProvider: "an Azure",
  identifierName: "Azure resource type",
  anIdentifier: "an Azure resource type",
  identifiersOf: (identifiers) => identifiers.resourceTypes,
  essentials: AZURE_ESSENTIAL_RESOURCE_TYPES,
  touches: sameIdentifier("azure"),
};
export const GCP: Vendor = {
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
export interface Selection {
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
export const selectionReport = (selection: Selection) => ({
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
export function deploymentCheck(
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

/** A child type of an own Azure type comes from the Bicep type index (the vendor's resource schemas). */
const BICEP_INDEX = "Azure/bicep-types-az";

/**
 * What each approved service's own resources need, per the vendor's resource schemas, checked
 * against the document. AWS: each CloudFormation type the service owns with the actions its
 * handlers need. Azure: each own type the Indexed-mode policy evaluates with its evaluated child
 * types (the Bicep type index). Google Cloud: each own API (Google publishes no per-API needs).
 */
function resourceTypeCheck(
  catalogue: ListCatalogue,
  vendor: Vendor,
  ids: readonly string[],
  allows: (identifier: string) => boolean,
): NonNullable<DeploymentCheckT["resourceTypes"]> {
  const result = { checked: 0, denied: [] as NonNullable<DeploymentCheckT["resourceTypes"]>["denied"] };
  const check = (service: string, resourceType: string, identifiers: readonly string[]) => {
    result.checked++;
    const missing = identifiers.filter((identifier) => !allows(identifier));
    if (missing.length > 0) result.denied.push({ service, resourceType, missing });
  };
  const unevaluated = new Set(AZURE_NOT_EVALUATED_OWN_TYPES.map((type) => identifierKey("azure", type)));
  for (const id of sortedUnique(ids)) {
    const record = catalogue.bySlug.get(id);
    if (!record || record.service.providerId !== vendor.providerId) continue;
    if (vendor.providerId === "aws") {
      for (const { resourceType, identifiers } of record.dependencies) {
        if (resourceType) check(id, resourceType, identifiers);
      }
      continue;
    }
    const children = record.dependencies
      .filter((group) => group.source.url.includes(BICEP_INDEX))
      .flatMap((group) => group.identifiers);
    for (const own of vendor.identifiersOf(record.policyIdentifiers) ?? []) {
      if (vendor.providerId === "azure" && unevaluated.has(identifierKey("azure", own))) continue;
      const below = `${own.toLowerCase()}/`;
      check(id, own, [own, ...children.filter((child) => child.toLowerCase().startsWith(below))]);
    }
  }
  return result;
}

/** Sorted, without a second spelling of an identifier the vendor treats as the same. */
export function uniqueFor(vendor: Vendor, values: Iterable<string>): string[] {
  const byKey = new Map<string, string>();
  for (const value of values) {
    const key = identifierKey(vendor.providerId, value);
    if (!byKey.has(key)) byKey.set(key, value);
  }
  return [...byKey.values()].sort();
}

export function select(
  catalogue: ListCatalogue,
  ids: readonly string[],
  vendor: Vendor,
  options: PolicyOptions,
): Selection {
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
  // A service without identifiers of its own that needs others' (the AWS CDK) still has something to allow.
  const needsOthers = own.some((service) => catalogue.bySlug.get(service.slug)!.dependencies.length > 0);
  if (included.length === 0 && !needsOthers)
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
  // An approved service without identifiers of its own (the AWS CDK) still brings what it needs.
  const needing = new Map(
    [
      ...included,
      ...[...approvedIds]
        .map((id) => catalogue.bySlug.get(id)!)
        .filter((record) => record.service.providerId === vendor.providerId && record.dependencies.length > 0)
        .map((record) => record.service),
    ].map((service) => [service.slug, service]),
  );
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
export function deploymentNote(check: DeploymentCheckT, vendor: Vendor): string[] {
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
  const resources = !types || types.checked === 0 ? [] : [resourceNote(types, vendor)];
  return [workloads, ...resources];
}

/** What the resource-type check covered, per vendor: its unit and what was checked of each. */
const RESOURCE_CHECK: Record<string, { unit: string; allowed: (checked: string) => string }> = {
  aws: {
    unit: "resource type",
    allowed: (checked) =>
      `the document allows what ${checked} of the approved services need to deploy beyond their own identifiers, per AWS's resource schemas (CloudFormation handler permissions).`,
  },
  azure: {
    unit: "resource type",
    allowed: (checked) =>
      `the document allows the approved services' ${checked} that the Indexed-mode policy evaluates, each with its evaluated child types, per Azure's resource schemas (the Bicep type index).`,
  },
  gcp: {
    unit: "API",
    allowed: (checked) =>
      `the document allows the approved services' ${checked}. Google publishes no machine-readable list of what else an API needs: only the fixtures above and the dependencies' sources vouch for more.`,
  },
};

/** What the resource-type check found, in the vendor's own terms. */
function resourceNote(types: NonNullable<DeploymentCheckT["resourceTypes"]>, vendor: Vendor): string {
  const { unit, allowed } = RESOURCE_CHECK[vendor.providerId]!;
  const label = unit === "API" ? "APIs" : "Resource types";
  if (types.denied.length === 0) return `${label}: ${allowed(count(types.checked, unit))}`;
  const listed = types.denied
    .slice(0, 5)
    .map(
      (entry) =>
        `${entry.resourceType} (${entry.missing.slice(0, 3).join(", ")}${entry.missing.length > 3 ? ", …" : ""})`,
    )
    .join("; ");
  return `${label}: ${count(types.denied.length, unit)} of the approved services (of ${types.checked} checked against ${vendor.providerName}'s resource schemas) need what the document does not allow: ${listed}${types.denied.length > 5 ? "; …" : ""} (deployments.resourceTypes.denied in explain mode lists them all).`;
}

export function commonNotes(selection: Selection, vendor: Vendor, optOut: string): string[] {
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
