/**
 * How a query is read before it is matched, from data/search-words.yaml: words and phrases in German,
 * French, Italian, Spanish, Dutch and shorthand become the catalogue's own words, stop words are
 * dropped, place words become a filter, and alternative words ("dynamo alternative", "like heroku")
 * ask for another service. A query word matches a phrase's word as written or by its Snowball stem
 * in any of the six languages ("übersetzt" and "übersetzen" both "ubersetz"), so the data lists one
 * form of each word.
 *
 * Pure and free of Node APIs: the site bundles it with the search.
 */
import { stemmer as dutch } from "@orama/stemmers/dutch";
import { stemmer as english } from "@orama/stemmers/english";
import { stemmer as french } from "@orama/stemmers/french";
import { stemmer as german } from "@orama/stemmers/german";
import { stemmer as italian } from "@orama/stemmers/italian";
import { stemmer as spanish } from "@orama/stemmers/spanish";
import type { SearchWordsFileT } from "../schema/data-files.ts";

/** The languages a query is read in, by their Snowball stemmers. */
const STEMMERS = [english, german, french, italian, spanish, dutch] as const;

/** Shorter words are compared as written: a stem of three letters says too little ("cd", "ssl"). */
const STEMMED_FROM = 4;

/** How much of the longer word a shared stem must keep to make two words one. */
export const STEM_SHARE = 0.55;
/** The language prefix of a stem's key ("2:"). */
export const STEM_KEY = 2;

const stemCache = new Map<string, readonly string[]>();
/** A word's stems, one per language, each its own key ("2:traduir": the French stem). */
export function stemsOf(word: string): readonly string[] {
  let stems = stemCache.get(word);
  if (!stems) {
    stems = word.length < STEMMED_FROM ? [] : STEMMERS.map((stem, i) => `${i}:${stem(word)}`);
    // Bounded: a long-running server reads many distinct words.
    if (stemCache.size > 50_000) stemCache.clear();
    stemCache.set(word, stems);
  }
  return stems;
}

/**
 * Whether a query word is a phrase's word: as written, or the same stem in one language, a stem that
 * keeps most of both words (Spanish reads "serverles" and "server" both as "serv": no match).
 */
function sameWord(word: string, phraseWord: string): boolean {
  if (word === phraseWord) return true;
  const least = STEM_SHARE * Math.max(word.length, phraseWord.length) + STEM_KEY;
  const theirs = stemsOf(phraseWord);
  return stemsOf(word).some((stem, i) => stem === theirs[i] && stem.length >= least);
}

/** A place a query names: providers under those jurisdictions, or based in (then with a region in) a country. */
export interface Place {
  readonly jurisdictions?: readonly string[];
  readonly country?: string;
  /** A region id: the services running there (SearchDoc.placeRegions). */
  readonly region?: string;
}

/** The compiled form the search ships (JSON): every word already tokenised. */
export interface SearchWords {
  readonly stopWords: readonly string[];
  readonly alternativeWords: readonly string[];
  /** [place words tokenised, place]. */
  readonly places: readonly (readonly [readonly string[], Place])[];
  /** [phrase tokens, what it means as tokens], longest phrases first. */
  readonly phrases: readonly (readonly [readonly string[], readonly string[]])[];
  /** Equivalence group ids that are a job done on what other services hold (backup, migration): absent in older indexes. */
  readonly jobs?: readonly string[];
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

/**
 * "Alternative to", "instead of", "replacement for" in the six languages the search reads, beside
 * the data's alternativeWords: Spanish and Italian were missing there, so "alternativa a AWS
 * Lambda" answered AWS Lambda itself (issue 101). A word here only ever marks a question as
 * asking for alternatives; words that also mean something else ("como", "plaats") are left out.
 */
export const ALTERNATIVE_WORDS: Readonly<Record<"en" | "de" | "fr" | "nl" | "es" | "it", readonly string[]>> = {
  en: ["alternative", "alternatives", "instead", "replacement", "equivalent", "equivalents"],
  de: ["alternative", "alternativen", "statt", "anstelle", "anstatt", "ersatz"],
  fr: ["alternative", "alternatives", "remplacement", "remplacer", "equivalent", "equivalents"],
  nl: ["alternatief", "alternatieven", "vervanger", "vervanging", "equivalent"],
  es: ["alternativa", "alternativas", "reemplazo", "reemplazar", "sustituto", "sustituir", "equivalente"],
  it: ["alternativa", "alternative", "sostituto", "sostituire", "invece", "anziche", "equivalente"],
};

/**
 * Words that mean "like" but also "how" or "as" ("wie", "come", "como", "zoals"): they ask for an
 * alternative only before a provider's or another product's name ("Warteschlange wie Amazon SQS",
 * "come su Heroku"), stop words between them allowed.
 */
export const LIKE_WORDS: readonly string[] = ["wie", "come", "como", "zoals", "comme", "like"];

/**
 * Small words that join an alternative word to what it names and mean nothing else there: Italian
 * "ad" ("alternativa ad Amazon S3", "a" before a vowel), which elsewhere is Active Directory's
 * shorthand ("azure ad"), so it is no stop word.
 */
export const ALTERNATIVE_LINKS: readonly string[] = ["ad"];

export function compileSearchWords(file: SearchWordsFileT | undefined): SearchWords {
  if (!file) return NO_SEARCH_WORDS;
  const phrases = file.words
    .flatMap(({ words, means }) => words.map((phrase) => [tokenize(phrase), tokenize(means)] as const))
    .filter(([phrase]) => phrase.length > 0)
    .sort((a, b) => b[0].length - a[0].length);
  return {
    stopWords: [...new Set(Object.values(file.stopWords).flat().flatMap(tokenize))],
    alternativeWords: [
      ...new Set([...file.alternativeWords, ...Object.values(ALTERNATIVE_WORDS).flat()].flatMap(tokenize)),
    ],
    // Longest first, so "european sovereign cloud" is read before "european" (same first word).
    places: file.places
      .flatMap(({ words, jurisdictions, country, region }) =>
        words.map(
          (word) =>
            [
              tokenize(word),
              {
                ...(jurisdictions ? { jurisdictions } : {}),
                ...(country ? { country } : {}),
                ...(region ? { region } : {}),
              },
            ] as const,
        ),
      )
      .sort((a, b) => b[0].length - a[0].length),
    phrases,
    ...(file.jobs ? { jobs: [...file.jobs] } : {}),
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

/** Whether a word is one of the catalogue's own (a name's or tag's): such a word is never read by its stem. */
export type CatalogueWord = (word: string) => boolean;

/** Whether a word starts a provider's or another product's name ("amazon", "heroku", "vercel"). */
export type MakerWord = (word: string) => boolean;

const startsAt = (tokens: readonly string[], at: number, phrase: readonly string[], ours: CatalogueWord) =>
  phrase.every((word, i) => {
    const token = tokens[at + i];
    return token !== undefined && (token === word || (!ours(token) && sameWord(token, word)));
  });

/** SearchWords as read per query: sets, and phrases and places by their first word (in order). */
interface WordLookup {
  readonly stop: ReadonlySet<string>;
  readonly alternative: ReadonlySet<string>;
  /** Phrases by their first word, as written and by each of its stems. */
  readonly phrases: ReadonlyMap<string, SearchWords["phrases"]>;
  readonly places: ReadonlyMap<string, SearchWords["places"]>;
}

const byFirstWord = <T extends readonly [readonly string[], unknown]>(entries: readonly T[], stemmed = false) => {
  const map = new Map<string, T[]>();
  for (const entry of entries) {
    const first = entry[0][0]!;
    for (const key of new Set([first, ...(stemmed ? stemsOf(first) : [])]))
      map.set(key, [...(map.get(key) ?? []), entry]);
  }
  return map;
};

/** The phrases a word may start, longest first: by the word as written, and by its stems unless it is the catalogue's. */
function startingWith<T extends readonly [readonly string[], unknown]>(
  map: ReadonlyMap<string, readonly T[]>,
  word: string,
  ours: CatalogueWord,
): readonly T[] {
  const exact = map.get(word) ?? [];
  if (ours(word)) return exact;
  const stemmed = stemsOf(word).flatMap((stem) => map.get(stem) ?? []);
  return stemmed.length === 0 ? exact : [...new Set([...exact, ...stemmed])].sort((a, b) => b[0].length - a[0].length);
}

// Built once per SearchWords (the compiled form is plain JSON, shipped to the site as such).
const lookups = new WeakMap<SearchWords, WordLookup>();
function lookupOf(words: SearchWords): WordLookup {
  let lookup = lookups.get(words);
  if (!lookup) {
    lookup = {
      stop: new Set(words.stopWords),
      alternative: new Set(words.alternativeWords),
      phrases: byFirstWord(
        words.phrases.filter(([phrase]) => phrase.length > 0),
        true,
      ),
      places: byFirstWord(words.places.filter(([phrase]) => phrase.length > 0)),
    };
    lookups.set(words, lookup);
  }
  return lookup;
}

/** Every word of the search's own data as written (stop, alternative, place and phrase words). */
export function dataWords(words: SearchWords): string[] {
  return [
    ...words.stopWords,
    ...words.alternativeWords,
    ...words.places.flatMap(([phrase]) => phrase),
    ...words.phrases.flatMap(([phrase]) => phrase),
  ];
}

/** A query word, and whether a phrase already gave it (then no second reading takes it). */
interface Read {
  readonly word: string;
  readonly given: boolean;
}

/** Replaces every known phrase (longest first, left to right) with what it means; given words stay. */
function rewrite(tokens: readonly Read[], phrases: WordLookup["phrases"], ours: CatalogueWord): Read[] {
  const out: Read[] = [];
  for (let at = 0; at < tokens.length;) {
    // A phrase spans words no phrase gave.
    let free = at;
    while (free < tokens.length && !tokens[free]!.given) free++;
    const words = tokens.slice(at, free).map(({ word }) => word);
    const found =
      words.length > 0 && startingWith(phrases, words[0]!, ours).find(([phrase]) => startsAt(words, 0, phrase, ours));
    if (found) {
      out.push(...found[1].map((word) => ({ word, given: true })));
      at += found[0].length;
    } else out.push(tokens[at++]!);
  }
  return out;
}

/**
 * Reads a query's words: phrases rewritten, place and alternative words taken out, stop words
 * dropped, then phrases read again without the stop words ("decouple my microservices").
 */
export function readQuery(
  q: string,
  words: SearchWords,
  ours: CatalogueWord = () => false,
  maker: MakerWord = () => false,
): ReadQuery {
  const lookup = lookupOf(words);
  const tokens = tokenize(q);
  const likeAlternative = likesMaker(tokens, lookup, maker);
  let place: Place | undefined;
  const kept: Read[] = [];
  // Place words first, as written ("pays bas"), so no rewriting can take them.
  for (let at = 0; at < tokens.length;) {
    const found = lookup.places.get(tokens[at]!)?.find(([phrase]) => startsAt(tokens, at, phrase, () => true));
    if (found && tokens.length > found[0].length) {
      place ??= found[1];
      at += found[0].length;
    } else kept.push({ word: tokens[at++]!, given: false });
  }
  const rewritten = rewrite(kept, lookup.phrases, ours);
  const asked = rewritten.filter(
    ({ word }, i) =>
      !lookup.alternative.has(word) &&
      !(ALTERNATIVE_LINKS.includes(word) && i > 0 && lookup.alternative.has(rewritten[i - 1]!.word)),
  );
  const alternative = asked.length > 0 && (asked.length < rewritten.length || likeAlternative);
  const telling = (alternative ? asked : rewritten).filter(({ word }) => !lookup.stop.has(word));
  const chosen = telling.length > 0 ? rewrite(telling, lookup.phrases, ours) : alternative ? asked : rewritten;
  return {
    words: [...new Set(chosen.map(({ word }) => word))],
    ...(place ? { place } : {}),
    alternative,
  };
}

/** Whether a "like" word comes before a provider's or product's name, only stop words between. */
function likesMaker(tokens: readonly string[], lookup: WordLookup, maker: MakerWord): boolean {
  for (const [at, token] of tokens.entries()) {
    if (!LIKE_WORDS.includes(token)) continue;
    let next = at + 1;
    while (next < tokens.length && lookup.stop.has(tokens[next]!) && !maker(tokens[next]!)) next++;
    if (next < tokens.length && maker(tokens[next]!)) return true;
  }
  return false;
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
