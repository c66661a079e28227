/**
 * Reads over a Catalogue: the services listing (filters, search, pages) and service detail. Pure
 * functions; the build and the sidecar call the same ones.
 */
import type { Catalogue } from "./load.ts";
import type { ServiceDetailT, ServiceListT, ServicesQueryT } from "./schema/index.ts";

/** Case-, accent- and punctuation-insensitive tokens: NFKD, marks stripped, lowercase, split on non-alphanumerics. */
export function tokenize(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

const FIELD_WEIGHTS = { name: 8, shortName: 8, aliases: 8, tags: 4, kind: 4, description: 1 } as const;

/**
 * Words that say whose or what kind a service is rather than which one: left out when judging how
 * much of a name a query covers, so "kubernetes" covers "Azure Kubernetes Service" and "Google
 * Kubernetes Engine" whole, and "s3" covers "Amazon S3" but only half of "Amazon S3 Tables".
 */
const GENERIC_WORDS = new Set(
  "cloud service services engine managed for the on of and with by database simple elastic".split(" "),
);

export interface SearchIndex {
  /** Sorted distinct tokens, for prefix look-up by binary search. */
  readonly vocabulary: readonly string[];
  /** token → (service position → best field weight). */
  readonly postings: ReadonlyMap<string, ReadonlyMap<number, number>>;
  /**
   * Per service, its names as token lists, generic and brand words left out: name, short name,
   * aliases, and the names of its equivalence groups ("Object storage"), so a query naming a kind
   * finds its members as names, the most prominent first.
   */
  readonly coreNames: readonly (readonly (readonly string[])[])[];
  /** Per service, its provider's brand words ("amazon", "aws"): they say whose, not which. */
  readonly brands: readonly ReadonlySet<string>[];
  /** Per service, how prominent it is among equally good matches (higher first). */
  readonly prominence: readonly number[];
}

const indexes = new WeakMap<Catalogue, SearchIndex>();

/** The in-memory search index of a catalogue, built once per catalogue. */
export function searchIndex(catalogue: Catalogue): SearchIndex {
  const cached = indexes.get(catalogue);
  if (cached) return cached;
  const postings = new Map<string, Map<number, number>>();
  const providerSize = new Map<string, number>();
  for (const service of catalogue.services)
    providerSize.set(service.providerId, (providerSize.get(service.providerId) ?? 0) + 1);
  const groupNames = new Map(catalogue.groups.map((group) => [group.id, group.name]));
  const kindsOf = (slug: string) => catalogue.bySlug.get(slug)!.groupIds.map((id) => groupNames.get(id)!);
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
    for (const alias of service.aliases ?? []) add(alias, FIELD_WEIGHTS.aliases);
    for (const tag of service.tags ?? []) add(tag, FIELD_WEIGHTS.tags);
    for (const kind of kindsOf(service.slug)) add(kind, FIELD_WEIGHTS.kind);
    add(service.description, FIELD_WEIGHTS.description);
  });
  // A provider's brand: the first word of its name and its short name ("Amazon", "AWS").
  const brandOf = new Map(
    catalogue.providers.map(({ id, name, shortName }) => [
      id,
      new Set([...tokenize(name).slice(0, 1), ...tokenize(shortName)]) as ReadonlySet<string>,
    ]),
  );
  const brands = catalogue.services.map((service) => brandOf.get(service.providerId)!);
  const index: SearchIndex = {
    vocabulary: [...postings.keys()].sort(),
    postings,
    brands,
    coreNames: catalogue.services.map((service, position) => {
      const brand = brands[position]!;
      return [service.name, service.shortName, ...(service.aliases ?? []), ...kindsOf(service.slug)]
        .filter((name): name is string => Boolean(name))
        .map((name) => tokenize(name).filter((token) => !GENERIC_WORDS.has(token) && !brand.has(token)))
        .filter((tokens) => tokens.length > 0);
    }),
    // Among equally good matches: the providers with the broadest portfolio here first (what most
    // users compare against), then the services that more providers offer an equivalent of.
    prominence: catalogue.services.map(
      (service) =>
        providerSize.get(service.providerId)! * 1000 + catalogue.bySlug.get(service.slug)!.equivalentSlugs.length,
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
 * Score for a query that is exactly one of a service's names: above any other score, so exact
 * matches come first (and among them the most prominent); and per share of a name a query covers.
 */
export const EXACT_NAME_BONUS = 1_000_000;
const NAME_COVERAGE_BONUS = 30;

/** The same word, or its plural ("load balancer" names "Load balancers"). */
const sameWord = (word: string, token: string) => token === word || token === `${word}s` || word === `${token}s`;

/**
 * How much of one core name (see SearchIndex.coreNames) the telling words of a query cover, and
 * whether the query is that name exactly. Shared with the site's search, which applies the same
 * exact-name rule to Pagefind's results (site/src/scripts/search.ts).
 */
export function nameMatch(name: readonly string[], telling: readonly string[]): { covered: number; exact: boolean } {
  const covered = name.filter((token) => telling.some((word) => token.startsWith(word))).length / name.length;
  return { covered, exact: covered === 1 && telling.every((word) => name.some((token) => sameWord(word, token))) };
}

/** The words of a query that say which service is meant: generic words and the given brand's left out. */
export function tellingWords(q: string, brand: ReadonlySet<string>): string[] {
  return [...new Set(tokenize(q))].filter((word) => !GENERIC_WORDS.has(word) && !brand.has(word));
}

/**
 * Positions of the services matching every word of `q` (a word matches a token it equals or
 * prefixes), with a relevance score: field weight per word (halved for a prefix match); a large
 * bonus when the query is one of the service's names (name, short name or alias, brand and
 * generic words aside: "aks", "s3", "kubernetes engine"); and a bonus for the share of the
 * service's best-covered name the query covers, so a flagship outranks its add-ons.
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
  // A generic query word ("cloud"), or the service's own brand ("amazon"), says nothing about which name is meant.
  const generic = words.filter((word) => !GENERIC_WORDS.has(word));
  for (const [position, score] of scores) {
    const telling = generic.filter((word) => !index.brands[position]!.has(word));
    let bonus = 0;
    for (const name of index.coreNames[position]!) {
      const { covered, exact } = nameMatch(name, telling);
      bonus = Math.max(bonus, (exact ? EXACT_NAME_BONUS : 0) + covered * NAME_COVERAGE_BONUS);
    }
    scores.set(position, score + bonus);
  }
  return scores;
}

export function listServices(catalogue: Catalogue, query: ServicesQueryT): ServiceListT {
  let positions: number[];
  const q = query.q?.trim();
  const scores = q ? search(catalogue, q) : undefined;
  if (scores) {
    const { prominence } = searchIndex(catalogue);
    const exact = (position: number) => (scores.get(position)! >= EXACT_NAME_BONUS ? 1 : 0);
    // Exact name matches first, the most prominent first (every provider's "Object Storage" is as
    // exact as the next); then by relevance, prominence breaking ties.
    positions = [...scores.keys()].sort(
      (a, b) =>
        exact(b) - exact(a) ||
        (exact(a) ? prominence[b]! - prominence[a]! : 0) ||
        scores.get(b)! - scores.get(a)! ||
        prominence[b]! - prominence[a]! ||
        a - b,
    );
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
    ...(record.sources.length > 0 ? { sources: [...record.sources] } : {}),
    ...(record.dependencies.length > 0 ? { dependencies: [...record.dependencies] } : {}),
  };
}
