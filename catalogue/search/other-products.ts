/**
 * Products the catalogue does not list but whose kind it knows (data/other-products.yaml):
 * "alternative to Snowflake" is read as the kind Snowflake is (data warehouses), "alternative to
 * Heroku" (a provider named alone) as Heroku's own services of its kind (app platforms). Only when
 * the product is all the query names besides place, provider, stop and alternative words: a longer
 * query ("snowflake connector glue") is searched as written.
 *
 * This module must stay free of Node APIs: the site bundles it.
 */
import type { OtherProductNamed, SearchOutcome } from "./match.ts";
import type { OtherProduct, SearchData } from "./data.ts";
import type { SearchPlaces } from "./places.ts";
import { readQuery, stemsOf, tokenize, type CatalogueWord, type ReadQuery } from "./words.ts";

/** Where a query names a product: the product and the run of tokens that names it. */
export interface OtherProductAt {
  readonly product: OtherProduct;
  readonly at: number;
  readonly length: number;
}

/**
 * The other product a query's tokens name, when its words are all the query asks besides `spare`
 * words (its read words that are place, provider, stop or alternative words are not in `read`).
 */
export function otherProductIn(
  products: readonly OtherProduct[],
  tokens: readonly string[],
  read: readonly string[],
  spare: (word: string) => boolean,
): OtherProductAt | undefined {
  for (const product of products)
    for (const words of product.words)
      for (let at = 0; at + words.length <= tokens.length; at++) {
        if (!words.every((word, i) => tokens[at + i] === word)) continue;
        const named = new Set(words);
        if (read.every((word) => named.has(word) || spare(word))) return { product, at, length: words.length };
      }
  return undefined;
}

/** The query with the product's words replaced by a kind's name ("alternative to data warehouses"). */
export function queryOfKind(tokens: readonly string[], found: OtherProductAt, kindName: string): string {
  return [...tokens.slice(0, found.at), ...tokenize(kindName), ...tokens.slice(found.at + found.length)].join(" ");
}

/** The named product as an answer tells it. */
export const productNamed = ({ name, kinds, why }: OtherProduct): OtherProductNamed => ({ name, kinds, why });

/** Whether a service (its doc) is of one of the product's kinds: in its group, or of its category. */
export function ofKinds(
  doc: { readonly groups: readonly number[]; readonly category: string },
  groupIds: readonly { readonly id: string }[],
  product: OtherProduct,
): boolean {
  return product.kinds.some(({ id }) => doc.category === id || doc.groups.some((i) => groupIds[i]?.id === id));
}

/** What the search lends the reading of other products: its own search of a query, and its readings. */
interface SearchParts {
  readonly ours: CatalogueWord;
  readonly providerOf: (word: string) => string | undefined;
  /** A provider's services, flagships first. */
  readonly servicesOf: (named: ReadonlySet<string>) => string[];
  /** The search of a query as written (no other product read). */
  readonly searchRead: (q: string) => SearchOutcome;
}

/** Query tokens looked at for a product's name: a long query names more than a product. */
const MAX_TOKENS = 32;

export class OtherProductSearch {
  private readonly data: SearchData;
  private readonly places: SearchPlaces;
  private readonly parts: SearchParts;
  /** The first word of each product's names. */
  private readonly firstWords: ReadonlySet<string>;
  constructor(data: SearchData, places: SearchPlaces, parts: SearchParts) {
    this.data = data;
    this.places = places;
    this.parts = parts;
    this.firstWords = new Set((data.otherProducts ?? []).flatMap((product) => product.words.map((words) => words[0]!)));
  }

  /** Whether a word starts a product's name ("vercel"). */
  startsName(word: string): boolean {
    return this.firstWords.has(word);
  }

  /**
   * The answer to a query naming another product, read as its kinds; undefined when it names none.
   * The product is all the query names, or it is named with an alternative word and words that say
   * which of its kinds is wanted ("Vercel Alternative für statische Webseiten", "host my app like
   * on Heroku"): those kinds first.
   */
  search(q: string): SearchOutcome | undefined {
    const products = this.data.otherProducts ?? [];
    if (products.length === 0) return undefined;
    const tokens = tokenize(q).slice(0, MAX_TOKENS);
    const read = readQuery(q, this.data.words, this.parts.ours, (word) => this.isMaker(word));
    const isProvider = (word: string) => this.parts.providerOf(word) !== undefined;
    const alone = otherProductIn(products, tokens, read.words, isProvider);
    const found = alone ?? (read.alternative ? otherProductIn(products, tokens, read.words, () => true) : undefined);
    if (!found) return undefined;
    const { product } = found;
    const otherProduct = productNamed(product);
    if (product.provider) {
      // "heroku" alone lists Heroku's services; "alternative to heroku" asks what else does its own kind's job.
      if (!read.alternative) return undefined;
      const own = this.parts
        .servicesOf(new Set([product.provider]))
        .filter((slug) => ofKinds(this.places.docBySlug(slug), this.data.groups, product));
      const slugs = this.places.inPlace(this.places.alternativesTo(own), read.place);
      return { slugs, closest: false, providers: [], kind: true, subServices: {}, otherProduct };
    }
    // Each kind searched by its name in the product's place ("snowflake in europe"), the main kind's
    // first; with words beside the product, the kinds they name first, each searched by its name alone.
    const kinds = alone ? product.kinds : byWordsShared(product.kinds, read.words);
    const outcomes = kinds.map((kind) =>
      alone ? this.parts.searchRead(queryOfKind(tokens, found, kind.name)) : this.kindInPlace(kind.name, read),
    );
    const slugs = [...new Set(outcomes.flatMap((outcome) => outcome.slugs))];
    const { unmatched: _unmatched, nearestJobs: _nearest, ...first } = outcomes[0]!;
    return { ...first, slugs, otherProduct };
  }

  private isMaker(word: string): boolean {
    return this.parts.providerOf(word) !== undefined || this.startsName(word);
  }

  /** A kind's services by its name, in the place the query names. */
  private kindInPlace(kindName: string, read: ReadQuery): SearchOutcome {
    const outcome = this.parts.searchRead(kindName);
    return { ...outcome, slugs: this.places.inPlace(outcome.slugs, read.place) };
  }
}

/** The kinds, those sharing most words (by stem) with the query's first, else in their order. */
function byWordsShared<Kind extends { readonly name: string }>(
  kinds: readonly Kind[],
  words: readonly string[],
): Kind[] {
  const asked = new Set(words.flatMap((word) => [word, ...stemsOf(word)]));
  const shared = (kind: Kind) =>
    tokenize(kind.name).filter((word) => asked.has(word) || stemsOf(word).some((key) => asked.has(key))).length;
  return kinds
    .map((kind, i) => ({ kind, i, shared: shared(kind) }))
    .sort((a, b) => b.shared - a.shared || a.i - b.i)
    .map(({ kind }) => kind);
}
