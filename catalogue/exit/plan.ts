/**
 * Exit plans (decisions.md#exit-ranking): an approved list mapped onto the providers a team could move to. One pure
 * function, exitPlan(), answers POST /v1/exit-plan, GET /v1/lists/{id}/exit-plan, the text host's
 * /lists/{slug}/exit-plan and the site's "Plan an exit".
 *
 * The target resolves to a set of allowed providers: those meeting every criterion given
 * (providers, sovereignOption, euResidentOnly, jurisdictions — the derived provider properties of
 * load.ts), less `exclude`. Then, per approved service:
 * - stays: its provider is allowed and it is open to new customers (active or preview);
 * - mapped: its candidates on allowed providers that are open to new customers — its
 *   equivalence-group peers, the same product operated elsewhere (lineage) and same-category
 *   services sharing a compatibility entry (protocol, API) — ranked; deprecated, sunset and retired
 *   peers are never candidates (listed as closedPeers);
 * - no-equivalent: none, a gap; same-category services on allowed providers similar enough by
 *   their tags (NEAREST_FLOOR, at most three) are listed as `nearest`, marked as not equivalent.
 * The ranking (ranking.ts, catalogue/data/README.md rule "job fit"): job fit, lineage, shared
 * compatibility and category, then its provider's flagship, then consolidation onto the providers
 * the greedy set cover chose (COVER_METHOD), then the providers' flagship priors; a provider id or
 * a name decides only where every signal is equal, and each candidate's reason names the signal
 * that decided (decidedBy). The proposed list takes every service that stays, each mapped
 * service's rank-1 candidate and, for a service in several groups, the best candidate on a used
 * provider for each group rank 1 is not in. Exposure before and after is exposureReport(), the
 * function GET /v1/exposure answers with; after counts the gaps where they are now.
 */
import { type ExposureCatalogue, exposureReport } from "../equivalence/exposure.ts";
import type { TitleOf } from "../base/error-catalogue.ts";
import { HttpError } from "../base/problem.ts";
import {
  type ExitCatalogue,
  compatibilityOf,
  isClosed,
  partialCompatibilityOf,
  originOf,
  type Moving,
  type Approved,
  type PlanContext,
  type SignalIndex,
  type Placement,
  type RankContext,
  plural,
  providerNameOf,
  flagshipPrior,
} from "./context.ts";
import { placeServices, coverProviders, reachOf, groupBreadth } from "./placement.ts";
import { rankCandidates } from "./ranking.ts";
import { coverageOf, fallbackOf, jobEntries, jobsOf } from "./jobs.ts";
import type { ExitJobT, ExitNearestT, ExitPlanT, ExitServicePlanT, ExitTargetT, ServiceT } from "../schema/index.ts";
import { LOCATION_GROUPS } from "../policies/locations.ts";

export const COVER_METHOD =
  "Greedy set cover: the providers of the services that stay are used first; then, while a service with a candidate is not placed, the allowed provider with candidates for the most of them is added (ties: the provider id). Only each service's best candidates count: those equal best on its real signals (generally available before preview, then lineage, shared compatibility, shared groups, category). Greedy, so the provider count is small but not guaranteed minimal. A service whose primary job is tied to the workloads' network or account (VPN, NAT, private DNS, load balancing, firewalls, monitoring, logging, identity) is placed after the others, on a chosen provider with a candidate doing that job where there is one, and ranks that candidate first. Each mapped service then takes its rank-1 candidate, and a service in several groups also the best candidate on a chosen provider for each group rank 1 is not in.";

export const EXIT_PLAN_NOTES = [
  "Equivalence means the services do the same job at the same layer (catalogue/data/README.md); it does not mean feature parity, the same APIs, prices or limits. Check each mapping against the vendors' documentation before planning a migration.",
  "Deprecated, sunset and retired services are never proposed; preview services only where no generally available equivalent exists on the allowed providers, and they are labelled.",
  "Exposure after counts the proposed list and, where they are now, the services with no equivalent (exposure.unplacedServiceIds): a gap is not an exit.",
  "Exposure figures are procurement triage, not legal advice (see exposure.disclaimer).",
];

const lifecycleOf = (service: ServiceT): ExitServicePlanT["lifecycle"] => service.lifecycle?.status ?? "active";

const targetError = (title: TitleOf<400>, details: string) => new HttpError(400, title, details);

/**
 * The providers a target allows, by id in catalogue order. Throws HttpError 400 when no criterion
 * is given, an id is unknown, or nothing matches.
 */
export function allowedProviders(catalogue: ExitCatalogue, to: ExitTargetT): string[] {
  if (!to.providers && to.sovereignOption !== true && to.euResidentOnly !== true && !to.jurisdictions)
    throw targetError(
      "No target",
      'Give to at least one of providers (ids), sovereignOption: true, euResidentOnly: true or jurisdictions (e.g. ["EU", "CH"]).',
    );
  const unknown = [...(to.providers ?? []), ...(to.exclude ?? [])].filter((id) => !catalogue.providerById.has(id));
  if (unknown.length > 0)
    throw targetError(
      "Unknown provider ids",
      `Not a provider of the catalogue: ${[...new Set(unknown)]
        .slice(0, 20)
        .map((id) => (id.length > 80 ? `${id.slice(0, 80)}…` : id))
        .join(", ")}; see GET /v1/providers.`,
    );
  const allowed = catalogue.providers
    .map((provider) => catalogue.providerById.get(provider.id)!)
    .filter(
      (record) =>
        (!to.providers || to.providers.includes(record.provider.id)) &&
        (to.sovereignOption !== true || record.sovereignOption) &&
        (to.euResidentOnly !== true || record.euResidentOnly) &&
        (!to.jurisdictions || to.jurisdictions.includes(record.file.jurisdiction)) &&
        !(to.exclude ?? []).includes(record.provider.id),
    )
    .map((record) => record.provider.id);
  if (allowed.length === 0) {
    const memberStates = memberStatesNote(catalogue, to);
    throw targetError(
      "No provider matches the target",
      `No provider of the catalogue meets every criterion given (${describeTarget(to, (id) => catalogue.providerById.get(id)?.provider.name ?? id)}); widen it.${memberStates ? ` ${memberStates}` : ""}`,
    );
  }
  return allowed;
}

/**
 * What a target's EU/EEA member-state jurisdictions (FR, DE…) find: a provider based in one is
 * recorded under jurisdiction EU (Provider.jurisdiction), as GET /v1/services?jurisdiction= says
 * when refusing DE. The plan says so and names the providers based there (issue 116: a plan to FR
 * found none though four French providers are listed); undefined when the target names none.
 */
export function memberStatesNote(catalogue: ExitCatalogue, to: ExitTargetT): string | undefined {
  const states = [...new Set(to.jurisdictions ?? [])].filter((code) => LOCATION_GROUPS.get("EEA")!.includes(code));
  if (states.length === 0) return undefined;
  const based = catalogue.providers.filter((provider) =>
    states.includes(catalogue.providerById.get(provider.id)!.file.headOffice.country),
  );
  const named =
    based.length > 0 ? ` Based there: ${based.map((provider) => `${provider.name} (${provider.id})`).join(", ")}.` : "";
  return `Providers based in an EU/EEA member state are recorded under jurisdiction EU, not ${states.join(" or ")}: ask for jurisdictions ["EU"], or name the providers (providers: […]).${named}`;
}

/** The target in words, providers by name: "sovereign option; jurisdiction EU or CH; not STACKIT". */
export function describeTarget(to: ExitTargetT, nameOf: (providerId: string) => string = (id) => id): string {
  const parts: string[] = [];
  if (to.providers) parts.push(`providers ${to.providers.map(nameOf).join(", ")}`);
  if (to.sovereignOption === true) parts.push("sovereign option");
  if (to.euResidentOnly === true) parts.push("EU-resident-only");
  if (to.jurisdictions) parts.push(`jurisdiction ${to.jurisdictions.join(" or ")}`);
  if (to.exclude) parts.push(`not ${to.exclude.map(nameOf).join(", ")}`);
  return parts.join("; ");
}

const priors = new WeakMap<ExitCatalogue, Map<string, number>>();
/** A service's flagship prior (flagshipPrior): the compact catalogue's, else its record's, memoised. */
function priorLookup(catalogue: ExitCatalogue): (slug: string) => number {
  let known = priors.get(catalogue);
  if (!known) priors.set(catalogue, (known = new Map<string, number>()));
  return (slug) => {
    let prior = catalogue.priors?.get(slug) ?? known.get(slug);
    if (prior === undefined) {
      const record = catalogue.bySlug.get(slug)!;
      prior = flagshipPrior({
        service: record.service,
        groupIds: record.groupIds,
        equivalentSlugs: record.equivalentSlugs ?? [],
        subServices: record.subServices ?? [],
      });
      known.set(slug, prior);
    }
    return prior;
  };
}

function signalIndexOf(catalogue: ExitCatalogue, allowed: ReadonlySet<string>): SignalIndex {
  const byOrigin = new Map<string, Approved[]>();
  const byCompatibility = new Map<string, Approved[]>();
  for (const service of catalogue.services) {
    if (!allowed.has(service.providerId)) continue;
    const record = catalogue.bySlug.get(service.slug)!;
    const origin = originOf(record);
    if (origin) byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), record]);
    for (const id of [...compatibilityOf(record), ...partialCompatibilityOf(record).map(([claimed]) => claimed)])
      byCompatibility.set(id, [...(byCompatibility.get(id) ?? []), record]);
  }
  return { byOrigin, byCompatibility };
}

/**
 * The exit plan of an approved list for a target (see the head of this file). The phases: resolve
 * the services, place each (stays, or its open and closed peers), choose the providers by greedy
 * set cover, then rank each moving service's candidates with that choice and assemble the answer.
 */
export function exitPlan(
  catalogue: ExitCatalogue,
  approvedServiceIds: readonly string[],
  to: ExitTargetT,
  jobsUsed?: Readonly<Record<string, readonly string[]>>,
): ExitPlanT {
  const allowed = allowedProviders(catalogue, to);
  const { ids, repeated } = distinctIds(catalogue, approvedServiceIds);
  const { services, said } = usedJobs(catalogue, resolveServices(catalogue, ids), jobsUsed);
  const allowedSet = new Set(allowed);
  let index: SignalIndex | undefined;
  const context: PlanContext = {
    catalogue,
    allowed,
    allowedSet,
    groupById: new Map(catalogue.groups.map((group) => [group.id, group])),
    prior: priorLookup(catalogue),
    signalIndex: () => (index ??= signalIndexOf(catalogue, allowedSet)),
    jobsSaid: said,
  };
  const placement = placeServices(context, services);
  const placeable = placement.moving.filter((entry) => entry.best.length > 0);
  const rank: RankContext = {
    ...context,
    chosen: coverProviders(context, services, placement.stays, placeable),
    reach: reachOf(placeable),
    breadth: groupBreadth(context),
    movingCount: placement.moving.length,
  };
  const plans = servicePlans(rank, services, placement);
  const targetIds = proposedServiceIds(plans);
  const plan = assemblePlan(context, to, ids, plans, targetIds);
  const memberStates = memberStatesNote(catalogue, to);
  if (memberStates) plan.notes.push(memberStates);
  if (repeated.length > 0)
    plan.notes.push(
      `Listed more than once, planned once: ${repeated
        .slice(0, 20)
        .map(([slug, count]) => `${slug} (${count} times)`)
        .join(", ")}${repeated.length > 20 ? ` and ${repeated.length - 20} more` : ""}.`,
    );
  return plan;
}

/**
 * The jobs the request says each service is used for (ExitPlanBody.jobsUsed): such a service is
 * planned with those groups only, the first its primary. A 400 names an id not approved or a job
 * that is not one of the service's groups. `said` holds the services whose jobs were given.
 */
function usedJobs(
  catalogue: ExitCatalogue,
  services: readonly Approved[],
  jobsUsed: Readonly<Record<string, readonly string[]>> | undefined,
): { services: Approved[]; said: Set<string> } {
  const used = new Map<string, readonly string[]>();
  for (const [id, groups] of Object.entries(jobsUsed ?? {})) {
    const slug = catalogue.bySlug.get(id)?.service.slug;
    const approved = services.find((entry) => entry.service.slug === slug);
    if (!approved)
      throw new HttpError(
        400,
        "Invalid body",
        `jobsUsed names ${id.slice(0, 80)}, which is not in approvedServiceIds.`,
      );
    const unknown = groups.filter((group) => !approved.groupIds.includes(group));
    if (unknown.length > 0)
      throw new HttpError(
        400,
        "Invalid body",
        `jobsUsed.${id.slice(0, 80)}: ${unknown
          .slice(0, 5)
          .map((group) => group.slice(0, 80))
          .join(
            ", ",
          )} ${unknown.length === 1 ? "is not a job" : "are not jobs"} of ${approved.service.name}; its jobs: ${approved.groupIds.join(", ") || "none"}.`,
      );
    used.set(approved.service.slug, [...new Set(groups)]);
  }
  return {
    services: services.map((approved) => {
      const groups = used.get(approved.service.slug);
      return groups ? { ...approved, groupIds: groups, usedFor: groups } : approved;
    }),
    said: new Set(used.keys()),
  };
}

/** A saved list's jobsUsed, checked as POST /v1/exit-plan checks its own (the same 400s), keyed by each service's slug. */
export function checkedJobsUsed(
  catalogue: ExitCatalogue,
  ids: readonly string[],
  jobsUsed: Readonly<Record<string, readonly string[]>> | undefined,
): Record<string, string[]> | undefined {
  if (!jobsUsed) return undefined;
  const { services } = usedJobs(catalogue, resolveServices(catalogue, ids), jobsUsed);
  return Object.fromEntries(
    services.flatMap((approved) => (approved.usedFor ? [[approved.service.slug, [...approved.usedFor]]] : [])),
  );
}

/**
 * A moving service's jobs when the request did not give them: its non-primary jobs are optional,
 * and neither its coverage nor its fallback counts them (issue 98: a team using Key Vault for keys
 * only is not told its exit is a gap because no target sells certificates).
 */
function markOptional(context: PlanContext, slug: string, jobs: readonly ExitJobT[]): ExitJobT[] {
  if (context.jobsSaid?.has(slug) || jobs.length < 2) return [...jobs];
  return jobs.map((job) => (job.primary ? job : { ...job, optional: true }));
}

/** The jobs coverage and fallback count: the optional ones left out. */
const required = (jobs: readonly ExitJobT[]) => jobs.filter((job) => !job.optional);

/** The ids in list order, each once, and those given more than once with their count. */
function distinctIds(
  catalogue: ExitCatalogue,
  given: readonly string[],
): { ids: string[]; repeated: [string, number][] } {
  const count = new Map<string, number>();
  for (const id of given) {
    const slug = catalogue.bySlug.get(id)?.service.slug ?? id;
    count.set(slug, (count.get(slug) ?? 0) + 1);
  }
  return { ids: [...count.keys()], repeated: [...count].filter(([, n]) => n > 1) };
}

/** The approved services, in list order; a 400 on the first unknown id. */
function resolveServices(catalogue: ExitCatalogue, ids: readonly string[]): Approved[] {
  return ids.map((id) => {
    const record = catalogue.bySlug.get(id);
    if (!record) throw new HttpError(400, "Unknown service ids", `Not in the catalogue: ${id.slice(0, 80)}`);
    return record;
  });
}

type PlanBase = Pick<ExitServicePlanT, "slug" | "name" | "providerId" | "providerName" | "category" | "lifecycle">;

/** Each approved service's plan, in list order: stays, mapped or no-equivalent. */
function servicePlans(context: RankContext, services: readonly Approved[], placement: Placement): ExitServicePlanT[] {
  let sameCategory: Map<string, ServiceT[]> | undefined;
  const nearestOf = (service: ServiceT) =>
    nearestServices(
      context.catalogue,
      service,
      (sameCategory ??= openByCategory(context.catalogue, context.allowedSet)),
    );
  const movingByIndex = new Map(placement.moving.map((entry) => [entry.index, entry]));
  return services.map((approved, index) => {
    const { service } = approved;
    const base: PlanBase = {
      slug: service.slug,
      name: service.name,
      providerId: service.providerId,
      providerName: providerNameOf(context.catalogue, service.providerId),
      category: service.category,
      lifecycle: lifecycleOf(service),
    };
    if (placement.stays.has(index)) return stayPlan(context, base, service, jobsOf(context, approved, context.breadth));
    const entry = movingByIndex.get(index)!;
    const closed = placement.closedPeersOf.get(index)!;
    return entry.open.length > 0
      ? mappedPlan(context, base, approved, entry, closed)
      : gapPlan(context, base, approved, entry.jobs, closed, nearestOf);
  });
}

function stayPlan(context: PlanContext, base: PlanBase, service: ServiceT, jobs: readonly string[]): ExitServicePlanT {
  return {
    ...base,
    outcome: "stays",
    reason: `${base.providerName} is an allowed provider${service.lifecycle ? "; the service is in preview" : ""}.`,
    candidates: [],
    closedPeers: [],
    nearest: [],
    coverage: "covered",
    jobs: jobs.map((group, at) => ({
      group,
      name: context.groupById.get(group)?.name ?? group,
      primary: at === 0,
      status: "covered" as const,
      by: service.slug,
      proposed: true,
      lost: [],
    })),
  };
}

/** Why a service must move: its provider is not allowed, or it is closed to new customers there. */
function whyMove(context: PlanContext, base: PlanBase, service: ServiceT): string {
  return context.allowedSet.has(service.providerId)
    ? `It is ${service.lifecycle!.status} on ${base.providerName}, so it is replaced though its provider is allowed`
    : `${base.providerName} is not an allowed provider`;
}

const closedPeersOut = (closed: readonly ServiceT[]): ExitServicePlanT["closedPeers"] =>
  closed.map((peer) => ({
    slug: peer.slug,
    name: peer.name,
    providerId: peer.providerId,
    status: peer.lifecycle!.status,
  }));

function mappedPlan(
  context: RankContext,
  base: PlanBase,
  approved: Approved,
  entry: Moving,
  closed: readonly ServiceT[],
): ExitServicePlanT {
  const { service } = approved;
  const { candidates, peers } = rankCandidates(context, approved, entry.open);
  const jobs = markOptional(context, service.slug, jobEntries(context, approved, entry.jobs, peers, candidates));
  const fallback = fallbackOf(context, approved, required(jobs), []);
  return {
    ...base,
    outcome: "mapped",
    reason: `${whyMove(context, base, service)}; ${plural(candidates.length, "equivalent")} on the allowed providers${closed.length > 0 ? ` (${closed.length} more left out as closed to new customers)` : ""}.`,
    candidates,
    closedPeers: closedPeersOut(closed),
    nearest: [],
    coverage: coverageOf(required(jobs), candidates[0]),
    jobs,
    ...(fallback ? { fallback } : {}),
  };
}

function gapPlan(
  context: PlanContext,
  base: PlanBase,
  approved: Approved,
  jobIds: readonly string[],
  closed: readonly ServiceT[],
  nearestOf: (service: ServiceT) => ExitNearestT[],
): ExitServicePlanT {
  const { service } = approved;
  const jobs = markOptional(context, service.slug, jobEntries(context, approved, jobIds, [], []));
  const nearest = nearestOf(service).map((near) => ({
    ...near,
    lacks: jobs.map((job) => job.name),
  }));
  const fallback = fallbackOf(context, approved, required(jobs), nearest);
  return {
    ...base,
    outcome: "no-equivalent",
    reason: `${whyMove(context, base, service)}; ${gapReason(context, approved, closed)}.`,
    candidates: [],
    closedPeers: closedPeersOut(closed),
    nearest,
    coverage: "gap",
    jobs,
    ...(fallback ? { fallback } : {}),
  };
}

/** Why a service that moves has no equivalent on the allowed providers. */
function gapReason(context: PlanContext, { service, groupIds }: Approved, closed: readonly ServiceT[]): string {
  if (groupIds.length === 0) return "the catalogue names no equivalent of it on any provider";
  if (closed.length > 0)
    return `its only equivalents on the allowed providers are closed to new customers: ${closed.map((peer) => `${peer.name} (${peer.lifecycle!.status})`).join(", ")}`;
  const elsewhere = new Set(
    groupIds.flatMap((id) =>
      (context.groupById.get(id)?.services ?? [])
        .map((slug) => context.catalogue.bySlug.get(slug)?.service.providerId)
        .filter((providerId) => providerId !== undefined && providerId !== service.providerId),
    ),
  );
  return `none of its equivalents (on ${plural(elsewhere.size, "other provider")}) runs on the allowed providers`;
}

/** The proposed list: every service that stays and each mapped service's rank-1 candidate. */
function proposedServiceIds(plans: readonly ExitServicePlanT[]): string[] {
  return [
    ...new Set(
      plans.flatMap((plan) =>
        plan.outcome === "stays" ? [plan.slug] : plan.candidates.filter((c) => c.proposed).map((c) => c.slug),
      ),
    ),
  ];
}

function assemblePlan(
  { catalogue, allowed }: PlanContext,
  to: ExitTargetT,
  ids: readonly string[],
  plans: ExitServicePlanT[],
  targetIds: string[],
): ExitPlanT {
  const release = catalogue.changes.find((change) => change.released)?.release ?? null;
  return {
    target: { criteria: to, providers: [...allowed] },
    catalogue: { release, lastUpdated: catalogue.lastUpdated },
    summary: {
      services: plans.length,
      stays: plans.filter((plan) => plan.outcome === "stays").length,
      mapped: plans.filter((plan) => plan.outcome === "mapped").length,
      noEquivalent: plans.filter((plan) => plan.outcome === "no-equivalent").length,
      jobs: jobSummary(plans),
    },
    services: plans,
    gaps: plans
      .filter((plan) => plan.outcome === "no-equivalent")
      .map(({ slug, name, providerId, reason, jobs }) => {
        const primary = jobs?.[0];
        return {
          slug,
          name,
          providerId,
          reason,
          jobs: (jobs ?? []).map((job) => job.group),
          ...(primary?.gapKind ? { gapKind: primary.gapKind } : {}),
          ...(primary?.elsewhere ? { elsewhere: primary.elsewhere } : {}),
        };
      }),
    targetList: {
      approvedServiceIds: targetIds,
      providers: [...new Set(targetIds.map((slug) => catalogue.bySlug.get(slug)!.service.providerId))].sort(),
      method: COVER_METHOD,
    },
    exposure: exposureOf(catalogue, ids, plans, targetIds),
    notes: [...EXIT_PLAN_NOTES],
  };
}

/** The jobs of the services that move, by coverage. */
function jobSummary(plans: readonly ExitServicePlanT[]): NonNullable<ExitPlanT["summary"]["jobs"]> {
  const jobs = plans.filter((plan) => plan.outcome !== "stays").flatMap((plan) => plan.jobs ?? []);
  const count = (status: string) => jobs.filter((job) => job.status === status).length;
  const optional = jobs.filter((job) => job.optional).length;
  return {
    total: jobs.length,
    covered: count("covered"),
    partial: count("partial"),
    gap: count("gap"),
    ...(optional > 0 ? { optional } : {}),
  };
}

/**
 * Exposure before and after: after counts the proposed list and, where they are now, the gaps it
 * leaves out, since nothing replaces them (the site calls it again when a choice changes the list).
 */
export function exposureOf(
  catalogue: ExposureCatalogue,
  ids: readonly string[],
  plans: readonly Pick<ExitServicePlanT, "slug" | "outcome">[],
  targetIds: readonly string[],
): ExitPlanT["exposure"] {
  const proposed = new Set(targetIds);
  const unplaced = plans
    .filter((plan) => plan.outcome === "no-equivalent" && !proposed.has(plan.slug))
    .map((plan) => plan.slug);
  return {
    before: exposureReport(catalogue, ids),
    after: exposureReport(catalogue, [...targetIds, ...unplaced]),
    unplacedServiceIds: unplaced,
  };
}

/** The open services on allowed providers, by category: where a gap's nearest services are looked for. */
function openByCategory(catalogue: ExitCatalogue, allowed: ReadonlySet<string>): Map<string, ServiceT[]> {
  const byCategory = new Map<string, ServiceT[]>();
  for (const service of catalogue.services)
    if (allowed.has(service.providerId) && !isClosed(service))
      byCategory.set(service.category, [...(byCategory.get(service.category) ?? []), service]);
  return byCategory;
}

/**
 * The similarity floor of a gap's nearest services: the search tags they must share with it. A
 * same-category service sharing none is noise (Azure SQL Database → an OpenSearch offering).
 */
export const NEAREST_FLOOR = 1;

/**
 * Up to three open same-category services on allowed providers sharing at least NEAREST_FLOOR tags
 * with the gap, most shared tags first: not equivalents.
 */
function nearestServices(
  catalogue: ExitCatalogue,
  service: ServiceT,
  sameCategory: ReadonlyMap<string, readonly ServiceT[]>,
): ExitNearestT[] {
  const tags = new Set(service.tags ?? []);
  return (sameCategory.get(service.category) ?? [])
    .filter((other) => other.slug !== service.slug)
    .map((other) => ({ other, shared: (other.tags ?? []).filter((tag) => tags.has(tag)) }))
    .filter(({ shared }) => shared.length >= NEAREST_FLOOR)
    .sort(
      (a, b) =>
        b.shared.length - a.shared.length ||
        (a.other.lifecycle ? 1 : 0) - (b.other.lifecycle ? 1 : 0) ||
        a.other.name.localeCompare(b.other.name, "en") ||
        a.other.slug.localeCompare(b.other.slug),
    )
    .slice(0, 3)
    .map(({ other, shared }) => ({
      slug: other.slug,
      name: other.name,
      providerId: other.providerId,
      providerName: catalogue.providerById.get(other.providerId)!.provider.name,
      kind: "same-category" as const,
      sharedTags: shared,
      reason: `Same category (${service.category})${shared.length > 0 ? `, shares the tags ${shared.join(", ")}` : ""}${other.lifecycle ? ", in preview" : ""}; not an equivalent: evaluate before relying on it.`,
    }));
}
