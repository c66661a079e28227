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
  /** The catalogue slug the whole family moves to, when the vendor names one. */
  readonly successorSlug?: string | undefined;
}

/** The day the statuses are shown for. */
export const versionsDay = (catalogue: Catalogue): string => catalogue.lastUpdated.slice(0, 10);

/** The service's families as tables; empty when it has none. */
export function versionTables(catalogue: Catalogue, slug: string): VersionTable[] {
  const versions = serviceVersionsOf(catalogue.bySlug.get(slug)?.versions ?? [], versionsDay(catalogue));
  if (!versions) return [];
  return versions.families.map((family) => {
    const extended = family.terms.extendedEnd;
    const released = family.versions.some((version) => version.released);
    return {
      id: family.id,
      title: `${family.name} (${family.kind})`,
      note: family.note,
      head: [
        family.kind === "tier" ? "Tier" : "Version",
        ...(released ? ["Released"] : []),
        family.terms.standardEnd,
        ...(extended ? [extended] : []),
        `Status on ${versions.asOf}`,
      ],
      rows: family.versions.map((version) => [
        version.name && version.name !== version.id ? `${version.id} (${version.name})` : version.id,
        ...(released ? [version.released ?? ""] : []),
        version.standardEnd ?? "not announced",
        ...(extended ? [version.extendedEnd ?? ""] : []),
        version.status,
      ]),
      source: family.source,
      successorSlug: family.successorSlug,
    };
  });
}
