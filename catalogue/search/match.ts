/**
 * How the one search (search.ts) matches a query's words over its index (search-engine.ts): every word
 * (AND), else some of them (OR with a coverage bonus); how it reads a vendor's abbreviation the
 * catalogue does not spell out ("secops": Google Security Operations), from the services' names;
 * and what a query that found nothing is told (the words that matched nothing, the nearest jobs).
 *
 * This module must stay free of Node APIs: the site bundles it.
 */
import type { Query, SearchResult } from "minisearch";
import { GENERIC_WORDS, type SearchData } from "./data.ts";
import { fuzzyFor, type SearchIndex } from "./engine.ts";
import { normaliseTerm, tokenize } from "./words.ts";

/** Services matching every word that make an answer: with fewer, those matching some words follow. */
export const ENOUGH = 5;

/** Words a query may have that a service's text need not ("cloud redis", "dns service"); "database" is not one. */
const OPTIONAL_WORDS = new Set("managed service services cloud".split(" "));

/** Services matching every word, or every word with two adjacent ones joined, or the telling ones; `asWritten`: by prefix, no close spelling. */
export function matchEvery(mini: SearchIndex, rest: readonly string[], asWritten = false): SearchResult[] {
  // Every word, or every word with two adjacent ones joined ("dynamo db" → "dynamodb").
  const variants: Query[] = [{ combineWith: "AND", queries: [...rest] }];
  // (Short queries only: a name split by a space is a name of two or three words.) A joined pair
  // is not read by a close spelling: "objectstorage", 13 letters and two edits, walked most of the
  // index (half of an uncached search's time) for names the words as asked find anyway.
  for (let i = 0; i + 1 < rest.length && rest.length <= 4; i++) {
    const pair = normaliseTerm(`${rest[i]}${rest[i + 1]}`);
    variants.push({
      combineWith: "AND",
      queries: [...rest.slice(0, i), pair, ...rest.slice(i + 2)],
      fuzzy: (term) => term !== pair && fuzzyFor(term),
    });
  }
  // Optional words: "dns service" finds Route 53, whose text never says "service"; "cloud redis" ElastiCache.
  // (Short queries only: a long one says enough without them.)
  const telling = rest.filter((word) => !OPTIONAL_WORDS.has(normaliseTerm(word)));
  if (telling.length > 0 && telling.length < rest.length && rest.length <= 3)
    variants.push({ combineWith: "AND", queries: telling });
  const all: Query = { combineWith: "OR", queries: variants };
  return mini.search(all, asWritten ? { fuzzy: false } : {});
}

/**
 * Services matching some of the words, scored by how many: BM25 (MiniSearch's OR) times the
 * share of the words matched, squared. A service must have one of the words as written in its
 * names, tags, kinds or sub-services: a word only in descriptions ("this"), or only near one
 * ("matches" for "matching"), is no sign of what was meant.
 */
export function matchSome(mini: SearchIndex, rest: readonly string[]): SearchResult[] {
  const asked = new Set(rest.map(normaliseTerm));
  const strong = new Set(
    mini
      .search(rest.join(" "), {
        combineWith: "OR",
        fields: ["names", "tags", "kinds", "subs"],
        fuzzy: false,
        prefix: false,
      })
      .filter((result) => result.terms.some((term) => asked.has(term)))
      .map((result) => result.id as number),
  );
  if (strong.size === 0) return [];
  return (
    mini
      // Typos were respelt before: a fuzzy pass over every word of a sentence costs more than it finds.
      .search(rest.join(" "), { combineWith: "OR", fuzzy: false })
      .filter((result) => strong.has(result.id as number))
      .map((result) => ({ ...result, score: result.score * (result.queryTerms.length / rest.length) ** 2 }))
      .sort((a, b) => b.score - a.score)
  );
}

/** The words of a query that no service's text has, even by prefix or a close spelling. */
export function unmatchedWords(mini: SearchIndex, words: readonly string[]): string[] {
  return words.filter((word) => mini.search(word).length === 0);
}

/** A job (equivalence group) near a query, by the services whose text has some of its words. */
export interface NearJob {
  readonly id: string;
  readonly name: string;
}

/** How many jobs a query that found nothing is shown. */
const NEAREST_JOBS = 3;

/**
 * The jobs nearest a query no service answered: those of the services whose text (descriptions
 * too) has any of its words, weighted by how well each matched.
 */
export function nearestJobs(mini: SearchIndex, data: SearchData, words: readonly string[]): NearJob[] {
  if (words.length === 0) return [];
  const weight = new Map<number, number>();
  for (const result of mini.search(words.join(" "), { combineWith: "OR" }).slice(0, 30))
    for (const g of data.docs[result.id as number]!.groups) weight.set(g, (weight.get(g) ?? 0) + result.score);
  return [...weight]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, NEAREST_JOBS)
    .map(([g]) => ({ id: data.groups[g]!.id, name: data.groups[g]!.name }));
}

/**
 * Vendors' abbreviations read from the services' names: a word made of the initials of two or more
 * consecutive words of a name ("gke"), or of their starts, two letters or more each, the last
 * perhaps plural ("secops": Security Operations). Read only for a word the catalogue and the
 * languages do not know, so no word is taken from its own meaning.
 */
export class Abbreviations {
  /** Each name of two or more words (tokenised, once) by the first letter of each of its words, with that word's position. */
  private readonly starts = new Map<string, (readonly [readonly string[], number])[]>();

  constructor(data: SearchData) {
    const seen = new Set<string>();
    for (const doc of data.docs)
      for (const name of doc.names) {
        const tokens = tokenize(name);
        const key = tokens.join(" ");
        if (tokens.length < 2 || seen.has(key)) continue;
        seen.add(key);
        for (let start = 0; start + 1 < tokens.length; start++) {
          const letter = tokens[start]![0]!;
          this.starts.set(letter, [...(this.starts.get(letter) ?? []), [tokens, start] as const]);
        }
      }
  }

  /** The words a word abbreviates, the expansion most names share; undefined when none. */
  expand(word: string): string[] | undefined {
    if (word.length < 3 || /\d/.test(word)) return undefined;
    const counts = new Map<string, number>();
    for (const [tokens, start] of this.starts.get(word[0]!) ?? []) {
      const end = abbreviationEnd(word, tokens, start);
      if (end === undefined) continue;
      const words = tokens.slice(start, end);
      if (words.every((token) => GENERIC_WORDS.has(token))) continue;
      const key = words.join(" ");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    let best: [string, number] | undefined;
    for (const entry of counts) if (!best || entry[1] > best[1]) best = entry;
    return best?.[0].split(" ");
  }
}

/** Where a run of name words that the word abbreviates ends (exclusive), from `start`; two words at least. */
function abbreviationEnd(word: string, tokens: readonly string[], start: number): number | undefined {
  // Initials: one letter a word ("gke", "aks").
  if (word.length <= tokens.length - start && [...word].every((letter, i) => tokens[start + i]![0] === letter))
    return start + word.length;
  if (word.length < 5) return undefined;
  // Starts of two letters or more ("sec" + "op" + a plural "s").
  const fit = (at: number, i: number): number | undefined => {
    if (at === word.length) return i - start >= 2 ? i : undefined;
    if (at === word.length - 1 && word[at] === "s" && i - start >= 2 && tokens[i - 1]!.endsWith("s")) return i;
    const token = tokens[i];
    if (token === undefined) return undefined;
    for (let size = Math.min(token.length, word.length - at); size >= 2; size--)
      if (token.startsWith(word.slice(at, at + size))) {
        const end = fit(at + size, i + 1);
        if (end !== undefined) return end;
      }
    return undefined;
  };
  return fit(0, start);
}

/** The sub-service of a result that its matched words found, if it was found through one. */
function matchedSubService(
  data: SearchData,
  subWords: readonly (readonly string[])[][],
  result: SearchResult,
): string | undefined {
  const terms = Object.entries(result.match)
    // A word its name has too ("s3" of "S3 Standard") says nothing of which sub-service was meant.
    .filter(([, fields]) => fields.includes("subs") && !fields.includes("names"))
    .map(([term]) => term);
  if (terms.length === 0) return undefined;
  const i = result.id as number;
  let best: { at: number; hits: number } | undefined;
  subWords[i]!.forEach((words, at) => {
    const hits = terms.filter((term) => words.some((word) => word.startsWith(term) || term.startsWith(word))).length;
    if (hits > 0 && (!best || hits > best.hits)) best = { at, hits };
  });
  return best ? data.docs[i]!.subServices[best.at]![0] : undefined;
}

/** Slug → matched sub-service, for the results found through a sub-service (per doc, its sub-services' words). */
export function subServicesOf(
  data: SearchData,
  subWords: readonly (readonly string[])[][],
  results: readonly SearchResult[],
): Record<string, string> {
  const found: Record<string, string> = {};
  for (const result of results) {
    const name = matchedSubService(data, subWords, result);
    if (name) found[data.docs[result.id as number]!.id] = name;
  }
  return found;
}

/** The words of a query that name providers. */
export function providersWords(q: string, providerWords: ReadonlyMap<string, string>): string[] {
  return tokenize(q).filter((word) => providerWords.has(word));
}

/** What a search answers: its services and how it read the query. */
export interface SearchOutcome {
  /** Matching slugs, best first. */
  readonly slugs: readonly string[];
  /** True when no service matched every word and these are the closest matches. */
  readonly closest: boolean;
  /** A corrected query when a word was not found as typed but a close one was. */
  readonly suggestion?: string;
  /** Providers the query named (their matches come first). */
  readonly providers: readonly string[];
  /** Whether the query named a kind of service (results diversified across providers). */
  readonly kind: boolean;
  /** For results found through a sub-service, slug → the sub-service's name that matched. */
  readonly subServices: Readonly<Record<string, string>>;
  /** When nothing was found: the query's words that no service's text has, as the search read them. */
  readonly unmatched?: readonly string[];
  /** When nothing was found: the jobs (equivalence groups) nearest the query's words. */
  readonly nearestJobs?: readonly NearJob[];
  /** A product the catalogue does not list that the query named, read as its kinds. */
  readonly otherProduct?: OtherProductNamed;
}

/** What a search tells of the other product a query named: its name, kinds and why. */
export interface OtherProductNamed {
  readonly name: string;
  readonly kinds: readonly { readonly id: string; readonly name: string }[];
  readonly why: string;
}

/**
 * How much of one core name the telling words of a query cover, and whether the query is that
 * name exactly (every name word covered, every query word a name word).
 */
export function nameMatch(name: readonly string[], telling: readonly string[]): { covered: number; exact: boolean } {
  const covered = name.filter((token) => telling.some((word) => token.startsWith(word))).length / name.length;
  return { covered, exact: covered === 1 && telling.length > 0 && telling.every((word) => name.includes(word)) };
}
