/**
 * Reads and checks catalogue/data/locations/ (its README): `<provider>.yaml`, what a vendor page
 * states of a service's place over the vendored machine-readable data (its regions, or that it is
 * global), and `multi-regions.yaml`, the vendors' location values that stand for several regions.
 * Each service is that provider's, stated once; each region id is in the provider's list; each page
 * on the provider's officialDomains, read no later than today. One line per problem: file, entry, field.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { issueLines } from "../base/issues.ts";
import {
  MultiRegionsFile,
  StatedPlacementsFile,
  type MultiRegionT,
  type ProviderFileT,
  type StatedPlacementT,
} from "../schema/index.ts";
import { factSourceProblems, shown } from "./entry-checks.ts";

/** What the reader checks the files against: the services and provider files read. */
export interface LocationsContext {
  readonly entries: ReadonlyMap<string, { readonly providerId: string }>;
  readonly providers: ReadonlyMap<string, { readonly file: ProviderFileT }>;
}

/** What data/locations/ holds, as CatalogueSource carries it. */
export interface LocationsData {
  /** Per service slug, what a vendor page states of its place. */
  readonly statedPlacements: Readonly<Record<string, StatedPlacementT>>;
  readonly multiRegions: readonly MultiRegionT[];
}

const MULTI_REGIONS = "multi-regions.yaml";

function unknownRegions(file: ProviderFileT | undefined, ids: readonly string[]): string[] {
  const listed = new Set(file?.regions.map((region) => region.id) ?? []);
  return ids.filter((id) => !listed.has(id));
}

function placementProblems(providerId: string, entry: StatedPlacementT, context: LocationsContext): string[] {
  const problems: string[] = [];
  const owner = context.entries.get(entry.service)?.providerId;
  if (owner !== providerId)
    problems.push(
      owner === undefined
        ? `field service: "${entry.service}" is not a service in the catalogue`
        : `field service: "${entry.service}" is ${owner}'s, not ${providerId}'s`,
    );
  const file = context.providers.get(providerId)?.file;
  for (const [field, ids] of [
    ["regions", entry.regions ?? []],
    ["global.homeRegions", entry.global?.homeRegions ?? []],
  ] as const) {
    const unknown = unknownRegions(file, ids);
    if (unknown.length > 0)
      problems.push(`field ${field}: ${unknown.join(", ")} not in providers/${providerId}.yaml's regions`);
  }
  problems.push(...factSourceProblems("source", entry.source, file?.officialDomains));
  return problems;
}

function multiRegionProblems(entry: MultiRegionT, context: LocationsContext): string[] {
  const problems: string[] = [];
  const file = context.providers.get(entry.providerId)?.file;
  if (!file) return [`field providerId: "${entry.providerId}" is not a provider in the catalogue`];
  const unknown = unknownRegions(file, entry.regions ?? []);
  if (unknown.length > 0)
    problems.push(`field regions: ${unknown.join(", ")} not in providers/${entry.providerId}.yaml's regions`);
  for (const slug of entry.services)
    if (context.entries.get(slug)?.providerId !== entry.providerId)
      problems.push(`field services: "${slug}" is not a service of ${entry.providerId}`);
  problems.push(...factSourceProblems("source", entry.source, file.officialDomains));
  return problems;
}

/** Reads data/locations/; a data folder without it has none. Problems go to `problems`. */
export function readLocations(
  dataDir: string,
  context: LocationsContext,
  problems: string[],
  readYaml: (path: string) => unknown,
): LocationsData {
  const dir = join(dataDir, "locations");
  const statedPlacements: Record<string, StatedPlacementT> = {};
  const multiRegions: MultiRegionT[] = [];
  if (!existsSync(dir)) return { statedPlacements, multiRegions };
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith(".yaml"))
    .sort()) {
    const path = join(dir, name);
    const at = shown(path);
    const raw = readYaml(path) ?? [];
    if (name === MULTI_REGIONS) {
      const parsed = MultiRegionsFile.safeParse(raw);
      if (!parsed.success) {
        problems.push(...issueLines(parsed.error.issues, { whole: "(file)" }).map((line) => `${at}: ${line}`));
        continue;
      }
      const values = new Set<string>();
      parsed.data.forEach((entry, i) => {
        const key = `${entry.providerId}:${entry.value.toLowerCase()}`;
        if (values.has(key)) problems.push(`${at}: entry ${i} (${entry.value}): listed twice for ${entry.providerId}`);
        values.add(key);
        problems.push(
          ...multiRegionProblems(entry, context).map((line) => `${at}: entry ${i} (${entry.value}): ${line}`),
        );
      });
      multiRegions.push(...parsed.data);
      continue;
    }
    const providerId = name.slice(0, -".yaml".length);
    if (!context.providers.has(providerId)) {
      problems.push(`${at}: "${providerId}" is not a provider in the catalogue (name the file <provider>.yaml)`);
      continue;
    }
    const parsed = StatedPlacementsFile.safeParse(raw);
    if (!parsed.success) {
      problems.push(...issueLines(parsed.error.issues, { whole: "(file)" }).map((line) => `${at}: ${line}`));
      continue;
    }
    parsed.data.forEach((entry, i) => {
      const where = `${at}: entry ${i} (${entry.service})`;
      if (Object.hasOwn(statedPlacements, entry.service)) problems.push(`${where}: the service is stated twice`);
      problems.push(...placementProblems(providerId, entry, context).map((line) => `${where}: ${line}`));
      statedPlacements[entry.service] = entry;
    });
  }
  return { statedPlacements, multiRegions };
}
