/**
 * Reads catalogue/data, validates every file against catalogue/schema/, cross-checks the files
 * against each other and returns an immutable, indexed Catalogue. Any problem stops the load with
 * one line per problem naming file, entry, field and what is wrong.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { readSnapshots, releaseHistory, snapshotServices } from "./changes.ts";
import { readEventDates } from "./event-dates.ts";
import { readDependencies } from "../dependencies/dependencies.node.ts";
import { cloudFormationDependencies } from "../inventory/cloudformation.node.ts";
import { inventoryDirOf } from "../inventory/load.node.ts";
import { endpointRegions } from "../inventory/endpoint-regions.node.ts";
import { vendorRegions } from "../inventory/service-regions.node.ts";
import { issueLines, issuePath } from "../base/issues.ts";
import { mergeScope } from "../compliance/scope.ts";
import { listServiceFiles, type ServiceFile } from "./load-services.ts";
import { terraformResourceProblems } from "./terraform-resources.ts";
import { capabilitiesProblems } from "./capabilities.ts";
import { egressProblems, placementProblems } from "./exit-data.ts";
import { EgressFile, PlacementFile } from "../schema/exit-data.ts";
import { RegisterFile } from "../schema/register.ts";
import { registerProblems } from "./register-data.ts";
import { otherProductsProblems } from "./other-products.ts";
import { readWordsAndPlaces } from "./words-places.ts";
import { CapabilitiesFile } from "../schema/capabilities.ts";
import { readVersions } from "./load-versions.ts";
import { readLocations } from "./load-locations.ts";
import {
  lineageProblems,
  providerProblems,
  serviceProblems,
  shown,
  successorProblems,
  type Known,
  type ProviderAt,
  type ServiceAt,
} from "./entry-checks.ts";
import type { z } from "zod";
import {
  CategoryFile,
  CompatibilityFile,
  ComplianceFile,
  EquivalentsFile,
  NotDoingFile,
  OtherProductsFile,
  ProviderFile,
  SearchWordsFile,
  ServiceEntry,
  type CompatibilityTermT,
  type PolicyIdentifiersT,
  type ServiceDependencyT,
} from "../schema/index.ts";
import { assembleCatalogue, dataDate, lastVerifiedOf, type Catalogue, type CatalogueSource } from "./assemble.ts";

// What this module's importers have always found here; the Catalogue itself is assemble.ts's.
export {
  assembleCatalogue,
  dataDate,
  isEuResidentOnly,
  isSovereignOption,
  lastVerifiedOf,
  verifiedOf,
  type Catalogue,
  type CatalogueSource,
  type EquivalenceGroup,
  type ProviderRecord,
  type ServiceRecord,
} from "./assemble.ts";

export const DEFAULT_DATA_DIR = fileURLToPath(new URL("../data/", import.meta.url));
/** Release snapshots are kept beside a data folder: catalogue/releases for catalogue/data. */
export const releasesDirOf = (dataDir: string): string => join(dataDir, "..", "releases");

export class CatalogueError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(
      `catalogue data is invalid (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n  ${problems.join("\n  ")}`,
    );
    this.name = "CatalogueError";
    this.problems = problems;
  }
}

/** "entry 3 (aws-s3)": how a problem points at an element of a YAML list. */
function entryName(index: number, value: unknown): string {
  const entry = value as { slug?: unknown; id?: unknown } | null | undefined;
  const label = entry?.slug ?? entry?.id;
  return `entry ${index + 1}${typeof label === "string" ? ` (${label})` : ""}`;
}

/*
 * Reading a data folder. Each step appends what is wrong to `problems` and goes on, so that one
 * load lists every problem; readCatalogueSource throws them all at the end.
 */

/** A YAML file's value, or undefined with the parse error recorded. */
/**
 * Parsed YAML by path, with the text it was parsed from, for a loader that reloads (scripts/dev.ts):
 * a reload then parses only the files an edit changed. Off unless asked: a build or a server loads once.
 */
let parsedYaml: Map<string, { readonly text: string; readonly value: unknown }> | undefined;
export function keepParsedYaml(): void {
  parsedYaml ??= new Map();
}

function readYaml(path: string, problems: string[]): unknown {
  try {
    const text = readFileSync(path, "utf8");
    const kept = parsedYaml?.get(path);
    // Copies, in and out: nothing the loader does to a value can reach the kept one.
    if (kept && kept.text === text) return structuredClone(kept.value);
    const value: unknown = parseYaml(text, { uniqueKeys: true });
    parsedYaml?.set(path, { text, value: structuredClone(value) });
    return value;
  } catch (error) {
    problems.push(`${shown(path)}: ${(error as Error).message.split("\n")[0]}`);
    return undefined;
  }
}

/** Validates one file; entry names come from each element's id/slug so messages point at it. */
function validate<S extends z.ZodType>(
  path: string,
  schema: S,
  value: unknown,
  problems: string[],
): z.infer<S> | undefined {
  if (value === undefined) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const where = (issuePathOf: readonly PropertyKey[]) => {
    const [first, ...rest] = issuePathOf;
    return typeof first === "number" && Array.isArray(value)
      ? `${entryName(first, value[first])}: field ${issuePath(rest, "(entry)")}`
      : `field ${issuePath(issuePathOf, "(file)")}`;
  };
  for (const line of issueLines(result.error.issues, { where })) problems.push(`${shown(path)}: ${line}`);
  return undefined;
}

/** A data file read and validated; undefined (its problems recorded) when it is not valid. */
const readFile = <S extends z.ZodType>(path: string, schema: S, problems: string[]): z.infer<S> | undefined =>
  validate(path, schema, readYaml(path, problems), problems);

/** The .yaml files of one folder of the data, sorted. */
function listYaml(dataDir: string, dir: string, problems: string[]): string[] {
  try {
    return readdirSync(join(dataDir, dir))
      .filter((file) => file.endsWith(".yaml"))
      .sort()
      .map((file) => join(dataDir, dir, file));
  } catch {
    problems.push(`${shown(join(dataDir, dir))}: folder is missing`);
    return [];
  }
}

/** providers/*.yaml, by id. */
function readProviders(dataDir: string, compliance: ReadonlyMap<string, string>, problems: string[]) {
  const providers = new Map<string, ProviderAt>();
  for (const path of listYaml(dataDir, "providers", problems)) {
    const file = readFile(path, ProviderFile, problems);
    if (!file) continue;
    for (const problem of providerProblems(path, file, compliance, providers))
      problems.push(`${shown(path)}: ${problem}`);
    providers.set(file.id, { path, file });
  }
  return providers;
}

/** One services/<provider>/<name>.yaml: one mapping, whose slug is "<provider>-<name>". */
function readServiceFile(file: ServiceFile, known: Known, entries: Map<string, ServiceAt>, problems: string[]): void {
  const { path, providerId } = file;
  const name = shown(path);
  if (!known.providers.has(providerId))
    problems.push(`${name}: no provider file providers/${providerId}.yaml for this services folder`);
  const raw = readYaml(path, problems);
  if (raw === undefined) return;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    problems.push(`${name}: must be one YAML mapping, a service (one file per service)`);
    return;
  }
  const entry = validate(path, ServiceEntry, raw, problems);
  if (!entry) return;
  if (entry.slug !== file.slug)
    problems.push(
      `${name}: field slug: is "${entry.slug}" but the file makes it "${file.slug}" (<provider>-<file name>)`,
    );
  for (const problem of serviceProblems(entry, providerId, known, entries.get(entry.slug)))
    problems.push(`${name}: ${problem}`);
  entries.set(entry.slug, { path, providerId, entry });
}

/** services/<provider>/*.yaml, by slug, providers and files in name order. */
function readServices(dataDir: string, known: Known, problems: string[]): Map<string, ServiceAt> {
  const entries = new Map<string, ServiceAt>();
  for (const file of listServiceFiles(dataDir, problems, shown)) readServiceFile(file, known, entries, problems);
  problems.push(...successorProblems(entries), ...lineageProblems(entries));
  problems.push(
    ...terraformResourceProblems(
      [...entries.values()].map(({ path, entry }) => ({
        where: shown(path),
        slug: entry.slug,
        types: entry.terraformResources,
      })),
    ),
  );
  return entries;
}

/** not-doing.yaml: each row joins its group's notDoing, where readGroups checks it as one written there. */
function addNotDoingRows(dataDir: string, groups: z.infer<typeof EquivalentsFile>, problems: string[]) {
  const path = join(dataDir, "not-doing.yaml");
  if (!existsSync(path)) return;
  const byId = new Map(groups.map((group) => [group.id, group]));
  (readFile(path, NotDoingFile, problems) ?? []).forEach(({ group: groupId, ...record }, index) => {
    const group = byId.get(groupId);
    if (!group) problems.push(`${shown(path)}: entry ${index + 1}: field group: unknown group "${groupId}"`);
    else group.notDoing = [...(group.notDoing ?? []), record];
  });
}

/** equivalents.yaml: groups of known services, none twice, spanning at least two providers. */
function readGroups(
  dataDir: string,
  entries: ReadonlyMap<string, ServiceAt>,
  categoryById: ReadonlyMap<string, unknown>,
  problems: string[],
) {
  const path = join(dataDir, "equivalents.yaml");
  const groups = readFile(path, EquivalentsFile, problems) ?? [];
  addNotDoingRows(dataDir, groups, problems);
  const groupIds = new Set<string>();
  const primaryOf = new Map<string, string>();
  groups.forEach((group, index) => {
    const at = `${shown(path)}: entry ${index + 1} (${group.id})`;
    if (groupIds.has(group.id)) problems.push(`${at}: field id: duplicate group id`);
    groupIds.add(group.id);
    if (group.category && !categoryById.has(group.category))
      problems.push(`${at}: field category: unknown category "${group.category}" (see categories.yaml)`);
    const seen = new Set<string>();
    group.services.forEach((slug, i) => {
      if (!entries.has(slug)) problems.push(`${at}: field services.${i}: "${slug}" is not a service in the catalogue`);
      if (seen.has(slug)) problems.push(`${at}: field services.${i}: "${slug}" is listed twice`);
      seen.add(slug);
    });
    for (const slug of Object.keys(group.otherCategories ?? {}))
      if (!seen.has(slug))
        problems.push(`${at}: field otherCategories.${slug}: "${slug}" is not a member of this group`);
    (group.primaryOf ?? []).forEach((slug, i) => {
      if (!seen.has(slug)) problems.push(`${at}: field primaryOf.${i}: "${slug}" is not a member of this group`);
      if (primaryOf.has(slug))
        problems.push(`${at}: field primaryOf.${i}: "${slug}" is already the primary of ${primaryOf.get(slug)}`);
      primaryOf.set(slug, group.id);
    });
    const flagshipProviders = new Set<string | undefined>();
    (group.flagships ?? []).forEach((slug, i) => {
      if (!seen.has(slug)) problems.push(`${at}: field flagships.${i}: "${slug}" is not a member of this group`);
      const providerId = entries.get(slug)?.providerId;
      if (flagshipProviders.has(providerId))
        problems.push(`${at}: field flagships.${i}: "${slug}" is a second flagship of ${providerId}`);
      flagshipProviders.add(providerId);
    });
    (group.notDoing ?? []).forEach((record, i) => {
      if (record.service !== undefined && !entries.has(record.service))
        problems.push(`${at}: field notDoing.${i}.service: "${record.service}" is not a service in the catalogue`);
      if (record.service !== undefined && seen.has(record.service))
        problems.push(
          `${at}: field notDoing.${i}.service: "${record.service}" is a member; it cannot also not do the job`,
        );
    });
    const providers = new Set(group.services.map((slug) => entries.get(slug)?.providerId));
    if (providers.size < 2)
      problems.push(`${at}: field services: every service is on one provider, so none has an equivalent`);
  });
  return groups;
}

/**
 * The release snapshots and the recorded lifecycle event dates beside the data folder (the latter as
 * a source field, absent when none); none (the problem recorded) when they cannot be read.
 */
function readReleases(dataDir: string, problems: string[]) {
  let snapshots: ReturnType<typeof readSnapshots> = [];
  try {
    snapshots = readSnapshots(releasesDirOf(dataDir));
  } catch (error) {
    problems.push((error as Error).message);
  }
  return { snapshots, eventDates: recordedEventDates(dataDir, problems) };
}

/** The recorded lifecycle event dates beside the data folder, as a source field; none when there are none or they are unreadable (the problem recorded). */
function recordedEventDates(dataDir: string, problems: string[]): { eventDates?: Record<string, string[]> } {
  try {
    const eventDates = readEventDates(releasesDirOf(dataDir));
    return Object.keys(eventDates).length > 0 ? { eventDates } : {};
  } catch (error) {
    problems.push((error as Error).message);
    return {};
  }
}

/** compatibility.yaml: the vocabulary services' compatibility claims name, no id twice. */
function readCompatibilityTerms(dataDir: string, problems: string[]): CompatibilityTermT[] {
  const path = join(dataDir, "compatibility.yaml");
  const terms = readFile(path, CompatibilityFile, problems) ?? [];
  const seen = new Set<string>();
  terms.forEach((term, index) => {
    if (seen.has(term.id)) problems.push(`${shown(path)}: entry ${index + 1} (${term.id}): field id: duplicate id`);
    seen.add(term.id);
  });
  return terms;
}

/** capabilities.yaml (issue 98), validated and cross-checked against the groups and services; absent where there is none. */
function readCapabilities(
  dataDir: string,
  groups: Parameters<typeof capabilitiesProblems>[2],
  entries: ReadonlyMap<string, ServiceAt>,
  providers: ReadonlyMap<string, ProviderAt>,
  problems: string[],
  terms: ReadonlySet<string>,
) {
  const path = join(dataDir, "capabilities.yaml");
  if (!existsSync(path)) return undefined;
  const capabilities = readFile(path, CapabilitiesFile, problems);
  if (capabilities)
    problems.push(...capabilitiesProblems(capabilities, shown(path), groups, entries, providers, terms));
  return capabilities;
}

/** capabilities.yaml, placement.yaml and egress.yaml (issue 114), validated and cross-checked; each absent where there is none. */
function readExitData(
  dataDir: string,
  known: {
    readonly groups: Parameters<typeof capabilitiesProblems>[2];
    readonly providers: ReadonlyMap<string, ProviderAt>;
    readonly entries: ReadonlyMap<string, ServiceAt>;
    readonly compatibility: ReadonlyMap<string, unknown>;
  },
  problems: string[],
) {
  const { groups, providers, entries } = known;
  const capabilities = readCapabilities(
    dataDir,
    groups,
    entries,
    providers,
    problems,
    new Set(known.compatibility.keys()),
  );
  const placementPath = join(dataDir, "placement.yaml");
  const placement = existsSync(placementPath) ? readFile(placementPath, PlacementFile, problems) : undefined;
  if (placement) problems.push(...placementProblems(placement, shown(placementPath), groups));
  const egressPath = join(dataDir, "egress.yaml");
  const egress = existsSync(egressPath) ? readFile(egressPath, EgressFile, problems) : undefined;
  if (egress)
    problems.push(...egressProblems(egress, shown(egressPath), providers, (slug) => entries.get(slug)?.providerId));
  return {
    ...(capabilities ? { capabilities } : {}),
    ...(placement ? { placement } : {}),
    ...(egress ? { egress } : {}),
  };
}

/** other-products.yaml, cross-checked against the kinds, providers and services' names; absent where there is none. */
function readOtherProducts(
  dataDir: string,
  read: {
    groups: readonly { id: string }[];
    categories: readonly { id: string }[];
    providers: ReadonlyMap<string, ProviderAt>;
    entries: ReadonlyMap<string, ServiceAt>;
  },
  problems: string[],
) {
  const path = join(dataDir, "other-products.yaml");
  if (!existsSync(path)) return undefined;
  const file = readFile(path, OtherProductsFile, problems);
  if (!file) return undefined;
  const serviceNames = new Set(
    [...read.entries.values()].flatMap(({ entry }) =>
      [entry.name, entry.shortName ?? "", ...(entry.aliases ?? [])].map((name) => name.toLowerCase()),
    ),
  );
  problems.push(
    ...otherProductsProblems(file, shown(path), {
      groups: new Set(read.groups.map(({ id }) => id)),
      categories: new Set(read.categories.map(({ id }) => id)),
      providers: new Set(read.providers.keys()),
      serviceNames,
    }),
  );
  return file;
}

/** register.yaml (issue 127), validated and cross-checked against the categories and providers; absent where there is none. */
function readRegister(
  dataDir: string,
  categories: readonly { id: string }[],
  providers: ReadonlyMap<string, unknown>,
  problems: string[],
) {
  const path = join(dataDir, "register.yaml");
  const register = existsSync(path) ? readFile(path, RegisterFile, problems) : undefined;
  if (register)
    problems.push(
      ...registerProblems(register, shown(path), new Set(categories.map(({ id }) => id)), new Set(providers.keys())),
    );
  return register;
}

/** What the search and the places read beside the services: search-words, other products, abbreviations, metros. */
function readSearchData(
  dataDir: string,
  read: Parameters<typeof readOtherProducts>[1],
  problems: string[],
): Pick<CatalogueSource, "searchWords" | "otherProducts" | "abbreviations" | "metros"> {
  const searchWordsPath = join(dataDir, "search-words.yaml");
  const searchWords = existsSync(searchWordsPath) ? readFile(searchWordsPath, SearchWordsFile, problems) : undefined;
  const otherProducts = readOtherProducts(dataDir, read, problems);
  const known = { providers: read.providers, entries: read.entries, groups: read.groups, jobs: searchWords?.jobs };
  return {
    ...(searchWords ? { searchWords } : {}),
    ...(otherProducts ? { otherProducts } : {}),
    ...readWordsAndPlaces(dataDir, readFile, known, problems),
  };
}

/** Reads and validates a data folder, cross-checking the files; throws CatalogueError listing every problem. */
export function readCatalogueSource(dataDir: string = DEFAULT_DATA_DIR): CatalogueSource {
  const problems: string[] = [];
  const categories = readFile(join(dataDir, "categories.yaml"), CategoryFile, problems) ?? [];
  const complianceList = readFile(join(dataDir, "compliance.yaml"), ComplianceFile, problems) ?? [];
  const compliance = new Map(complianceList.map((entry) => [entry.id, entry.name]));
  const compatibilityTerms = readCompatibilityTerms(dataDir, problems);
  const compatibility = new Map(compatibilityTerms.map((term) => [term.id, term]));
  const categoryById = new Map(categories.map((category) => [category.id, category]));
  const providers = readProviders(dataDir, compliance, problems);
  const entries = readServices(dataDir, { compliance, compatibility, categoryById, providers }, problems);
  mergeScope(dataDir, entries, compliance, problems, (path) => readYaml(path, problems));
  const groups = readGroups(dataDir, entries, categoryById, problems);
  const exitData = readExitData(dataDir, { groups, providers, entries, compatibility }, problems);
  const handWritten = readDependencies(
    dataDir,
    new Map(
      [...entries].map(([slug, { providerId, entry }]) => [
        slug,
        { providerId, policyIdentifiers: entry.policyIdentifiers },
      ]),
    ),
    problems,
    (path) => readYaml(path, problems),
  );
  // What the vendored inventories read of each service: its provider and policy identifiers.
  const identified = [...entries].map(([slug, { providerId, entry }]) => ({
    slug,
    providerId,
    policyIdentifiers: entry.policyIdentifiers,
  }));
  // Plus what the vendors' resource schemas say each service's own resources need to deploy.
  const dependencies = withSchemaDependencies(
    handWritten,
    cloudFormationDependencies(inventoryDirOf(dataDir), identified, problems),
  );
  const places = readPlaces(dataDir, { identified, entries, providers }, problems);
  const versions = readVersions(
    dataDir,
    {
      serviceProvider: new Map([...entries].map(([slug, { providerId }]) => [slug, providerId])),
      officialDomains: new Map([...providers.values()].map(({ file }) => [file.id, file.officialDomains])),
    },
    problems,
    (path) => readYaml(path, problems),
  );
  const { snapshots, eventDates } = readReleases(dataDir, problems);
  const searchData = readSearchData(dataDir, { groups, categories, providers, entries }, problems);
  const register = readRegister(dataDir, categories, providers, problems);

  if (problems.length > 0) throw new CatalogueError(problems);
  const providerFiles = [...providers.values()].map(({ file }) => file);
  const lastUpdated = dataDate(
    providerFiles,
    [
      ...[...entries.values()].map(({ entry }) => ({ lastVerified: lastVerifiedOf(entry) })),
      // A version family's source read is a change of the data as much as a service's.
      ...Object.values(versions).flatMap((families) =>
        families.map((family) => ({ lastVerified: family.source.retrieved })),
      ),
    ],
    snapshots,
  );
  const current = snapshotServices([...entries.values()].map(({ providerId, entry }) => ({ ...entry, providerId })));
  return {
    providers: providerFiles,
    categories,
    compliance: complianceList,
    compatibilityTerms,
    services: [...entries.values()].map(({ providerId, entry }) => ({ providerId, entry })),
    groups,
    lastUpdated,
    changes: releaseHistory(snapshots, current, lastUpdated.slice(0, 10)),
    ...eventDates,
    dependencies,
    ...(Object.keys(versions).length > 0 ? { versions } : {}),
    ...searchData,
    ...exitData,
    ...places,
    ...(register ? { register } : {}),
  };
}

/** The hand-written dependencies, then per service what its resource schemas say its resources need. */
function withSchemaDependencies(
  handWritten: Readonly<Record<string, readonly ServiceDependencyT[]>>,
  fromSchemas: Readonly<Record<string, readonly ServiceDependencyT[]>>,
): Record<string, ServiceDependencyT[]> {
  const dependencies: Record<string, ServiceDependencyT[]> = Object.fromEntries(
    Object.entries(handWritten).map(([slug, groups]) => [slug, [...groups]]),
  );
  for (const [slug, groups] of Object.entries(fromSchemas))
    dependencies[slug] = [...(dependencies[slug] ?? []), ...groups];
  return dependencies;
}

/**
 * Where the services run, as CatalogueSource carries it (only what there is): the vendored
 * per-service region data (AWS's endpoints, Azure's and Google's availability) and data/locations/.
 */
function readPlaces(
  dataDir: string,
  read: {
    identified: readonly { slug: string; providerId: string; policyIdentifiers?: PolicyIdentifiersT | undefined }[];
    entries: ReadonlyMap<string, ServiceAt>;
    providers: ReadonlyMap<string, ProviderAt>;
  },
  problems: string[],
): Pick<CatalogueSource, "endpointRegions" | "vendorRegions" | "statedPlacements" | "multiRegions"> {
  const inventoryDir = inventoryDirOf(dataDir);
  const endpoints = endpointRegions(inventoryDir, read.identified);
  const vendors = vendorRegions(inventoryDir, read.identified, regionIdsOf(read.providers), problems);
  const locations = readLocations(dataDir, read, problems, (path) => readYaml(path, problems));
  return {
    ...(endpoints ? { endpointRegions: endpoints } : {}),
    ...(vendors.length > 0 ? { vendorRegions: vendors } : {}),
    ...(Object.keys(locations.statedPlacements).length > 0 ? { statedPlacements: locations.statedPlacements } : {}),
    ...(locations.multiRegions.length > 0 ? { multiRegions: locations.multiRegions } : {}),
  };
}

/** A provider's listed region ids, which the vendored availability data is read against. */
const regionIdsOf =
  (providers: ReadonlyMap<string, ProviderAt>) =>
  (id: string): ReadonlySet<string> =>
    new Set(providers.get(id)?.file.regions.map((region) => region.id) ?? []);

/** Reads, validates and indexes catalogue/data (or another data folder). */
export function loadCatalogue(dataDir: string = DEFAULT_DATA_DIR): Catalogue {
  return assembleCatalogue(readCatalogueSource(dataDir));
}

/**
 * The catalogue a build (or a mirror) was made from: the validated source it ships as
 * api/catalogue-source.json. What a server of that build should load: it is the same data, and
 * parsing YAML and validating it again would leave tens of MB of garbage that V8 keeps as committed
 * heap for the life of the process (decisions.md#memory-rss, RSS).
 */
export function loadBuiltCatalogue(distDir: string): Catalogue {
  const path = join(distDir, "api", "catalogue-source.json");
  return assembleCatalogue(JSON.parse(readFileSync(path, "utf8")) as CatalogueSource);
}
