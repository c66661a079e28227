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
 * The ranking (ranking.ts, catalogue/data/README.md rule "job fit"): a service that follows what it
 * serves (placement.yaml: keys, secrets, shares, volumes, networks) goes where those services go;
 * then job fit, then consolidation onto the providers the greedy set cover chose by job fit
 * (COVER_METHOD), then lineage, shared compatibility, capabilities kept and category, then its
 * provider's flagship, then the providers' flagship priors; a provider id or a name decides only
 * where every signal is equal, and each candidate's reason names the signal that decided
 * (decidedBy). The proposed list takes every service that stays, each mapped service's rank-1
 * candidate and, for a service in several groups it is used for, the best candidate on a used
 * provider for each group rank 1 is not in; targetList.why says why each provider is in it.
 * Exposure before and after is exposureReport(), the function GET /v1/exposure answers with; after
 * counts the gaps where they are now, a retired one nowhere. `leaving` (leaving.ts) says what
 * leaving each provider costs, and, given the data volumes (dataGb), estimates its egress.
 */
import { type ExposureCatalogue, exposureReport } from "../equivalence/exposure.ts";
import type { TitleOf } from "../base/error-catalogue.ts";
import { HttpError } from "../base/problem.ts";
import {
  type ExitCatalogue,
  compatibilityOf,
  partialCompatibilityOf,
  originOf,
  type Approved,
  type PlanContext,
  type SignalIndex,
  type RankContext,
  providerNameOf,
  flagshipPrior,
} from "./context.ts";
import { placeServices, coverProviders, reachOf, groupBreadth, followersOf, weightsOf } from "./placement.ts";
import { jobsOf } from "./jobs.ts";
import { required, servicePlans } from "./service-plans.ts";
import { checkedDataGb, leavingOf, type DataVolumes } from "./leaving.ts";
import type { ExitPlanT, ExitServicePlanT, ExitTargetT } from "../schema/index.ts";
import { LOCATION_GROUPS } from "../policies/locations.ts";

export const COVER_METHOD =
  "Greedy set cover: the providers of the services that stay are used first; then, while a service with a candidate is not placed, the allowed provider with candidates for the most of them is added (ties: the provider holding more of their finest candidates, by how well they do the jobs, lineage and shared compatibility, then the catalogue order). A candidate counts for the cover when it does the service's primary job and as many of the jobs the service is said to be used for as any does (generally available before preview), however well: so a second provider is added only where a job is missing on the providers already chosen, and targetList.why says which. Ranking then prefers the provider taking most of the list among those doing the jobs, and how well each candidate does them decides among its own; what it loses is named. Greedy, so the provider count is small but not guaranteed minimal. A service whose primary job follows what it serves (placement.yaml: keys, secrets, file shares, volumes, networks, VPN, private connectivity, load balancing, monitoring, logging, identity) is placed after the others, on the provider receiving most of the services it serves where one there does its job, else on another chosen provider that does, and only then on a new one. Each mapped service then takes its rank-1 candidate, and a service in several groups it is said to be used for also the best candidate on a chosen provider for each group rank 1 does not do at all; an optional job adds nothing.";

export const EXIT_PLAN_NOTES = [
  "Equivalence means the services do the same job at the same layer (catalogue/data/README.md); it does not mean feature parity, the same APIs, prices or limits. Check each mapping against the vendors' documentation before planning a migration.",
  "Deprecated, sunset and retired services are never proposed; preview services only where no generally available equivalent exists on the allowed providers, and they are labelled.",
  "Exposure after counts the proposed list and, where they are now, the services with no equivalent (exposure.unplacedServiceIds): a gap is not an exit. A retired service is counted nowhere: nothing of it is left to keep.",
  "Exposure figures are procurement triage, not legal advice (see exposure.disclaimer).",
];

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
  dataGb?: DataVolumes,
): ExitPlanT {
  const allowed = allowedProviders(catalogue, to);
  const { ids, repeated } = distinctIds(catalogue, approvedServiceIds);
  const { services, said } = usedJobs(catalogue, resolveServices(catalogue, ids), jobsUsed);
  const volumes = checkedDataGb(
    catalogue,
    services.map((approved) => approved.service.slug),
    dataGb,
  );
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
  const breadth = groupBreadth(context);
  const followers = followersOf(context, services, (i) => jobsOf(context, services[i]!, breadth)[0], placement.moving);
  const chosen = coverProviders(context, services, placement.stays, placeable, followers);
  const rank: RankContext = {
    ...context,
    chosen,
    weight: weightsOf(services, placement.stays, placeable, chosen),
    reach: reachOf(placeable),
    breadth,
    movingCount: placement.moving.length,
  };
  const plans = servicePlans(rank, services, placement, followers);
  const targetIds = proposedServiceIds(plans);
  const plan = assemblePlan(context, to, ids, plans, targetIds);
  const leaving = leavingOf(catalogue, plans, volumes);
  if (leaving) plan.leaving = leaving;
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

/** The proposed list: every service that stays and each mapped service's proposed candidates. */
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
  const gaps = gapsOf(plans);
  return {
    target: { criteria: to, providers: [...allowed] },
    catalogue: { release, lastUpdated: catalogue.lastUpdated },
    summary: {
      services: plans.length,
      stays: plans.filter((plan) => plan.outcome === "stays").length,
      mapped: plans.filter((plan) => plan.outcome === "mapped").length,
      noEquivalent: plans.filter((plan) => plan.outcome === "no-equivalent").length,
      gaps: gaps.length,
      jobs: jobSummary(plans),
    },
    services: plans,
    gaps,
    targetList: {
      approvedServiceIds: targetIds,
      providers: [...new Set(targetIds.map((slug) => catalogue.bySlug.get(slug)!.service.providerId))].sort(),
      why: providerReasons(catalogue, plans),
      method: COVER_METHOD,
    },
    exposure: exposureOf(catalogue, ids, plans, targetIds),
    notes: [...EXIT_PLAN_NOTES],
  };
}

/**
 * The gaps: each service with no equivalent, and each mapped one with a job it is used for (not
 * optional) that no allowed provider does (issue 114: a used job's gap is a gap, in the headline
 * too). `jobs` names only the jobs not covered.
 */
function gapsOf(plans: readonly ExitServicePlanT[]): ExitPlanT["gaps"] {
  return plans.flatMap(({ slug, name, providerId, reason, jobs, outcome }) => {
    if (outcome === "stays") return [];
    const missing = required(jobs ?? []).filter((job) => job.status === "gap");
    if (outcome === "mapped" && missing.length === 0) return [];
    const first = missing[0] ?? jobs?.[0];
    return [
      {
        slug,
        name,
        providerId,
        outcome,
        reason:
          outcome === "mapped"
            ? `Mapped for its other jobs, but no allowed provider does ${missing.map((job) => job.name).join(", ")}, which it is used for.`
            : reason,
        jobs: (outcome === "mapped" ? missing : (jobs ?? [])).map((job) => job.group),
        ...(first?.gapKind ? { gapKind: first.gapKind } : {}),
        ...(first?.elsewhere ? { elsewhere: first.elsewhere } : {}),
      },
    ];
  });
}

/**
 * Why each provider of the proposed list is in it (issue 114: a split is said, never silent): the
 * provider receiving the most services is the consolidated choice; another is there for the
 * services that stay on it, the services following what they serve to it, or the services whose
 * job the consolidated choice does not do, or does only in part.
 */
function providerReasons(
  catalogue: ExitCatalogue,
  plans: readonly ExitServicePlanT[],
): NonNullable<ExitPlanT["targetList"]["why"]> {
  const byProvider = new Map<string, ExitServicePlanT[]>();
  for (const plan of plans) {
    const providers =
      plan.outcome === "stays"
        ? [plan.providerId]
        : [...new Set(plan.candidates.filter((c) => c.proposed).map((c) => c.providerId))];
    for (const providerId of providers) byProvider.set(providerId, [...(byProvider.get(providerId) ?? []), plan]);
  }
  const ordered = [...byProvider].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  const [main] = ordered[0] ?? [];
  const mainName = main ? providerNameOf(catalogue, main) : "";
  return ordered.map(([providerId, placed], at) => {
    const name = providerNameOf(catalogue, providerId);
    const services = placed.map((plan) => plan.slug);
    if (at === 0)
      return {
        providerId,
        services,
        reason: `${name} receives the most services (${placed.length} of ${plans.length}): the consolidated choice.`,
      };
    const why = placed.map((plan) => splitWords(plan, providerId, main!, mainName));
    return { providerId, services, reason: `${name} is added for ${why.join("; ")}.` };
  });
}

/** Why one service lands on a provider other than the consolidated choice, in words. */
function splitWords(plan: ExitServicePlanT, providerId: string, main: string, mainName: string): string {
  if (plan.outcome === "stays") return `${plan.name}, which stays there`;
  const here = plan.candidates.find((c) => c.proposed && c.providerId === providerId)!;
  const jobs = required(plan.jobs ?? []).filter((job) => here.jobs?.includes(job.group) ?? false);
  const named = jobs.map((job) => job.name).join(", ") || "its job";
  // The consolidated choice's candidates doing any of those jobs (one doing only another is none).
  const there = plan.candidates.filter(
    (c) => c.providerId === main && (jobs.length === 0 || jobs.some((job) => c.jobs?.includes(job.group))),
  );
  if (there.length === 0) return `${plan.name}: ${mainName} has no service doing ${named}`;
  const rank1 = plan.candidates[0]!;
  if (rank1.providerId === providerId && rank1.decidedBy === "consolidation")
    return `${plan.name}: it follows the services it serves there`;
  const lost = jobs.flatMap((job) => job.lost).slice(0, 2);
  return `${plan.name}: ${mainName}'s ${there[0]!.name} does ${named} less well${lost.length > 0 ? ` (here it loses only ${lost.join("; ")})` : ""}`;
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
  plans: readonly (Pick<ExitServicePlanT, "slug" | "outcome"> & Partial<Pick<ExitServicePlanT, "lifecycle">>)[],
  targetIds: readonly string[],
): ExitPlanT["exposure"] {
  const proposed = new Set(targetIds);
  // A retired gap runs nowhere: nothing of it is left to count where it is.
  const unplaced = plans
    .filter((plan) => plan.outcome === "no-equivalent" && !proposed.has(plan.slug) && plan.lifecycle !== "retired")
    .map((plan) => plan.slug);
  return {
    before: exposureReport(catalogue, ids),
    after: exposureReport(catalogue, [...targetIds, ...unplaced]),
    unplacedServiceIds: unplaced,
  };
}
