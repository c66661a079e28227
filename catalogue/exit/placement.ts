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
      ...judged,
      compatibility: compatibilityOf(peer).filter((id) => mine.has(id)),
      wholeJob,
      partial,
      prior: context.prior(peer.service.slug),
      jobFits,
      fit: overallFit(jobFits, wholeJob, partial.length, judged.lineage),
      kept: jobFits.reduce((sum, fit) => sum + (fit.capabilities?.kept.length ?? 0), 0),
      lacking: jobFits.reduce((sum, fit) => sum + (fit.capabilities?.lost.length ?? 0), 0),
    };
  });
}

/**
 * A candidate's real signals, best first when compared in order (lower is better; rule "job fit"
 * in catalogue/data/README.md): generally available; then job fit: how it does the service's
 * primary job (whole, in part, not), how many of its jobs it does whole, how many at all; then
 * how many of the replaced service's capabilities it keeps, and how few it is recorded as lacking
 * (capabilities.yaml: Azure Files to a share with SMB before an NFS-only one), on the primary job
 * right after how it does it (Key Vault to a key manager that signs before a secret store doing
 * two jobs), over all jobs after the counts; then the same product (lineage); then shared compatibility entries — first those the replaced
 * service speaks for the whole job, then any (its own scoped ones: AWS OpenSearch's Elasticsearch
 * 7.10 API); then its category. Group size never ranks.
 */
export function tierOf(peer: Peer, replaced: ServiceT): number[] {
  const [primary] = peer.jobFits;
  return [
    peer.service.lifecycle ? 1 : 0,
    primary ? coverageRank(primary.status) : 0,
    -(primary?.capabilities?.kept.length ?? 0),
    primary?.capabilities?.lost.length ?? 0,
    -peer.jobFits.filter((fit) => fit.status === "covered").length,
    -peer.jobFits.filter((fit) => fit.status !== "none").length,
    -peer.kept,
    peer.lacking,
    peer.lineage ? 0 : 1,
    -peer.wholeJob,
    -peer.compatibility.length,
    peer.service.category === replaced.category ? 0 : 1,
  ];
}

export const compareKeys = (x: readonly (number | string)[], y: readonly (number | string)[]): number => {
  for (let i = 0; i < x.length; i++)
    if (x[i] !== y[i])
      return typeof x[i] === "string" ? String(x[i]).localeCompare(String(y[i])) : Number(x[i]) - Number(y[i]);
  return 0;
};

/** The candidates whose real signals are the best (tierOf): those the cover may choose among. */
function bestTier(approved: Approved, open: readonly Peer[]): Peer[] {
  if (open.length === 0) return [];
  const tiers = open.map((peer) => tierOf(peer, approved.service));
  const top = tiers.reduce((best, tier) => (compareKeys(tier, best) < 0 ? tier : best));
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
    moving.push({ index, jobs, open, best: bestTier(approved, open) });
  });
  return { stays, moving, closedPeersOf };
}

/**
 * Jobs tied to the network or the account the workloads run in: a VPN, a NAT gateway, a private
 * resolver, a load balancer, monitoring, logging, identity, firewalls. A service whose primary job
 * is one of them follows the providers receiving the workloads (issue 98): a VPN to Scaleway is no
 * use to servers moved to STACKIT.
 */
export const WORKLOAD_TIED_JOBS: ReadonlySet<string> = new Set([
  "virtual-network",
  "vpn-gateway",
  "client-vpn",
  "nat-gateway",
  "dns-resolver",
  "private-endpoints",
  "dedicated-interconnect",
  "transit-routing",
  "load-balancer",
  "application-load-balancer",
  "instance-firewall",
  "network-firewall",
  "bastion",
  "monitoring-metrics",
  "logging",
  "audit-logging",
  "tracing-apm",
  "iam",
]);

/** Whether a moving service follows the workloads: its primary job is tied to their network or account. */
export const followsWorkloads = (jobs: readonly string[]): boolean =>
  jobs.length > 0 && WORKLOAD_TIED_JOBS.has(jobs[0]!);

/** Whether a candidate does the service's primary job at all (whole or in part). */
export const doesPrimary = (peer: Peer): boolean => coverageRank(peer.jobFits[0]?.status ?? "covered") < 2;

/**
 * Greedy set cover over the providers of each service's best candidates (COVER_METHOD): the
 * workloads first; then each service following them (followsWorkloads) is placed where a chosen
 * provider has a candidate doing its primary job, and only the rest add a provider.
 */
export function coverProviders(
  context: PlanContext,
  services: readonly Approved[],
  stays: ReadonlySet<number>,
  placeable: readonly Moving[],
): Set<string> {
  const chosen = new Set([...stays].map((index) => services[index]!.service.providerId));
  const workloads = placeable.filter((entry) => !followsWorkloads(entry.jobs));
  greedyCover(context, chosen, workloads);
  const follow = placeable.filter(
    (entry) =>
      followsWorkloads(entry.jobs) &&
      !entry.open.some((peer) => chosen.has(peer.service.providerId) && doesPrimary(peer)),
  );
  greedyCover(context, chosen, follow);
  return chosen;
}

/** Adds to chosen, greedily, the providers placing the most of the entries by their best candidates. */
function greedyCover(context: PlanContext, chosen: Set<string>, placeable: readonly Moving[]): void {
  const covers = (entry: Moving, providerId: string) =>
    entry.best.some((peer) => peer.service.providerId === providerId);
  let unplaced = placeable.filter((entry) => ![...chosen].some((providerId) => covers(entry, providerId)));
  while (unplaced.length > 0) {
    let pick = "";
    let most = 0;
    for (const providerId of context.allowed) {
      if (chosen.has(providerId)) continue;
      const count = unplaced.filter((entry) => covers(entry, providerId)).length;
      if (count > most) [pick, most] = [providerId, count];
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
