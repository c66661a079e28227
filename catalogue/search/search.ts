/**
 * The one search over the catalogue's services: the API's `GET /v1/services?q=`, the text host's
 * `/search` and the site's search box (in the browser, over `searchData()` shipped as JSON) all run
 * `ServiceSearch.search`, so every face ranks alike.
 *
 * Matching is MiniSearch's BM25 (match.ts: every word first, then some of them by share matched);
 * what it does not know is added here, from the data alone:
 * - sub-services (tiers, storage classes, editions) are indexed under their service ("s3 glacier");
 * - a query is first read as people ask in six languages (search-words.ts, data/search-words.yaml:
 *   phrases by Snowball stem, stop words, places, alternatives, intent words mapped to kinds); a word
 *   no one knows is read as a name's abbreviation ("secops") or respelt (spelling.ts);
 * - names are also indexed with adjacent words joined ("route53"), and a query tried so ("dynamo db");
 * - provider words (`aws`, `google`, `ovh`…) are taken out and put that provider's matches first; a
 *   provider named beside another's product ("azure lambda") gets its own equivalents of it;
 * - a query that is one of a service's names puts that service first; generic words weigh less;
 * - a query naming a kind (a group, a category, a tag several providers use; search-kinds.ts), or
 *   a sentence with a run of such words, shows the kind's best match per provider first, the largest
 *   portfolios first, the flagship by a prior from the data;
 * - an answer with nothing says which words matched nothing and the nearest jobs; a product the
 *   catalogue does not list is read as its kind (other-products.ts).
 *
 * This module must stay free of Node APIs: the site bundles it.
 */
import type { SearchResult } from "minisearch";
import { editDistance } from "../base/edit-distance.ts";
import type { Catalogue } from "../load/load.ts";
import { GENERIC_WORDS, searchData, type SearchData, type SearchDoc } from "./data.ts";
import { leadersFirst, SearchKinds, type KindMatch } from "./kinds.ts";
import {
  Abbreviations,
  ENOUGH,
  matchEvery,
  matchSome,
  nameMatch,
  nearestJobs,
  providersWords,
  subServicesOf,
  unmatchedWords,
  type SearchOutcome,
} from "./match.ts";
import { indexedDocs, miniSearchIndex, withJoined, type SearchEngine, type SearchIndex } from "./engine.ts";
import { miniSearchIndexSteps } from "./engine.ts";
import { drained } from "../base/steps.ts";
import { SearchPlaces } from "./places.ts";
import { OtherProductSearch } from "./other-products.ts";
import { Speller } from "./spelling.ts";
import {
  dataWords,
  norm,
  normaliseTerm,
  readQuery,
  stem,
  type MakerWord,
  stemsOf,
  STEM_KEY,
  STEM_SHARE,
  tokenize,
  type Place,
  type ReadQuery,
} from "./words.ts";

export { nameMatch, normaliseTerm, stem, tokenize, type SearchOutcome };
export { roundedPrior, searchData, servicePrior, type SearchData, type SearchDoc } from "./data.ts";

/**
 * Generic words that describe rather than brand: a name made of one of them and a kind's word
 * ("Managed MySQL") is how several providers describe the kind, not a product one would name.
 */
const DESCRIPTIVE_WORDS = new Set("managed service services".split(" "));

/** Words of a query the search reads. */
const MAX_QUERY_WORDS = 8;

/** How the search reads a query's words once it has its results. */
interface Reading {
  /** The matched words, normalised, generic ones left out ("sql" of "cloud sql"). */
  readonly telling: readonly string[];
  /** The matched generic words ("cloud" of "cloud sql"). */
  readonly spoken: readonly string[];
  readonly kind: KindMatch;
  /** Whether the query is a service's name as written, used by fewer than three providers. */
  readonly namesService: boolean;
  /** Results (doc positions) whose name or tag is the query as written. */
  readonly asWritten: ReadonlySet<number>;
  /** Whether a name (not only a tag) is the query as written. */
  readonly byName: boolean;
  /** Results (doc positions) that matched every word. */
  readonly full: ReadonlySet<number>;
}

/** One result as ranked. */
interface Scored {
  readonly i: number;
  readonly doc: SearchDoc;
  readonly exact: boolean;
  readonly member: boolean;
  /** Whether it matched every word. */
  readonly full: boolean;
  readonly score: number;
}

/** Whether a few providers (one or two) use a name: three or more make it the name of a kind ("kms"). */
const fewUse = (set: ReadonlySet<string>) => set.size > 0 && set.size < 3;

export class ServiceSearch {
  readonly data: SearchData;
  private readonly mini: SearchIndex;
  /** normalised provider word → provider id. */
  private readonly providerWords = new Map<string, string>();
  private readonly providerSize = new Map<string, number>();
  /** Per doc, its names as normalised core tokens (generic and own-brand words left out). */
  private readonly coreNames: (readonly string[])[][];
  /** Per doc, every word of its names, normalised. */
  private readonly nameWords: ReadonlySet<string>[];
  /** Per doc, each of its names as normalised words joined by spaces. */
  private readonly namePhrases: ReadonlySet<string>[];
  /** Per doc, its provider's words. */
  private readonly brand: ReadonlySet<string>[];
  /** Per doc, its normalised tags (whole phrases) and its kinds' token sets. */
  private readonly tagPhrases: ReadonlySet<string>[];
  /** Kinds: group and category names, and tags several providers share. */
  private readonly kinds: SearchKinds;
  /** Per doc, its sub-services' names as normalised tokens. */
  private readonly subWords: (readonly string[])[][];
  private readonly vocabulary = new Set<string>();
  private readonly speller: Speller;
  private readonly places: SearchPlaces;
  private readonly abbreviations: Abbreviations;
  /** This search's matches of every word, by the words (cleared at each search). */
  private readonly everyOf = new Map<string, SearchResult[]>();
  /** Whether a word is the catalogue's own (a name's or tag's word): never read by a language's stem. */
  readonly ours = (word: string) => this.vocabulary.has(normaliseTerm(word));
  /** Whether a word starts a provider's or another product's name ("wie Amazon SQS", "like Vercel"). */
  readonly maker: MakerWord = (word) => this.providerWords.has(word) || this.otherProducts.startsName(word);
  /** The search words' own words as written, and the stems of those that are not the catalogue's. */
  private readonly languageWords = new Set<string>();
  private readonly languageStems = new Set<string>();
  private readonly otherProducts: OtherProductSearch;

  /** `engine`: MiniSearch; another only to measure it (docs/search.md, "Engines measured"). */
  constructor(data: SearchData, engine: SearchEngine = miniSearchIndex) {
    this.data = data;
    for (const provider of data.providers) {
      this.providerSize.set(provider.id, provider.size);
      for (const word of provider.words) this.providerWords.set(word, provider.id);
    }
    const wordsOf = new Map(data.providers.map((p) => [p.id, new Set(p.words)]));
    this.brand = data.docs.map((doc) => wordsOf.get(doc.provider) ?? new Set());
    this.coreNames = data.docs.map((doc, i) =>
      doc.names
        .map((name) =>
          tokenize(name)
            .filter((token) => !GENERIC_WORDS.has(token) && !this.brand[i]!.has(token))
            .map(normaliseTerm),
        )
        .filter((tokens) => tokens.length > 0),
    );
    this.nameWords = data.docs.map((doc) => new Set(doc.names.flatMap(norm)));
    this.namePhrases = data.docs.map((doc) => new Set(doc.names.map((name) => norm(name).join(" "))));
    this.tagPhrases = data.docs.map((doc) => new Set(doc.tags.map((tag) => norm(tag).join(" "))));
    this.subWords = data.docs.map((doc) => doc.subServices.map(([name]) => norm(name)));
    this.kinds = new SearchKinds(data, this.tagPhrases);
    this.mini = engine(indexedDocs(data));
    for (const doc of data.docs)
      for (const text of [...doc.names.map(withJoined), ...doc.tags.map(withJoined)])
        for (const token of tokenize(text)) this.vocabulary.add(normaliseTerm(token));
    for (const word of dataWords(data.words)) {
      this.languageWords.add(word);
      if (!this.ours(word)) for (const key of stemsOf(word)) this.languageStems.add(key);
    }
    this.speller = new Speller(data, normaliseTerm, this.vocabulary);
    this.places = new SearchPlaces(data);
    this.abbreviations = new Abbreviations(data);
    this.otherProducts = new OtherProductSearch(data, this.places, this);
  }

  /** Whether a word names a provider, and which. */
  providerOf(word: string): string | undefined {
    const exact = this.providerWords.get(word);
    if (exact) return exact;
    // "ovh" for "ovhcloud": a start of a provider word that is not itself a word of the catalogue.
    if (word.length < 3 || this.vocabulary.has(normaliseTerm(word))) return undefined;
    const starting = [...this.providerWords].filter(([providerWord]) => providerWord.startsWith(word));
    const ids = new Set(starting.map(([, id]) => id));
    return ids.size === 1 ? [...ids][0] : undefined;
  }

  search(q: string): SearchOutcome {
    return this.otherProducts.search(q) ?? this.searchRead(q);
  }

  /** The search of a query as written, no other product read. */
  searchRead(q: string): SearchOutcome {
    this.everyOf.clear();
    const asked = this.expanded(readQuery(q, this.data.words, this.ours, this.maker));
    // A word neither the catalogue nor a language knows, respelt to the nearest whole word the
    // catalogue has ("postgers"), when that finds more services than the query as typed.
    const { respelt, candidate } = this.respelt(asked);
    const read = respelt && candidate ? candidate : asked;
    // A version ("postgresql 17") leads to the engine's services: a number no name or tag holds is
    // not required. Distinct words, at most MAX_QUERY_WORDS: more say nothing more and only cost time.
    const versionless = read.words.filter((word) => !/^\d+$/.test(word) || this.vocabulary.has(word));
    const words = (versionless.length > 0 ? versionless : read.words).slice(0, MAX_QUERY_WORDS);
    const { providers, rest } = this.splitProviders(words);
    const none = { slugs: [], closest: false, providers, kind: false, subServices: {} };
    if (words.length === 0) return none;
    const named = new Set(providers);
    const alternative = asked.alternative || read.alternative;
    if (rest.length === 0) {
      const own = this.servicesOf(named);
      // "like heroku": what else does the provider's flagship job.
      if (alternative && own.length > 0)
        return { ...none, slugs: this.places.inPlace(this.places.alternativesTo([own[0]!]), asked.place) };
      return { ...none, slugs: this.places.inPlace(own, asked.place) };
    }
    const { results, closest, full } = this.match(rest, named, respelt !== undefined);
    const suggestion = respelt ? undefined : this.speller.suggest(rest, results);
    const reading = { ...this.read(rest, results, closest, suggestion), full };
    const ordered = this.order(this.score(results, reading), named, reading).map(({ doc }) => doc.id);
    const slugs = this.answer(ordered, reading, { named, alternative, place: asked.place });
    const shownSuggestion = respelt ? respelt.join(" ") : suggestion;
    return {
      slugs,
      closest,
      ...(shownSuggestion ? { suggestion: [...providersWords(q, this.providerWords), shownSuggestion].join(" ") } : {}),
      providers,
      kind: reading.kind.named,
      subServices: subServicesOf(
        this.data,
        this.subWords,
        results.filter((result) => full.has(result.id as number)),
      ),
      ...(slugs.length === 0
        ? { unmatched: unmatchedWords(this.mini, rest), nearestJobs: nearestJobs(this.mini, this.data, rest) }
        : {}),
    };
  }

  /**
   * What the query asks for, from the services it matched: their alternatives when it asks for them
   * ("dynamo alternative"), names another provider's product beside a provider ("azure lambda"), or
   * a product outside the place it names ("lambda in europe"); else the matches, in that place.
   */
  private answer(
    ordered: readonly string[],
    reading: Reading,
    ask: { named: ReadonlySet<string>; alternative: boolean; place: Place | undefined },
  ): string[] {
    const named = this.productNamed(ordered, reading);
    // "Warteschlange wie Amazon SQS": a kind beside the provider named asks for an alternative to
    // that provider's best match (never that provider alone: its services are what is left).
    const product =
      named.length === 0 && ask.alternative && ask.named.size > 0
        ? ordered.filter((slug) => ask.named.has(this.places.docBySlug(slug).provider)).slice(0, 1)
        : named;
    const inPlace = (slug: string) => this.places.serviceTier(slug, ask.place) > 0;
    if (product.length > 0) {
      const foreign =
        ask.named.size > 0 && product.every((slug) => !ask.named.has(this.places.docBySlug(slug).provider));
      const outside = ask.place !== undefined && product.every((slug) => !inPlace(slug));
      // "azure blob alternative": the provider named is the product's own, so any other will do.
      if (ask.alternative || foreign || outside) {
        const alternatives = this.places.alternativesTo(product, foreign ? ask.named : undefined);
        const found = this.places.inPlace(alternatives, ask.place);
        // A product with no equivalent ("Azure App Testing" read as Device Farm's "app testing"):
        // the words' own matches, the named provider's first, rather than nothing (issue 123).
        if (found.length > 0) return found;
      }
    }
    return this.places.inPlace(ordered, ask.place);
  }

  /** The services a query names as a product ("lambda", "rds"), best first; none for a kind. */
  private productNamed(ordered: readonly string[], reading: Reading): string[] {
    if (reading.kind.named && !reading.namesService) return [];
    // A name the words are exactly ("lambda": AWS Lambda), else a name or tag as written ("rds").
    const exact = ordered.filter((slug) => this.exactName(slug, reading));
    if (exact.length > 0) return exact;
    const written = new Set([...reading.asWritten].map((i) => this.data.docs[i]!.id));
    return reading.namesService ? ordered.filter((slug) => written.has(slug)) : [];
  }

  private exactName(slug: string, reading: Reading): boolean {
    const i = this.places.indexOf(slug);
    return this.coreNames[i]!.some((name) => nameMatch(name, reading.telling).exact);
  }

  /** A reading with each word neither the catalogue nor a language knows read as the abbreviation of a name's words ("secops"). */
  private expanded(read: ReadQuery): ReadQuery {
    let changed = false;
    const words = read.words.flatMap((word) => {
      const expansion = this.known(word) ? undefined : this.abbreviations.expand(word);
      if (expansion) changed = true;
      return expansion ?? [word];
    });
    return changed ? { ...read, words: [...new Set(words)] } : read;
  }

  /** Whether a language the search reads knows the word: one of its words, or a form of one (by stem). */
  private languageWord(word: string): boolean {
    if (this.languageWords.has(word)) return true;
    const least = STEM_SHARE * word.length + STEM_KEY;
    return stemsOf(word).some((key) => key.length >= least && this.languageStems.has(key));
  }

  /**
   * The query respelt where that helps: every unknown word respelt, else the first long word one
   * letter off a word that matches services, the other words as typed ("kubernets administrado":
   * the Spanish word stays, "kubernets" becomes kubernetes).
   */
  private respelt(asked: ReadQuery): { respelt?: string[]; candidate?: ReadQuery } {
    const respelling = this.speller.respell(asked.words, (word) => this.known(word));
    if (!respelling) return {};
    const read = (words: readonly string[]) => readQuery(words.join(" "), this.data.words, this.ours, this.maker);
    const whole = read(respelling);
    if (this.respellingHelps(whole, asked)) return { respelt: respelling, candidate: whole };
    if (respelling.length < 2) return {};
    for (const [i, word] of asked.words.entries()) {
      const one = respelling[i];
      // Only a near miss of a long word ("widgets" is no "budgets", "reset" no "rest").
      if (
        !one ||
        one === word ||
        word.length < 7 ||
        editDistance(word, one, 1) > 1 ||
        this.matchCount(read([one]), true) === 0
      )
        continue;
      const words = asked.words.with(i, one);
      return { respelt: words, candidate: read(words) };
    }
    return {};
  }

  /**
   * Whether a respelt reading helps: it finds more services matching every word than the words as
   * typed do (by prefix, no close spelling), or as many and some ("kubernets" → kubernetes); never
   * fewer, and never none ("password reset" is no "password rest").
   */
  private respellingHelps(respelt: ReadQuery, typed: ReadQuery): boolean {
    const respeltCount = this.matchCount(respelt, true);
    const typedCount = this.matchCount(typed, true);
    return respeltCount > typedCount || (respeltCount > 0 && respeltCount === typedCount);
  }

  /**
   * The services matching every word, once per search: a respelling's test and the match share it.
   * `asWritten`: by prefix, no close spelling (a respelt reading's words are the catalogue's own).
   */
  private matchEvery(rest: readonly string[], asWritten = false): SearchResult[] {
    const key = `${asWritten ? "=" : "~"}${rest.join(" ")}`;
    let found = this.everyOf.get(key);
    if (!found) this.everyOf.set(key, (found = matchEvery(this.mini, rest, asWritten)));
    return found;
  }

  /** How many services match every word of a reading (providers aside). */
  private matchCount(read: ReadQuery, asWritten = false): number {
    const { providers, rest } = this.splitProviders(read.words.slice(0, MAX_QUERY_WORDS));
    if (rest.length === 0) return this.servicesOf(new Set(providers)).length;
    return this.matchEvery(rest, asWritten).length;
  }

  private known(word: string): boolean {
    if (this.providerWords.has(word) || this.providerOf(word)) return true;
    const term = normaliseTerm(word);
    // A word of any field as written; the start of a longer word ("kubernets") is respelt when a
    // whole word is near.
    return (
      this.vocabulary.has(term) ||
      this.speller.has(word) ||
      this.languageWord(word) ||
      this.mini.search(word, { fuzzy: false, prefix: false }).length > 0
    );
  }

  /** The providers a query's words name (in order, once each), and its other words. */
  private splitProviders(words: readonly string[]): { providers: string[]; rest: string[] } {
    const providers: string[] = [];
    const rest: string[] = [];
    for (const word of words) {
      const provider = this.providerOf(word);
      if (provider) {
        if (!providers.includes(provider)) providers.push(provider);
      } else rest.push(word);
    }
    return { providers, rest };
  }

  /** A query of provider words only: those providers' services, flagships first. */
  servicesOf(named: ReadonlySet<string>): string[] {
    const docs = this.data.docs
      .map((doc, i) => ({ doc, i }))
      .filter(({ doc }) => named.has(doc.provider))
      .sort((a, b) => b.doc.prior - a.doc.prior || a.i - b.i);
    return docs.map(({ doc }) => doc.id);
  }

  /**
   * The services matching every word; when fewer than ENOUGH do (or none of a named provider's), the
   * services matching some of the words too, by score times the share of the words they match
   * (OR with a coverage bonus): a word the catalogue does not know lowers a score instead of
   * emptying the answer. `closest` when no service matched every word.
   */
  private match(
    rest: readonly string[],
    named: ReadonlySet<string> = new Set(),
    asWritten = false,
  ): { results: SearchResult[]; closest: boolean; full: ReadonlySet<number> } {
    const every = this.matchEvery(rest, asWritten);
    const full = new Set(every.map((result) => result.id as number));
    const enough =
      every.length >= ENOUGH &&
      (named.size === 0 || every.some((r) => named.has(this.data.docs[r.id as number]!.provider)));
    if (enough || rest.length <= 1) return { results: every, closest: false, full };
    // Those matching every word come first (order()); the others follow by their share of the words.
    const results = [...every, ...matchSome(this.mini, rest).filter((result) => !full.has(result.id as number))];
    return { results, closest: every.length === 0 && results.length > 0, full };
  }

  /** Which words tell, which kind they name, and whether they are a service's name as written. */
  private read(
    rest: readonly string[],
    results: readonly SearchResult[],
    closest: boolean,
    suggestion: string | undefined,
  ): Omit<Reading, "full"> {
    // Closest matches: judge names and kinds by the words that matched something.
    const hit = closest ? new Set(results.flatMap((result) => result.queryTerms)) : undefined;
    const matched = hit ? rest.filter((word) => hit.has(normaliseTerm(word)) || hit.has(word)) : rest;
    const telling = matched.map(normaliseTerm).filter((word) => !GENERIC_WORDS.has(word));
    const spoken = matched.map(normaliseTerm).filter((word) => GENERIC_WORDS.has(word));
    const written = this.writtenAs(results, matched.map(normaliseTerm).join(" "));
    const kindWords = suggestion ? norm(suggestion).filter((word) => !GENERIC_WORDS.has(word)) : telling;
    const found = this.kinds.kindIn(kindWords, (word) => fewUse(this.providersNaming([word])));
    // A kind named with a brand-forming generic word left out ("cloud" of "cloud sql") may be a
    // product's name; one named with a descriptive word ("managed mysql") is the kind.
    const described = spoken.some((word) => DESCRIPTIVE_WORDS.has(word));
    const loose = !found.byKindName || (telling.length < matched.length && !described);
    // Words only one or two providers use in their names ("pub sub") name their product, unless
    // they are a kind's whole name ("serverless functions").
    const distinctive = telling.length > 0 && !found.whole && fewUse(this.providersNaming(telling));
    const namesService =
      (loose || distinctive) && (fewUse(written.byName) || (written.byName.size === 0 && fewUse(written.byTag)));
    return {
      telling,
      spoken,
      kind: namesService ? { ...found, named: false } : found,
      namesService,
      asWritten: written.docs,
      byName: written.byName.size > 0,
    };
  }

  /** The providers with a service whose names hold every one of the words. */
  private providersNaming(words: readonly string[]): Set<string> {
    const providers = new Set<string>();
    this.data.docs.forEach((doc, i) => {
      if (words.every((word) => this.nameWords[i]!.has(word))) providers.add(doc.provider);
    });
    return providers;
  }

  /**
   * The results whose name (else tag) is the query as written ("cloud functions", "rds"), and the
   * providers using it so. Such a query names that service rather than a kind it matched loosely
   * (by a tag, or leaving generic words out), unless three or more providers use the name (then it
   * names a kind: "kms").
   */
  private writtenAs(
    results: readonly SearchResult[],
    phrase: string,
  ): { byName: Set<string>; byTag: Set<string>; docs: Set<number> } {
    const byName = new Set<string>();
    const byTag = new Set<string>();
    const docs = new Set<number>();
    for (const result of results) {
      const i = result.id as number;
      const doc = this.data.docs[i]!;
      if (this.namePhrases[i]!.has(phrase)) byName.add(doc.provider);
      else if (this.tagPhrases[i]!.has(phrase)) byTag.add(doc.provider);
      else continue;
      docs.add(i);
    }
    return { byName, byTag, docs };
  }

  /** Each result's score: MiniSearch's, relative to the best, with how its names fit and its prior. */
  private score(results: readonly SearchResult[], reading: Reading): Scored[] {
    const { kind } = reading;
    const top = results.reduce((max, result) => Math.max(max, result.score), 0);
    return results.map((result) => {
      const i = result.id as number;
      const doc = this.data.docs[i]!;
      const { exact, covered } = this.nameFit(i, reading);
      const memberWeight = this.memberWeight(i, kind);
      // For a kind, what the service is (a member, its prior) weighs more than how its name reads.
      const score = kind.named
        ? (5 * result.score) / top + 3 * covered + (exact ? 3 : 0) + memberWeight + 2 * doc.prior
        : (10 * result.score) / top +
          (exact ? 12 : 0) +
          (reading.namesService && reading.asWritten.has(i) ? (reading.byName ? 20 : 8) : 0) +
          4 * covered +
          3 * this.subServiceFit(i, reading.telling) +
          doc.prior;
      return { i, doc, exact, member: memberWeight > 0, full: reading.full.has(i), score };
    });
  }

  /** How much of its best name the telling words cover, and whether the query is one of its names. */
  private nameFit(i: number, reading: Reading): { exact: boolean; covered: number } {
    let exact = false;
    let covered = 0;
    for (const name of this.coreNames[i]!) {
      const match = nameMatch(name, reading.telling);
      exact ||= match.exact;
      covered = Math.max(covered, match.covered);
    }
    // A generic word of the query ("cloud" in "cloud sql") may be left out of a name, but a
    // name that lacks it is not what the query names exactly.
    if (exact && !reading.spoken.every((word) => this.nameWords[i]!.has(word))) exact = false;
    return { exact, covered };
  }

  /** How much of its best-covered sub-service's name the telling words cover ("nearline" → Cloud Storage). */
  private subServiceFit(i: number, telling: readonly string[]): number {
    let covered = 0;
    for (const words of this.subWords[i]!)
      covered = Math.max(covered, words.filter((word) => telling.includes(word)).length / words.length);
    return covered;
  }

  /** A member of the kind: of its equivalence group (surest), else by category or shared tag. */
  private memberWeight(i: number, kind: KindMatch): number {
    const doc = this.data.docs[i]!;
    if (kind.groups.size > 0 && doc.groups.some((g) => kind.groups.has(g))) return 6;
    return (kind.category !== undefined && doc.category === kind.category) ||
      (kind.tag !== undefined && this.tagPhrases[i]!.has(kind.tag))
      ? 3
      : 0;
  }

  /** The named providers' services first, then by score; for a kind, each provider's best member first. */
  private order(scored: Scored[], named: ReadonlySet<string>, { kind, telling }: Reading): Scored[] {
    const size = (provider: string) => this.providerSize.get(provider) ?? 0;
    // A job named beside what it acts on ("VM backup"): the job's services first, whatever else matches every word.
    const doesJob = (entry: Scored) => kind.job === true && entry.doc.groups.some((g) => kind.groups.has(g));
    scored.sort(
      (a, b) =>
        Number(named.has(b.doc.provider)) - Number(named.has(a.doc.provider)) ||
        Number(doesJob(b)) - Number(doesJob(a)) ||
        // Services matching every word before those matching some.
        Number(b.full) - Number(a.full) ||
        // Among services a query names exactly, the largest portfolio first (every provider's "Object Storage").
        (!kind.named && a.exact && b.exact ? size(b.doc.provider) - size(a.doc.provider) : 0) ||
        b.score - a.score ||
        size(b.doc.provider) - size(a.doc.provider) ||
        a.i - b.i,
    );
    if (!kind.named || named.size > 0) return scored;
    // A kind: each provider's best member first, the largest portfolios first, then the rest. A
    // member whose own name says the kind ("Network Firewall" for "firewall") leads before one that
    // is only in its group (the VPC that carries security groups).
    const memberOfGroup = (entry: Scored) => entry.doc.groups.some((g) => kind.groups.has(g));
    // A kind named by a tag alone ("waf"): the tag on a member of the kind's groups says it as strongly as a name.
    const saysKind = (entry: Scored) =>
      telling.every((word) => this.nameWords[entry.i]!.has(word)) ||
      (!kind.byKindName && kind.tag !== undefined && this.tagPhrases[entry.i]!.has(kind.tag) && memberOfGroup(entry));
    return leadersFirst(scored, kind.job === true, saysKind, size);
  }
}

const searches = new WeakMap<Catalogue, ServiceSearch>();

/** The search of a catalogue, built once per catalogue. */
export const serviceSearch = (catalogue: Catalogue): ServiceSearch => drained(serviceSearchSteps(catalogue));
/** serviceSearch, its index built a few services at a time: a caller may let other work run between steps (sidecar/catalogue-in-turns.ts). */
export function* serviceSearchSteps(catalogue: Catalogue): Generator<void, ServiceSearch, void> {
  let search = searches.get(catalogue);
  if (!search) {
    const data = searchData(catalogue);
    const index = yield* miniSearchIndexSteps(indexedDocs(data));
    searches.set(catalogue, (search = new ServiceSearch(data, () => index)));
  }
  return search;
}
