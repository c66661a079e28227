/**
 * How a query is read before it is matched, from data/search-words.yaml: words and phrases in German,
 * French and shorthand become the catalogue's own words, stop words are dropped, place words become
 * a filter, and alternative words ("dynamo alternative", "like heroku") ask for another service.
 *
 * Pure and free of Node APIs: the site bundles it with the search.
 */
import type { SearchWordsFileT } from "../schema/data-files.ts";

/** A place a query names: providers under those jurisdictions, or based in (then with a region in) a country. */
export interface Place {
  readonly jurisdictions?: readonly string[];
  readonly country?: string;
}

/** The compiled form the search ships (JSON): every word already tokenised. */
export interface SearchWords {
  readonly stopWords: readonly string[];
  readonly alternativeWords: readonly string[];
  /** [place words tokenised, place]. */
  readonly places: readonly (readonly [readonly string[], Place])[];
  /** [phrase tokens, what it means as tokens], longest phrases first. */
  readonly phrases: readonly (readonly [readonly string[], readonly string[]])[];
}

export const NO_SEARCH_WORDS: SearchWords = { stopWords: [], alternativeWords: [], places: [], phrases: [] };

/** Case-, accent- and punctuation-insensitive tokens: NFKD, marks stripped, lowercase, split on non-alphanumerics. */
export function tokenize(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export function compileSearchWords(file: SearchWordsFileT | undefined): SearchWords {
  if (!file) return NO_SEARCH_WORDS;
  const phrases = file.words
    .flatMap(({ words, means }) => words.map((phrase) => [tokenize(phrase), tokenize(means)] as const))
    .filter(([phrase]) => phrase.length > 0)
    .sort((a, b) => b[0].length - a[0].length);
  return {
    stopWords: [...new Set(Object.values(file.stopWords).flat().flatMap(tokenize))],
    alternativeWords: [...new Set(file.alternativeWords.flatMap(tokenize))],
    places: file.places.flatMap(({ words, jurisdictions, country }) =>
      words.map(
        (word) =>
          [tokenize(word), { ...(jurisdictions ? { jurisdictions } : {}), ...(country ? { country } : {}) }] as const,
      ),
    ),
    phrases,
  };
}

/** A query as the search reads it. */
export interface ReadQuery {
  /** The words left to match, in the catalogue's vocabulary. */
  readonly words: readonly string[];
  /** The place it names, if any. */
  readonly place?: Place;
  /** Whether it asks for alternatives to what the other words name. */
  readonly alternative: boolean;
}

const startsAt = (tokens: readonly string[], at: number, phrase: readonly string[]) =>
  phrase.every((word, i) => tokens[at + i] === word);

/** SearchWords as read per query: sets, and phrases and places by their first word (in order). */
interface WordLookup {
  readonly stop: ReadonlySet<string>;
  readonly alternative: ReadonlySet<string>;
  readonly phrases: ReadonlyMap<string, SearchWords["phrases"]>;
  readonly places: ReadonlyMap<string, SearchWords["places"]>;
}

const byFirstWord = <T extends readonly [readonly string[], unknown]>(entries: readonly T[]) => {
  const map = new Map<string, T[]>();
  for (const entry of entries) {
    const first = entry[0][0]!;
    map.set(first, [...(map.get(first) ?? []), entry]);
  }
  return map;
};

// Built once per SearchWords (the compiled form is plain JSON, shipped to the site as such).
const lookups = new WeakMap<SearchWords, WordLookup>();
function lookupOf(words: SearchWords): WordLookup {
  let lookup = lookups.get(words);
  if (!lookup) {
    lookup = {
      stop: new Set(words.stopWords),
      alternative: new Set(words.alternativeWords),
      phrases: byFirstWord(words.phrases.filter(([phrase]) => phrase.length > 0)),
      places: byFirstWord(words.places.filter(([phrase]) => phrase.length > 0)),
    };
    lookups.set(words, lookup);
  }
  return lookup;
}

/** Replaces every known phrase (longest first, left to right) with what it means. */
function rewrite(tokens: readonly string[], phrases: WordLookup["phrases"]): string[] {
  const out: string[] = [];
  for (let at = 0; at < tokens.length;) {
    const found = phrases.get(tokens[at]!)?.find(([phrase]) => startsAt(tokens, at, phrase));
    if (found) {
      out.push(...found[1]);
      at += found[0].length;
    } else out.push(tokens[at++]!);
  }
  return out;
}

/** Reads a query's words: phrases rewritten, place and alternative words taken out, stop words dropped. */
export function readQuery(q: string, words: SearchWords): ReadQuery {
  const lookup = lookupOf(words);
  const tokens = tokenize(q);
  let place: Place | undefined;
  const kept: string[] = [];
  // Place words first, as written ("pays bas"), so no rewriting can take them.
  for (let at = 0; at < tokens.length;) {
    const found = lookup.places.get(tokens[at]!)?.find(([phrase]) => startsAt(tokens, at, phrase));
    if (found && tokens.length > found[0].length) {
      place ??= found[1];
      at += found[0].length;
    } else kept.push(tokens[at++]!);
  }
  const rewritten = rewrite(kept, lookup.phrases);
  const asked = rewritten.filter((word) => !lookup.alternative.has(word));
  const alternative = asked.length > 0 && asked.length < rewritten.length;
  const telling = (alternative ? asked : rewritten).filter((word) => !lookup.stop.has(word));
  return {
    words: [...new Set(telling.length > 0 ? telling : alternative ? asked : rewritten)],
    ...(place ? { place } : {}),
    alternative,
  };
}

/** Light English stemming: plurals to singular ("queues" → "queue", "policies" → "policy"). */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !/(ss|us|is|os)$/.test(word) && !/\d/.test(word))
    return word.slice(0, -1);
  return word;
}

/** A query or index word as the search compares it. */
export function normaliseTerm(word: string): string {
  return stem(word);
}

export const norm = (text: string) => tokenize(text).map(normaliseTerm);
