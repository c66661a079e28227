/**
 * The values of the query filters, read the one way every face reads them (issue 123; STYLE §33,
 * contract/filters.ts is the table that names which parameter reads which vocabulary): ids and names
 * matched case-insensitively ("AWS", "Google Cloud", "OVH" → aws, gcp, ovhcloud; "identity" → the
 * security-identity category; "Switzerland" → CH), every name read so noted for the answer, an
 * unknown value a 400 naming the nearest, an empty one a 400. Pure.
 */
import { editDistance } from "../base/edit-distance.ts";
import { HttpError } from "../base/problem.ts";
import type { ErrorTitle } from "../base/error-catalogue.ts";
import type { Catalogue } from "../load/load.ts";
import { tokenize } from "./words.ts";
import { GENERIC_WORDS, searchData } from "./data.ts";
import { COMPLIANCE_FILTER_SCOPES, EU_EEA_COUNTRIES, LIFECYCLE_STATUSES } from "../schema/vocabulary.ts";

/** A value given by a name, and the id it was read as: said in the answer (`filtersRead`). */
export interface FilterNote {
  readonly parameter: string;
  readonly given: string;
  readonly value: string;
}

/** A filter's values as read, and the notes of those given by a name. */
export interface FilterRead {
  readonly values: string[];
  readonly notes: FilterNote[];
}

/** Letters and digits only, lower case, marks stripped: "digital-ocean", "DigitalOcean" and "Digital Ocean" compare equal. */
export const compactName = (text: string): string =>
  text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");

/** A value as an answer shows it: control characters out, cut at 60. */
const shown = (value: string) => {
  const clean = [...value].filter((char) => char >= " " && char !== "\u007f").join("");
  return clean.length > 60 ? `${clean.slice(0, 60)}…` : clean;
};

/** A comma-separated filter's items, trimmed, blanks dropped, each once; none at all is the empty value's 400. */
export function filterItems(raw: string, parameter: string): string[] {
  const items = [
    ...new Set(
      raw
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ];
  if (items.length === 0) throw emptyFilter(parameter);
  return items;
}

/** The 400 of a parameter given with no value (`?region=`): never read as no filter. */
export const emptyFilter = (parameter: string): HttpError =>
  new HttpError(
    400,
    "Invalid query",
    `${parameter}: no value; give one (the answer would otherwise be unfiltered), or leave ${parameter} out`,
  );

/** A vocabulary: each id with the names it answers to. */
interface Vocabulary {
  readonly title: Extract<
    ErrorTitle,
    "Unknown provider" | "Unknown category" | "Unknown jurisdiction" | "Unknown compliance programme" | "Invalid query"
  >;
  /** What an item is, for the 400 ("provider", "category"). */
  readonly noun: string;
  readonly entries: readonly { readonly id: string; readonly names: readonly string[] }[];
  /** A word read when no id or name is the item ("amazon", "ovh"): the search's provider words. */
  readonly fallback?: (item: string) => string | undefined;
  /** How an id is written in answers: as in the data (lowercase ids), or upper case (jurisdictions). */
  readonly upper?: boolean;
  /** What the 400 adds for this vocabulary (jurisdictions: how EU member states are recorded). */
  readonly hint?: string;
  /** Ids near an item beyond the spelling (a member state's code → EU). */
  readonly near?: (item: string) => readonly string[];
}

/** The up to three ids whose id or names are nearest the item, by edit distance. */
function nearestIds(vocabulary: Vocabulary, item: string): string[] {
  const wanted = compactName(item);
  const first = vocabulary.near?.(item) ?? [];
  const most = Math.max(2, Math.floor(wanted.length / 3));
  const best = new Map<string, number>();
  for (const { id, names } of vocabulary.entries)
    for (const name of [id, ...names]) {
      const other = compactName(name);
      const distance = other.startsWith(wanted) || wanted.startsWith(other) ? 1 : editDistance(wanted, other, most);
      if (distance <= most && distance < (best.get(id) ?? Infinity)) best.set(id, distance);
    }
  return [
    ...new Set([...first, ...[...best].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0])).map(([id]) => id)]),
  ].slice(0, 3);
}

/** Reads a filter's items against a vocabulary: each id or name, case-insensitively; an unknown one a 400 with the nearest. */
function readItems(vocabulary: Vocabulary, raw: string, parameter: string): FilterRead {
  const byName = new Map<string, string>();
  for (const { id, names } of vocabulary.entries) for (const name of [id, ...names]) byName.set(compactName(name), id);
  const values: string[] = [];
  const notes: FilterNote[] = [];
  const unknown: string[] = [];
  for (const item of filterItems(raw, parameter)) {
    const id = byName.get(compactName(item)) ?? vocabulary.fallback?.(item);
    if (!id) {
      unknown.push(item);
      continue;
    }
    if (!values.includes(id)) values.push(id);
    if (item !== id) notes.push({ parameter, given: shown(item), value: id });
  }
  if (unknown.length > 0) {
    const named = unknown.slice(0, 5).map((item) => {
      const near = nearestIds(vocabulary, item);
      return `"${shown(item)}"${near.length > 0 ? ` (nearest: ${near.join(", ")})` : ""}`;
    });
    const ids = vocabulary.entries.map(({ id }) => id);
    throw new HttpError(
      400,
      vocabulary.title,
      `${parameter}: ${named.join(", ")} ${unknown.length === 1 ? "is" : "are"} no ${vocabulary.noun} the catalogue knows; ids and names are read case-insensitively (${vocabulary.noun}s: ${ids.slice(0, 40).join(", ")}${ids.length > 40 ? ", …" : ""})${vocabulary.hint ? `; ${vocabulary.hint}` : ""}`,
    );
  }
  return { values, notes };
}

const vocabularies = new WeakMap<Catalogue, Map<string, Vocabulary>>();

function vocabularyOf(catalogue: Catalogue, kind: string, make: () => Vocabulary): Vocabulary {
  let made = vocabularies.get(catalogue);
  if (!made) vocabularies.set(catalogue, (made = new Map<string, Vocabulary>()));
  let vocabulary = made.get(kind);
  if (!vocabulary) made.set(kind, (vocabulary = make()));
  return vocabulary;
}

/** Providers: ids, names and short names; else the search's provider words ("amazon", "microsoft"), or a start of one ("ovh"). */
function providerVocabulary(catalogue: Catalogue): Vocabulary {
  return vocabularyOf(catalogue, "providers", () => {
    const words = new Map<string, string>();
    for (const provider of searchData(catalogue).providers)
      for (const word of provider.words) words.set(word, provider.id);
    const fallback = (item: string) => {
      const tokens = tokenize(item);
      // "Google Cloud", "amazon": the provider whose words these are, the other words generic ones.
      const named = new Set(tokens.flatMap((word) => words.get(word) ?? []));
      const others = tokens.filter((word) => !words.has(word) && !GENERIC_WORDS.has(word));
      if (named.size === 1 && others.length === 0) return [...named][0];
      // "ovh" for OVHcloud: one word starting one provider's word, and only one's.
      const [word] = tokens;
      if (tokens.length !== 1 || !word || word.length < 3 || GENERIC_WORDS.has(word)) return undefined;
      const starting = new Set([...words].filter(([own]) => own.startsWith(word)).map(([, id]) => id));
      return starting.size === 1 ? [...starting][0] : undefined;
    };
    return {
      title: "Unknown provider",
      noun: "provider",
      entries: catalogue.providers.map(({ id, name, shortName }) => ({ id, names: [name, shortName] })),
      fallback,
    };
  });
}

/** Categories: ids and names; else the one category whose id or name holds every word ("identity", "ml"). */
function categoryVocabulary(catalogue: Catalogue): Vocabulary {
  return vocabularyOf(catalogue, "categories", () => ({
    title: "Unknown category",
    noun: "category",
    entries: catalogue.categories.map(({ id, name }) => ({ id, names: [name] })),
    fallback: (item) => {
      const words = tokenize(item);
      if (words.length === 0) return undefined;
      const matching = catalogue.categories.filter((category) => {
        const own = new Set([...category.id.split("-"), ...tokenize(category.name)]);
        return words.every((word) => own.has(word));
      });
      return matching.length === 1 ? matching[0]!.id : undefined;
    },
  }));
}

/** A country's English name (Intl's CLDR data), for jurisdictions given by name. */
function countryName(code: string): string | undefined {
  try {
    return new Intl.DisplayNames(["en"], { type: "region", fallback: "none" }).of(code);
  } catch {
    return undefined;
  }
}

/** Head-office jurisdictions the catalogue records: codes, the countries' names, and the EU's ("European Union", "Europe"). */
function jurisdictionVocabulary(catalogue: Catalogue): Vocabulary {
  return vocabularyOf(catalogue, "jurisdictions", () => ({
    title: "Unknown jurisdiction",
    noun: "jurisdiction",
    upper: true,
    hint: "a head office in an EU/EEA member state is recorded as EU",
    near: (item) => (EU_EEA_COUNTRIES.has(item.trim().toUpperCase()) ? ["EU"] : []),
    entries: [...new Set(catalogue.providers.flatMap(({ jurisdiction }) => (jurisdiction ? [jurisdiction] : [])))]
      .sort()
      .map((code) => ({
        id: code,
        names: code === "EU" ? ["European Union", "Europe"] : [countryName(code) ?? code],
      })),
  }));
}

/** Compliance programmes: ids and names ("ISO 27001", "BSI C5"). */
function complianceVocabulary(catalogue: Catalogue): Vocabulary {
  return vocabularyOf(catalogue, "compliance", () => ({
    title: "Unknown compliance programme",
    noun: "programme",
    entries: [...catalogue.compliance].map(([id, name]) => ({ id, names: [name] })),
  }));
}

/** A closed list of words (lifecycle statuses, compliance scopes): each case-insensitively. */
const wordVocabulary = (noun: string, words: readonly string[]): Vocabulary => ({
  title: "Invalid query",
  noun,
  entries: words.map((id) => ({ id, names: [] })),
});

/** The services' lifecycle filter: active or a lifecycle status. */
export const LIFECYCLE_FILTER_VALUES = ["active", ...LIFECYCLE_STATUSES] as const;

/** The vocabularies a filter may read, by name (contract/filters.ts's rows name one). */
export const FILTER_VOCABULARIES = {
  providers: providerVocabulary,
  categories: categoryVocabulary,
  jurisdictions: jurisdictionVocabulary,
  compliance: complianceVocabulary,
  lifecycle: () => wordVocabulary("lifecycle status", LIFECYCLE_FILTER_VALUES),
  complianceScope: () => wordVocabulary("compliance scope", COMPLIANCE_FILTER_SCOPES),
} as const satisfies Record<string, (catalogue: Catalogue) => Vocabulary>;
export type FilterVocabulary = keyof typeof FILTER_VOCABULARIES;

/** A filter's values read against its vocabulary (FilterRead: the ids, and the names read as them). */
export function readFilter(
  catalogue: Catalogue,
  vocabulary: FilterVocabulary,
  raw: string,
  parameter: string,
): FilterRead {
  return readItems(FILTER_VOCABULARIES[vocabulary](catalogue), raw, parameter);
}

/** One provider from an id or a name (the MCP tools' provider arguments); the provider filter's 400 when none. */
export function providerId(catalogue: Catalogue, value: string, parameter = "provider"): string {
  const { values } = readFilter(catalogue, "providers", value.replaceAll(",", " "), parameter);
  return values[0]!;
}

/** One category from an id or a name; the category filter's 400 when none. */
export function categoryId(catalogue: Catalogue, value: string, parameter = "category"): string {
  const { values } = readFilter(catalogue, "categories", value.replaceAll(",", " "), parameter);
  return values[0]!;
}
