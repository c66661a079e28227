/**
 * Ids a model can find: provider and category arguments resolved from the names a model would
 * guess ("amazon", "Google Cloud", "digital-ocean", "identity") the way the site's search resolves
 * provider words (catalogue/search/search.ts), an unresolvable one refused with the valid ids, unknown
 * slugs answered with the nearest slugs; the nearest key for an unknown argument (./schemas.ts).
 */
import type { Catalogue } from "../catalogue/load/load.ts";
import { HttpError } from "../catalogue/base/problem.ts";
import { stripControl } from "../catalogue/format/doc.ts";
import { editDistance } from "../catalogue/base/edit-distance.ts";
import { searchData, tokenize } from "../catalogue/search/search.ts";

/** Letters and digits only, lower case: "digital-ocean" and "DigitalOcean" compare equal. */
const compact = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");

/** The `count` candidates nearest `value`: those containing it (or in it) first, then by edit distance. */
export function nearest(value: string, candidates: readonly string[], count: number): string[] {
  const wanted = compact(value);
  return candidates
    .map((candidate) => {
      const other = compact(candidate);
      // Whole containment ("aws-rds" in "aws-rds-mysql") beats any edit: the shortest such first.
      const contains = other.includes(wanted) || wanted.includes(other);
      return {
        candidate,
        score: contains ? Math.abs(other.length - wanted.length) - 1000 : editDistance(wanted, other),
      };
    })
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map((entry) => entry.candidate);
}

export const shown = (value: string) => {
  const clean = stripControl(value);
  return clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
};

interface Resolvers {
  readonly provider: (value: string) => string | undefined;
  readonly category: (value: string) => string | undefined;
}

const resolvers = new WeakMap<Catalogue, Resolvers>();

function resolversOf(catalogue: Catalogue): Resolvers {
  const made = resolvers.get(catalogue);
  if (made) return made;
  // The search's provider words: a provider's id and the distinctive words of its names.
  const providerWords = new Map<string, string>();
  for (const provider of searchData(catalogue).providers)
    for (const word of provider.words) providerWords.set(word, provider.id);
  const providerNames = new Map<string, string>();
  for (const provider of catalogue.providers)
    for (const name of [provider.id, provider.name, provider.shortName]) providerNames.set(compact(name), provider.id);
  const categoryNames = new Map<string, string>();
  for (const category of catalogue.categories)
    for (const name of [category.id, category.name]) categoryNames.set(compact(name), category.id);
  const resolved: Resolvers = {
    provider: (value) => {
      const whole = providerNames.get(compact(value));
      if (whole) return whole;
      // "amazon", "Google Cloud", "Microsoft": the providers the words name, if they name one.
      const words = tokenize(value);
      const named = new Set(words.flatMap((word) => providerWords.get(word) ?? []));
      if (named.size === 1) return [...named][0];
      // "ovh" for OVHcloud: as the search does, a word starting one provider's word.
      const starting = new Set(
        words.flatMap((word) =>
          word.length < 3 ? [] : [...providerWords].filter(([own]) => own.startsWith(word)).map(([, id]) => id),
        ),
      );
      return named.size === 0 && starting.size === 1 ? [...starting][0] : undefined;
    },
    category: (value) => {
      const whole = categoryNames.get(compact(value));
      if (whole) return whole;
      // "identity", "ml", "messaging": the one category whose id or name holds the word.
      const words = tokenize(value);
      if (words.length === 0) return undefined;
      const matching = catalogue.categories.filter((category) => {
        const own = new Set([...category.id.split("-"), ...tokenize(category.name)]);
        return words.every((word) => own.has(word));
      });
      return matching.length === 1 ? matching[0]!.id : undefined;
    },
  };
  resolvers.set(catalogue, resolved);
  return resolved;
}

/** A provider id from an id or a name; a 400 listing every provider id when none matches. */
export function resolveProvider(catalogue: Catalogue, value: string): string {
  const id = resolversOf(catalogue).provider(value);
  if (id) return id;
  throw new HttpError(
    400,
    "Unknown provider",
    `"${shown(value)}" names no provider; use one of these ids: ${catalogue.providers.map((provider) => provider.id).join(", ")}`,
  );
}

/** A category id from an id or a name; a 400 listing every category id when none matches. */
export function resolveCategory(catalogue: Catalogue, value: string): string {
  const id = resolversOf(catalogue).category(value);
  if (id) return id;
  throw new HttpError(
    400,
    "Unknown category",
    `"${shown(value)}" names no category; use one of these ids: ${catalogue.categories.map((category) => category.id).join(", ")}`,
  );
}

/** The slugs nearest each unknown one, for the text of a refusal. */
export function nearestSlugs(catalogue: Catalogue, unknown: readonly string[]): string {
  const slugs = catalogue.services.map((service) => service.slug);
  return unknown
    .slice(0, 5)
    .map((slug) => `"${shown(slug)}": did you mean ${nearest(slug, slugs, 5).join(", ")}?`)
    .join("\n");
}
