/**
 * Quality gates over a loaded Catalogue (beyond what loading checks): coverage minimums, identifier
 * formats and references, equivalents coverage, provenance (every compliance claim and lifecycle
 * status backed by the vendor's page). `npm run check` prints the report and fails on any problem.
 */
import { readFileSync } from "node:fs";
import { groupCategory } from "../equivalence/equivalents.ts";
import { lifecycleSourceProblems } from "./lifecycle-sources.ts";
import type { Catalogue } from "../load/load.ts";
import { serviceFileOf } from "../load/load-services.ts";
import { LIFECYCLE_STATUSES } from "../schema/index.ts";

export const MINIMUMS = {
  services: 600,
  perProvider: 5,
  providers: 31,
  byProvider: { aws: 150, azure: 120, gcp: 100, oci: 20, ibm: 20, alibaba: 20, huawei: 20, tencent: 20 } as Record<
    string,
    number
  >,
  equivalentsShare: 0.7,
  lifecycleEntries: 25,
  /** Groups that must span at least 10 providers. */
  wideGroups: [
    "object-storage",
    "virtual-machines",
    "managed-kubernetes",
    "serverless-functions",
    "managed-postgresql",
    "dns",
    "cdn",
    "key-management",
    "container-registry",
  ],
  wideGroupProviders: 10,
};

const AWS_PREFIXES_FILE = new URL("../reference/aws-iam-prefixes.txt", import.meta.url);
/** The pinned Service Authorization Reference (inventory/data/aws/iam), fresher than the CSV copy above. */
const AWS_IAM_INVENTORY = new URL("../inventory/data/aws/iam/items.txt", import.meta.url);

/** AWS IAM service prefixes: the 2026-03 CSV copy and the pinned aws/iam inventory together. */
export function awsIamPrefixes(): Set<string> {
  return new Set(
    [AWS_PREFIXES_FILE, AWS_IAM_INVENTORY]
      .flatMap((file) => readFileSync(file, "utf8").split("\n"))
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#")),
  );
}

export interface CoverageReport {
  services: number;
  providers: number;
  perProvider: Record<string, number>;
  perCategory: Record<string, number>;
  withEquivalentsShare: number;
  withPolicyIdentifiersShare: number;
  lifecycle: Record<string, number>;
  /** The oldest lastVerified date and how many services carry it. */
  oldestVerified: { date: string; services: number } | undefined;
  groupProviderSpan: Record<string, number>;
  provenance: ProvenanceReport;
}

/** How much of the catalogue is backed by vendor pages (printed by check:data). */
export interface ProvenanceReport {
  /** Services that list at least one source. */
  servicesWithSources: number;
  /** Sources listed across all services, each one a page opened on its checked date. */
  sources: number;
  /** Service compliance entries (programme ids on services, not the providers' own), per provider. */
  complianceEntries: Record<string, number>;
  /** Services with a lifecycle block. */
  lifecycleEntries: number;
  /** Of those, the ones with the vendor's announcement URL. */
  lifecycleWithAnnouncement: number;
  /** Of those, the ones with a source that backs lifecycle. */
  lifecycleWithSource: number;
}

export function provenance(catalogue: Catalogue): ProvenanceReport {
  const report: ProvenanceReport = {
    servicesWithSources: 0,
    sources: 0,
    complianceEntries: Object.fromEntries(catalogue.providers.map((p) => [p.id, 0])),
    lifecycleEntries: 0,
    lifecycleWithAnnouncement: 0,
    lifecycleWithSource: 0,
  };
  for (const service of catalogue.services) {
    const { sources } = catalogue.bySlug.get(service.slug)!;
    if (sources.length > 0) report.servicesWithSources++;
    report.sources += sources.length;
    report.complianceEntries[service.providerId]! += service.compliance?.length ?? 0;
    if (service.lifecycle) {
      report.lifecycleEntries++;
      if (service.lifecycle.announcementUrl) report.lifecycleWithAnnouncement++;
      if (sources.some((source) => source.backs.includes("lifecycle"))) report.lifecycleWithSource++;
    }
  }
  return report;
}

/**
 * Provenance rules (catalogue/data/README.md, "Sources"): a service's compliance programme needs a
 * source that backs compliance; retired and preview services carry none; a lifecycle other than
 * active names the vendor's announcement and lists a vendor source backing it (lifecycle-sources.ts);
 * lastVerified is the newest checked date of a source.
 */
export function provenanceProblems(catalogue: Catalogue): string[] {
  const problems: string[] = [];
  for (const service of catalogue.services) {
    const { sources } = catalogue.bySlug.get(service.slug)!;
    const at = serviceFileOf(service.providerId, service.slug);
    const compliance = service.compliance ?? [];
    const status = service.lifecycle?.status;
    const unbacked = compliance.filter(
      (id) => !sources.some((s) => s.backs.includes("compliance") && (s.programmes ?? compliance).includes(id)),
    );
    if (unbacked.length > 0)
      problems.push(
        `${at}: field compliance: ${unbacked.join(", ")} without a source that backs compliance (the provider's published scope naming this service)`,
      );
    if ((status === "retired" || status === "preview") && compliance.length > 0)
      problems.push(`${at}: field compliance: a ${status} service carries no compliance programme`);
    if (service.lifecycle && !service.lifecycle.announcementUrl)
      problems.push(`${at}: field lifecycle.announcementUrl: a ${status} service needs the vendor's announcement`);
    const newest = sources.reduce<string | undefined>(
      (latest, source) => (latest === undefined || source.checked > latest ? source.checked : latest),
      undefined,
    );
    if (service.lastVerified !== newest)
      problems.push(
        `${at}: field lastVerified: ${service.lastVerified ?? "absent"} is not the newest checked date of its sources (${newest ?? "none"})`,
      );
  }
  // Every non-active lifecycle backed by a vendor page (or listed as a known gap): decisions.md#facts-carry-sources.
  problems.push(...lifecycleSourceProblems(catalogue));
  // The equivalence rule: a customer could move a workload to any member, so none is retired.
  for (const group of catalogue.groups)
    for (const slug of group.services)
      if (catalogue.bySlug.get(slug)!.service.lifecycle?.status === "retired")
        problems.push(
          `equivalents.yaml: ${group.id}: field services: ${slug} is retired; remove it (the service names its successor)`,
        );
  return problems;
}

/**
 * The group rule check:data can enforce (data/README.md, "equivalents.yaml"): a member filed under
 * another category than its group's states why it does the group's job at that layer
 * (otherCategories), and no such reason is left on a member in the group's own category.
 */
export function groupProblems(catalogue: Catalogue): string[] {
  const problems: string[] = [];
  for (const group of catalogue.groups) {
    const category = group.category ?? groupCategory(catalogue, group.services);
    const reasons = group.otherCategories ?? {};
    for (const slug of group.services) {
      const own = catalogue.bySlug.get(slug)!.service.category;
      if (own !== category && !reasons[slug])
        problems.push(
          `equivalents.yaml: ${group.id}: field otherCategories.${slug}: ${slug} is in ${own}, the group in ${category}; move it to the group of its own job, or state why it does this job at this layer`,
        );
      if (own === category && reasons[slug])
        problems.push(
          `equivalents.yaml: ${group.id}: field otherCategories.${slug}: ${slug} is in the group's own category (${category}); remove the reason`,
        );
    }
  }
  return problems;
}

/**
 * A lineage names the same product elsewhere, so the two share an equivalence group: otherwise an
 * exit plan from the origin's provider could never propose it.
 */
export function lineageProblems(catalogue: Catalogue): string[] {
  const problems: string[] = [];
  for (const record of catalogue.bySlug.values()) {
    const origin = record.lineage?.origin;
    if (!origin) continue;
    const originGroups = catalogue.bySlug.get(origin)?.groupIds ?? [];
    if (!record.groupIds.some((id) => originGroups.includes(id)))
      problems.push(
        `${serviceFileOf(record.service.providerId, record.service.slug)}: field lineage.origin: ${origin} shares no equivalence group with it; put both in the group of their job`,
      );
  }
  return problems;
}

/** What check:data prints about compatibility, lineage and the groups (decisions.md#exit-ranking). */
export interface EquivalenceReport {
  /** Services with at least one compatibility claim (every claim carries its vendor source). */
  servicesWithCompatibility: number;
  /** Compatibility claims in all, and per vocabulary id (ids no service claims count 0). */
  compatibilityClaims: number;
  claimsByTerm: Record<string, number>;
  /** Services naming another provider's product as their origin. */
  servicesWithLineage: number;
  groups: number;
  /** Members per group, by group id. */
  membersPerGroup: Record<string, number>;
  /** Groups with a member filed under another category, each with its stated reason. */
  groupsWithOtherCategories: number;
  /**
   * Per term swept across its groups (compatibility.yaml `groups`): the members claiming it, those
   * recorded as not supporting it, and the members left unchecked (slugs; the data's gate is 0).
   */
  sweep: Record<string, { claims: number; notSupported: number; unchecked: string[] }>;
}

/** Each swept term's members: claimed, recorded as not supported, or unchecked. */
function compatibilitySweep(catalogue: Catalogue): EquivalenceReport["sweep"] {
  const groupById = new Map(catalogue.groups.map((group) => [group.id, group]));
  const sweep: EquivalenceReport["sweep"] = {};
  for (const term of catalogue.compatibilityById.values()) {
    if (!term.groups) continue;
    const members = new Set(term.groups.flatMap((id) => groupById.get(id)?.services ?? []));
    const row = { claims: 0, notSupported: 0, unchecked: [] as string[] };
    for (const slug of members) {
      const record = catalogue.bySlug.get(slug)!;
      if (record.compatibility.some((claim) => claim.id === term.id)) row.claims++;
      else if (record.notCompatible.some((entry) => entry.id === term.id)) row.notSupported++;
      else row.unchecked.push(slug);
    }
    sweep[term.id] = row;
  }
  return sweep;
}

export function equivalenceReport(catalogue: Catalogue): EquivalenceReport {
  const claimsByTerm: Record<string, number> = Object.fromEntries(
    [...catalogue.compatibilityById.keys()].map((id) => [id, 0]),
  );
  let servicesWithCompatibility = 0;
  let compatibilityClaims = 0;
  let servicesWithLineage = 0;
  for (const record of catalogue.bySlug.values()) {
    if (record.compatibility.length > 0) servicesWithCompatibility++;
    compatibilityClaims += record.compatibility.length;
    for (const claim of record.compatibility) claimsByTerm[claim.id] = (claimsByTerm[claim.id] ?? 0) + 1;
    if (record.lineage) servicesWithLineage++;
  }
  return {
    servicesWithCompatibility,
    compatibilityClaims,
    claimsByTerm,
    servicesWithLineage,
    groups: catalogue.groups.length,
    membersPerGroup: Object.fromEntries(catalogue.groups.map((group) => [group.id, group.services.length])),
    groupsWithOtherCategories: catalogue.groups.filter((group) => Object.keys(group.otherCategories ?? {}).length > 0)
      .length,
    sweep: compatibilitySweep(catalogue),
  };
}

export function coverage(catalogue: Catalogue): CoverageReport {
  const perProvider: Record<string, number> = Object.fromEntries(catalogue.providers.map((p) => [p.id, 0]));
  const perCategory: Record<string, number> = Object.fromEntries(catalogue.categories.map((c) => [c.id, 0]));
  const lifecycle: Record<string, number> = Object.fromEntries(LIFECYCLE_STATUSES.map((s) => [s, 0]));
  let withEquivalents = 0;
  let withIdentifiers = 0;
  let oldestVerified: CoverageReport["oldestVerified"];
  for (const service of catalogue.services) {
    const verified = service.lastVerified;
    if (verified && (!oldestVerified || verified < oldestVerified.date))
      oldestVerified = { date: verified, services: 0 };
    if (verified && verified === oldestVerified?.date) oldestVerified.services++;
    perProvider[service.providerId]!++;
    perCategory[service.category]!++;
    if (service.lifecycle) lifecycle[service.lifecycle.status]!++;
    const record = catalogue.bySlug.get(service.slug)!;
    if (record.equivalentSlugs.length > 0) withEquivalents++;
    const ids = record.policyIdentifiers;
    if (ids.iamPrefixes || ids.resourceTypes || ids.apiServices || ids.other) withIdentifiers++;
  }
  const groupProviderSpan = Object.fromEntries(
    catalogue.groups.map((group) => [
      group.id,
      new Set(group.services.map((slug) => catalogue.bySlug.get(slug)!.service.providerId)).size,
    ]),
  );
  const total = catalogue.services.length || 1;
  return {
    services: catalogue.services.length,
    providers: catalogue.providers.length,
    perProvider,
    perCategory,
    withEquivalentsShare: withEquivalents / total,
    withPolicyIdentifiersShare: withIdentifiers / total,
    lifecycle,
    oldestVerified,
    groupProviderSpan,
    provenance: provenance(catalogue),
  };
}

/** Problems that fail `npm run check`, one line each. */
export function qualityProblems(catalogue: Catalogue, report = coverage(catalogue)): string[] {
  const problems: string[] = [];
  if (report.services < MINIMUMS.services)
    problems.push(`coverage: ${report.services} services; at least ${MINIMUMS.services} required`);
  if (report.providers < MINIMUMS.providers)
    problems.push(`coverage: ${report.providers} providers; ${MINIMUMS.providers} required`);
  for (const [providerId, count] of Object.entries(report.perProvider)) {
    const minimum = MINIMUMS.byProvider[providerId] ?? MINIMUMS.perProvider;
    if (count < minimum)
      problems.push(`coverage: provider ${providerId} has ${count} services; at least ${minimum} required`);
  }
  if (report.withEquivalentsShare < MINIMUMS.equivalentsShare) {
    problems.push(
      `equivalents: ${(report.withEquivalentsShare * 100).toFixed(1)} % of services have an equivalent; at least ${MINIMUMS.equivalentsShare * 100} % required`,
    );
  }
  const lifecycleTotal = Object.values(report.lifecycle).reduce((a, b) => a + b, 0);
  if (lifecycleTotal < MINIMUMS.lifecycleEntries)
    problems.push(`lifecycle: ${lifecycleTotal} entries; at least ${MINIMUMS.lifecycleEntries} required`);
  for (const [status, count] of Object.entries(report.lifecycle))
    if (count === 0) problems.push(`lifecycle: no service is ${status}`);
  for (const group of MINIMUMS.wideGroups) {
    const span = report.groupProviderSpan[group] ?? 0;
    if (span < MINIMUMS.wideGroupProviders)
      problems.push(
        `equivalents: group ${group} spans ${span} providers; at least ${MINIMUMS.wideGroupProviders} required`,
      );
  }
  problems.push(...provenanceProblems(catalogue), ...groupProblems(catalogue), ...lineageProblems(catalogue));
  const prefixes = awsIamPrefixes();
  for (const service of catalogue.services) {
    const ids = catalogue.bySlug.get(service.slug)!.policyIdentifiers;
    const at = `${serviceFileOf(service.providerId, service.slug)}: field policyIdentifiers`;
    const hasAny = Boolean(ids.iamPrefixes || ids.resourceTypes || ids.apiServices || ids.other);
    if (["aws", "azure", "gcp"].includes(service.providerId) && !hasAny && !ids.noneReason) {
      problems.push(`${at}: an ${service.providerId} service needs identifiers or a noneReason`);
    }
    for (const prefix of ids.iamPrefixes ?? [])
      if (!prefixes.has(prefix))
        problems.push(`${at}.iamPrefixes: "${prefix}" is not in the AWS Service Authorization Reference`);
    if (ids.iamPrefixes && service.providerId !== "aws")
      problems.push(`${at}.iamPrefixes: only AWS services carry IAM prefixes`);
    if (ids.resourceTypes && service.providerId !== "azure")
      problems.push(`${at}.resourceTypes: only Azure services carry resource types`);
    if (ids.apiServices && !["gcp", "s3ns"].includes(service.providerId))
      problems.push(`${at}.apiServices: only Google Cloud technology carries API service names`);
  }
  return problems;
}
