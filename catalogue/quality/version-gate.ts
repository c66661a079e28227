/**
 * The versions' part of `npm run check:data` (data/versions/): what is recorded per provider, and
 * the gate on statuses. A status is computed from the dates, never written; but the API's service
 * files compute it as of the catalogue's day (its last update), so a catalogue left unread past an
 * end date would still serve that version as supported. The gate fails then, naming the version:
 * re-read its source and move `retrieved`, which moves the catalogue's day.
 */
import type { Catalogue } from "../load/load.ts";
import { versionStatus } from "../versions/versions.ts";
import type { VersionFamilyDataT } from "../schema/index.ts";

/** One version of the catalogue, with where it is. */
interface VersionAt {
  readonly slug: string;
  readonly providerId: string;
  readonly family: string;
  readonly id: string;
  readonly standardEnd?: string | undefined;
  readonly extendedEnd?: string | undefined;
  readonly blockCreate?: string | undefined;
  readonly blockUpdate?: string | undefined;
  readonly phases?: VersionFamilyDataT["phases"];
}

function versionsOf(catalogue: Catalogue): VersionAt[] {
  return [...catalogue.bySlug.values()].flatMap((record) =>
    record.versions.flatMap((family) =>
      family.versions.map((version) => ({
        slug: record.service.slug,
        providerId: record.service.providerId,
        family: family.id,
        phases: family.phases,
        ...version,
      })),
    ),
  );
}

/** Per provider: version families, versions, versions with a source, and statuses as of a day. */
export function versionLines(catalogue: Catalogue, today: string): string[] {
  const byProvider = new Map<
    string,
    { families: number; versions: number; sourced: number; statuses: Map<string, number> }
  >();
  for (const record of catalogue.bySlug.values())
    for (const family of record.versions) {
      const row = byProvider.get(record.service.providerId) ?? {
        families: 0,
        versions: 0,
        sourced: 0,
        statuses: new Map(),
      };
      row.families++;
      row.versions += family.versions.length;
      // The loader refuses a family without a source on the provider's domains: every version has one.
      if (family.source.url) row.sourced += family.versions.length;
      for (const version of family.versions) {
        const status = versionStatus(version, today, family);
        row.statuses.set(status, (row.statuses.get(status) ?? 0) + 1);
      }
      byProvider.set(record.service.providerId, row);
    }
  return [...byProvider]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([providerId, row]) =>
        `${providerId}: ${row.families} families, ${row.versions} versions, ${row.sourced} with a source; as of ${today}: ${[
          ...row.statuses,
        ]
          .map(([status, count]) => `${count} ${status}`)
          .join(", ")}`,
    );
}

/**
 * Versions the service files serve with a status their dates no longer allow on `today`: still
 * supported past their standard end, or extended past their extended end.
 */
export function versionStatusProblems(catalogue: Catalogue, today: string): string[] {
  const served = catalogue.lastUpdated.slice(0, 10);
  return versionsOf(catalogue).flatMap((version) => {
    const shown = versionStatus(version, served, version);
    const due = versionStatus(version, today, version);
    if (shown === due) return [];
    return [
      `VERSION_STATUS_STALE: ${version.slug} ${version.family} ${version.id} is served as ${shown} (as of the catalogue's day, ${served}) but is ${due} on ${today} (standard end ${version.standardEnd ?? "none"}, extended end ${version.extendedEnd ?? "none"}, updates blocked ${version.blockUpdate ?? "none"}); re-read its source and move retrieved`,
    ];
  });
}
