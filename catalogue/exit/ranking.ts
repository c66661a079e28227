/**
 * Ranking a moving service's candidates once the providers are chosen (decisions.md#exit-ranking):
 * the ranking key, the signal that decided each pair, the words of each candidate's reason, and the
 * extra candidates proposed for groups rank 1 is not in.
 */
import { type Peer, type Approved, type RankContext, plural, providerNameOf } from "./context.ts";
import { tierOf, compareKeys, inBroadestOf, followsWorkloads, doesPrimary } from "./placement.ts";
import { coverageRank } from "./jobs.ts";
import type { ExitCandidateT } from "../schema/index.ts";

/** The signal each position of a ranking key stands for (rankKey). */
const KEY_SIGNALS: readonly ExitCandidateT["decidedBy"][] = [
  "lifecycle",
  "consolidation",
  "groups",
  "capabilities",
  "capabilities",
  "groups",
  "groups",
  "capabilities",
  "capabilities",
  "lineage",
  "compatibility",
  "compatibility",
  "category",
  "flagship",
  "consolidation",
  "consolidation",
  "consolidation",
  "flagship",
  "name",
  "flagship",
  "name",
  "name",
];

/**
 * Where sortCandidates' key holds "its provider's flagship for the job", "a provider the list uses"
 * and "the service's groups it covers".
 */
const FOLLOWS_AT = 1;
const FLAGSHIP_AT = 13;
const CHOSEN_AT = 14;
const JOBS_AT = 15;

interface Ranked {
  readonly peer: Peer;
  readonly key: readonly (number | string)[];
  readonly inBroadest: boolean;
}

/**
 * A moving service's open candidates, best first (the issue's order, rule "job fit"): the real
 * signals of tierOf (job fit, then lineage, then protocol, then category), then flagship (the
 * candidate is its provider's best for the job by the flagship prior), then consolidation (a
 * provider the proposed list uses, then one whose candidates cover more of the service's jobs
 * (jobOf), then one with candidates for more of the services), then the providers' best priors
 * compared, then the prior within a provider; a provider id or a name decides only where every
 * signal is equal. The prior is compared across providers only after consolidation: it counts a
 * record's groups and tiers (flagshipPrior: not its equivalents, group size), which say how finely
 * the data describes a product, not how well it does the job (Elastx DBaaS's four engines against
 * Scaleway's Redis).
 */
function sortCandidates(context: RankContext, approved: Approved, open: readonly Peer[]): Ranked[] {
  const inBroadest = inBroadestOf(context.breadth, approved.groupIds);
  const tiers = new Map(open.map((peer) => [peer, tierOf(peer, approved.service)]));
  // How many of the service's groups each provider's candidates cover together: one provider for
  // all its jobs (Key Vault's keys and secrets) rather than two.
  const jobs = new Map<string, Set<string>>();
  const isJob = jobOf(context, approved);
  for (const peer of open)
    for (const id of peer.groups.filter(isJob))
      jobs.set(peer.service.providerId, (jobs.get(peer.service.providerId) ?? new Set()).add(id));
  const flagship = new Map<string, number>();
  for (const [peer, tier] of tiers) {
    const at = `${peer.service.providerId}|${tier.join()}`;
    flagship.set(at, Math.max(flagship.get(at) ?? -Infinity, peer.prior));
  }
  // A service tied to the workloads' network or account follows them: a candidate doing its
  // primary job on a provider the list uses comes first (placement.ts, WORKLOAD_TIED_JOBS).
  const follows = followsWorkloads(peerJobs(open));
  const ranked = open.map((peer): Ranked => {
    const tier = tiers.get(peer)!;
    const { providerId } = peer.service;
    const followed = follows && context.chosen.has(providerId) && doesPrimary(peer) ? 0 : 1;
    return {
      peer,
      inBroadest: inBroadest(peer),
      key: [
        tier[0]!,
        followed,
        ...tier.slice(1),
        peer.prior === flagship.get(`${providerId}|${tier.join()}`) ? 0 : 1,
        context.chosen.has(providerId) ? 0 : 1,
        -(jobs.get(providerId)?.size ?? 0),
        -(context.reach.get(providerId) ?? 0),
        -flagship.get(`${providerId}|${tier.join()}`)!,
        providerId,
        -peer.prior,
        peer.service.name,
        peer.service.slug,
      ],
    };
  });
  return ranked.sort((a, b) => compareKeys(a.key, b.key));
}

/** The service's jobs as its candidates were judged on them, primary first. */
const peerJobs = (open: readonly Peer[]): string[] => (open[0]?.jobFits ?? []).map((fit) => fit.group);

/** The signal that puts one candidate before another: the first key where they differ. */
function decidingSignal(a: Ranked, b: Ranked): ExitCandidateT["decidedBy"] {
  const at = a.key.findIndex((value, i) => value !== b.key[i]);
  return at < 0 ? "name" : KEY_SIGNALS[at]!;
}

/** The real signals a candidate carries, in words. */
function signalWords(context: RankContext, approved: Approved, ranked: Ranked): string[] {
  const { peer } = ranked;
  const serviceGroups = approved.groupIds;
  const groupNames = peer.groups.map((id) => context.groupById.get(id)?.name ?? id);
  const name = providerNameOf(context.catalogue, peer.service.providerId);
  return [
    peer.service.lifecycle ? "In preview" : "Generally available",
    ...(peer.lineage ? [`the same product as ${approved.service.name}, operated by ${name}`] : []),
    ...(peer.compatibility.length > 0 ? [`compatible as it is (${peer.compatibility.join(", ")})`] : []),
    ...(peer.partial.length > 0 ? [`compatible for part of the job only (${peer.partial.join("; ")})`] : []),
    peer.groups.length === 0
      ? "in none of its equivalence groups"
      : serviceGroups.length > 1
        ? `in ${peer.groups.length} of its ${serviceGroups.length} equivalence groups (${groupNames.join(", ")})${ranked.inBroadest ? ", its broadest among them" : ", not its broadest"}`
        : `in its equivalence group ${groupNames[0]}`,
    ...(peer.service.category === approved.service.category ? [] : [`in another category (${peer.service.category})`]),
    context.chosen.has(peer.service.providerId)
      ? `on ${name}, a provider the proposed list uses`
      : `${name} would add a provider to the proposed list`,
  ];
}

/** Why the winner's provider consolidates better than the loser's: the key that differs, in words. */
function consolidationWords(context: RankContext, winner: Ranked, loser: Ranked): string {
  const [a, b] = [winner.peer.service.providerId, loser.peer.service.providerId];
  const name = providerNameOf(context.catalogue, a);
  if (winner.key[FOLLOWS_AT] !== loser.key[FOLLOWS_AT])
    return `${name} receives the workloads this service's network or account is tied to`;
  if (winner.key[CHOSEN_AT] !== loser.key[CHOSEN_AT]) return `${name} is a provider the proposed list uses`;
  if (winner.key[JOBS_AT] !== loser.key[JOBS_AT])
    return `${name} covers ${-Number(winner.key[JOBS_AT])} of its groups on its own, ${providerNameOf(context.catalogue, b)} ${-Number(loser.key[JOBS_AT])}`;
  return `${name} has candidates for more of the services to move (${context.reach.get(a) ?? 0} of ${context.movingCount}, ${providerNameOf(context.catalogue, b)} ${context.reach.get(b) ?? 0})`;
}

/** Why a candidate ranks above the next one (or, the last, below the previous one), in words. */
function decisionWords(context: RankContext, ranked: Ranked, other: Ranked, above: boolean): string {
  const signal = above ? decidingSignal(ranked, other) : decidingSignal(other, ranked);
  const [mine, theirs] = [ranked.peer, other.peer];
  const provider = (peer: Peer) => providerNameOf(context.catalogue, peer.service.providerId);
  const [me, them] = [mine, theirs].map((peer) => `${peer.service.name} (${provider(peer)})`) as [string, string];
  const verb = above ? `Ranked above ${them}` : `Ranked below ${them}`;
  switch (signal) {
    case "lifecycle":
      return `${verb} by lifecycle: generally available before preview.`;
    case "lineage":
      return `${verb} by lineage: ${above ? me : them} is the same product.`;
    case "compatibility":
      return `${verb} by compatibility: ${me} shares ${plural(mine.compatibility.length, "compatibility entry", "compatibility entries")}, ${them} ${theirs.compatibility.length}.`;
    case "groups":
      return `${verb} by job fit: ${me} ${jobWords(mine)}, ${them} ${jobWords(theirs)}.`;
    case "capabilities":
      return `${verb} by capabilities: ${me} keeps ${plural(mine.kept, "capability", "capabilities")} of the service's (lacks ${mine.lacking}), ${them} ${theirs.kept} (lacks ${theirs.lacking}).`;
    case "category":
      return `${verb} by category: ${above ? me : them} is in the service's category.`;
    case "consolidation":
      return `${verb} by consolidation: ${consolidationWords(context, above ? ranked : other, above ? other : ranked)}.`;
    case "flagship":
      if (ranked.key[FLAGSHIP_AT] !== other.key[FLAGSHIP_AT])
        return `${verb} by flagship: ${above ? me : them} is its provider's flagship for the job, ${above ? them : me} is not (its provider has a candidate with a higher flagship prior than its ${(above ? theirs : mine).prior.toFixed(2)}).`;
      return `${verb} by the flagship prior: ${me} ${mine.prior.toFixed(2)}, ${them} ${theirs.prior.toFixed(2)}${mine.service.providerId === theirs.service.providerId ? "" : ` (each provider's best candidate compared)`}.`;
    case "only":
      return "The only candidate.";
    default:
      return `${verb}: equal on every signal, ordered by provider id and name.`;
  }
}

/** How a candidate does the service's jobs, in words: "does the primary job whole, 2 of 3 jobs whole". */
function jobWords(peer: Peer): string {
  const [primary] = peer.jobFits;
  if (!primary) return `shares ${plural(peer.wholeJob, "protocol")} for the whole job`;
  const whole = peer.jobFits.filter((fit) => fit.status === "covered").length;
  const part = peer.jobFits.filter((fit) => fit.status === "partial").length;
  const how = primary.status === "covered" ? "whole" : primary.status === "partial" ? "in part" : "not at all";
  return `does the primary job ${how}, ${whole} of ${peer.jobFits.length} jobs whole${part > 0 ? ` and ${part} in part` : ""}`;
}

/**
 * A moving service's open candidates, ranked. Rank 1 is proposed; so is, for each of the service's
 * jobs no proposed candidate covers as well as the best candidate does (jobs.ts), that job's best
 * candidate: on a provider the proposed list uses where one covers it as well, else anywhere
 * (Key Vault: a key manager and a secret manager). The ranked peers come back with the candidates.
 */
export function rankCandidates(
  context: RankContext,
  approved: Approved,
  open: readonly Peer[],
): { candidates: ExitCandidateT[]; peers: Peer[] } {
  const ranked = sortCandidates(context, approved, open);
  const proposed = proposedForJobs(context, approved, ranked);
  const candidates = ranked.map((entry, i): ExitCandidateT => {
    const { peer } = entry;
    const other = ranked[i + 1] ?? ranked[i - 1];
    const beside = i > 0 && proposed.has(entry) ? alsoWords(context, approved, ranked[0]!, entry) : "";
    return {
      slug: peer.service.slug,
      name: peer.service.name,
      providerId: peer.service.providerId,
      providerName: providerNameOf(context.catalogue, peer.service.providerId),
      lifecycle: peer.service.lifecycle ? "preview" : "active",
      rank: i + 1,
      groups: peer.groups,
      ...(peer.lineage ? { lineage: true } : {}),
      compatibility: [...peer.compatibility],
      proposed: proposed.has(entry),
      decidedBy: other ? (ranked[i + 1] ? decidingSignal(entry, other) : decidingSignal(other, entry)) : "only",
      reason: `${signalWords(context, approved, entry).join("; ")}. ${beside}${other ? decisionWords(context, entry, other, Boolean(ranked[i + 1])) : "The only candidate."}`,
      fit: peer.fit,
      jobs: peer.jobFits.filter((fit) => fit.status !== "none").map((fit) => fit.group),
    };
  });
  return { candidates, peers: ranked.map((entry) => entry.peer) };
}

/**
 * Whether a group of the service is a job it is commonly chosen for: at least half as broad as its
 * broadest (Key Vault's secrets beside its keys; not EC2's Mac instances beside its virtual machines).
 */
function jobOf(context: RankContext, approved: Approved): (groupId: string) => boolean {
  const broadest = Math.max(0, ...approved.groupIds.map(context.breadth));
  return (groupId) => approved.groupIds.includes(groupId) && 2 * context.breadth(groupId) >= broadest;
}

/** The best coverage any candidate gives a job (by its index in the service's jobs). */
const bestCoverage = (ranked: readonly Ranked[], at: number): number =>
  Math.min(2, ...ranked.map((entry) => coverageRank(entry.peer.jobFits[at]!.status)));

/**
 * Rank 1, and for each job of the service no proposed candidate covers as well as its best
 * candidate does: the first ranked candidate covering it that well on a provider the list uses,
 * else (a job at least half as broad as its broadest, jobOf) the first anywhere. Coverage first:
 * a job is never left uncovered to save a provider.
 */
function proposedForJobs(context: RankContext, approved: Approved, ranked: readonly Ranked[]): Set<Ranked> {
  const first = ranked[0];
  if (!first) return new Set();
  const proposed = new Set([first]);
  const isJob = jobOf(context, approved);
  first.peer.jobFits.forEach(({ group }, at) => {
    const best = bestCoverage(ranked, at);
    if (best >= 2 || [...proposed].some((entry) => coverageRank(entry.peer.jobFits[at]!.status) <= best)) return;
    const able = ranked.filter((entry) => coverageRank(entry.peer.jobFits[at]!.status) === best);
    // An optional job (not primary, and the request did not say the service is used for it) is
    // proposed only on a provider the list uses: it never adds a provider (issue 98).
    const optional = at > 0 && !context.jobsSaid?.has(approved.service.slug);
    const extra =
      able.find((entry) => context.chosen.has(entry.peer.service.providerId)) ??
      (isJob(group) && !optional ? able[0] : undefined);
    if (extra) proposed.add(extra);
  });
  return proposed;
}

function alsoWords(context: RankContext, approved: Approved, first: Ranked, extra: Ranked): string {
  const groups = extra.peer.jobFits
    .filter((fit, at) => coverageRank(fit.status) < coverageRank(first.peer.jobFits[at]!.status))
    .map((fit) => context.groupById.get(fit.group)?.name ?? fit.group);
  return `Proposed beside ${first.peer.service.name}: ${approved.service.name} also does ${groups.join(", ")}, which ${first.peer.service.name} does not. `;
}
