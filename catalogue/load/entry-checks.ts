/**
 * The checks of the data's entries beyond their schema, as "field …: …" phrases: a provider's
 * regions, domains and compliance; a service's slug, category, URLs, sources and compatibility
 * claims; across services, successors and lineages. load.ts reads the files and runs them.
 */
import { relative } from "node:path";
import {
  EU_EEA_COUNTRIES,
  type CategoryT,
  type CompatibilityTermT,
  type FactSourceT,
  type ProviderFileT,
  type ServiceEntryT,
} from "../schema/index.ts";
import { serviceFieldUrls } from "../schema/service-fields.ts";

export function hostAllowed(url: string, domains: readonly string[]): boolean {
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
    if (source.offer && !source.backs.includes("compliance"))
      problems.push(`field sources.${i}.offer: only a source that backs compliance names the offer in scope`);
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

/** Where a path is, as problems name it: relative to the working directory. */
export const shown = (path: string) => relative(process.cwd(), path);

/** A provider file and where it was read. */
export interface ProviderAt {
  readonly path: string;
  readonly file: ProviderFileT;
}

/** A service entry and the file it was read from. */
export interface ServiceAt {
  readonly path: string;
  readonly providerId: string;
  readonly entry: ServiceEntryT;
}

/** What the files read before a step define: the ids later files may name. */
export interface Known {
  readonly compliance: ReadonlyMap<string, string>;
  readonly compatibility: ReadonlyMap<string, CompatibilityTermT>;
  readonly categoryById: ReadonlyMap<string, CategoryT>;
  readonly providers: ReadonlyMap<string, ProviderAt>;
}

/**
 * A provider's regions, as "field …: …" phrases: no id twice; an unnamed operator's source on the
 * provider's domains and never beside a named operator; and a provider that splits its regions
 * into markets says so for every region, so an absent market always means "this provider has one
 * market", never "someone forgot".
 */
export function regionProblems(file: ProviderFileT): string[] {
  const problems: string[] = [];
  const regionIds = new Set<string>();
  const marketed = file.regions.some((region) => region.market !== undefined);
  file.regions.forEach((region, index) => {
    if (regionIds.has(region.id)) problems.push(`field regions.${index}.id: duplicate region id "${region.id}"`);
    regionIds.add(region.id);
    if (region.unnamedOperatorSource !== undefined) {
      // A page either names the region's operator or says only that it is another entity: not both.
      if (region.operator !== undefined)
        problems.push(`field regions.${index}.unnamedOperatorSource: not with operator, which names the entity`);
      if (!hostAllowed(region.unnamedOperatorSource, file.officialDomains))
        problems.push(`field regions.${index}.unnamedOperatorSource: host is not one of officialDomains`);
    }
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
export function providerProblems(
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

/** An inline fact source's problems (a compatibility claim's, a lineage's), as "field …: …" phrases. */
export function factSourceProblems(
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
export function serviceProblems(
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
      ...serviceFieldUrls(entry),
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

/** Every successor names another service of the catalogue. */
export function successorProblems(entries: ReadonlyMap<string, ServiceAt>): string[] {
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
export function lineageProblems(entries: ReadonlyMap<string, ServiceAt>): string[] {
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
