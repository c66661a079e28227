/**
 * The membership sweep and the twins check of `check:data` (issue 86; catalogue/data/README.md,
 * rules "membership sweep" and "twins"). A service whose own data names a group's job — a tag that
 * is the job's name, or a compatibility claim of a term swept over the group — but is not a member
 * is listed, unless the group records it as checked and not doing the job (`notDoing`, with the
 * vendor page read). Twins — the same product under two operators, by lineage or by the name both
 * operators give it (OTC and Huawei Cloud) — must sit in the same groups unless one records why.
 */
import type { Catalogue } from "../load/load.ts";

/** Provider pairs whose services of one name are the same product under two operators. */
export const TWIN_PROVIDERS: readonly (readonly [string, string])[] = [["otc", "huawei"]];

/** Lifecycle statuses the sweep skips: no new customer can move a workload there. */
const CLOSED = new Set(["deprecated", "sunset", "retired"]);

/** The words a tag must equal to name a group's job: its name, singular, and its id in words. */
function jobWords(group: { readonly id: string; readonly name: string }): Set<string> {
  const name = group.name.toLowerCase();
  return new Set([name, name.replace(/s$/, ""), group.id.replace(/-/g, " ")]);
}

export interface MembershipFinding {
  readonly slug: string;
  readonly group: string;
  readonly why: string;
}

/** Services naming a group's job in their tags or compatibility claims without being members or recorded. */
export function membershipFindings(catalogue: Catalogue): MembershipFinding[] {
  const findings: MembershipFinding[] = [];
  for (const group of catalogue.groups) {
    const members = new Set(group.services);
    const recorded = new Set((group.notDoing ?? []).flatMap((record) => (record.service ? [record.service] : [])));
    const words = jobWords(group);
    const swept = [...catalogue.compatibilityById.values()].filter((term) => term.groups?.includes(group.id));
    // A term swept over several groups (mysql: managed and cloud-native MySQL) names one of their
    // jobs: a claim counts only from a service in none of them.
    const inNone = (id: string, groupIds: readonly string[]) =>
      !(catalogue.compatibilityById.get(id)?.groups ?? []).some((g) => groupIds.includes(g));
    for (const service of catalogue.services) {
      if (members.has(service.slug) || recorded.has(service.slug)) continue;
      // Closed to new customers (deprecated, sunset) or gone: never a place to move a job to.
      if (CLOSED.has(service.lifecycle?.status ?? "active")) continue;
      const record = catalogue.bySlug.get(service.slug)!;
      const tag = (service.tags ?? []).find((t) => words.has(t.toLowerCase()));
      // A scoped claim says the service does part of the job: the planner already proposes it as
      // partial (rule "whole job"), so it is no membership left undecided.
      const claim = record.compatibility.find(
        (c) => !c.scope && swept.some((term) => term.id === c.id) && inNone(c.id, record.groupIds),
      );
      if (tag) findings.push({ slug: service.slug, group: group.id, why: `tag "${tag}"` });
      else if (claim) findings.push({ slug: service.slug, group: group.id, why: `claims ${claim.id}` });
    }
  }
  return findings;
}

export interface TwinFinding {
  readonly a: string;
  readonly b: string;
  readonly onlyA: readonly string[];
  readonly onlyB: readonly string[];
}

/** The twins of the catalogue: lineage pairs and same-name pairs of TWIN_PROVIDERS. */
export function twinPairs(catalogue: Catalogue): [string, string][] {
  const pairs: [string, string][] = [];
  for (const service of catalogue.services) {
    const origin = catalogue.bySlug.get(service.slug)!.lineage?.origin;
    if (origin && catalogue.bySlug.has(origin)) pairs.push([service.slug, origin]);
  }
  const key = (name: string) =>
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, " ")
      .trim();
  for (const [left, right] of TWIN_PROVIDERS) {
    const byName = new Map<string, string>();
    for (const service of catalogue.services.filter((s) => s.providerId === right)) {
      byName.set(key(service.name), service.slug);
      if (service.shortName) byName.set(key(service.shortName), service.slug);
    }
    for (const service of catalogue.services.filter((s) => s.providerId === left)) {
      const twin =
        byName.get(key(service.name)) ?? (service.shortName ? byName.get(key(service.shortName)) : undefined);
      if (twin) pairs.push([service.slug, twin]);
    }
  }
  return pairs;
}

/** Twins whose groups differ, where neither records (notDoing) that it does not do the other's job. */
export function twinFindings(catalogue: Catalogue): TwinFinding[] {
  const recorded = (slug: string, groupId: string) =>
    (catalogue.groups.find((group) => group.id === groupId)?.notDoing ?? []).some((record) => record.service === slug);
  return twinPairs(catalogue).flatMap(([a, b]): TwinFinding[] => {
    const [groupsA, groupsB] = [a, b].map((slug) => catalogue.bySlug.get(slug)!.groupIds) as [string[], string[]];
    const onlyA = groupsA.filter((id) => !groupsB.includes(id) && !recorded(b, id));
    const onlyB = groupsB.filter((id) => !groupsA.includes(id) && !recorded(a, id));
    return onlyA.length + onlyB.length > 0 ? [{ a, b, onlyA, onlyB }] : [];
  });
}

export interface UngroupedTwins {
  readonly a: string;
  readonly b: string;
  /** The twins without a notDoing record: an omission, not a decision that they do no group's job. */
  readonly unrecorded: readonly string[];
}

/**
 * Twins in no group (issue 100). Both in no group is "the same groups" to twinFindings, so a pair
 * nobody looked at passed as twins in step; each must instead record (a notDoing row on the group
 * nearest its job) why it does no group's job.
 */
export function twinsInNoGroup(catalogue: Catalogue): UngroupedTwins[] {
  const recorded = new Set(
    catalogue.groups.flatMap((group) => (group.notDoing ?? []).flatMap((record) => record.service ?? [])),
  );
  return twinPairs(catalogue)
    .filter((pair) => pair.every((slug) => catalogue.bySlug.get(slug)!.groupIds.length === 0))
    .map(([a, b]) => ({ a, b, unrecorded: [a, b].filter((slug) => !recorded.has(slug)) }));
}

/** What `check:data` fails on: every membership finding unresolved, every pair of twins apart or in no group unrecorded. */
export function membershipProblems(catalogue: Catalogue): string[] {
  return [
    ...membershipFindings(catalogue).map(
      (finding) =>
        `MEMBERSHIP_UNRESOLVED: ${finding.slug} names the job of ${finding.group} (${finding.why}) but is no member and has no not-doing record`,
    ),
    ...twinFindings(catalogue).map(
      (twin) =>
        `TWINS_APART: ${twin.a} [${twin.onlyA.join(", ")}] and ${twin.b} [${twin.onlyB.join(", ")}] are one product in different groups without a not-doing record`,
    ),
    ...twinsInNoGroup(catalogue)
      .filter((twins) => twins.unrecorded.length > 0)
      .map(
        (twins) =>
          `TWINS_UNGROUPED: ${twins.a} and ${twins.b} are in no group; ${twins.unrecorded.join(" and ")} record${twins.unrecorded.length === 1 ? "s" : ""} no not-doing row saying why`,
      ),
  ];
}
