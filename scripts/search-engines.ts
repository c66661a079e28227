/**
 * The candidate engines under the one search, measured alike on the held-out questions
 * (tests/fixtures/search-questions.ts): MiniSearch (what the search runs on), Orama and FlexSearch,
 * each over the same fields, field weights, tokens and stems (search-engine.ts), under the very same
 * reading of the query (stop words, six languages, intent), respelling, provider words, flagship
 * prior and ranking (search.ts). Per engine and per kind of question: top 3, top 10, no results;
 * then the index's build time and heap, the mean time of one search, and the engine's own minified
 * gzip weight (what it would add to the site's search bundle in MiniSearch's place).
 *
 *   node --expose-gc scripts/search-engines.ts [--aside] [--misses] [--engines=Orama,…]
 *
 * The search asks an engine one thing, MiniSearch's `search` (a query of terms joined by AND or
 * OR; per term: as written, by prefix, by a close spelling; per field a weight). Orama and
 * FlexSearch are asked per term and field and the adapter below combines their answers as
 * MiniSearch does (sum of weighted scores; as written 1, prefix 0.5, close spelling 0.3).
 * Orama scores each term by its own BM25; FlexSearch gives no score, only an order, so a hit's score
 * is its place in that order (1 for the first, falling linearly), and it has no close spelling
 * (edit distance), only phonetic encoders, which would read other languages' words wrongly.
 */
import { create, insertMultiple, search as oramaSearch, type AnyOrama } from "@orama/orama";
import { build } from "esbuild";
import { Index } from "flexsearch";
import type { Query, SearchOptions, SearchResult } from "minisearch";
import { gzipSync } from "node:zlib";
import { loadCatalogue } from "../catalogue/load/load.ts";
import { searchData } from "../catalogue/search/search-data.ts";
import {
  BOOST,
  MATCH_WEIGHTS,
  SEARCH_FIELDS,
  fuzzyFor,
  indexedDocs,
  miniSearchIndex,
  prefixFor,
  termWeight,
  type SearchEngine,
  type SearchIndex,
} from "../catalogue/search/search-engine.ts";
import { normaliseTerm, tokenize } from "../catalogue/search/search-words.ts";
import { ServiceSearch } from "../catalogue/search/search.ts";
import { ASIDE_QUESTIONS, QUESTION_KINDS, SEARCH_QUESTIONS } from "../tests/fixtures/search-questions.ts";

type Field = (typeof SEARCH_FIELDS)[number];
type Mode = "exact" | "prefix" | "fuzzy";
/** An engine's hits for one term in one field: doc id → its score. */
type Lookup = (term: string, field: Field, mode: Mode, distance: number) => Map<number, number>;

const terms = (text: string) => tokenize(text).map(normaliseTerm).filter(Boolean);

/** One term's hits over the fields, as MiniSearch weighs them: field boost, term weight, as written > prefix > close. */
function termHits(lookup: Lookup, term: string, options: SearchOptions): SearchResult[] {
  const fields = (options.fields ?? SEARCH_FIELDS) as readonly Field[];
  const prefix = typeof options.prefix === "function" ? options.prefix(term, 0, [term]) : options.prefix;
  const fuzzyOption = typeof options.fuzzy === "function" ? options.fuzzy(term, 0, [term]) : options.fuzzy;
  const distance = typeof fuzzyOption === "number" ? fuzzyOption : fuzzyOption ? 1 : 0;
  const byDoc = new Map<number, { score: number; fields: Set<Field> }>();
  for (const field of fields) {
    const seen = new Set<number>();
    const add = (hits: Map<number, number>, weight: number) => {
      for (const [id, score] of hits) {
        if (seen.has(id)) continue;
        seen.add(id);
        const entry = byDoc.get(id) ?? { score: 0, fields: new Set<Field>() };
        entry.score += score * weight * BOOST[field] * termWeight(term);
        entry.fields.add(field);
        byDoc.set(id, entry);
      }
    };
    add(lookup(term, field, "exact", 0), 1);
    if (prefix) add(lookup(term, field, "prefix", 0), MATCH_WEIGHTS.prefix);
    if (distance > 0) add(lookup(term, field, "fuzzy", distance), MATCH_WEIGHTS.fuzzy);
  }
  return [...byDoc].map(([id, { score, fields: matched }]) => ({
    id,
    score,
    terms: [term],
    queryTerms: [term],
    match: { [term]: [...matched] },
  }));
}

/** Results of several sub-queries joined by AND (in every one) or OR (in any), scores summed. */
function combine(parts: SearchResult[][], how: "AND" | "OR"): SearchResult[] {
  if (parts.length === 0) return [];
  const byId = new Map<number, SearchResult>();
  const count = new Map<number, number>();
  for (const part of parts)
    for (const result of part) {
      const id = result.id as number;
      count.set(id, (count.get(id) ?? 0) + 1);
      const was = byId.get(id);
      byId.set(
        id,
        was
          ? {
              ...was,
              score: was.score + result.score,
              terms: [...new Set([...was.terms, ...result.terms])],
              queryTerms: [...new Set([...was.queryTerms, ...result.queryTerms])],
              match: { ...was.match, ...result.match },
            }
          : result,
      );
    }
  const results = [...byId.values()].filter((r) => how === "OR" || count.get(r.id as number) === parts.length);
  return results.sort((a, b) => b.score - a.score);
}

/** MiniSearch's `search` over an engine's per-term lookups, with the search's default options. */
function adapter(lookup: Lookup): SearchIndex {
  const defaults: SearchOptions = { prefix: prefixFor, fuzzy: fuzzyFor };
  const run = (query: Query, options: SearchOptions): SearchResult[] => {
    const how = (options.combineWith ?? "OR").toUpperCase() as "AND" | "OR";
    if (typeof query === "string")
      return combine(
        terms(query).map((t) => termHits(lookup, t, options)),
        how,
      );
    if (typeof query === "object" && "queries" in query) {
      const inner = { ...options, combineWith: query.combineWith ?? options.combineWith };
      const innerHow = (inner.combineWith ?? "OR").toUpperCase() as "AND" | "OR";
      return combine(
        query.queries.map((q) => run(q, inner)),
        innerHow,
      );
    }
    throw new Error("search-engines: a query the search never asks");
  };
  return { search: (query: Query, options: SearchOptions = {}) => run(query, { ...defaults, ...options }) };
}

/** Orama: one index over the fields, per term and field its BM25 (as written, by prefix, by edit distance). */
const oramaIndex: SearchEngine = (docs) => {
  const schema = Object.fromEntries(SEARCH_FIELDS.map((field) => [field, "string"])) as Record<Field, "string">;
  const db: AnyOrama = create({
    schema: { ...schema, ref: "number" },
    components: {
      tokenizer: { language: "english", normalizationCache: new Map(), tokenize: (raw: string) => terms(raw) },
    },
  }) as AnyOrama;
  const inserted = insertMultiple(db, docs.map((doc) => ({ ...doc, id: String(doc.id), ref: doc.id })) as never);
  if (inserted instanceof Promise) throw new Error("search-engines: Orama inserted asynchronously");
  const lookup: Lookup = (term, field, mode, distance) => {
    const found = oramaSearch(db, {
      term,
      properties: [field],
      exact: mode === "exact",
      tolerance: mode === "fuzzy" ? distance : 0,
      limit: docs.length,
    });
    if (found instanceof Promise) throw new Error("search-engines: Orama searched asynchronously");
    return new Map(found.hits.map((hit) => [Number(hit.id), hit.score]));
  };
  return adapter(lookup);
};

/** FlexSearch: per field an index of whole words and one of word starts; a hit scores by its place. */
const flexIndex =
  (FlexIndex: typeof Index): SearchEngine =>
  (docs) => {
    const indexes = new Map<string, Index>();
    for (const field of SEARCH_FIELDS)
      for (const tokenizeMode of ["strict", "forward"] as const) {
        const index = new FlexIndex({ tokenize: tokenizeMode, encode: terms, resolution: 9 });
        for (const doc of docs) index.add(doc.id, doc[field]);
        indexes.set(`${field} ${tokenizeMode}`, index);
      }
    const lookup: Lookup = (term, field, mode) => {
      if (mode === "fuzzy") return new Map();
      const ids = indexes
        .get(`${field} ${mode === "exact" ? "strict" : "forward"}`)!
        .search(term, { limit: docs.length });
      return new Map((ids as number[]).map((id, rank) => [id, 1 - rank / ids.length]));
    };
    return adapter(lookup);
  };

/**
 * Controls: MiniSearch asked per term and field through the same adapter, scored by its own BM25
 * ("per term") or by place in its order as FlexSearch is ("by place"): whether a difference is the
 * engine's or the adapter's scoring.
 */
const miniPerTerm =
  (byPlace: boolean): SearchEngine =>
  (docs) => {
    const perField = new Map(
      SEARCH_FIELDS.map((field) => [field, miniSearchIndex(docs.map((doc) => ({ ...doc, names: doc[field] })))]),
    );
    const lookup: Lookup = (term, field, mode, distance) => {
      const found = perField.get(field)!.search(term, {
        fields: ["names"],
        prefix: mode === "prefix",
        fuzzy: mode === "fuzzy" ? distance : false,
        boost: { names: 1 },
        boostTerm: () => 1,
        weights: { prefix: 1, fuzzy: 1 },
      });
      return new Map(found.map((hit, rank) => [hit.id as number, byPlace ? 1 - rank / found.length : hit.score]));
    };
    return adapter(lookup);
  };

/** FlexSearch's light build (one index, no documents, no persistence): its package does not export it by name. */
const FLEX_LIGHT = new URL("../node_modules/flexsearch/dist/flexsearch.light.module.min.js", import.meta.url).pathname;

const ENGINES: Record<string, { engine: SearchEngine; entry: string }> = {
  MiniSearch: { engine: miniSearchIndex, entry: `export { default } from "minisearch";` },
  Orama: { engine: oramaIndex, entry: `export { create, insertMultiple, search } from "@orama/orama";` },
  FlexSearch: { engine: flexIndex(Index), entry: `export { Index } from "flexsearch";` },
  "MiniSearch per term": { engine: miniPerTerm(false), entry: `export { default } from "minisearch";` },
  "MiniSearch by place": { engine: miniPerTerm(true), entry: `export { default } from "minisearch";` },
  "FlexSearch light": {
    engine: flexIndex(((await import(FLEX_LIGHT)) as { Index: typeof Index }).Index),
    entry: `export { Index } from ${JSON.stringify(FLEX_LIGHT)};`,
  },
};

/** The engine's own code, bundled and minified for the browser, gzip bytes. */
async function engineWeight(entry: string): Promise<number> {
  const out = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  return gzipSync(out.outputFiles[0]!.contents, { level: 9 }).length;
}

const heap = () => {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
};

const questions = process.argv.includes("--aside") ? ASIDE_QUESTIONS : SEARCH_QUESTIONS;
const data = searchData(loadCatalogue());
const rows: string[] = [];
const kinds = [...QUESTION_KINDS, "all"];
const perKind: Record<string, string[]> = Object.fromEntries(kinds.map((kind) => [kind, []]));
/** Per engine, the questions it answers in the top 3. */
const answered = new Map<string, Set<string>>();
/** `--engines=A,B`: only those (by name); MiniSearch always, as the reference. */
const only = process.argv
  .find((arg) => arg.startsWith("--engines="))
  ?.slice("--engines=".length)
  .split(",");
const docs = indexedDocs(data);
/** Every index built, kept so that one's heap is not freed while the next is measured. */
const kept: SearchIndex[] = [];
for (const [name, { engine, entry }] of Object.entries(ENGINES)) {
  if (only && name !== "MiniSearch" && !only.includes(name)) continue;
  const before = heap();
  const started = performance.now();
  kept.push(engine(docs));
  const buildMs = performance.now() - started;
  const heapMb = (heap() - before) / 1e6;
  const search = new ServiceSearch(data, () => kept.at(-1)!);
  const tally = new Map(kinds.map((kind) => [kind, { total: 0, top3: 0, top10: 0, none: 0 }]));
  for (const question of questions) {
    const slugs = search.search(question.query).slugs.slice(0, 10);
    const rank = slugs.findIndex((slug) => question.expect.includes(slug));
    for (const kind of [question.kind, "all"]) {
      const t = tally.get(kind)!;
      t.total++;
      if (rank >= 0 && rank < 3) t.top3++;
      if (rank >= 0 && rank < 3 && kind === "all")
        answered.set(name, (answered.get(name) ?? new Set()).add(question.query));
      if (rank >= 0) t.top10++;
      if (slugs.length === 0) t.none++;
    }
  }
  const timed = performance.now();
  for (const question of questions) search.search(question.query);
  const perQuery = (performance.now() - timed) / questions.length;
  const gzip = await engineWeight(entry);
  const all = tally.get("all")!;
  rows.push(
    `| ${name} | ${all.top3} | ${all.top10} | ${all.none} | ${buildMs.toFixed(0)} ms | ${heapMb.toFixed(1)} MB | ${perQuery.toFixed(1)} ms | ${(gzip / 1000).toFixed(1)} kB |`,
  );
  for (const kind of kinds) {
    const t = tally.get(kind)!;
    if (t.total > 0) perKind[kind]!.push(`${t.top3}/${t.top10}/${t.none}`);
  }
}
const names = [...answered.keys()];
console.log(
  `${questions.length} questions\n\n| engine | top 3 | top 10 | no results | index build | index heap | per search | engine gzip |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
);
console.log(rows.join("\n"));
console.log(
  `\ntop 3 / top 10 / no results, by kind\n\n| kind | ${names.join(" | ")} |\n| --- |${" ---: |".repeat(names.length)}`,
);
for (const kind of kinds) if (perKind[kind]!.length > 0) console.log(`| ${kind} | ${perKind[kind]!.join(" | ")} |`);
if (process.argv.includes("--misses")) {
  const base = answered.get("MiniSearch") ?? new Set();
  for (const name of names.slice(1)) {
    const own = answered.get(name) ?? new Set();
    console.log(
      `\n${name}, top 3 where MiniSearch is not: ${[...own].filter((q) => !base.has(q)).join("; ") || "none"}`,
    );
    console.log(`${name}, not top 3 where MiniSearch is: ${[...base].filter((q) => !own.has(q)).join("; ") || "none"}`);
  }
}
