/**
 * Placement by workload (issue 114; catalogue/data/placement.yaml): the jobs that serve others
 * and are of no use on another provider than what they serve (keys, secrets, shares, volumes,
 * networks, monitoring). The exit plan places a service of such a job beside what it serves
 * (catalogue/exit/placement.ts). Browser-safe: the site's planner builds it from the compact form.
 */

/** Per job that follows, the jobs it serves and why it follows them. */
export type FollowsIndex = ReadonlyMap<string, { readonly serves: ReadonlySet<string>; readonly why: string }>;

/** The index of placement.yaml's `follows` (or of the compact catalogue's copy of it). */
export function followsIndex(
  follows: readonly { readonly group: string; readonly serves: readonly string[]; readonly why: string }[],
): FollowsIndex {
  return new Map(follows.map((entry) => [entry.group, { serves: new Set(entry.serves), why: entry.why }]));
}
