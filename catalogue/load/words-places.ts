/**
 * Issue 123's data files read and cross-checked: data/search-abbreviations.yaml (each abbreviation a
 * known service's, sourced on the vendor's own domains or GitHub organisations, no name of another
 * service) and data/places/metros.yaml (each metro's cities holding a region, each city source on the
 * provider's domains), and search-words.yaml's jobs (equivalence groups). The metros are assembled
 * into the places vocabulary's PlaceMetro (assemble.ts).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { metroRegions } from "../locations/metros.ts";
import { placeName } from "../locations/places.ts";
import {
  MetrosFile,
  SearchAbbreviationsFile,
  type MetrosFileT,
  type ProviderFileT,
  type SearchAbbreviationsFileT,
  type ServiceEntryT,
} from "../schema/index.ts";
import { hostAllowed, shown } from "./entry-checks.ts";

/** How load.ts reads and validates one YAML file. */
export type ReadData = <S extends z.ZodType>(path: string, schema: S, problems: string[]) => z.infer<S> | undefined;

interface Known {
  readonly providers: ReadonlyMap<string, { readonly file: ProviderFileT }>;
  readonly entries: ReadonlyMap<string, { readonly providerId: string; readonly entry: ServiceEntryT }>;
  readonly groups: readonly { readonly id: string }[];
}

/** Today (UTC): no page can have been read after it. */
const today = (): string => new Date().toISOString().slice(0, 10);

/** Whether a URL is the vendor's: on its officialDomains, or a repository of one of its GitHub organisations. */
function vendorUrl(url: string, domains: readonly string[], organisations: readonly string[]): boolean {
  if (hostAllowed(url, domains)) return true;
  const { hostname, pathname } = new URL(url);
  const owner = pathname.split("/")[1]?.toLowerCase();
  return hostname === "github.com" && organisations.some((organisation) => organisation.toLowerCase() === owner);
}

/** The abbreviations' problems, one line each. */
export function abbreviationProblems(file: SearchAbbreviationsFileT, at: string, known: Known): string[] {
  const problems: string[] = [];
  const names = new Map<string, string>();
  for (const [slug, { entry }] of known.entries)
    for (const name of [entry.name, entry.shortName ?? "", ...(entry.aliases ?? [])])
      names.set(name.toLowerCase(), slug);
  for (const provider of Object.keys(file.vendorOrganisations))
    if (!known.providers.has(provider))
      problems.push(`${at}: field vendorOrganisations.${provider}: not a provider of the catalogue`);
  const seen = new Set<string>();
  file.abbreviations.forEach((row, i) => {
    const where = `${at}: entry ${i + 1} (${row.abbreviation})`;
    const service = known.entries.get(row.service);
    if (!service) {
      problems.push(`${where}: field service: no service has the slug "${row.service}"`);
      return;
    }
    const word = row.abbreviation.toLowerCase();
    if (seen.has(word)) problems.push(`${where}: written twice in the file`);
    seen.add(word);
    const named = names.get(word);
    if (named && named !== row.service)
      problems.push(`${where}: "${row.abbreviation}" is a name of ${named}: the search finds that service by it`);
    const domains = known.providers.get(service.providerId)?.file.officialDomains ?? [];
    const organisations = file.vendorOrganisations[service.providerId] ?? [];
    for (const [j, source] of (row.sources ?? []).entries()) {
      if (!vendorUrl(source.url, domains, organisations))
        problems.push(
          `${where}: field sources.${j}.url: neither on ${service.providerId}'s officialDomains nor in its GitHub organisations`,
        );
      if (source.retrieved > today()) problems.push(`${where}: field sources.${j}.retrieved: in the future`);
    }
  });
  return problems;
}

/** The metros' problems, one line each. */
export function metroProblems(file: MetrosFileT, at: string, known: Known): string[] {
  const problems: string[] = [];
  for (const [provider, source] of Object.entries(file.citySources)) {
    const domains = known.providers.get(provider)?.file.officialDomains;
    if (!domains) problems.push(`${at}: field citySources.${provider}: not a provider of the catalogue`);
    // AWS's cities come from its SDK's endpoint metadata, a repository of boto (AWS's SDK for Python).
    else if (!vendorUrl(source.url, domains, provider === "aws" ? ["boto", "aws"] : []))
      problems.push(`${at}: field citySources.${provider}.url: not on ${provider}'s officialDomains`);
    if (source.retrieved > today()) problems.push(`${at}: field citySources.${provider}.retrieved: in the future`);
  }
  const ids = new Set<string>();
  const words = new Map<string, string>();
  for (const metro of file.metros) {
    const where = `${at}: metro ${metro.id}`;
    if (ids.has(metro.id)) problems.push(`${where}: the id is written twice`);
    ids.add(metro.id);
    for (const name of [metro.id, metro.name, ...metro.names]) {
      const word = placeName(name);
      const other = words.get(word);
      if (other && other !== metro.id) problems.push(`${where}: "${name}" is also a name of ${other}`);
      words.set(word, metro.id);
    }
    if (
      metroRegions(
        metro,
        [...known.providers.values()].map(({ file }) => file),
      ).length === 0
    )
      problems.push(`${where}: no provider has a region in ${metro.country} whose city is one of its cities`);
  }
  return problems;
}

/** search-words.yaml's jobs: each an equivalence group. */
export function jobProblems(jobs: readonly string[] | undefined, at: string, known: Known): string[] {
  const groups = new Set(known.groups.map(({ id }) => id));
  return (jobs ?? []).flatMap((job, i) =>
    groups.has(job) ? [] : [`${at}: field jobs.${i}: "${job}" is not an equivalence group`],
  );
}

/** Reads both files where they exist, pushing every problem. */
export function readWordsAndPlaces(
  dataDir: string,
  read: ReadData,
  known: Known & { readonly jobs?: readonly string[] | undefined },
  problems: string[],
): { abbreviations?: SearchAbbreviationsFileT; metros?: MetrosFileT } {
  const abbreviationsPath = join(dataDir, "search-abbreviations.yaml");
  const metrosPath = join(dataDir, "places", "metros.yaml");
  const abbreviations = existsSync(abbreviationsPath)
    ? read(abbreviationsPath, SearchAbbreviationsFile, problems)
    : undefined;
  const metros = existsSync(metrosPath) ? read(metrosPath, MetrosFile, problems) : undefined;
  if (abbreviations) problems.push(...abbreviationProblems(abbreviations, shown(abbreviationsPath), known));
  if (metros) problems.push(...metroProblems(metros, shown(metrosPath), known));
  problems.push(...jobProblems(known.jobs, shown(join(dataDir, "search-words.yaml")), known));
  return { ...(abbreviations ? { abbreviations } : {}), ...(metros ? { metros } : {}) };
}
