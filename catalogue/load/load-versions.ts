/**
 * Reads and validates catalogue/data/versions/<providerId>.yaml (data/versions/README.md): each
 * service a catalogue slug of that provider, each family's source cited and on the provider's
 * officialDomains, version ids once per family, a successor that is a version of the family, a
 * successorSlug that is a service, dates in order. One line per problem: file, service, field.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { issueLines, issuePath } from "../base/issues.ts";
import {
  VersionsFile,
  type PhaseDataT,
  type VersionFamilyDataT,
  type VersionFamilyEntryT,
  type VersionMap,
  type VersionSourceT,
} from "../schema/index.ts";
import { factSourceProblems, shown } from "./entry-checks.ts";

/** What the reader needs to know of the catalogue. */
export interface VersionsContext {
  /** Provider id of each service slug. */
  readonly serviceProvider: ReadonlyMap<string, string>;
  /** officialDomains of each provider id. */
  readonly officialDomains: ReadonlyMap<string, readonly string[]>;
}

/** A family's problems, as "field …: …" phrases. */
function familyProblems(family: VersionFamilyEntryT, context: VersionsContext): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  family.versions.forEach((version, i) => {
    const at = `field versions.${i} (${version.id})`;
    if (ids.has(version.id.toLowerCase())) problems.push(`${at}.id: "${version.id}" is listed twice in this family`);
    ids.add(version.id.toLowerCase());
    if (version.released && version.standardEnd && version.released > version.standardEnd)
      problems.push(`${at}.released: ${version.released} is after standardEnd (${version.standardEnd})`);
    if (version.extendedEnd && !version.standardEnd)
      problems.push(`${at}.extendedEnd: an extended end needs the standardEnd before it`);
    if (version.extendedEnd && version.standardEnd && version.extendedEnd < version.standardEnd)
      problems.push(`${at}.extendedEnd: ${version.extendedEnd} is before standardEnd (${version.standardEnd})`);
    if (version.blockUpdate && version.blockCreate && version.blockUpdate < version.blockCreate)
      problems.push(`${at}.blockUpdate: ${version.blockUpdate} is before blockCreate (${version.blockCreate})`);
    for (const field of ["blockCreate", "blockUpdate"] as const)
      if (version[field] && family.terms[field] === undefined)
        problems.push(`${at}.${field}: versions have a ${field}; say what the vendor calls it in terms.${field}`);
  });
  family.versions.forEach((version, i) => {
    if (version.successor !== undefined && !ids.has(version.successor.toLowerCase()))
      problems.push(
        `field versions.${i} (${version.id}).successor: "${version.successor}" is not a version of this family`,
      );
  });
  if (family.successorSlug !== undefined && !context.serviceProvider.has(family.successorSlug))
    problems.push(`field successorSlug: "${family.successorSlug}" is not a service in the catalogue`);
  if (family.versions.some((version) => version.extendedEnd) && family.terms.extendedEnd === undefined)
    problems.push(`field terms.extendedEnd: versions have an extendedEnd; say what the vendor calls it`);
  return problems;
}

/** A family's phase descriptions with their sources resolved (the family's own when a phase names none). */
function resolvedPhases(
  family: VersionFamilyEntryT,
  familySource: VersionSourceT | undefined,
  sources: Readonly<Record<string, VersionSourceT>>,
  cited: Set<string>,
  problem: (text: string) => void,
): VersionFamilyDataT["phases"] {
  if (!family.phases || !familySource) return undefined;
  const resolved: Record<string, PhaseDataT> = {};
  for (const [phase, info] of Object.entries(family.phases)) {
    if (!info) continue;
    const { source: id, datesSource: datesId, ...rest } = info;
    for (const cite of [id, datesId]) if (cite !== undefined) cited.add(cite);
    const source = id === undefined ? familySource : sources[id];
    const datesSource = datesId === undefined ? undefined : sources[datesId];
    if (!source) problem(`field phases.${phase}.source: unknown source "${id}" (see sources)`);
    else if (datesId !== undefined && !datesSource)
      problem(`field phases.${phase}.datesSource: unknown source "${datesId}" (see sources)`);
    else resolved[phase] = { ...rest, source, ...(datesSource ? { datesSource } : {}) };
  }
  return resolved;
}

/** Reads every versions file of a data folder; a data folder without versions/ has none. */
export function readVersions(
  dataDir: string,
  context: VersionsContext,
  problems: string[],
  readYaml: (path: string) => unknown,
): VersionMap {
  const dir = join(dataDir, "versions");
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((file) => file.endsWith(".yaml"))
      .sort();
  } catch {
    return {};
  }
  const result: Record<string, VersionFamilyDataT[]> = {};
  for (const file of files) {
    const path = join(dir, file);
    const name = shown(path);
    const providerId = file.replace(/\.yaml$/, "");
    const domains = context.officialDomains.get(providerId);
    if (!domains) {
      problems.push(`${name}: no provider file providers/${providerId}.yaml for this versions file`);
      continue;
    }
    const raw = readYaml(path);
    if (raw === undefined) continue;
    const parsed = VersionsFile.safeParse(raw);
    if (!parsed.success) {
      for (const line of issueLines(parsed.error.issues, { where: (at) => `field ${issuePath(at, "(file)")}` }))
        problems.push(`${name}: ${line}`);
      continue;
    }
    const { sources, services } = parsed.data;
    for (const [id, source] of Object.entries(sources))
      for (const problem of factSourceProblems(`sources.${id}`, source, domains)) problems.push(`${name}: ${problem}`);
    const cited = new Set<string>();
    for (const [slug, families] of Object.entries(services)) {
      const at = `${name}: ${slug}`;
      const owner = context.serviceProvider.get(slug);
      if (owner === undefined) {
        problems.push(`${at}: "${slug}" is not a service in the catalogue`);
        continue;
      }
      if (owner !== providerId) {
        problems.push(`${at}: is a service of ${owner}, not ${providerId}`);
        continue;
      }
      const familyIds = new Set<string>();
      const resolved: VersionFamilyDataT[] = [];
      families.forEach((family, index) => {
        const where = `${at}: family ${index + 1} (${family.id})`;
        if (familyIds.has(family.id)) problems.push(`${where}: field id: "${family.id}" is listed twice`);
        familyIds.add(family.id);
        cited.add(family.source);
        const source = sources[family.source];
        if (!source) problems.push(`${where}: field source: unknown source "${family.source}" (see sources)`);
        for (const problem of familyProblems(family, context)) problems.push(`${where}: ${problem}`);
        const phases = resolvedPhases(family, source, sources, cited, (problem) =>
          problems.push(`${where}: ${problem}`),
        );
        const { phases: _described, ...rest } = family;
        if (source) resolved.push({ ...rest, source, ...(phases ? { phases } : {}) });
      });
      result[slug] = resolved;
    }
    for (const id of Object.keys(sources))
      if (!cited.has(id)) problems.push(`${name}: field sources.${id}: no family cites this source`);
  }
  return result;
}
