/**
 * Versions and tiers of a service (data/versions/): each version's status computed from its dates
 * and a day, never written by hand, so a date that passes changes the status without an edit; the
 * API's shape of a service's families; and findVersion, the one lookup of a version string, which
 * says "unknown" rather than guess a nearest version. Browser-safe.
 */
import type {
  ServiceVersionsT,
  ServiceVersionT,
  VersionFamilyDataT,
  VersionEntryT,
  VersionSourceT,
  VersionStatus,
} from "../schema/index.ts";

/**
 * A version's status on a day (YYYY-MM-DD, UTC): supported until and including its standard end
 * (or with no end published), extended until and including its extended end, then ended. An end
 * date is the last day of support, as the vendors' calendars give it.
 */
export function versionStatus(
  version: Pick<VersionEntryT, "standardEnd" | "extendedEnd">,
  asOf: string,
): VersionStatus {
  if (version.standardEnd === undefined || asOf <= version.standardEnd) return "supported";
  if (version.extendedEnd !== undefined && asOf <= version.extendedEnd) return "extended";
  return "ended";
}

/** The last day a version is supported in any way: its extended end, else its standard end. */
export const lastDayOf = (version: Pick<VersionEntryT, "standardEnd" | "extendedEnd">): string | undefined =>
  version.extendedEnd ?? version.standardEnd;

/** The end date to come on a day: the standard end if not passed, else the extended end if not passed. */
export function nextEndOf(
  version: Pick<VersionEntryT, "standardEnd" | "extendedEnd">,
  asOf: string,
): { readonly date: string; readonly which: "standardEnd" | "extendedEnd" } | undefined {
  if (version.standardEnd !== undefined && asOf <= version.standardEnd)
    return { date: version.standardEnd, which: "standardEnd" };
  if (version.extendedEnd !== undefined && asOf <= version.extendedEnd)
    return { date: version.extendedEnd, which: "extendedEnd" };
  return undefined;
}

function publicVersion(version: VersionEntryT, asOf: string): ServiceVersionT {
  const shown: ServiceVersionT = { ...version, status: versionStatus(version, asOf) };
  for (const key of Object.keys(shown) as (keyof ServiceVersionT)[]) if (shown[key] === undefined) delete shown[key];
  return shown;
}

/** A service's families as the API shows them, statuses as of a day; undefined when it has none. */
export function serviceVersionsOf(families: readonly VersionFamilyDataT[], asOf: string): ServiceVersionsT | undefined {
  if (families.length === 0) return undefined;
  return {
    asOf,
    families: families.map((family) => ({
      id: family.id,
      name: family.name,
      kind: family.kind,
      terms: family.terms,
      ...(family.note ? { note: family.note } : {}),
      ...(family.successorSlug ? { successorSlug: family.successorSlug } : {}),
      source: family.source,
      versions: family.versions.map((version) => publicVersion(version, asOf)),
    })),
  };
}

/** What findVersion answers for a version it knows. */
export interface FoundVersion {
  /** The version's id as the vendor writes it (the family's release line a longer string belongs to). */
  readonly version: string;
  readonly family: string;
  readonly status: VersionStatus;
  /** Its last day of support in any way (extended end, else standard end); undefined when none is published. */
  readonly ends: string | undefined;
  readonly standardEnd: string | undefined;
  readonly extendedEnd: string | undefined;
  /** The successor version the vendor names, else the service the family moves to. */
  readonly successor: string | undefined;
  readonly source: VersionSourceT;
}

/** The service records findVersion reads: any map of slug to a record with versions (the Catalogue's bySlug). */
export interface VersionLookup {
  readonly bySlug: ReadonlyMap<string, { readonly versions: readonly VersionFamilyDataT[] }>;
}

const spelled = (text: string) => text.trim().toLowerCase();

/**
 * Whether a version string names a version: the id itself (case and surrounding space aside), or,
 * for engines and Kubernetes, a longer version of that release line (13.7 is of 13, 1.29.3 of 1.29,
 * 8.0.35 of 8.0, MYSQL_8_0_31 of MYSQL_8_0): the id followed by a dot or an underscore. Never a
 * nearest version: 1.2 is not 1.29.
 */
function names(asked: string, family: VersionFamilyDataT, version: VersionEntryT): boolean {
  const id = spelled(version.id);
  if (asked === id) return true;
  // Cloud SQL spells a minor version with underscores (MYSQL_8_0_31 of MYSQL_8_0).
  return (
    (family.kind === "engine" || family.kind === "kubernetes") &&
    (asked.startsWith(`${id}.`) || asked.startsWith(`${id}_`))
  );
}

/**
 * The version a service's version string names, with its status as of a day, or "unknown": a
 * service without versions, a string no version names, or one that more than one family's
 * versions name (a Valkey 7.2 must not be read as Redis OSS 7). `family` narrows to one family,
 * as does a stack string's family before its bar (Node|22 is version 22 of the family node).
 */
export function findVersion(
  catalogue: VersionLookup,
  serviceSlug: string,
  versionString: string,
  asOf: string,
  family?: string,
): FoundVersion | "unknown" {
  const families = catalogue.bySlug.get(serviceSlug)?.versions ?? [];
  // A stack string (App Service's linuxFxVersion, Node|22) names its family before the bar.
  const bar = versionString.indexOf("|");
  const stackFamily = bar === -1 ? undefined : spelled(versionString.slice(0, bar));
  const asked = spelled(bar === -1 ? versionString : versionString.slice(bar + 1));
  if (asked === "" || stackFamily === "") return "unknown";
  const matches = families
    .filter((candidate) => family === undefined || candidate.id === family)
    .filter((candidate) => stackFamily === undefined || candidate.id === stackFamily)
    .flatMap((candidate) =>
      candidate.versions
        .filter((version) => names(asked, candidate, version))
        .map((version) => ({ candidate, version })),
    );
  // An exact id wins over a release line it also starts (an engine listing 8.0 and 8.0.35 both).
  const exact = matches.filter(({ version }) => spelled(version.id) === asked);
  const chosen = exact.length > 0 ? exact : matches;
  if (chosen.length !== 1) return "unknown";
  const { candidate, version } = chosen[0]!;
  return {
    version: version.id,
    family: candidate.id,
    status: versionStatus(version, asOf),
    ends: lastDayOf(version),
    standardEnd: version.standardEnd,
    extendedEnd: version.extendedEnd,
    successor: version.successor ?? candidate.successorSlug,
    source: candidate.source,
  };
}
