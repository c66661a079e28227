/**
 * The "Verified" row the faces (site, text host) show: per kind of fact the service's sources back,
 * the date of the newest copy read. A source that gives the date of what was read (asOf: a scope
 * table saved in 2022, a dataset's release) shows that date, marked as the copy's, never the day the
 * catalogue read it: AWS's compliance read on 2026-11-26 from scope tables of 2022-07-15 shows
 * 2022-07-15. A source without asOf shows the day it was read.
 */
import type { SOURCE_BACKS, ServiceSourceT } from "../schema/index.ts";

/** SOURCE_BACKS, in its order (the type says so): the browser loads this module, and zod stays out. */
const KINDS: typeof SOURCE_BACKS = ["identity", "description", "lifecycle", "compliance", "identifiers", "regions"];

export interface ShownVerified {
  readonly kind: (typeof SOURCE_BACKS)[number];
  /** YYYY-MM-DD: the copy's own date when the source gives one, else the day it was read. */
  readonly date: string;
  /** Whether date is the copy's own date (asOf) rather than the day it was read. */
  readonly asOf: boolean;
}

/** In SOURCE_BACKS order; per kind, the source whose copy (asOf, else reading day) is newest. */
export function shownVerified(
  sources: readonly Pick<ServiceSourceT, "backs" | "retrieved" | "asOf">[],
): ShownVerified[] {
  const rows: ShownVerified[] = [];
  for (const kind of KINDS) {
    let best: ShownVerified | undefined;
    for (const source of sources) {
      if (!source.backs.includes(kind)) continue;
      const candidate = { kind, date: source.asOf ?? source.retrieved, asOf: source.asOf !== undefined };
      if (!best || candidate.date > best.date) best = candidate;
    }
    if (best) rows.push(best);
  }
  return rows;
}

/**
 * How old a date was on `reference` (the catalogue's last update, so a build says the same on any
 * day), when it is a year or more: "4 years old"; undefined for a newer date.
 */
export function ageAt(date: string, reference: string): string | undefined {
  const [y1, m1, d1] = date.split("-").map(Number) as [number, number, number];
  const [y2, m2, d2] = reference.split("-").map(Number) as [number, number, number];
  const years = y2 - y1 - (m2 < m1 || (m2 === m1 && d2 < d1) ? 1 : 0);
  return years >= 1 ? `${years} year${years === 1 ? "" : "s"} old` : undefined;
}

/** What follows a row's date: whose date it is, and its age when a year or more. */
export function verifiedNote(row: ShownVerified, reference?: string): string {
  const age = reference ? ageAt(row.date, reference) : undefined;
  const parts = [...(row.asOf ? ["copy's date"] : []), ...(age && reference ? [`${age} on ${reference}`] : [])];
  return parts.length > 0 ? ` (${parts.join(", ")})` : "";
}

/** "identity 2026-11-26; compliance 2022-07-15 (copy's date, 4 years old on 2026-11-26)". */
export function shownVerifiedText(
  sources: Parameters<typeof shownVerified>[0],
  reference?: string,
): string | undefined {
  const rows = shownVerified(sources);
  return rows.length > 0
    ? rows.map((row) => `${row.kind} ${row.date}${verifiedNote(row, reference)}`).join("; ")
    : undefined;
}
