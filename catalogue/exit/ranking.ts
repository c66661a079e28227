/**
 * Ranking a moving service's candidates once the providers are chosen (decisions.md#exit-ranking):
 * the ranking key, the signal that decided each pair, the words of each candidate's reason, and the
 * extra candidates proposed for groups rank 1 is not in.
 */
import { type Peer, type Approved, type RankContext, plural, providerNameOf } from "./context.ts";
import {
  tierOf,
  doneTierOf,
  qualityTierOf,
  signalTierOf,
  compareKeys,
  inBroadestOf,
  doesPrimary,
} from "./placement.ts";
import { coverageRank } from "./jobs.ts";
import type { ExitCandidateT } from "../schema/index.ts";

/**
 * The ranking key, part by part, each with the signal it stands for (decidedBy): lifecycle, then
 * following the workloads (a service that follows what it serves goes where it is received), then
 * whether it does the jobs (doneTierOf), then consolidation (a provider the proposed list uses),
 * then how well it does them (qualityTierOf) and the other real signals (signalTierOf), then
 * flagship, then the other consolidation signals, then the providers' priors; a name only where
 * every signal is equal.
 */
const KEY_PARTS = [
  ["lifecycle", "lifecycle"],
  ["follows", "consolidation"],
  ["primaryDone", "groups"],
  ["done", "groups"],
  ["chosen", "consolidation"],
  ["fit", "compatibility"],
  ["primary", "groups"],
  ["primaryShort", "capabilities"],
  ["covered", "groups"],
  ["lacking", "capabilities"],
  ["lineage", "lineage"],
  ["wholeJob", "compatibility"],
  ["compatibility", "compatibility"],
  ["primaryKept", "capabilities"],
  ["kept", "capabilities"],
  ["category", "category"],
  ["flagship", "flagship"],
  ["jobs", "consolidation"],
  ["reach", "consolidation"],
  ["providerPrior", "flagship"],
  ["providerId", "name"],
  ["prior", "flagship"],
  ["name", "name"],
  ["slug", "name"],
] as const satisfies readonly (readonly [string, ExitCandidateT["decidedBy"]])[];

const KEY_SIGNALS: readonly ExitCandidateT["decidedBy"][] = KEY_PARTS.map(([, signal]) => signal);
const at = (part: (typeof KEY_PARTS)[number][0]) => KEY_PARTS.findIndex(([name]) => name === part);
const FOLLOWS_AT = at("follows");
const CHOSEN_AT = at("chosen");
const FLAGSHIP_AT = at("flagship");
const JOBS_AT = at("jobs");

interface Ranked {
  readonly peer: Peer;
  readonly key: readonly (number | string)[];
  readonly inBroadest: boolean;
}

/**
 * A moving service's open candidates, best first (rule "job fit"): KEY_PARTS in order. For a
 * service that follows what it serves (context.receiving), a candidate doing its primary job on the
 * provider receiving most of those services comes first, then one on another provider the list
 * uses. Otherwise whether it does the jobs first, then a provider the proposed list uses (the cover
 * chose the providers by the jobs done, so consolidation never costs a job; what it costs is said,
 * as lost), then the same product or the service's own protocol, how well it does the primary job
 * and its capabilities, then lineage, protocols, capabilities kept and category, then flagship (the
 * candidate is its provider's best by the flagship prior),
 * then the provider whose candidates cover more of the service's jobs (jobOf), then one with
 * candidates for more of the services, then the providers' best priors compared, then the prior
 * within a provider. The prior counts how finely the data describes a product, not how well it
 * does the job, so it comes last.
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
  // The vendors' own positioning for the service's jobs (equivalents.yaml flagships, issue 124): a
  // provider that names one has it as its flagship, whatever the data-derived prior says.
  const named = new Set(approved.groupIds.flatMap((id) => context.groupById.get(id)?.flagships ?? []));
  const namesOne = new Set(open.filter((peer) => named.has(peer.service.slug)).map((peer) => peer.service.providerId));
  const flagship = new Map<string, number>();
  for (const [peer, tier] of tiers) {
    const where = `${peer.service.providerId}|${tier.join()}`;
    flagship.set(where, Math.max(flagship.get(where) ?? -Infinity, peer.prior));
  }
  const followKey = (peer: Peer): number => {
    if (!context.receiving) return 0;
    if (!doesPrimary(peer)) return 1;
    const received = context.receiving.get(peer.service.providerId) ?? 0;
    return received > 0 ? -received : context.chosen.has(peer.service.providerId) ? 0 : 1;
  };
  const ranked = open.map((peer): Ranked => {
    const tier = tiers.get(peer)!;
    const { providerId } = peer.service;
    const [lifecycle, ...done] = doneTierOf(peer);
    return {
      peer,
      inBroadest: inBroadest(peer),
      key: [
        lifecycle!,
        followKey(peer),
        ...done,
        context.chosen.has(providerId) ? -(context.weight.get(providerId) ?? 0) : 1,
        ...qualityTierOf(peer),
        ...signalTierOf(peer, approved.service),
        namesOne.has(providerId)
          ? named.has(peer.service.slug)
            ? 0
            : 1
          : peer.prior === flagship.get(`${providerId}|${tier.join()}`)
            ? 0
            : 1,
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
    return `${name} receives ${-Number(winner.key[FOLLOWS_AT]) > 0 ? `${-Number(winner.key[FOLLOWS_AT])} of the services this one serves` : "services of the list"}, where this service is of use`;
  if (winner.key[CHOSEN_AT] !== loser.key[CHOSEN_AT])
    return loser.key[CHOSEN_AT] === 1
      ? `${name} is a provider the proposed list uses`
      : `${name} takes more of the list (${-Number(winner.key[CHOSEN_AT])} services, ${providerNameOf(context.catalogue, b)} ${-Number(loser.key[CHOSEN_AT])})`;
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
 * Rank 1, and for each job of the service (it is used for) no proposed candidate does at all: the
 * first ranked candidate doing it best on a provider the list uses, else (a job at least half as
 * broad as its broadest, jobOf) the first anywhere. Coverage first: a job is never left undone to
 * save a provider; but one done in part keeps its loss named rather than add a second candidate.
 */
function proposedForJobs(context: RankContext, approved: Approved, ranked: readonly Ranked[]): Set<Ranked> {
  const first = ranked[0];
  if (!first) return new Set();
  const proposed = new Set([first]);
  const isJob = jobOf(context, approved);
  first.peer.jobFits.forEach(({ group }, at) => {
    const best = bestCoverage(ranked, at);
    // A job a proposed candidate does, even in part, takes no second candidate (issue 114): what is
    // lost is said, and a provider is never added to do a job better.
    if (best >= 2 || [...proposed].some((entry) => coverageRank(entry.peer.jobFits[at]!.status) < 2)) return;
    const able = ranked.filter((entry) => coverageRank(entry.peer.jobFits[at]!.status) === best);
    // An optional job (not primary, and the request did not say the service is used for it) adds
    // nothing to the proposed list (issue 114): EC2's Mac instances are no job of a game backend.
    if (at > 0 && !context.jobsSaid?.has(approved.service.slug)) return;
    // A service that follows what it serves is of no use elsewhere: its other jobs too are taken
    // where those services are received, else on a provider the list uses, never on a new one
    // (issue 114: no SMB share on a provider the servers are not on).
    if (context.receiving) {
      const received =
        able.find((entry) => context.receiving!.has(entry.peer.service.providerId)) ??
        able.find((entry) => context.chosen.has(entry.peer.service.providerId));
      if (received) proposed.add(received);
      return;
    }
    const extra =
      able.find((entry) => context.chosen.has(entry.peer.service.providerId)) ?? (isJob(group) ? able[0] : undefined);
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
