/**
 * What moving from one service to another keeps and loses of a job's capabilities (issue 98;
 * catalogue/data/capabilities.yaml). One function, capabilityDifference, answers the exit plan's
 * "what is lost", the compare's key differences and a service page's equivalents, so the three
 * never disagree. Browser-safe: the site's planner runs it on the compact catalogue.
 */
import type {
  CapabilitiesFileT,
  CapabilityDifferenceT,
  CapabilityState,
  CapabilityT,
  KeyDifferenceT,
} from "../schema/capabilities.ts";

/** The capabilities data without its sources: what deciding a fit reads (JSON-serialisable). */
export interface CapabilityData {
  readonly capabilities: readonly Pick<CapabilityT, "id" | "name" | "means">[];
  readonly jobs: readonly { readonly group: string; readonly capabilities: readonly string[] }[];
  readonly services: readonly {
    readonly service: string;
    readonly has?: readonly string[] | undefined;
    readonly lacks?: readonly string[] | undefined;
  }[];
}

export interface CapabilityIndex {
  readonly byId: ReadonlyMap<string, Pick<CapabilityT, "id" | "name" | "means">>;
  /** Per group id, its capability ids in order. */
  readonly jobs: ReadonlyMap<string, readonly string[]>;
  /** Per service slug, each capability it has or lacks (absent: not known). */
  readonly states: ReadonlyMap<string, ReadonlyMap<string, Exclude<CapabilityState, "not-known">>>;
}

/** The data as deciding reads it (sources and notes left out). */
export function capabilityData(file: CapabilitiesFileT): CapabilityData {
  return {
    capabilities: file.capabilities.map(({ id, name, means }) => ({ id, name, means })),
    jobs: file.jobs,
    services: file.services.map(({ service, has, lacks }) => ({
      service,
      ...(has ? { has } : {}),
      ...(lacks ? { lacks } : {}),
    })),
  };
}

export function capabilityIndex(data: CapabilityData): CapabilityIndex {
  const states = new Map<string, Map<string, "has" | "lacks">>();
  for (const entry of data.services) {
    const state = new Map<string, "has" | "lacks">();
    for (const id of entry.has ?? []) state.set(id, "has");
    for (const id of entry.lacks ?? []) state.set(id, "lacks");
    states.set(entry.service, state);
  }
  return {
    byId: new Map(data.capabilities.map((capability) => [capability.id, capability])),
    jobs: new Map(data.jobs.map((job) => [job.group, job.capabilities])),
    states,
  };
}

/** Whether the catalogue records the service as having at least one of a job's capabilities. */
export const hasCapabilitiesFor = (index: CapabilityIndex, group: string, slug: string): boolean =>
  (index.jobs.get(group) ?? []).some((id) => index.states.get(slug)?.get(id) === "has");

/** How a service stands on one capability. */
export function capabilityState(index: CapabilityIndex, slug: string, id: string): CapabilityState {
  return index.states.get(slug)?.get(id) ?? "not-known";
}

/**
 * What moving `from` to `to` does to the job's capabilities `from` has: kept, lost (recorded as
 * lacking), not known; and what `to` has that `from` does not. Undefined when the job has no
 * capabilities or the catalogue records none for `from` (nothing to compare against).
 */
export function capabilityDifference(
  index: CapabilityIndex | undefined,
  group: string,
  from: string,
  to: string,
): CapabilityDifferenceT | undefined {
  const ids = index?.jobs.get(group);
  if (!index || !ids || !hasCapabilitiesFor(index, group, from)) return undefined;
  const difference: CapabilityDifferenceT = { kept: [], lost: [], notKnown: [], gained: [] };
  for (const id of ids) {
    const mine = capabilityState(index, from, id);
    const theirs = capabilityState(index, to, id);
    if (mine === "has") {
      if (theirs === "has") difference.kept.push(id);
      else if (theirs === "lacks") difference.lost.push(id);
      else difference.notKnown.push(id);
    } else if (theirs === "has") difference.gained.push(id);
  }
  return difference;
}

/** A capability difference in words, one phrase per capability lost or not known ("SMB file shares: lacks it"). */
export function lostWords(index: CapabilityIndex, difference: CapabilityDifferenceT): string[] {
  const name = (id: string) => index.byId.get(id)?.name ?? id;
  return [
    ...difference.lost.map((id) => `${name(id)} (${id}): not supported`),
    ...difference.notKnown.map((id) => `${name(id)} (${id}): not known whether it is supported`),
  ];
}

/**
 * The key differences of moving `from` to `to`: one per capability-defined job both are members
 * of, where the catalogue records `from`'s capabilities (the compare's and a service page's rows).
 */
export function keyDifferences(
  index: CapabilityIndex | undefined,
  groupsOf: (slug: string) => readonly string[],
  from: string,
  to: string,
): KeyDifferenceT[] {
  if (!index) return [];
  const theirs = new Set(groupsOf(to));
  return groupsOf(from)
    .filter((group) => theirs.has(group))
    .flatMap((group) => {
      const difference = capabilityDifference(index, group, from, to);
      return difference ? [{ group, from, to, ...difference, words: differenceWords(index, difference) }] : [];
    });
}

/** "keeps SMB file shares; loses NFS v3 (not supported); not known: …; adds …". */
function differenceWords(index: CapabilityIndex, difference: CapabilityDifferenceT): string {
  const names = (ids: readonly string[]) => ids.map((id) => index.byId.get(id)?.name ?? id).join(", ");
  return [
    difference.kept.length > 0 ? `keeps ${names(difference.kept)}` : "",
    difference.lost.length > 0 ? `loses ${names(difference.lost)} (not supported)` : "",
    difference.notKnown.length > 0 ? `not known whether it has ${names(difference.notKnown)}` : "",
    difference.gained.length > 0 ? `adds ${names(difference.gained)}` : "",
  ]
    .filter(Boolean)
    .join("; ");
}
