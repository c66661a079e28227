/**
 * A service's versions and tiers as tables, one per family: the rows both faces show (the text
 * renderings' section in service-page.ts, the site's components/service/Versions.astro), with the
 * statuses computed as of the catalogue's day, the day ServiceDetail.versions reckons them from.
 */
import type { Catalogue } from "../load/load.ts";
import type { VersionSourceT } from "../schema/index.ts";
import { serviceVersionsOf } from "../versions/versions.ts";

/** One family's table: its title, column heads, rows of text, and the page behind its dates. */
export interface VersionTable {
  readonly id: string;
  readonly title: string;
  readonly note?: string | undefined;
  readonly head: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly source: VersionSourceT;
  /** What each phase after standard support means and costs, with the page that says so (the family's when the same). */
  readonly phases: readonly { readonly text: string; readonly source?: VersionSourceT }[];
  /** The catalogue slug the whole family moves to, when the vendor names one. */
  readonly successorSlug?: string | undefined;
}

/** A phase as a table cell says it. */
const PHASE_WORDS: Readonly<Record<string, string>> = {
  supported: "supported",
  deprecated: "deprecated",
  extended: "extended support",
  "block-create": "creating blocked",
  "block-update": "updating blocked",
  ended: "ended",
};

/** The day the statuses are shown for. */
export const versionsDay = (catalogue: Catalogue): string => catalogue.lastUpdated.slice(0, 10);

/** The service's families as tables; empty when it has none. */
export function versionTables(catalogue: Catalogue, slug: string): VersionTable[] {
  const versions = serviceVersionsOf(catalogue.bySlug.get(slug)?.versions ?? [], versionsDay(catalogue));
  if (!versions) return [];
  const sources = new Map((versions.sources ?? []).map((source) => [source.url, source]));
  const data = catalogue.bySlug.get(slug)!.versions;
  return versions.families.map((family) => {
    const released = family.versions.some((version) => version.released);
    // The dated columns a family has: its standard end, its blocks (Lambda), its extended end.
    const dates = (["blockCreate", "blockUpdate", "extendedEnd"] as const).filter((date) =>
      family.versions.some((version) => version[date]),
    );
    const phaseOf = (id: string) => {
      const version = data.find((each) => each.id === family.id)!.versions.find((each) => each.id === id)!;
      const phase = family.versions.find((each) => each.id === id)!.phase;
      return phase === "extended" && family.phases?.some((info) => info.phase === "extended" && info.paid)
        ? "paid extended support"
        : phase === "supported" && version.standardEnd === undefined
          ? "supported (no end announced)"
          : PHASE_WORDS[phase]!;
    };
    return {
      id: family.id,
      title: `${family.name} (${family.kind})`,
      note: family.note,
      head: [
        family.kind === "tier" ? "Tier" : "Version",
        ...(released ? ["Released"] : []),
        family.terms.standardEnd,
        ...dates.map((date) => family.terms[date] ?? date),
        `Phase on ${versions.asOf}`,
      ],
      rows: family.versions.map((version) => [
        version.name && version.name !== version.id ? `${version.id} (${version.name})` : version.id,
        ...(released ? [version.released ?? ""] : []),
        version.standardEnd ?? "not announced",
        ...dates.map((date) => version[date] ?? ""),
        phaseOf(version.id),
      ]),
      source: family.source,
      phases: (family.phases ?? []).map((info) => ({
        text: `${PHASE_WORDS[info.phase]![0]!.toUpperCase()}${PHASE_WORDS[info.phase]!.slice(1)} (from ${info.name}): ${info.consequence}${info.price ? `; ${info.price}` : info.paid ? "; paid" : ""}.`,
        ...(info.source !== family.source.url && sources.has(info.source) ? { source: sources.get(info.source)! } : {}),
      })),
      successorSlug: family.successorSlug,
    };
  });
}
