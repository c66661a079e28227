/**
 * The full-text engine under the one search (search.ts): what it indexes of each service, with
 * which field weights, prefix and close-spelling rules, and the one engine the search runs on,
 * MiniSearch. The search asks the engine only through `SearchIndex` (MiniSearch's `search`), so
 * another engine can be measured under the very same reading, ranking and post-processing
 * (docs/search.md, "Engines measured": why MiniSearch).
 *
 * This module must stay free of Node APIs: the site bundles it.
 */
import MiniSearch from "minisearch";
import { drained } from "../base/steps.ts";
import { GENERIC_WORDS, type SearchData } from "./data.ts";
import { normaliseTerm, tokenize } from "./words.ts";

/** What the index holds of one service. */
export interface IndexedDoc {
  readonly id: number;
  readonly names: string;
  readonly tags: string;
  readonly kinds: string;
  readonly subs: string;
  readonly description: string;
}

/** What the search asks of an engine: MiniSearch's `search` (queries, options and results). */
export type SearchIndex = Pick<MiniSearch<IndexedDoc>, "search">;

/** Builds an engine's index over the services' indexed text. */
export type SearchEngine = (docs: readonly IndexedDoc[]) => SearchIndex;

/** The indexed fields. */
export const SEARCH_FIELDS = ["names", "tags", "subs", "kinds", "description"] as const;

/** Field weights: names first, then tags and sub-services, kinds (group and category names), description. */
export const BOOST = { names: 8, tags: 3, subs: 1, kinds: 2, description: 0.5 } as const;

/** How much a generic word counts in the match, against 1 for any other word. */
export const GENERIC_WEIGHT = 0.3;

/** A term's weight: generic words weigh less. */
export const termWeight = (term: string) => (GENERIC_WORDS.has(term) ? GENERIC_WEIGHT : 1);

/** Terms matched by prefix from three letters. */
export const prefixFor = (term: string) => term.length >= 3;

/** The edit distance a term may be matched at: 1 from five letters, 2 from eight, none below. */
export const fuzzyFor = (term: string) => (term.length >= 8 ? 2 : term.length >= 5 ? 1 : false);

/** What a prefix or a close spelling counts, against 1 for the term as written. */
export const MATCH_WEIGHTS = { fuzzy: 0.3, prefix: 0.5 } as const;

/** Name text plus its adjacent words joined ("Amazon Route 53" also gives "route53", "amazonroute"). */
export function withJoined(name: string): string {
  const tokens = tokenize(name);
  const joined = tokens.slice(1).map((token, i) => `${tokens[i]}${token}`);
  return [...tokens, ...joined].join(" ");
}

/** Each service's indexed text, its position in `data.docs` as id. */
export function indexedDocs(data: SearchData): IndexedDoc[] {
  const categoryName = new Map(data.categories.map((c) => [c.id, c.name]));
  return data.docs.map((doc, id) => ({
    id,
    names: doc.names.map(withJoined).join(" "),
    tags: doc.tags.map(withJoined).join(" "),
    subs: doc.subServices.map(([name, kind]) => `${withJoined(name)} ${kind}`).join(" "),
    kinds: [...doc.groups.map((g) => data.groups[g]!.name), categoryName.get(doc.category) ?? ""].join(" "),
    description: doc.description,
  }));
}

/** The engine the search runs on: MiniSearch's BM25 over the fields, with boosts, prefix and close spellings. */
export const miniSearchIndex: SearchEngine = (docs) => drained(miniSearchIndexSteps(docs));

/** Documents indexed between two steps of miniSearchIndexSteps: a few milliseconds of work. */
const DOCS_PER_STEP = 50;

/** miniSearchIndex a few documents at a time (the same index: MiniSearch's addAll adds them one by one). */
export function* miniSearchIndexSteps(docs: readonly IndexedDoc[]): Generator<void, SearchIndex, void> {
  const mini = new MiniSearch<IndexedDoc>({
    fields: [...SEARCH_FIELDS],
    tokenize,
    processTerm: (term) => normaliseTerm(term),
    searchOptions: {
      boost: BOOST,
      boostTerm: termWeight,
      prefix: prefixFor,
      fuzzy: fuzzyFor,
      weights: MATCH_WEIGHTS,
    },
  });
  for (let at = 0; at < docs.length; at += DOCS_PER_STEP) {
    mini.addAll(docs.slice(at, at + DOCS_PER_STEP));
    yield;
  }
  return mini;
}
