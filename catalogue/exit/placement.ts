/**
 * Where each approved service of an exit plan can go: its peers on the allowed providers, the
 * best of them by real signals, and the providers the greedy set cover chooses (COVER_METHOD in
 * plan.ts).
 */
import {
  type ExitCatalogue,
  isClosed,
  compatibilityOf,
  partialCompatibilityOf,
  originOf,
  sameProduct,
  type Peer,
  type Moving,
  type Approved,
  type PlanContext,
  type Placement,
  type JobFit,
} from "./context.ts";
import { coverageRank, jobFit, jobsOf, overallFit } from "./jobs.ts";
import type { ServiceT } from "../schema/index.ts";

/**
 * A service's candidates on the allowed providers: its equivalence-group peers, the same product
 * operated elsewhere (lineage), and same-category services sharing a compatibility entry; each with
 * what it shares with the service.
 */
function peersOn(context: PlanContext, approved: Approved, jobs: readonly string[]): Peer[] {
  const { service, groupIds } = approved;
  const peers = new Map<string, Approved>();
  const shared = new Map<string, string[]>();
  for (const groupId of groupIds) {
    for (const slug of context.groupById.get(groupId)?.services ?? []) {
      const peer = context.catalogue.bySlug.get(slug);
      if (!peer || slug === service.slug || !context.allowedSet.has(peer.service.providerId)) continue;
      peers.set(slug, peer);
      shared.set(slug, [...(shared.get(slug) ?? []), groupId]);
    }
  }
  const compatibility = compatibilityOf(approved);
  const origin = originOf(approved);
  const index = context.signalIndex();
  const originRecord = origin ? context.catalogue.bySlug.get(origin) : undefined;
  const related = [
    ...(index.byOrigin.get(service.slug) ?? []),
    ...(origin ? (index.byOrigin.get(origin) ?? []) : []),
    ...(originRecord ? [originRecord] : []),
    ...compatibility.flatMap((id) =>
      (index.byCompatibility.get(id) ?? []).filter((other) => other.service.category === service.category),
    ),
  ];
  for (const peer of related)
    if (peer.service.slug !== service.slug && context.allowedSet.has(peer.service.providerId))
      peers.set(peer.service.slug, peer);
  // What the service speaks, whole or in part: a peer covering the whole job shares it.
  const mine = new Set([...compatibility, ...partialCompatibilityOf(approved).map(([id]) => id)]);
  return [...peers.values()].map((peer) => {
    const judged = { record: peer, groups: shared.get(peer.service.slug) ?? [], lineage: sameProduct(approved, peer) };
    const jobFits = jobs.map((groupId) => jobFit(context, approved, judged, groupId));
    const wholeJob = compatibilityOf(peer).filter((id) => compatibility.includes(id)).length;
    const partial = partialCompatibilityOf(peer)
      .filter(([id]) => mine.has(id))
      .map(([id, scope]) => `${id}: ${scope}`);
    return {
      service: peer.service,
      said: context.jobsSaid?.has(service.slug) ?? false,
      ...judged,
      compatibility: compatibilityOf(peer).filter((id) => mine.has(id)),
      wholeJob,
      partial,
      prior: context.prior(peer.service.slug),
      jobFits,
      fit: overallFit(jobFits, wholeJob, partial.length, judged.lineage),
      kept: jobFits.reduce((sum, fit) => sum + (fit.capabilities?.kept.length ?? 0), 0),
      lacking: jobFits.reduce(
        (sum, fit) => sum + 2 * (fit.capabilities?.lost.length ?? 0) + (fit.capabilities?.partial?.length ?? 0),
        0,
      ),
    };
  });
}

/**
 * Whether a candidate does the service's jobs at all, best first when compared in order (lower is
 * better; rule "job fit" in catalogue/data/README.md): generally available; then whether it does
 * the primary job, whole or in part; then how many of the jobs it does. The greedy cover counts
 * these only (issue 114): a second provider is added only where a job is missing on the providers
 * already chosen, never because another does a job better or is better described.
 */
export function doneTierOf(peer: Peer): number[] {
  const [primary] = peer.jobFits;
  // The jobs a team said it uses; without them the primary only, the others being optional.
  const counted = peer.said ? peer.jobFits : peer.jobFits.slice(0, 1);
  return [
    peer.service.lifecycle ? 1 : 0,
    primary && coverageRank(primary.status) >= 2 ? 1 : 0,
    -counted.filter((fit) => fit.status !== "none").length,
  ];
}

const FIT_RANK: Readonly<Record<string, number>> = { "same-product": 0, compatible: 1 };

/**
 * How well it does them, compared after consolidation: the same product or the replaced service's
 * own protocol for the primary job (a drop-in), then how it does the primary job (whole before in
 * part) and how many of the replaced service's capabilities of it it is recorded as lacking or
 * having in part only; then how many jobs it does whole, and how many capabilities over all jobs
 * it is recorded as lacking. A capability the catalogue does not know about counts nowhere (issue
 * 114: "not known" is no loss).
 */
export function qualityTierOf(peer: Peer): number[] {
  const [primary] = peer.jobFits;
  // A capability lacked weighs twice one had in part (SMB on the provider's own network only).
  const short = (fit: JobFit | undefined) =>
    2 * (fit?.capabilities?.lost.length ?? 0) + (fit?.capabilities?.partial?.length ?? 0);
  return [
    peer.lineage ? 0 : (FIT_RANK[primary?.fit ?? ""] ?? 2),
    primary ? coverageRank(primary.status) : 0,
    short(primary),
    -peer.jobFits.filter((fit) => fit.status === "covered").length,
    peer.lacking,
  ];
}

/**
 * Its other real signals: the same product (lineage), the shared compatibility entries (first those
 * the replaced service speaks for the whole job, then any), how many of the replaced service's
 * capabilities it is recorded as keeping (on the primary job, then all), then its category. Group
 * size never ranks.
 */
export function signalTierOf(peer: Peer, replaced: ServiceT): number[] {
  const [primary] = peer.jobFits;
  return [
    peer.lineage ? 0 : 1,
    -peer.wholeJob,
    -peer.compatibility.length,
    -(primary?.capabilities?.kept.length ?? 0),
    -peer.kept,
    peer.service.category === replaced.category ? 0 : 1,
  ];
}

/** Every real signal in order, consolidation left aside: what the cover's ties are broken by. */
export const tierOf = (peer: Peer, replaced: ServiceT): number[] => [
  ...doneTierOf(peer),
  ...qualityTierOf(peer),
  ...signalTierOf(peer, replaced),
];

export const compareKeys = (x: readonly (number | string)[], y: readonly (number | string)[]): number => {
  for (let i = 0; i < x.length; i++)
    if (x[i] !== y[i])
      return typeof x[i] === "string" ? String(x[i]).localeCompare(String(y[i])) : Number(x[i]) - Number(y[i]);
  return 0;
};

/** The candidates best by a tier: those the cover may choose among (jobTierOf), or prefers (tierOf). */
function bestBy(open: readonly Peer[], tier: (peer: Peer) => number[]): Peer[] {
  if (open.length === 0) return [];
  const tiers = open.map(tier);
  const top = tiers.reduce((best, one) => (compareKeys(one, best) < 0 ? one : best));
  return open.filter((_, i) => compareKeys(tiers[i]!, top) === 0);
}

/** Which services stay, and for each that moves, its open candidates and its closed peers. */
export function placeServices(context: PlanContext, services: readonly Approved[]): Placement {
  const stays = new Set<number>();
  const moving: Moving[] = [];
  const closedPeersOf = new Map<number, ServiceT[]>();
  services.forEach((approved, index) => {
    const { service } = approved;
    if (context.allowedSet.has(service.providerId) && !isClosed(service)) {
      stays.add(index);
      return;
    }
    const jobs = jobsOf(context, approved, groupBreadth(context));
    const all = peersOn(context, approved, jobs);
    const open = all.filter((peer) => !isClosed(peer.service));
    closedPeersOf.set(
      index,
      all.filter((peer) => isClosed(peer.service)).map((peer) => peer.service),
    );
    moving.push({
      index,
      jobs,
      open,
      best: bestBy(open, doneTierOf),
      finest: bestBy(open, (peer) => tierOf(peer, service)),
    });
  });
  return { stays, moving, closedPeersOf };
}

/**
 * The services that follow what they serve (placement.yaml, rule "follow the workloads"): by index,
 * for each moving service whose primary job follows others, the services of the list (moving or
 * staying) whose primary job it serves. A service of such a job in a list holding nothing it
 * serves is a workload like any other (it is not a key in the map).
 */
export function followersOf(
  context: PlanContext,
  services: readonly Approved[],
  primaryOf: (index: number) => string | undefined,
  moving: readonly Moving[],
): Map<number, number[]> {
  const followers = new Map<number, number[]>();
  const follows = context.catalogue.follows;
  if (!follows) return followers;
  for (const entry of moving) {
    const rule = follows.get(entry.jobs[0] ?? "");
    if (!rule) continue;
    const served = services.flatMap((_, i) => {
      const job = primaryOf(i);
      return i !== entry.index && job !== undefined && rule.serves.has(job) && !follows.has(job) ? [i] : [];
    });
    if (served.length > 0) followers.set(entry.index, served);
  }
  return followers;
}

/** Whether a candidate does the service's primary job at all (whole or in part). */
export const doesPrimary = (peer: Peer): boolean => coverageRank(peer.jobFits[0]?.status ?? "covered") < 2;

/**
 * Greedy set cover over the providers of each service's best candidates (COVER_METHOD): the
 * workloads first; then each service following them (followersOf) is placed where a chosen
 * provider has a candidate doing its primary job, and only the rest add a provider.
 */
export function coverProviders(
  context: PlanContext,
  services: readonly Approved[],
  stays: ReadonlySet<number>,
  placeable: readonly Moving[],
  followers: ReadonlyMap<number, readonly number[]>,
): Set<string> {
  const chosen = new Set([...stays].map((index) => services[index]!.service.providerId));
  if (chosen.size === 0) {
    const anchor = anchorOf(context, placeable, followers);
    if (anchor) chosen.add(anchor);
  }
  greedyCover(
    context,
    chosen,
    placeable.filter((entry) => !followers.has(entry.index)),
  );
  const follow = placeable.filter(
    (entry) =>
      followers.has(entry.index) &&
      !entry.open.some((peer) => chosen.has(peer.service.providerId) && doesPrimary(peer)),
  );
  greedyCover(context, chosen, follow);
  return chosen;
}

/**
 * The consolidated choice (issue 114), where nothing of the list stays: the provider taking the
 * most of the services to move, workloads and the services following them alike (a follower where
 * the provider has a candidate doing its primary job at all); between providers taking as many,
 * the one keeping more followers (a key manager, a VPN or private endpoints left on another
 * provider serve nothing there, a queue elsewhere still does its job), then the one holding more
 * of their finest candidates, then the first in catalogue order. A provider added after it takes
 * only what it cannot, chosen by how well it does that.
 */
function anchorOf(
  context: PlanContext,
  placeable: readonly Moving[],
  followers: ReadonlyMap<number, readonly number[]>,
): string | undefined {
  let pick: string | undefined;
  let most = [0, 0, 0];
  for (const providerId of context.allowed) {
    const placed = placeable.filter((entry) =>
      followers.has(entry.index)
        ? entry.open.some((peer) => peer.service.providerId === providerId && doesPrimary(peer))
        : entry.best.some((peer) => peer.service.providerId === providerId),
    );
    const score = [
      placed.length,
      placed.filter((entry) => followers.has(entry.index)).length,
      placed.filter((entry) => entry.finest.some((peer) => peer.service.providerId === providerId)).length,
    ];
    if (compareKeys(score, most) > 0) [pick, most] = [providerId, score];
  }
  return pick;
}

/**
 * How much of the list each chosen provider takes: the services staying on it and those it has a
 * candidate doing the most jobs for. Ranking prefers the heavier of two chosen providers, so a
 * service goes to the consolidated choice wherever it does the job (issue 114), and a provider
 * the cover added takes only what the consolidated choice cannot.
 */
export function weightsOf(
  services: readonly Approved[],
  stays: ReadonlySet<number>,
  placeable: readonly Moving[],
  chosen: ReadonlySet<string>,
): Map<string, number> {
  const weight = new Map<string, number>();
  const add = (providerId: string) => weight.set(providerId, (weight.get(providerId) ?? 0) + 1);
  for (const index of stays) add(services[index]!.service.providerId);
  for (const entry of placeable)
    for (const providerId of new Set(entry.best.map((peer) => peer.service.providerId)))
      if (chosen.has(providerId)) add(providerId);
  return weight;
}

/**
 * Adds to chosen, greedily, the providers placing the most of the entries by their candidates doing
 * the most of their jobs (doneTierOf); between providers placing as many, the one holding more of
 * their finest candidates (how well they do the jobs, lineage, protocols: tierOf), then the first
 * in catalogue order.
 */
function greedyCover(context: PlanContext, chosen: Set<string>, placeable: readonly Moving[]): void {
  const covers = (entry: Moving, providerId: string) =>
    entry.best.some((peer) => peer.service.providerId === providerId);
  const finest = (entry: Moving, providerId: string) =>
    entry.finest.some((peer) => peer.service.providerId === providerId);
  let unplaced = placeable.filter((entry) => ![...chosen].some((providerId) => covers(entry, providerId)));
  while (unplaced.length > 0) {
    let pick = "";
    let most: [number, number] = [0, 0];
    for (const providerId of context.allowed) {
      if (chosen.has(providerId)) continue;
      const placed = unplaced.filter((entry) => covers(entry, providerId));
      const score: [number, number] = [placed.length, placed.filter((entry) => finest(entry, providerId)).length];
      if (score[0] > most[0] || (score[0] === most[0] && score[1] > most[1])) [pick, most] = [providerId, score];
    }
    chosen.add(pick);
    unplaced = unplaced.filter((entry) => !covers(entry, pick));
  }
}

/** How many of the services to move each allowed provider has a candidate for. */
export function reachOf(placeable: readonly Moving[]): Map<string, number> {
  const reach = new Map<string, number>();
  for (const entry of placeable)
    for (const providerId of new Set(entry.open.map((peer) => peer.service.providerId)))
      reach.set(providerId, (reach.get(providerId) ?? 0) + 1);
  return reach;
}

const breadths = new WeakMap<ExitCatalogue, Map<string, number>>();
/**
 * A group's breadth, its number of providers (memoised): the broadest group of a service is its
 * mainstream job (EC2's is virtual machines, not Mac instances).
 */
export function groupBreadth(context: PlanContext): (groupId: string) => number {
  let known = breadths.get(context.catalogue);
  if (!known) breadths.set(context.catalogue, (known = new Map<string, number>()));
  return (groupId) => {
    let size = known.get(groupId);
    if (size === undefined) {
      const members = context.groupById.get(groupId)?.services ?? [];
      size = new Set(members.map((slug) => context.catalogue.bySlug.get(slug)?.service.providerId)).size;
      known.set(groupId, size);
    }
    return size;
  };
}

/** Whether a peer is in one of the broadest groups of the service it would replace. */
export function inBroadestOf(
  breadth: (groupId: string) => number,
  serviceGroups: readonly string[],
): (peer: Peer) => boolean {
  if (serviceGroups.length === 0) return () => true;
  const broadest = Math.max(...serviceGroups.map(breadth));
  return (peer) => peer.groups.some((id) => breadth(id) === broadest);
}
