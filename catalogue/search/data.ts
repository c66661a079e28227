/**
 * What the one search (search.ts) is built from: a compact, JSON-serialisable view of a catalogue
 * (the site ships it as /search-index.json), and the data's prior among equally good matches.
 *
 * This module must stay free of Node APIs: the site bundles it.
 */
import type { Catalogue, ServiceRecord } from "../load/load.ts";
import type { OtherProductsFileT } from "../schema/data-files.ts";
import { compileSearchWords, tokenize, type SearchWords } from "./words.ts";

/** Words that say nothing about which service is meant. */
export const GENERIC_WORDS = new Set(
  "a an the for of on and with by to in at as is cloud service services engine managed database simple elastic".split(
    " ",
  ),
);

/** Words in provider names that are not names of the provider ("Hetzner Online", "Open Telekom Cloud"). */
const NOT_PROVIDER_WORDS = new Set("web online internet open infrastructure".split(" "));

/** What the search needs of one service (compact: the site ships an array of these). */
export interface SearchDoc {
  /** The slug. */
  readonly id: string;
  readonly provider: string;
  /** Name, short name, aliases. */
  readonly names: readonly string[];
  readonly tags: readonly string[];
  /** Positions in `SearchData.groups`. */
  readonly groups: readonly number[];
  readonly category: string;
  readonly description: string;
  /** Its sub-services (tiers, storage classes, editions, engines, features, plans) as `[name, kind]`. */
  readonly subServices: readonly (readonly [string, string])[];
  /** The data's prior for this service among equally good matches (higher first). */
  readonly prior: number;
  /** The regions a place word names (search-words.yaml) that the service runs in; absent when none. */
  readonly placeRegions?: readonly string[];
}

export interface SearchData {
  readonly docs: readonly SearchDoc[];
  /** Providers with their search words, largest portfolio first. */
  readonly providers: readonly SearchProvider[];
  readonly groups: readonly { readonly id: string; readonly name: string }[];
  readonly categories: readonly { readonly id: string; readonly name: string }[];
  /** How people ask: stop words, other languages, shorthand, places (data/search-words.yaml). */
  readonly words: SearchWords;
  /** Products the catalogue does not list, by kind (data/other-products.yaml; absent in older indexes). */
  readonly otherProducts?: readonly OtherProduct[];
}

export interface SearchProvider {
  readonly id: string;
  /** Its search words ("aws", "amazon"). */
  readonly words: readonly string[];
  /** How many services it has. */
  readonly size: number;
  readonly jurisdiction: string;
  /** The country of its head office. */
  readonly country: string;
  /** The countries it has regions in. */
  readonly regions: readonly string[];
}

/** servicePrior to two decimals, as the search data ships it (the site's copy then ranks alike). */
export const roundedPrior = (record: Parameters<typeof servicePrior>[0]): number =>
  Math.round(servicePrior(record) * 100) / 100;

/**
 * A service's prior, from the data: how many kinds it belongs to and how many equivalents it has
 * (what others are compared against), how many tiers it has; a preview or sunset less, retired or
 * deprecated much less. The search's, the matrix's and the exit plan's flagship prior.
 */
export function servicePrior(
  record: Pick<ServiceRecord, "service" | "groupIds" | "equivalentSlugs" | "subServices">,
): number {
  const status = record.service.lifecycle?.status;
  const penalty = status === "retired" ? 4 : status === "sunset" || status === "deprecated" ? 3 : status ? 1 : 0;
  return (
    Math.log2(1 + record.groupIds.length) +
    0.5 * Math.log2(1 + record.equivalentSlugs.length) +
    Math.log2(1 + record.subServices.length) -
    penalty
  );
}

/** The compact, JSON-serialisable input of the search, built from a catalogue. */
export function searchData(catalogue: Catalogue): SearchData {
  const size = new Map<string, number>();
  for (const service of catalogue.services) size.set(service.providerId, (size.get(service.providerId) ?? 0) + 1);
  const wordCount = new Map<string, number>();
  const rawWords = catalogue.providers.map((provider) => {
    const words = new Set([provider.id, ...tokenize(provider.name), ...tokenize(provider.shortName)]);
    for (const word of words) wordCount.set(word, (wordCount.get(word) ?? 0) + 1);
    return words;
  });
  const providers = catalogue.providers
    .map((provider, i) => ({
      id: provider.id,
      // A word two providers share ("cloud") names neither.
      words: [...rawWords[i]!].filter(
        (word) => wordCount.get(word) === 1 && !GENERIC_WORDS.has(word) && !NOT_PROVIDER_WORDS.has(word),
      ),
      size: size.get(provider.id) ?? 0,
      jurisdiction: catalogue.providerById.get(provider.id)!.file.jurisdiction,
      country: catalogue.providerById.get(provider.id)!.file.headOffice.country,
      regions: catalogue.providerById.get(provider.id)!.regionCountries,
    }))
    .sort((a, b) => b.size - a.size || a.id.localeCompare(b.id));
  const groupPosition = new Map(catalogue.groups.map((group, i) => [group.id, i]));
  // Abbreviations people type that no name holds (data/search-abbreviations.yaml): read as names.
  const abbreviations = new Map<string, string[]>();
  for (const { abbreviation, service } of catalogue.source.abbreviations?.abbreviations ?? [])
    abbreviations.set(service, [...(abbreviations.get(service) ?? []), abbreviation]);
  // Only the regions a place names ship with the docs: the search data stays small.
  const placeRegions = new Set(
    (catalogue.source.searchWords?.places ?? []).flatMap((place) => (place.region ? [place.region] : [])),
  );
  const placeRegionsOf = (slug: string) =>
    catalogue.bySlug
      .get(slug)!
      .regions.map(({ id }) => id)
      .filter((id) => placeRegions.has(id));
  return {
    providers,
    words: compileSearchWords(catalogue.source.searchWords),
    otherProducts: otherProductsData(
      catalogue.source.otherProducts,
      (id) =>
        catalogue.groups.find((group) => group.id === id)?.name ?? catalogue.categories.find((c) => c.id === id)?.name,
    ),
    groups: catalogue.groups.map(({ id, name }) => ({ id, name })),
    categories: catalogue.categories.map(({ id, name }) => ({ id, name })),
    docs: catalogue.services.map((service) => ({
      id: service.slug,
      provider: service.providerId,
      names: [
        service.name,
        ...(service.shortName ? [service.shortName] : []),
        ...(service.aliases ?? []),
        ...(abbreviations.get(service.slug) ?? []),
      ],
      tags: service.tags ?? [],
      groups: catalogue.bySlug.get(service.slug)!.groupIds.map((id) => groupPosition.get(id)!),
      category: service.category,
      description: service.description ?? "",
      subServices: catalogue.bySlug.get(service.slug)!.subServices.map(({ name, kind }) => [name, kind] as const),
      prior: roundedPrior(catalogue.bySlug.get(service.slug)!),
      ...(placeRegionsOf(service.slug).length > 0 ? { placeRegions: placeRegionsOf(service.slug) } : {}),
    })),
  };
}

/** A product the catalogue does not list, as the search ships it (in /search-index.json). */
export interface OtherProduct {
  readonly name: string;
  /** Its name and other names, as tokens. */
  readonly words: readonly (readonly string[])[];
  readonly provider?: string;
  readonly kinds: readonly { readonly id: string; readonly name: string }[];
  readonly why: string;
}

/** The search's view of data/other-products.yaml, its kinds named by group or category. */
export function otherProductsData(
  file: OtherProductsFileT | undefined,
  kindName: (id: string) => string | undefined,
): OtherProduct[] {
  return (file ?? []).map((product) => ({
    name: product.name,
    words: [product.name, ...(product.words ?? [])].map(tokenize).filter((tokens) => tokens.length > 0),
    ...(product.provider ? { provider: product.provider } : {}),
    kinds: product.kinds.map((id) => ({ id, name: kindName(id) ?? id })),
    why: product.why,
  }));
}
