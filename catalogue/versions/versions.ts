/**
 * Versions and tiers of a service (data/versions/): each version's phases and status computed from
 * its dates and a day, never written by hand, so a date that passes changes them without an edit;
 * the API's shape of a service's families; and findVersion, the one lookup of a version string,
 * which says "unknown" rather than guess a nearest version. Browser-safe.
 */
import type {
  PhaseDataT,
  ServiceVersionsT,
  ServiceVersionT,
  VersionDate,
  VersionFamilyDataT,
  VersionEntryT,
  VersionPhase,
  VersionPhaseInfoT,
  VersionPhaseStartT,
  VersionSourceT,
  VersionStatus,
} from "../schema/index.ts";

type Dated = Pick<VersionEntryT, "standardEnd" | "extendedEnd" | "blockCreate" | "blockUpdate">;

/** The day after a day (YYYY-MM-DD, UTC). */
const dayAfter = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * A version's phases after standard support, in order of the day each begins: past standardEnd
 * (its last day) the version is in extended support when an extendedEnd follows, else deprecated
 * when its family says what deprecated means (Lambda), else ended; blockCreate and blockUpdate
 * begin on their own day; past extendedEnd it has ended. Two phases on one day keep this order.
 */
export function versionPhases(version: Dated, family?: Pick<VersionFamilyDataT, "phases">): VersionPhaseStartT[] {
  const phases: VersionPhaseStartT[] = [];
  if (version.standardEnd !== undefined) {
    const after: VersionPhase = version.extendedEnd
      ? "extended"
      : family?.phases?.deprecated || version.blockCreate || version.blockUpdate
        ? "deprecated"
        : "ended";
    phases.push({ phase: after, starts: dayAfter(version.standardEnd), from: "standardEnd" });
  }
  if (version.blockCreate !== undefined)
    phases.push({ phase: "block-create", starts: version.blockCreate, from: "blockCreate" });
  if (version.blockUpdate !== undefined)
    phases.push({ phase: "block-update", starts: version.blockUpdate, from: "blockUpdate" });
  if (version.extendedEnd !== undefined)
    phases.push({ phase: "ended", starts: dayAfter(version.extendedEnd), from: "extendedEnd" });
  // A stable sort: phases beginning the same day keep the order above.
  return phases.sort((a, b) => a.starts.localeCompare(b.starts));
}

/** The phase a version is in on a day: the last one begun, else supported. */
export function phaseOn(phases: readonly VersionPhaseStartT[], asOf: string): VersionPhase {
  let phase: VersionPhase = "supported";
  for (const entry of phases) if (entry.starts <= asOf) phase = entry.phase;
  return phase;
}

/** The status a phase gives: supported, ended in a final phase (ended, updates blocked), else extended. */
export const statusOfPhase = (phase: VersionPhase): VersionStatus =>
  phase === "supported" ? "supported" : phase === "ended" || phase === "block-update" ? "ended" : "extended";

/**
 * A version's status on a day (YYYY-MM-DD, UTC): supported until and including its standard end
 * (or with no end published); ended in its final phase (past its extended end, from its
 * block-update day, or past its standard end when nothing follows); extended in between (extended
 * support, or deprecated and still usable: the phase says which). An end date is the last day of
 * support, as the vendors' calendars give it. `family` says whether a bare standard end leads to
 * deprecated (Lambda) rather than ended.
 */
export function versionStatus(
  version: Dated,
  asOf: string,
  family?: Pick<VersionFamilyDataT, "phases">,
): VersionStatus {
  return statusOfPhase(phaseOn(versionPhases(version, family), asOf));
}

/** The last day a version is supported in any way: its extended end, the day before updates are blocked, else its standard end. */
export const lastDayOf = (version: Dated): string | undefined =>
  version.extendedEnd ??
  (version.blockUpdate
    ? new Date(Date.parse(`${version.blockUpdate}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
    : version.standardEnd);

/** The end date to come on a day: the standard end if not passed, else the extended end if not passed. */
export function nextEndOf(
  version: Dated,
  asOf: string,
): { readonly date: string; readonly which: "standardEnd" | "extendedEnd" } | undefined {
  if (version.standardEnd !== undefined && asOf <= version.standardEnd)
    return { date: version.standardEnd, which: "standardEnd" };
  if (version.extendedEnd !== undefined && asOf <= version.extendedEnd)
    return { date: version.extendedEnd, which: "extendedEnd" };
  return undefined;
}

/** What the vendor calls the date a phase begins from: the family's term, else the field's name. */
export const termOf = (family: Pick<VersionFamilyDataT, "terms">, date: VersionDate): string =>
  family.terms[date] ?? date;

/** A family's described phases as the API lists them, in phase order, their pages by URL. */
export function familyPhases(family: VersionFamilyDataT): VersionPhaseInfoT[] | undefined {
  const described = family.phases;
  if (!described) return undefined;
  const nameOf: Record<Exclude<VersionPhase, "supported">, VersionDate> = {
    deprecated: "standardEnd",
    extended: "standardEnd",
    "block-create": "blockCreate",
    "block-update": "blockUpdate",
    ended: family.versions.some((version) => version.extendedEnd) ? "extendedEnd" : "standardEnd",
  };
  return (Object.keys(nameOf) as (keyof typeof nameOf)[]).flatMap((phase) => {
    const info: PhaseDataT | undefined = described[phase];
    if (!info) return [];
    const { source, datesSource, ...rest } = info;
    return [
      {
        phase,
        name: termOf(family, nameOf[phase]),
        ...rest,
        source: source.url,
        ...(datesSource ? { datesSource: datesSource.url } : {}),
      },
    ];
  });
}

/** The pages a service's families' phases cite, each once, in order of first citation. */
function phaseSources(families: readonly VersionFamilyDataT[]): VersionSourceT[] {
  const byUrl = new Map<string, VersionSourceT>();
  for (const family of families)
    for (const info of Object.values(family.phases ?? {}))
      for (const source of [info.source, info.datesSource])
        if (source && !byUrl.has(source.url)) byUrl.set(source.url, source);
  return [...byUrl.values()];
}

function publicVersion(
  family: Pick<VersionFamilyDataT, "phases">,
  version: VersionEntryT,
  asOf: string,
): ServiceVersionT {
  const phase = phaseOn(versionPhases(version, family), asOf);
  const shown: ServiceVersionT = { ...version, status: statusOfPhase(phase), phase };
  for (const key of Object.keys(shown) as (keyof ServiceVersionT)[]) if (shown[key] === undefined) delete shown[key];
  return shown;
}

/** A service's families as the API shows them, statuses as of a day; undefined when it has none. */
export function serviceVersionsOf(families: readonly VersionFamilyDataT[], asOf: string): ServiceVersionsT | undefined {
  if (families.length === 0) return undefined;
  const sources = phaseSources(families);
  return {
    asOf,
    ...(sources.length > 0 ? { sources } : {}),
    families: families.map((family) => {
      const phases = familyPhases(family);
      return {
        id: family.id,
        name: family.name,
        kind: family.kind,
        terms: family.terms,
        ...(phases ? { phases } : {}),
        ...(family.note ? { note: family.note } : {}),
        ...(family.successorSlug ? { successorSlug: family.successorSlug } : {}),
        source: family.source,
        versions: family.versions.map((version) => publicVersion(family, version, asOf)),
      };
    }),
  };
}

/** One phase of a version found, with what the family says of it. */
export interface FoundPhase extends VersionPhaseStartT {
  /** What the vendor calls the date it begins from. */
  readonly name: string;
  readonly consequence?: string;
  readonly paid?: boolean;
  readonly price?: string;
  readonly source?: VersionSourceT;
}

/** What findVersion answers for a version it knows. */
export interface FoundVersion {
  /** The version's id as the vendor writes it (the family's release line a longer string belongs to). */
  readonly version: string;
  readonly family: string;
  readonly status: VersionStatus;
  /** Its phase on the day asked. */
  readonly phase: VersionPhase;
  /** Its phases after standard support, in order, each with its consequence where the family describes it. */
  readonly phases: readonly FoundPhase[];
  /** Its last day of support in any way (extended end, else standard end); undefined when none is published. */
  readonly ends: string | undefined;
  readonly standardEnd: string | undefined;
  readonly extendedEnd: string | undefined;
  readonly blockCreate: string | undefined;
  readonly blockUpdate: string | undefined;
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
 * 8.0.35 of 8.0, MYSQL_8_0_31 of MYSQL_8_0, GKE's 1.29.3-gke.1093000 of 1.29): the id followed by a
 * dot, an underscore or a hyphen; a tier, its SKU with a size. Never a nearest version: 1.2 is not 1.29.
 */
function names(asked: string, family: VersionFamilyDataT, version: VersionEntryT): boolean {
  const id = spelled(version.id);
  if (asked === id) return true;
  // A tier's SKU names its size after an underscore, its words joined (Azure's Enterprise_E10,
  // EnterpriseFlash_F300 and Terraform's Enterprise_E10-2 are of the tiers Enterprise and Enterprise Flash).
  if (family.kind === "tier") return asked.replace(/\s+/g, "").startsWith(`${id.replace(/\s+/g, "")}_`);
  // Cloud SQL spells a minor version with underscores (MYSQL_8_0_31 of MYSQL_8_0).
  return (
    (family.kind === "engine" || family.kind === "kubernetes") &&
    (asked.startsWith(`${id}.`) || asked.startsWith(`${id}_`) || asked.startsWith(`${id}-`))
  );
}

/** A version's phases with what its family says of each. */
export function foundPhases(family: VersionFamilyDataT, version: Dated): FoundPhase[] {
  return versionPhases(version, family).map((entry) => {
    const info = family.phases?.[entry.phase as Exclude<VersionPhase, "supported">];
    return { ...entry, name: termOf(family, entry.from), ...(info ?? {}) };
  });
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
  const phases = foundPhases(candidate, version);
  return {
    version: version.id,
    family: candidate.id,
    status: statusOfPhase(phaseOn(phases, asOf)),
    phase: phaseOn(phases, asOf),
    phases,
    ends: lastDayOf(version),
    standardEnd: version.standardEnd,
    extendedEnd: version.extendedEnd,
    blockCreate: version.blockCreate,
    blockUpdate: version.blockUpdate,
    successor: version.successor ?? candidate.successorSlug,
    source: candidate.source,
  };
}
