/**
 * Reads over a Catalogue: the services listing (filters, search, pages) and service detail. Pure
 * functions; the build and the sidecar call the same ones.
 */
import type { ServicesQueryT } from "./contract.ts";
import type { Catalogue } from "./load.ts";
import type { ServiceDetailT, ServiceListT } from "./schema.ts";

/** Case-, accent- and punctuation-insensitive tokens: NFKD, marks stripped, lowercase, split on non-alphanumerics. */
export function tokenize(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

const FIELD_WEIGHTS = { name: 8, shortName: 8, tags: 4, description: 1 } as const;

export interface SearchIndex {
  /** Sorted distinct tokens, for prefix look-up by binary search. */
  readonly vocabulary: readonly string[];
  /** token → (service position → best field weight). */
  readonly postings: ReadonlyMap<string, ReadonlyMap<number, number>>;
  readonly normalisedNames: readonly string[];
}

const indexes = new WeakMap<Catalogue, SearchIndex>();

/** The in-memory search index of a catalogue, built once per catalogue. */
export function searchIndex(catalogue: Catalogue): SearchIndex {
  const cached = indexes.get(catalogue);
  if (cached) return cached;
  const postings = new Map<string, Map<number, number>>();
  catalogue.services.forEach((service, position) => {
    const add = (text: string | undefined, weight: number) => {
      for (const token of tokenize(text ?? "")) {
        let entry = postings.get(token);
        if (!entry) postings.set(token, (entry = new Map()));
        entry.set(position, Math.max(entry.get(position) ?? 0, weight));
      }
    };
    add(service.name, FIELD_WEIGHTS.name);
    add(service.shortName, FIELD_WEIGHTS.shortName);
    for (const tag of service.tags ?? []) add(tag, FIELD_WEIGHTS.tags);
    add(service.description, FIELD_WEIGHTS.description);
  });
  const index: SearchIndex = {
    vocabulary: [...postings.keys()].sort(),
    postings,
    normalisedNames: catalogue.services.map((service) =>
      tokenize(`${service.name} ${service.shortName ?? ""}`).join(" "),
    ),
  };
  indexes.set(catalogue, index);
  return index;
}

function tokensWithPrefix(vocabulary: readonly string[], prefix: string): string[] {
  let low = 0;
  let high = vocabulary.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (vocabulary[middle]! < prefix) low = middle + 1;
    else high = middle;
  }
  const found: string[] = [];
  for (let i = low; i < vocabulary.length && vocabulary[i]!.startsWith(prefix); i++) found.push(vocabulary[i]!);
  return found;
}

/**
 * Positions of the services matching every word of `q` (a word matches a token it equals or
 * prefixes), with a relevance score: field weight per word, halved for a prefix match, plus a
 * bonus when the whole query appears in the name.
 */
export function search(catalogue: Catalogue, q: string): Map<number, number> {
  const index = searchIndex(catalogue);
  const words = [...new Set(tokenize(q))];
  let scores: Map<number, number> | undefined;
  for (const word of words) {
    const wordScores = new Map<number, number>();
    for (const token of tokensWithPrefix(index.vocabulary, word)) {
      const factor = token === word ? 1 : 0.5;
      for (const [position, weight] of index.postings.get(token)!) {
        if (scores && !scores.has(position)) continue;
        wordScores.set(position, Math.max(wordScores.get(position) ?? 0, weight * factor));
      }
    }
    if (scores) for (const [position, score] of wordScores) wordScores.set(position, score + scores.get(position)!);
    scores = wordScores;
    if (scores.size === 0) return scores;
  }
  if (!scores) return new Map();
  const phrase = words.join(" ");
  for (const [position, score] of scores) {
    const name = index.normalisedNames[position]!;
    if (name === phrase) scores.set(position, score + 20);
    else if (name.includes(phrase)) scores.set(position, score + 10);
  }
  return scores;
}

export function listServices(catalogue: Catalogue, query: ServicesQueryT): ServiceListT {
  let positions: number[];
  const q = query.q?.trim();
  const scores = q ? search(catalogue, q) : undefined;
  if (scores) {
    positions = [...scores.keys()].sort((a, b) => scores.get(b)! - scores.get(a)! || a - b);
  } else {
    positions = catalogue.services.map((_, position) => position);
  }
  const matches = positions
    .map((position) => catalogue.services[position]!)
    .filter(
      (service) =>
        (!query.provider || service.providerId === query.provider) &&
        (!query.category || service.category === query.category) &&
        (query.freeTier !== "true" || service.hasFreeTier === true) &&
        (!query.lifecycle || (service.lifecycle?.status ?? "active") === query.lifecycle),
    );
  const start = (query.page - 1) * query.limit;
  return {
    data: matches.slice(start, start + query.limit),
    pagination: {
      page: query.page,
      limit: query.limit,
      total: matches.length,
      totalPages: Math.ceil(matches.length / query.limit),
    },
  };
}

/** Number of pages of the unfiltered listing at a page size (at least one, even if empty). */
export function pageCount(catalogue: Catalogue, limit: number): number {
  return Math.max(1, Math.ceil(catalogue.services.length / limit));
}

export function serviceDetail(catalogue: Catalogue, slug: string): ServiceDetailT | undefined {
  const record = catalogue.bySlug.get(slug);
  if (!record) return undefined;
  return {
    ...record.service,
    subServices: [...record.subServices],
    equivalents: record.equivalentSlugs.map((other) => catalogue.bySlug.get(other)!.service),
    policyIdentifiers: record.policyIdentifiers,
  };
}
