/**
 * Reads catalogue/data, validates every file against catalogue/schema/, cross-checks the files
 * against each other and returns an immutable, indexed Catalogue. Any problem stops the load with
 * one line per problem naming file, entry, field and what is wrong.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { readSnapshots, releaseHistory, snapshotServices } from "./changes.ts";
import { readDependencies } from "./dependencies.node.ts";
import { cloudFormationDependencies } from "./inventory/cloudformation.node.ts";
import { inventoryDirOf } from "./inventory/load.node.ts";
import { issueLines, issuePath } from "./issues.ts";
import { listServiceFiles, type ServiceFile } from "./load-services.ts";
import { mergeScope } from "./scope.ts";
import { terraformResourceProblems } from "./terraform-resources.ts";
import type { z } from "zod";
import {
  CategoryFile,
  CompatibilityFile,
  ComplianceFile,
  EquivalentsFile,
  EU_EEA_COUNTRIES,
  ProviderFile,
  SearchWordsFile,
  ServiceEntry,
  type CategoryT,
  type CompatibilityTermT,
  type FactSourceT,
  type ProviderFileT,
  type ServiceDependencyT,
  type ServiceEntryT,
} from "./schema/index.ts";
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

export const DEFAULT_DATA_DIR = fileURLToPath(new URL("./data/", import.meta.url));
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

function hostAllowed(url: string, domains: readonly string[]): boolean {
  const host = new URL(url).hostname;
  return domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/** A repository file at one commit: the only copy a claim's source may name in via. */
const PINNED_REPOSITORY_FILE = /^https:\/\/github\.com\/[^/]+\/[^/]+\/blob\/[0-9a-f]{40}\/\S+$/;

/** What a URI is written with (RFC 3986): printable ASCII, the rest percent-encoded. */
const URI_CHARACTERS = /^[\x21-\x7e]+$/;

/** Today (UTC) as YYYY-MM-DD: no source can have been checked after it. */
const utcToday = (): string => new Date().toISOString().slice(0, 10);

/**
 * Problems with one entry's sources and provenance rules, as "field …: …" phrases: every source on
 * the provider's official domains, checked no later than today, each fact kind named once, no URL
 * twice; no compliance on a retired or preview service.
 */
export function sourceProblems(
  entry: ServiceEntryT,
  officialDomains: readonly string[] | undefined,
  today = utcToday(),
): string[] {
  const problems: string[] = [];
  const urls = new Set<string>();
  (entry.sources ?? []).forEach((source, i) => {
    for (const field of ["url", "via"] as const)
      if (source[field] !== undefined && !URI_CHARACTERS.test(source[field]))
        problems.push(
          `field sources.${i}.${field}: write its non-ASCII characters percent-encoded (RFC 3986: the API declares format uri)`,
        );
    if (officialDomains && !hostAllowed(source.url, officialDomains))
      problems.push(
        `field sources.${i}.url: host ${new URL(source.url).hostname} is not one of the provider's officialDomains`,
      );
    if (source.retrieved > today)
      problems.push(
        `field sources.${i}.retrieved: ${source.retrieved} is in the future; use the day the page was read`,
      );
    if (source.asOf && source.asOf > source.retrieved)
      problems.push(
        `field sources.${i}.asOf: ${source.asOf} is after retrieved (${source.retrieved}); a copy cannot postdate its reading`,
      );
    if (source.programmes && !source.backs.includes("compliance"))
      problems.push(`field sources.${i}.programmes: only a source that backs compliance names programmes`);
    for (const programme of source.programmes ?? [])
      if (!(entry.compliance ?? []).includes(programme))
        problems.push(`field sources.${i}.programmes: "${programme}" is not in the service's compliance`);
    if (new Set(source.backs).size !== source.backs.length)
      problems.push(`field sources.${i}.backs: lists a fact twice`);
    if (urls.has(source.url)) problems.push(`field sources.${i}.url: listed twice; give one source all it backs`);
    urls.add(source.url);
  });
  const status = entry.lifecycle?.status;
  if ((status === "retired" || status === "preview") && (entry.compliance?.length ?? 0) > 0)
    problems.push(`field compliance: a ${status} service carries no compliance programme; remove it`);
  return problems;
}

/*
 * Reading a data folder. Each step appends what is wrong to `problems` and goes on, so that one
 * load lists every problem; readCatalogueSource throws them all at the end.
 */

/** Where a path is, as problems name it: relative to the working directory. */
const shown = (path: string) => relative(process.cwd(), path);

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

/** A provider file and where it was read. */
interface ProviderAt {
  readonly path: string;
  readonly file: ProviderFileT;
}

/** A service entry and the file it was read from. */
interface ServiceAt {
  readonly path: string;
  readonly providerId: string;
  readonly entry: ServiceEntryT;
}

/** What the files read before a step define: the ids later files may name. */
interface Known {
  readonly compliance: ReadonlyMap<string, string>;
  readonly compatibility: ReadonlyMap<string, CompatibilityTermT>;
  readonly categoryById: ReadonlyMap<string, CategoryT>;
  readonly providers: ReadonlyMap<string, ProviderAt>;
}

/**
 * A provider's regions, as "field …: …" phrases: no id twice; and a provider that splits its
 * regions into markets says so for every region, so an absent market always means "this provider
 * has one market", never "someone forgot".
 */
function regionProblems(file: ProviderFileT): string[] {
  const problems: string[] = [];
  const regionIds = new Set<string>();
  const marketed = file.regions.some((region) => region.market !== undefined);
  file.regions.forEach((region, index) => {
    if (regionIds.has(region.id)) problems.push(`field regions.${index}.id: duplicate region id "${region.id}"`);
    regionIds.add(region.id);
    if (!marketed) return;
    if (region.market === undefined)
      problems.push(`field regions.${index}.market: missing, but other regions of this provider have one`);
    else if ((region.market === "mainland-china") !== (region.country === "CN"))
      problems.push(
        `field regions.${index}.market: is "${region.market}" for a region in ${region.country}; mainland-china goes with country CN and only with it`,
      );
    else if (region.market === "eu-sovereign" && !EU_EEA_COUNTRIES.has(region.country))
      problems.push(`field regions.${index}.market: eu-sovereign for a region outside the EU/EEA`);
  });
  return problems;
}

/** A provider file's problems beyond its schema, as "field …: …" phrases. */
function providerProblems(
  path: string,
  file: ProviderFileT,
  compliance: ReadonlyMap<string, string>,
  seen: ReadonlyMap<string, ProviderAt>,
): string[] {
  const problems: string[] = [];
  if (`${file.id}.yaml` !== path.split("/").pop()) problems.push(`field id: "${file.id}" does not match the file name`);
  if (seen.has(file.id)) problems.push(`field id: duplicate provider id "${file.id}"`);
  const expectedJurisdiction = EU_EEA_COUNTRIES.has(file.headOffice.country) ? "EU" : file.headOffice.country;
  if (file.jurisdiction !== expectedJurisdiction)
    problems.push(
      `field jurisdiction: is "${file.jurisdiction}" but a head office in ${file.headOffice.country} means "${expectedJurisdiction}"`,
    );
  file.defaultCompliance.forEach((id, index) => {
    if (!compliance.has(id))
      problems.push(`field defaultCompliance.${index}: unknown compliance id "${id}" (see compliance.yaml)`);
  });
  file.complianceScope?.forEach((scope, index) => {
    for (const id of scope.programmes)
      if (!file.defaultCompliance.includes(id))
        problems.push(`field complianceScope.${index}.programmes: "${id}" is not in defaultCompliance`);
    if (!hostAllowed(scope.url, file.officialDomains))
      problems.push(`field complianceScope.${index}.url: host is not one of officialDomains`);
  });
  problems.push(...regionProblems(file));
  if (!hostAllowed(file.documentationBaseUrl, file.officialDomains))
    problems.push(`field documentationBaseUrl: host is not one of officialDomains`);
  return problems;
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

/** An inline fact source's problems (a compatibility claim's, a lineage's), as "field …: …" phrases. */
function factSourceProblems(
  field: string,
  source: FactSourceT,
  officialDomains: readonly string[] | undefined,
  today = utcToday(),
): string[] {
  const problems: string[] = [];
  if (officialDomains && !hostAllowed(source.url, officialDomains))
    problems.push(
      `field ${field}.url: host ${new URL(source.url).hostname} is not one of the provider's officialDomains`,
    );
  // A claim read through a copy names the copy exactly: a repository file at its commit.
  if (source.via !== undefined && !PINNED_REPOSITORY_FILE.test(source.via))
    problems.push(
      `field ${field}.via: name the copy read as a repository file pinned to its commit (https://github.com/<owner>/<repo>/blob/<40-hex commit>/<path>)`,
    );
  if (source.retrieved > today)
    problems.push(`field ${field}.retrieved: ${source.retrieved} is in the future; use the day the page was read`);
  if (source.asOf && source.asOf > source.retrieved)
    problems.push(`field ${field}.asOf: ${source.asOf} is after retrieved (${source.retrieved})`);
  return problems;
}

/**
 * A service's compatibility claims and lineage source, as "field …: …" phrases: every id in the
 * vocabulary and claimed once; every source on the provider's domains, read no later than today.
 */
export function compatibilityProblems(
  entry: ServiceEntryT,
  vocabulary: ReadonlyMap<string, Pick<CompatibilityTermT, "conformance"> | undefined>,
  officialDomains: readonly string[] | undefined,
  today = utcToday(),
): string[] {
  const problems: string[] = [];
  const claimed = new Set<string>();
  (entry.compatibility ?? []).forEach((claim, i) => {
    if (!vocabulary.has(claim.id))
      problems.push(`field compatibility.${i}.id: unknown compatibility id "${claim.id}" (see compatibility.yaml)`);
    if (claimed.has(claim.id)) problems.push(`field compatibility.${i}.id: "${claim.id}" is claimed twice`);
    claimed.add(claim.id);
    // A conformance programme's published list (CNCF's certified Kubernetes) backs a claim too.
    const programme = vocabulary.get(claim.id)?.conformance?.url;
    const onProgramme = programme !== undefined && claim.source.url.startsWith(programme);
    problems.push(
      ...factSourceProblems(
        `compatibility.${i}.source`,
        claim.source,
        onProgramme ? undefined : officialDomains,
        today,
      ),
    );
  });
  (entry.notCompatible ?? []).forEach((record, i) => {
    if (!vocabulary.has(record.id))
      problems.push(`field notCompatible.${i}.id: unknown compatibility id "${record.id}" (see compatibility.yaml)`);
    if (claimed.has(record.id))
      problems.push(`field notCompatible.${i}.id: "${record.id}" is claimed and recorded as not supported`);
    claimed.add(record.id);
    problems.push(...factSourceProblems(`notCompatible.${i}.source`, record.source, officialDomains, today));
  });
  if (entry.lineage)
    problems.push(...factSourceProblems("lineage.source", entry.lineage.source, officialDomains, today));
  return problems;
}

/** A service entry's problems beyond its schema, as "field …: …" phrases. */
function serviceProblems(
  entry: ServiceEntryT,
  providerId: string,
  known: Known,
  clash: ServiceAt | undefined,
): string[] {
  const problems: string[] = [];
  if (clash) problems.push(`field slug: duplicate of ${shown(clash.path)}`);
  if (!known.categoryById.has(entry.category))
    problems.push(`field category: unknown category "${entry.category}" (see categories.yaml)`);
  entry.compliance?.forEach((id, i) => {
    if (!known.compliance.has(id)) problems.push(`field compliance.${i}: unknown compliance id "${id}"`);
  });
  const provider = known.providers.get(providerId)?.file;
  if (provider) {
    const urls: [string, string | undefined][] = [
      ["documentationUrl", entry.documentationUrl],
      ["pricingUrl", entry.pricingUrl],
      ["lifecycle.announcementUrl", entry.lifecycle?.announcementUrl],
    ];
    for (const [field, url] of urls)
      if (url && !hostAllowed(url, provider.officialDomains))
        problems.push(`field ${field}: host ${new URL(url).hostname} is not one of ${providerId}'s officialDomains`);
  }
  problems.push(...sourceProblems(entry, provider?.officialDomains));
  problems.push(...compatibilityProblems(entry, known.compatibility, provider?.officialDomains));
  if (new Set(entry.tags ?? []).size !== (entry.tags ?? []).length) problems.push(`field tags: duplicate tag`);
  return problems;
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

/** Every successor names another service of the catalogue. */
function successorProblems(entries: ReadonlyMap<string, ServiceAt>): string[] {
  const problems: string[] = [];
  for (const { path, entry } of entries.values()) {
    const successor = entry.lifecycle?.successorSlug;
    const at = `${shown(path)}: field lifecycle.successorSlug`;
    if (successor && !entries.has(successor)) problems.push(`${at}: "${successor}" is not a service in the catalogue`);
    if (successor === entry.slug) problems.push(`${at}: a service cannot succeed itself`);
  }
  return problems;
}

/**
 * Every lineage names the original product: a service of the catalogue, on another provider, not
 * retired, and not itself another's product (the origin is where the product comes from).
 */
function lineageProblems(entries: ReadonlyMap<string, ServiceAt>): string[] {
  const problems: string[] = [];
  for (const { path, providerId, entry } of entries.values()) {
    const origin = entry.lineage?.origin;
    if (!origin) continue;
    const at = `${shown(path)}: field lineage.origin`;
    const found = entries.get(origin);
    if (!found) problems.push(`${at}: "${origin}" is not a service in the catalogue`);
    else if (found.providerId === providerId)
      problems.push(`${at}: "${origin}" is on the same provider; lineage names another provider's product`);
    else if (found.entry.lifecycle?.status === "retired")
      problems.push(`${at}: "${origin}" is retired; a lineage names a product that exists`);
    else if (found.entry.lineage)
      problems.push(`${at}: "${origin}" has a lineage itself; name its origin, ${found.entry.lineage.origin}`);
  }
  return problems;
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

/** equivalents.yaml: groups of known services, none twice, spanning at least two providers. */
function readGroups(
  dataDir: string,
  entries: ReadonlyMap<string, ServiceAt>,
  categoryById: ReadonlyMap<string, unknown>,
  problems: string[],
) {
  const path = join(dataDir, "equivalents.yaml");
  const groups = readFile(path, EquivalentsFile, problems) ?? [];
  const groupIds = new Set<string>();
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
    const providers = new Set(group.services.map((slug) => entries.get(slug)?.providerId));
    if (providers.size < 2)
      problems.push(`${at}: field services: every service is on one provider, so none has an equivalent`);
  });
  return groups;
}

/** The release snapshots beside the data folder; none (the problem recorded) when they cannot be read. */
function readReleaseSnapshots(dataDir: string, problems: string[]): ReturnType<typeof readSnapshots> {
  try {
    return readSnapshots(releasesDirOf(dataDir));
  } catch (error) {
    problems.push((error as Error).message);
    return [];
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
  // Plus what the vendors' resource schemas say each service's own resources need to deploy.
  const fromSchemas = cloudFormationDependencies(
    inventoryDirOf(dataDir),
    [...entries].map(([slug, { providerId, entry }]) => ({
      slug,
      providerId,
      policyIdentifiers: entry.policyIdentifiers,
    })),
    problems,
  );
  const dependencies: Record<string, ServiceDependencyT[]> = { ...handWritten } as Record<string, ServiceDependencyT[]>;
  for (const [slug, groups] of Object.entries(fromSchemas))
    dependencies[slug] = [...(dependencies[slug] ?? []), ...groups];
  const snapshots = readReleaseSnapshots(dataDir, problems);
  const searchWordsPath = join(dataDir, "search-words.yaml");
  const searchWords = existsSync(searchWordsPath) ? readFile(searchWordsPath, SearchWordsFile, problems) : undefined;

  if (problems.length > 0) throw new CatalogueError(problems);
  const providerFiles = [...providers.values()].map(({ file }) => file);
  const lastUpdated = dataDate(
    providerFiles,
    [...entries.values()].map(({ entry }) => ({ lastVerified: lastVerifiedOf(entry) })),
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
    dependencies,
    ...(searchWords ? { searchWords } : {}),
  };
}

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
