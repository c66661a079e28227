/**
 * Capability coverage (issue 98): per capability-defined job, how many members state their
 * capabilities (capabilities.yaml) and which do not. A job's "what is lost" is only as true as its
 * members' data, so check:data fails where the big three's flagship for the job (of its provider's
 * members whose primary job it is, the one with the highest flagship prior: SQS for queues, not
 * Amazon MQ, whose primary job is brokering) states none: those are what exits start from.
 */
import { flagshipPrior, type PlanContext } from "./context.ts";
import { jobsOf } from "./jobs.ts";
import type { Catalogue } from "../load/load.ts";

const BIG_THREE: readonly string[] = ["aws", "azure", "gcp"];

export interface CapabilityCoverage {
  readonly group: string;
  readonly members: number;
  /** Members stating at least one of the job's capabilities as had or lacked. */
  readonly stated: number;
  /** Members stating none as had or lacked (no entry, or only notKnown). */
  readonly without: readonly string[];
  /** Of those, the ones with no entry at all: never looked at. */
  readonly unchecked: readonly string[];
  /** The big three's flagships for the job never looked at: check:data fails on them. */
  readonly flagshipsWithout: readonly string[];
}

export function capabilityCoverage(catalogue: Catalogue): CapabilityCoverage[] {
  const index = catalogue.capabilities;
  if (!index) return [];
  const groupById = new Map(catalogue.groups.map((group) => [group.id, group]));
  const providersOf = (id: string) =>
    new Set((groupById.get(id)?.services ?? []).map((slug) => catalogue.bySlug.get(slug)?.service.providerId)).size;
  // jobsOf reads only the catalogue and the groups of a plan's context.
  const context = { catalogue, groupById } as unknown as PlanContext;
  const primaryOf = (slug: string) => jobsOf(context, catalogue.bySlug.get(slug)!, providersOf)[0];
  return [...index.jobs].map(([group, ids]) => {
    const members = catalogue.groups.find((candidate) => candidate.id === group)?.services ?? [];
    const states = (slug: string) => ids.some((id) => index.states.get(slug)?.has(id));
    const without = members.filter((slug) => !states(slug));
    const listed = new Set(catalogue.source.capabilities?.services.map((entry) => entry.service));
    const unchecked = without.filter((slug) => !listed.has(slug));
    const flagships = BIG_THREE.flatMap((providerId) => {
      const own = members
        .map((slug) => catalogue.bySlug.get(slug)!)
        .filter(
          (record) =>
            record.service.providerId === providerId &&
            (!record.service.lifecycle || record.service.lifecycle.status === "preview") &&
            primaryOf(record.service.slug) === group,
        );
      if (own.length === 0) return [];
      const best = own.reduce((a, b) => (flagshipPrior(b) > flagshipPrior(a) ? b : a));
      return [best.service.slug];
    });
    return {
      group,
      members: members.length,
      stated: members.length - without.length,
      without,
      unchecked,
      flagshipsWithout: flagships.filter((slug) => unchecked.includes(slug)),
    };
  });
}

export const capabilityLines = (coverage: readonly CapabilityCoverage[]): string[] =>
  coverage.map(
    (row) =>
      `${row.group}: ${row.stated} of ${row.members} members state capabilities; ${row.without.length - row.unchecked.length} checked and none known; ${row.unchecked.length} not looked at${row.unchecked.length > 0 ? ` (${row.unchecked.slice(0, 8).join(", ")}${row.unchecked.length > 8 ? "…" : ""})` : ""}; big-three flagships not looked at: ${row.flagshipsWithout.length}`,
  );

export const capabilityProblems = (coverage: readonly CapabilityCoverage[]): string[] =>
  coverage.flatMap((row) =>
    row.flagshipsWithout.map(
      (slug) =>
        `CAPABILITIES_MISSING: ${slug} is its provider's flagship for ${row.group}, a capability-defined job, and has no entry in capabilities.yaml (state what its vendor's pages say, or notKnown)`,
    ),
  );
