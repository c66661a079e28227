/**
 * Each approved service's plan (plan.ts exitPlan): stays, mapped (its candidates ranked) or
 * no-equivalent (a gap, with the nearest same-category services). The services that follow what
 * they serve (placement.yaml) are ranked after the others, with the providers receiving what they
 * serve; a service closed to new customers is said to be so, with nothing to keep once it closes.
 */
import {
  type ExitCatalogue,
  isClosed,
  type Moving,
  type Approved,
  type PlanContext,
  type Placement,
  type RankContext,
  plural,
  providerNameOf,
} from "./context.ts";
import { rankCandidates } from "./ranking.ts";
import { coverageOf, fallbackOf, jobEntries, jobsOf } from "./jobs.ts";
import type { ExitJobT, ExitNearestT, ExitServicePlanT, ServiceT } from "../schema/index.ts";

const lifecycleOf = (service: ServiceT): ExitServicePlanT["lifecycle"] => service.lifecycle?.status ?? "active";

/**
 * A sunset or retired service, in words: nothing of it is left to keep once it closes (issue 114:
 * a retired service is no "keep where it is"). Undefined for any other.
 */
export function closedWords(service: Pick<ServiceT, "name" | "lifecycle">): string | undefined {
  const { lifecycle } = service;
  if (lifecycle?.status === "retired") return `${service.name} was retired on ${lifecycle.sunsetDate}: nothing to keep`;
  if (lifecycle?.status === "sunset")
    return `${service.name} is sunset: it closes on ${lifecycle.sunsetDate}, and there is nothing to keep after it`;
  return undefined;
}

/**
 * A moving service's jobs when the request did not give them: its non-primary jobs are optional,
 * and neither its coverage nor its fallback counts them (issue 98: a team using Key Vault for keys
 * only is not told its exit is a gap because no target sells certificates).
 */
export function markOptional(context: PlanContext, slug: string, jobs: readonly ExitJobT[]): ExitJobT[] {
  if (context.jobsSaid?.has(slug) || jobs.length < 2) return [...jobs];
  return jobs.map((job) => (job.primary ? job : { ...job, optional: true }));
}

/** The jobs coverage and fallback count: the optional ones left out. */
export const required = (jobs: readonly ExitJobT[]) => jobs.filter((job) => !job.optional);

type PlanBase = Pick<ExitServicePlanT, "slug" | "name" | "providerId" | "providerName" | "category" | "lifecycle">;

/**
 * Each approved service's plan, in list order: stays, mapped or no-equivalent. The services that
 * follow what they serve (`followers`, by index, with the indexes they serve) are planned last,
 * ranked with the providers receiving those services (RankContext.receiving).
 */
export function servicePlans(
  context: RankContext,
  services: readonly Approved[],
  placement: Placement,
  followers: ReadonlyMap<number, readonly number[]>,
): ExitServicePlanT[] {
  let sameCategory: Map<string, ServiceT[]> | undefined;
  const nearestOf = (service: ServiceT) =>
    nearestServices(
      context.catalogue,
      service,
      (sameCategory ??= openByCategory(context.catalogue, context.allowedSet)),
    );
  const movingByIndex = new Map(placement.moving.map((entry) => [entry.index, entry]));
  const plans: ExitServicePlanT[] = [];
  const planOne = (index: number, rank: RankContext): ExitServicePlanT => {
    const approved = services[index]!;
    const { service } = approved;
    const base: PlanBase = {
      slug: service.slug,
      name: service.name,
      providerId: service.providerId,
      providerName: providerNameOf(context.catalogue, service.providerId),
      category: service.category,
      lifecycle: lifecycleOf(service),
    };
    if (placement.stays.has(index)) return stayPlan(rank, base, service, jobsOf(rank, approved, rank.breadth));
    const entry = movingByIndex.get(index)!;
    const closed = placement.closedPeersOf.get(index)!;
    return entry.open.length > 0
      ? mappedPlan(rank, base, approved, entry, closed)
      : gapPlan(rank, base, approved, entry.jobs, closed, nearestOf);
  };
  services.forEach((_, index) => {
    if (!followers.has(index)) plans[index] = planOne(index, context);
  });
  for (const [index, served] of followers)
    plans[index] = planOne(index, { ...context, receiving: receivingOf(served.map((i) => plans[i]!)) });
  return plans;
}

/** Per provider, how many of the given services' plans land there (where they stay, or their proposed candidates). */
function receivingOf(served: readonly ExitServicePlanT[]): Map<string, number> {
  const receiving = new Map<string, number>();
  for (const plan of served) {
    const providers =
      plan.outcome === "stays"
        ? [plan.providerId]
        : [...new Set(plan.candidates.filter((candidate) => candidate.proposed).map((c) => c.providerId))];
    for (const providerId of providers) receiving.set(providerId, (receiving.get(providerId) ?? 0) + 1);
  }
  return receiving;
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

/** Why a service must move: its provider is not allowed, or it is closed to new customers there; and whether it closes. */
function whyMove(context: PlanContext, base: PlanBase, service: ServiceT): string {
  const closing = closedWords(service);
  const why = context.allowedSet.has(service.providerId)
    ? `It is ${service.lifecycle!.status} on ${base.providerName}, so it is replaced though its provider is allowed`
    : `${base.providerName} is not an allowed provider`;
  return closing ? `${why}; ${closing}` : why;
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
  const fallback = fallbackOf(context, approved, required(jobs), [], closedWords(service));
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
  const fallback = fallbackOf(context, approved, required(jobs), nearest, closedWords(service));
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
