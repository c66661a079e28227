/**
 * The jobs of a service in an exit plan (issue 86, rule "job fit" in catalogue/data/README.md):
 * its equivalence groups, one of them primary. For each job, how a candidate does it (whole, in
 * part, not at all, and what is lost), which candidate covers it in the plan, and, for a gap, the
 * providers outside the target that sell it and whether the target's providers were checked.
 */
import {
  compatibilityOf,
  notCompatibleOf,
  originOf,
  partialCompatibilityOf,
  providerNameOf,
  type Approved,
  type Fit,
  type JobFit,
  type Peer,
  type PlanContext,
} from "./context.ts";
import type { ExitCandidateT, ExitJobT } from "../schema/index.ts";
import { capabilityDifference, lostWords, unconfirmedWords } from "../capabilities/capabilities.ts";

export type Coverage = ExitJobT["status"];

/** What judging a candidate's jobs reads of it (a Peer before it is one). */
interface Judged {
  readonly record: Approved;
  readonly groups: readonly string[];
  readonly lineage: boolean;
}

const COVERAGE_ORDER: readonly (Coverage | "none")[] = ["covered", "partial", "gap", "none"];
/** Lower is better: covered, partial, gap (none counts as a gap). */
export const coverageRank = (status: Coverage | "none"): number => Math.min(2, COVERAGE_ORDER.indexOf(status));
/** The worse of two coverages. */
export const worse = (a: Coverage, b: Coverage): Coverage => (coverageRank(a) >= coverageRank(b) ? a : b);

/**
 * The terms the service speaks for the whole job that bear on the group: those whose sweep covers
 * it (compatibility.yaml `groups`), and those swept over no group, which bear on each of the
 * service's jobs (issue 114: R2's S3 API against a store speaking it only in a closed preview). A
 * member claiming no such term loses nothing by it; one with only a scoped claim does that part.
 */
function termsOfJob(context: PlanContext, approved: Approved, groupId: string, inPart = false): string[] {
  const terms = context.catalogue.compatibilityById;
  // With inPart, a protocol the service speaks in part too: its loss is still a loss (issue 124:
  // Bigtable's HBase API, through its Java client, is lost on a Cassandra store with no HBase API),
  // though sharing it is no reason to rank a candidate first.
  const spoken = [...compatibilityOf(approved), ...(inPart ? partialCompatibilityOf(approved).map(([id]) => id) : [])];
  return [...new Set(spoken)].filter((id) => {
    const groups = terms?.get(id)?.groups;
    // With inPart, a term swept over another of the service's jobs too: MSK speaks Kafka for its
    // stream ingestion as well, so a stream store recording no Kafka loses it (issue 124).
    return (
      groups === undefined ||
      groups.includes(groupId) ||
      (inPart && approved.groupIds.some((id) => groups.includes(id)))
    );
  });
}

/**
 * How a candidate does one job: the same product does all of them; a group member does it whole
 * unless, for a protocol the service speaks for this job, the member speaks only part of it or a
 * sourced record says it does not (then partial, with what is lost); a non-member speaking such a
 * protocol for part of the job does that part (partial).
 */
export function jobFit(context: PlanContext, approved: Approved, peer: Judged, groupId: string): JobFit {
  if (peer.lineage) return { group: groupId, status: "covered", fit: "same-product", lost: [] };
  const terms = termsOfJob(context, approved, groupId);
  const spoken = termsOfJob(context, approved, groupId, true);
  const whole = compatibilityOf(peer.record);
  const shares = terms.some((id) => whole.includes(id));
  const termsLost: [string, string][] = [
    ...partialCompatibilityOf(peer.record)
      .filter(([id]) => terms.includes(id) && !whole.includes(id))
      .map(([id, scope]): [string, string] => [id, `${id}: ${scope}`]),
    ...notCompatibleOf(peer.record)
      .filter(([id]) => terms.includes(id))
      .map(([id, note]): [string, string] => [id, `${id}: not supported${note ? ` (${note})` : ""}`]),
  ];
  const lost = termsLost.map(([, words]) => words);
  // A protocol the service speaks only in part, recorded as not spoken by the candidate: said as
  // lost, without making the job partial (the service's own claim was partial).
  const lostInPart = notCompatibleOf(peer.record)
    .filter(([id]) => spoken.includes(id) && !terms.includes(id))
    .map(([id, note]) => `${id}: not supported${note ? ` (${note})` : ""}`);
  if (peer.groups.includes(groupId)) {
    // What the replaced service has of the job's capabilities and the member lacks, or has in part
    // only (issue 98): membership alone does not say SMB, pull delivery or signing come along. A
    // capability not known of the member is said (unconfirmed), never counted as lost (issue 114).
    const index = context.catalogue.capabilities;
    // The same product operated elsewhere has its origin's capabilities (S3NS's Pub/Sub is Google's).
    const recorded = (record: Approved) =>
      index?.states.has(record.service.slug) ? record.service.slug : (originOf(record) ?? record.service.slug);
    const target = recorded(peer.record);
    const capabilities = capabilityDifference(index, groupId, recorded(approved), target);
    const short = capabilities ? capabilities.lost.length + (capabilities.partial?.length ?? 0) : 0;
    // A term a capability of the job restates (smb) is said once, as the capability.
    const restated = new Set([...(capabilities?.lost ?? []), ...(capabilities?.partial ?? [])]);
    const all = [
      ...termsLost.filter(([id]) => !restated.has(id)).map(([, words]) => words),
      ...lostInPart,
      ...(capabilities && index ? lostWords(index, capabilities, target) : []),
    ];
    const unconfirmed = capabilities && index ? unconfirmedWords(index, capabilities) : [];
    const withCapabilities = {
      ...(capabilities ? { capabilities } : {}),
      ...(unconfirmed.length > 0 ? { unconfirmed } : {}),
    };
    if (lost.length > 0)
      return { group: groupId, status: "partial", fit: "partly-compatible", lost: all, ...withCapabilities };
    const fit = shares ? "compatible" : "equivalent";
    return { group: groupId, status: short > 0 ? "partial" : "covered", fit, lost: all, ...withCapabilities };
  }
  // Not a member: a protocol of the job spoken in part does that part (STACKIT Intake's Kafka for
  // Event Hubs); spoken whole, it is still not the job (a MySQL server is not cloud-native MySQL).
  if (lost.length > 0 && partialCompatibilityOf(peer.record).some(([id]) => terms.includes(id)))
    return { group: groupId, status: "partial", fit: "partly-compatible", lost };
  return { group: groupId, status: "none", lost: [] };
}

const FIT_ORDER: readonly Fit[] = ["same-product", "compatible", "equivalent", "partly-compatible", "look-alike"];

/**
 * A candidate's fit overall: its best fit on the service's jobs; for a service in no group (or a
 * candidate doing none of its jobs), what it shares: a protocol whole (compatible), in part
 * (partly-compatible), or nothing but a category (look-alike).
 */
export function overallFit(fits: readonly JobFit[], wholeJob: number, partial: number, lineage: boolean): Fit {
  if (lineage) return "same-product";
  const done = fits.filter((fit) => fit.status !== "none").map((fit) => fit.fit!);
  if (done.length > 0) return done.sort((a, b) => FIT_ORDER.indexOf(a) - FIT_ORDER.indexOf(b))[0]!;
  if (fits.length === 0 && wholeJob > 0) return "compatible";
  return partial > 0 ? "partly-compatible" : "look-alike";
}

const categories = new WeakMap<object, Map<string, string>>();
/** A group's category: the one most of its members are in (ties: the first met), memoised. */
function groupCategory(context: PlanContext, groupId: string): string {
  let known = categories.get(context.catalogue);
  if (!known) categories.set(context.catalogue, (known = new Map<string, string>()));
  let category = known.get(groupId);
  if (category === undefined) {
    const count = new Map<string, number>();
    for (const slug of context.groupById.get(groupId)?.services ?? []) {
      const member = context.catalogue.bySlug.get(slug)?.service.category;
      if (member) count.set(member, (count.get(member) ?? 0) + 1);
    }
    category = [...count].reduce((best, entry) => (entry[1] > best[1] ? entry : best), ["", 0])[0];
    known.set(groupId, category);
  }
  return category;
}

/**
 * The service's jobs, primary first (rule "primary job"): the group whose primaryOf names it;
 * otherwise, of its groups whose
 * category is the service's own, the one with the most providers (ties: equivalents.yaml order);
 * without such a group, its broadest. The others follow in equivalents.yaml order.
 */
export function jobsOf(context: PlanContext, approved: Approved, breadth: (groupId: string) => number): string[] {
  if (approved.usedFor) return [...approved.usedFor];
  const groups = approved.groupIds;
  if (groups.length < 2) return [...groups];
  const named = groups.find((id) => context.groupById.get(id)?.primaryOf?.includes(approved.service.slug));
  if (named) return [named, ...groups.filter((id) => id !== named)];
  const own = groups.filter((id) => groupCategory(context, id) === approved.service.category);
  const pool = own.length > 0 ? own : groups;
  const primary = pool.reduce((best, id) => (breadth(id) > breadth(best) ? id : best));
  return [primary, ...groups.filter((id) => id !== primary)];
}

/** The providers outside the target selling a job, with their open services. */
export function elsewhereOf(
  context: PlanContext,
  approved: Approved,
  groupId: string,
): NonNullable<ExitJobT["elsewhere"]> {
  const byProvider = new Map<string, string[]>();
  for (const slug of context.groupById.get(groupId)?.services ?? []) {
    const member = context.catalogue.bySlug.get(slug)?.service;
    if (!member || member.slug === approved.service.slug || member.providerId === approved.service.providerId) continue;
    if (context.allowedSet.has(member.providerId) || (member.lifecycle && member.lifecycle.status !== "preview"))
      continue;
    byProvider.set(member.providerId, [...(byProvider.get(member.providerId) ?? []), member.slug]);
  }
  return [...byProvider].map(([providerId, services]) => ({
    providerId,
    providerName: providerNameOf(context.catalogue, providerId),
    services,
  }));
}

/**
 * not-sold when every allowed provider is recorded (with a source) as selling no service doing the
 * job. Not from the reconciled inventories: a Terraform inventory lists what can be automated, not
 * what is sold, and every one misses current products of its provider (check:data prints which):
 * OTC's has no resource for AOM, Cloud Secret Management or DMS for RocketMQ, all sold, so "none in
 * the inventory" would have called those jobs not sold (issue 98's false gaps).
 */
export function gapKindOf(context: PlanContext, groupId: string): NonNullable<ExitJobT["gapKind"]> {
  const checked = new Set((context.groupById.get(groupId)?.notDoing ?? []).map((record) => record.provider));
  return context.allowed.every((providerId) => checked.has(providerId)) ? "not-sold" : "not-checked";
}

/**
 * The candidate a job names: the proposed one doing it best (issue 114: the job says what the plan
 * does, not what a candidate it leaves out would do), else the first ranked of those doing it best.
 */
function coveringAt(peers: readonly Peer[], candidates: readonly ExitCandidateT[], at: number): number | undefined {
  const rank = (i: number) => coverageRank(peers[i]!.jobFits[at]!.status);
  const doing = peers.flatMap((_, i) => (rank(i) < 2 ? [i] : []));
  if (doing.length === 0) return undefined;
  const proposed = doing.filter((i) => candidates[i]!.proposed);
  const pool = proposed.length > 0 ? proposed : doing;
  const best = Math.min(...pool.map(rank));
  return pool.find((i) => rank(i) === best);
}

/**
 * Each job of a moving service (primary first) as the plan covers it: by the proposed candidate
 * that does it best, else the best ranked; a gap names the providers outside the target that sell
 * it and whether the target's providers were checked. `peers` and `candidates` are in rank order.
 */
export function jobEntries(
  context: PlanContext,
  approved: Approved,
  jobs: readonly string[],
  peers: readonly Peer[],
  candidates: readonly ExitCandidateT[],
): ExitJobT[] {
  return jobs.map((group, at): ExitJobT => {
    const base = { group, name: context.groupById.get(group)?.name ?? group, primary: at === 0 };
    const i = coveringAt(peers, candidates, at);
    if (i === undefined)
      return {
        ...base,
        status: "gap",
        proposed: false,
        lost: [],
        gapKind: gapKindOf(context, group),
        elsewhere: elsewhereOf(context, approved, group),
      };
    const fit = peers[i]!.jobFits[at]!;
    return {
      ...base,
      status: fit.status === "partial" ? "partial" : "covered",
      by: candidates[i]!.slug,
      ...(fit.fit ? { fit: fit.fit } : {}),
      proposed: candidates[i]!.proposed,
      lost: [...fit.lost],
      ...(fit.unconfirmed ? { unconfirmed: [...fit.unconfirmed] } : {}),
      ...(fit.capabilities ? { capabilities: fit.capabilities } : {}),
    };
  });
}

/** The entry's coverage: the worst of its jobs; without jobs, rank 1's fit (partly-compatible: partial). */
export function coverageOf(jobs: readonly ExitJobT[], rankOne: ExitCandidateT | undefined): Coverage {
  if (jobs.length > 0) return jobs.map((job) => job.status).reduce(worse);
  if (!rankOne) return "gap";
  return rankOne.fit === "partly-compatible" || rankOne.fit === "look-alike" ? "partial" : "covered";
}

/**
 * What to do for the jobs of a service the target does not cover, in words; undefined when none.
 * `closing` (service-plans.ts closedWords) says the service is sunset or retired: keeping it where
 * it is is then no way out, and the words say there is nothing to keep.
 */
export function fallbackOf(
  context: PlanContext,
  approved: Approved,
  jobs: readonly ExitJobT[],
  nearest: readonly { readonly name: string; readonly providerName: string }[],
  closing?: string,
): string | undefined {
  const gaps = jobs.filter((job) => job.status === "gap");
  const { service } = approved;
  const where = providerNameOf(context.catalogue, service.providerId);
  const here = closing ? "" : `, or keep ${service.name} on ${where} for it`;
  if (jobs.length > 0 && gaps.length === 0) return undefined;
  const nothing = closing ? `${closing[0]!.toUpperCase()}${closing.slice(1)}. ` : "";
  if (gaps.length === 0 && nearest.length === 0)
    return `${nothing}Nothing in the catalogue does this job on the allowed providers: ${closing ? "rebuild it on general compute" : `keep ${service.name} where it is, or rebuild it on general compute`}.`;
  const parts = gaps.map((job) => {
    const sellers = (job.elsewhere ?? [])
      .slice(0, 3)
      .map((seller) => `${seller.providerName} (${seller.services.join(", ")})`);
    const checked =
      job.gapKind === "not-sold"
        ? "the allowed providers are recorded as not selling it"
        : "the catalogue has not checked that the allowed providers lack it";
    const more = (job.elsewhere ?? []).length > 3 ? ` and ${(job.elsewhere ?? []).length - 3} more` : "";
    const alone = closing
      ? `no open service in the catalogue does it besides ${where}'s; rebuild it on general compute`
      : `no provider in the catalogue sells it besides ${where}; keep ${service.name} on ${where} for it`;
    return `${job.name}: ${sellers.length > 0 ? `sold by ${sellers.join(", ")}${more}; allow one of them${here}` : alone} (${checked})`;
  });
  const near =
    nearest.length > 0
      ? `Evaluate ${nearest.map((n) => `${n.name} (${n.providerName})`).join(", ")}: same category, not an equivalent. `
      : "";
  return `${nothing}${near}${parts.join(". ")}${parts.length > 0 ? "." : ""}`.trim();
}
