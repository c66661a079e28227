/**
 * Capability coverage (issue 98): per capability-defined job, how many members state their
 * capabilities (capabilities.yaml) and which do not. A job's "what is lost" is only as true as its
 * members' data, so check:data fails where the big three's flagship for the job (of its provider's
 * current members whose primary job it is, or of all its current members where none is, the one
 * with the highest flagship prior: Amazon MQ for queues, Pub/Sub for GCP's pub/sub) states none of
 * the job's capabilities as had or lacked: an entry of only notKnown is no data, and those
 * services are what exits start from.
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
  /** The big three's flagships for the job (one per provider that has a current member). */
  readonly flagships: readonly string[];
  /** Of those, the ones stating none of the job's capabilities as had or lacked: check:data fails on them. */
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
      const current = members
        .map((slug) => catalogue.bySlug.get(slug)!)
        .filter(
          (record) =>
            record.service.providerId === providerId &&
            (!record.service.lifecycle || record.service.lifecycle.status === "preview"),
        );
      const primary = current.filter((record) => primaryOf(record.service.slug) === group);
      // Pub/Sub's primary job is queueing, yet it is GCP's pub/sub: a provider's job has a flagship.
      const own = primary.length > 0 ? primary : current;
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
      flagships,
      flagshipsWithout: flagships.filter((slug) => without.includes(slug)),
    };
  });
}

export const capabilityLines = (coverage: readonly CapabilityCoverage[]): string[] =>
  coverage.map(
    (row) =>
      `${row.group}: ${row.stated} of ${row.members} members state capabilities; ${row.without.length - row.unchecked.length} checked and none known; ${row.unchecked.length} not looked at${row.unchecked.length > 0 ? ` (${row.unchecked.slice(0, 8).join(", ")}${row.unchecked.length > 8 ? "…" : ""})` : ""}; big-three flagships (${row.flagships.join(", ") || "none"}) without data: ${row.flagshipsWithout.length}`,
  );

/** The one figure the issue asks for, over every capability-defined job. */
export const flagshipTotalLine = (coverage: readonly CapabilityCoverage[]): string => {
  const flagships = coverage.reduce((sum, row) => sum + row.flagships.length, 0);
  const without = coverage.reduce((sum, row) => sum + row.flagshipsWithout.length, 0);
  return `${without} of ${flagships} big-three flagships of capability-defined jobs without capability data (had or lacked)`;
};

export const capabilityProblems = (coverage: readonly CapabilityCoverage[]): string[] =>
  coverage.flatMap((row) =>
    row.flagshipsWithout.map(
      (slug) =>
        `CAPABILITIES_MISSING: ${slug} is its provider's flagship for ${row.group}, a capability-defined job, and states none of its capabilities as had or lacked in capabilities.yaml (state what its vendor's pages say; notKnown alone is no data)`,
    ),
  );
