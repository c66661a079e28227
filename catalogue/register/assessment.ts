/**
 * B_07.01's assessment from the exit plan (decisions.md#register-substitutability): each provider's
 * services planned away from it, to the request's target (every other provider by default), and
 * per service what the plan found, read as the ITS's substitutability, its reason and the
 * alternative providers. The entity assesses substitutability itself; the register proposes the
 * plan's reading and says so in every cell it fills.
 */
import { HttpError } from "../base/problem.ts";
import type { Catalogue } from "../load/load.ts";
import { allowedProviders, exitPlan } from "../exit/plan.ts";
import type { ExitServicePlanT, ExitTargetT } from "../schema/index.ts";
import { SUBSTITUTABILITY, SUBSTITUTABILITY_REASON } from "./taxonomy.ts";

/** How many of a service's ranked candidates count as its identified alternatives (besides the proposed ones). */
export const ALTERNATIVES_PER_SERVICE = 3;

/** What the plan says of one service. */
export interface ServiceAssessment {
  /** The ITS's substitutability member, and the reason member where the ITS asks for one. */
  readonly substitutability: string;
  readonly reason?: string;
  /** The alternative providers' names, best first (the proposed candidates and the best three); empty when the plan found none. */
  readonly alternatives: readonly string[];
  /** The plan's reading in words, the rule applied. */
  readonly why: string;
}

/** Worst first: the order in which one row's services combine (a row is as hard to substitute as its hardest service). */
const SEVERITY: readonly string[] = [
  SUBSTITUTABILITY.not,
  SUBSTITUTABILITY.highlyComplex,
  SUBSTITUTABILITY.medium,
  SUBSTITUTABILITY.easy,
];
export const worstOf = (members: readonly string[]): string =>
  SEVERITY.find((member) => members.includes(member)) ?? SUBSTITUTABILITY.easy;

/**
 * The rule: no candidate for a job (a gap) is not substitutable, for lack of alternatives; a job
 * covered only in part is highly complex, for the migration; a candidate speaking the service's
 * protocols or being the same product (fit same-product or compatible) is easily substitutable; a
 * candidate doing the same job without a shared protocol is of medium complexity.
 */
export function assessEntry(entry: ExitServicePlanT | undefined): ServiceAssessment {
  if (!entry || entry.outcome === "no-equivalent")
    return {
      substitutability: SUBSTITUTABILITY.not,
      reason: SUBSTITUTABILITY_REASON.noAlternatives,
      alternatives: [],
      why: "The exit plan finds no service doing its job on the target providers (a gap).",
    };
  // The plan's proposed candidates and its best three: the alternatives it identified, not every peer.
  const alternatives = [
    ...new Set(
      entry.candidates
        .filter((candidate) => candidate.proposed || candidate.rank <= ALTERNATIVES_PER_SERVICE)
        .map((candidate) => candidate.providerName),
    ),
  ];
  if (entry.coverage === "gap" || entry.coverage === "partial")
    return {
      substitutability: SUBSTITUTABILITY.highlyComplex,
      reason: SUBSTITUTABILITY_REASON.migration,
      alternatives,
      why: `The exit plan covers its jobs only in part (${entry.coverage}): what is lost is in the plan.`,
    };
  const best = entry.candidates.find((candidate) => candidate.proposed) ?? entry.candidates[0];
  if (best?.fit === "same-product" || best?.fit === "compatible")
    return {
      substitutability: SUBSTITUTABILITY.easy,
      alternatives,
      why: `The exit plan's candidate ${best.name} (${best.providerName}) is ${best.fit === "same-product" ? "the same product" : "compatible with it"}.`,
    };
  return {
    substitutability: SUBSTITUTABILITY.medium,
    alternatives,
    why: best
      ? `The exit plan's candidate ${best.name} (${best.providerName}) does the same job without a shared protocol.`
      : "The exit plan maps it without a ranked candidate.",
  };
}

/** The target of one provider's plan: the request's (or every provider), less that provider. */
function targetLess(catalogue: Catalogue, to: ExitTargetT | undefined, providerId: string): ExitTargetT {
  if (to) return { ...to, exclude: [...new Set([...(to.exclude ?? []), providerId])] };
  return { providers: catalogue.providers.map((provider) => provider.id).filter((id) => id !== providerId) };
}

/**
 * Per service slug, its assessment; the request's target is checked first (a bad one is the 400
 * POST /v1/exit-plan answers). A provider whose exclusion leaves the target empty has no
 * alternative: its services are assessed as gaps, and a note says why.
 */
export function assessments(
  catalogue: Catalogue,
  byProvider: ReadonlyMap<string, readonly string[]>,
  to: ExitTargetT | undefined,
  jobsUsed: Readonly<Record<string, readonly string[]>> | undefined,
  notes: string[],
): Map<string, ServiceAssessment> {
  if (to) allowedProviders(catalogue, to);
  const assessed = new Map<string, ServiceAssessment>();
  for (const [providerId, slugs] of byProvider) {
    const target = targetLess(catalogue, to, providerId);
    const used = jobsUsed
      ? Object.fromEntries(Object.entries(jobsUsed).filter(([slug]) => slugs.includes(slug)))
      : undefined;
    let entries: readonly ExitServicePlanT[];
    try {
      entries = exitPlan(catalogue, slugs, target, used && Object.keys(used).length > 0 ? used : undefined).services;
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 400) throw error;
      notes.push(
        `No provider of the exit target is left once ${catalogue.providerById.get(providerId)?.provider.name ?? providerId} is excluded, so its services have no alternative here (${error.details ?? error.title}).`,
      );
      entries = [];
    }
    for (const slug of slugs) assessed.set(slug, assessEntry(entries.find((entry) => entry.slug === slug)));
  }
  return assessed;
}
