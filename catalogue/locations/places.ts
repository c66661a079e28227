/**
 * The one vocabulary of places (docs/decisions.md#places): every parameter and body that names a
 * place — GET /v1/services's region= and country=, GET /v1/exposure's regions=, the policies'
 * and the deployment check's allowedLocations — resolves its words here, to what each covers.
 *
 * A place is, in the order a word is read:
 * - `global`: a vendor's global endpoint (kind global): covers no region;
 * - `provider:value`: that provider's region or multi-region, whatever else the value means
 *   (`heroku:eu` is Heroku's region "eu", `gcp:US` Google's US multi-region);
 * - a group, `EU` (the 27 member states) or `EEA` (the EU, Iceland, Liechtenstein, Norway);
 * - an ISO 3166-1 alpha-2 country code some region is in (`DE`);
 * - a vendor's multi-region or dual-region (`ASIA`, `NAM4`, `EUR4`: data/locations/multi-regions.yaml);
 * - a metro area by its id or any of its names (`Frankfurt`, `Francfort`, `frankfurt-am-main`): every
 *   provider's regions whose city it takes in (data/places/metros.yaml; issue 123);
 * - a region id of any provider, case-insensitive (`eu-central-1`; every provider's region of that id);
 * - a country by its name in English, German, French, Italian, Spanish or Dutch (`Germany`,
 *   `Allemagne`: the country DE), then a region by its vendor's display name (`Germany West Central`).
 * So a region named like a group, a country or a metro (Heroku's `eu`, Cloudflare's `us`, Heroku's
 * `frankfurt`) is reached with its provider's prefix, and `EU` always means the EU; a name is read
 * as the answer says (`given`). An unknown word is named with its nearest, by code and by name.
 *
 * Pure (no zod, no Node): the policies the browser runs resolve their allowedLocations here too.
 */
import { editDistance } from "../base/edit-distance.ts";

/** The EU's 27 member states (ISO 3166-1 alpha-2); schema/vocabulary.ts's EU_EEA_COUNTRIES adds EEA_ONLY. */
export const EU_COUNTRIES: readonly string[] =
  "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split(" ");
/** The EEA members outside the EU. */
export const EEA_ONLY: readonly string[] = ["IS", "LI", "NO"];
/** The groups a place may name, with their member states. */
export const PLACE_GROUPS: ReadonlyMap<string, readonly string[]> = new Map([
  ["EU", EU_COUNTRIES],
  ["EEA", [...EU_COUNTRIES, ...EEA_ONLY]],
]);
/** The word for a vendor's global endpoint. */
export const GLOBAL_PLACE = "global";

export const PLACE_KINDS = ["region", "country", "group", "multi-region", "global", "metro"] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/** A region as the catalogue holds it (Provider.regions[]). */
export interface PlaceRegionData {
  readonly id: string;
  readonly country: string;
  readonly market?: string | undefined;
  /** Its display name as the vendor writes it ("Europe (Frankfurt)"), read as a place too. */
  readonly name?: string | undefined;
  readonly city?: string | undefined;
}

/** A metro area (data/places/metros.yaml) with the regions its cities hold, as the catalogue assembles it. */
export interface PlaceMetro {
  readonly id: string;
  readonly name: string;
  readonly country: string;
  /** Its other names as written in the data. */
  readonly names: readonly string[];
  /** Its regions as `provider:region`. */
  readonly regions: readonly string[];
}

/** A catalogue region with its provider. */
export interface PlaceRegion extends PlaceRegionData {
  readonly providerId: string;
}

/** A vendor's multi-region as data/locations/multi-regions.yaml records it (schema MultiRegion). */
export interface PlaceMultiRegion {
  readonly providerId: string;
  readonly value: string;
  readonly kind: string;
  readonly name: string;
  readonly regions?: readonly string[] | undefined;
  readonly countries?: readonly string[] | undefined;
  readonly services: readonly string[];
}

/** What the vocabulary reads: every provider's regions and the vendors' multi-regions (a Catalogue is one). */
export interface PlaceCatalogue {
  readonly providers: readonly { readonly id: string; readonly regions?: readonly PlaceRegionData[] | undefined }[];
  readonly multiRegions?: readonly PlaceMultiRegion[] | undefined;
  /** The metro areas people name (absent: none). */
  readonly metros?: readonly PlaceMetro[] | undefined;
}

/** A resolved place: what it is and what it covers. */
export interface Place {
  /** The word normalised: region ids lower case (provider:region when asked so), countries and groups upper case, a multi-region as its vendor writes it, "global". */
  readonly place: string;
  readonly kind: PlaceKind;
  /** A region's or multi-region's provider when the word named one provider's (qualified, or only one has it). */
  readonly providerId?: string;
  /** The catalogue regions it covers (none for global, and none for a multi-region whose vendor names no region). */
  readonly regions: readonly PlaceRegion[];
  /** The countries it covers: a group's members, the country, its regions' countries, a multi-region's stated countries. */
  readonly countries: readonly string[];
  /** A multi-region only: the services that take it as a location. */
  readonly offeredBy?: readonly string[];
  /** The word as it was given, when the place was read from a name ("Frankfurt", "Germany"). */
  readonly given?: string;
  /** A metro's or a country's name in English, when the word named one. */
  readonly name?: string;
}

/** A word no place answers to, with the nearest words that do. */
export interface UnknownPlace {
  readonly word: string;
  readonly nearest: readonly string[];
}

/** Thrown by resolvePlaces: every unknown word, and the details sentence each caller answers its 400 with. */
export class UnknownPlacesError extends Error {
  readonly unknown: readonly UnknownPlace[];
  constructor(parameter: string, unknown: readonly UnknownPlace[]) {
    super(unknownPlacesDetails(parameter, unknown));
    this.unknown = unknown;
  }
}

/** What an unknown place's 400 says, the same for every parameter that takes places. */
export function unknownPlacesDetails(parameter: string, unknown: readonly UnknownPlace[]): string {
  const named = unknown
    .slice(0, 5)
    .map(
      ({ word, nearest }) => `"${word.slice(0, 40)}"${nearest.length > 0 ? ` (nearest: ${nearest.join(", ")})` : ""}`,
    );
  return `${parameter}: ${named.join("; ")} ${unknown.length === 1 ? "is" : "are"} no place the catalogue knows. A place is a region id of any provider (eu-central-1; provider:region for a region named like a group or a country, e.g. heroku:eu), an ISO 3166-1 alpha-2 country code a region is in (DE), a group (EU, EEA), a vendor's multi-region or dual-region (ASIA, NAM4, EUR4; gcp:US for Google's US multi-region) or global (a vendor's global endpoint); a metro area, a country or a region is also read by its name (Frankfurt, Germany, Germany West Central).`;
}

const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();

/** A place's name as compared: NFKD, marks stripped, lower case, runs of other characters one space. */
export const placeName = (text: string): string =>
  text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** The languages a country's name is read in (the search's six). */
const NAME_LANGUAGES = ["en", "de", "fr", "it", "es", "nl"] as const;

/** A country's names in the six languages (Intl's CLDR data, in Node and every browser), English first. */
function countryNames(code: string): string[] {
  const names: string[] = [];
  for (const language of NAME_LANGUAGES) {
    try {
      const name = new Intl.DisplayNames([language], { type: "region", fallback: "none" }).of(code);
      if (name && !names.includes(name)) names.push(name);
    } catch {
      // A runtime without the language's data reads the others.
    }
  }
  return names;
}

/** The catalogue's places, indexed once per catalogue object. */
interface PlaceIndex {
  readonly regionsById: ReadonlyMap<string, readonly PlaceRegion[]>;
  readonly regionsOf: ReadonlyMap<string, readonly PlaceRegion[]>;
  readonly all: readonly PlaceRegion[];
  readonly countries: ReadonlySet<string>;
  readonly multiById: ReadonlyMap<string, readonly PlaceMultiRegion[]>;
  /** Metros by each of their words (id, name, other names; placeName'd). */
  readonly metroByName: ReadonlyMap<string, PlaceMetro>;
  /** Country codes by each of their names (placeName'd), and each country's English name. */
  readonly countryByName: ReadonlyMap<string, string>;
  readonly countryName: ReadonlyMap<string, string>;
  /** Regions by their vendors' display names (placeName'd). */
  readonly regionsByName: ReadonlyMap<string, readonly PlaceRegion[]>;
  /** Per region (`provider:id`), what its name and city say, for the nearest ("Gravelines (GRA)"). */
  readonly regionWords: ReadonlyMap<PlaceRegion, { readonly label: string; readonly parts: readonly string[] }>;
  /** Every word a place answers to, for the nearest: [the word as read, what it names]. */
  readonly words: readonly (readonly [string, string])[];
}

const indexes = new WeakMap<PlaceCatalogue, PlaceIndex>();

function indexOf(catalogue: PlaceCatalogue): PlaceIndex {
  const known = indexes.get(catalogue);
  if (known) return known;
  const regionsById = new Map<string, PlaceRegion[]>();
  const regionsOf = new Map<string, PlaceRegion[]>();
  const regionsByName = new Map<string, PlaceRegion[]>();
  const regionWords = new Map<PlaceRegion, { label: string; parts: string[] }>();
  const all: PlaceRegion[] = [];
  for (const provider of catalogue.providers)
    for (const region of provider.regions ?? []) {
      const placed: PlaceRegion = {
        providerId: provider.id,
        id: region.id,
        country: region.country,
        ...(region.market !== undefined ? { market: region.market } : {}),
      };
      all.push(placed);
      const key = region.id.toLowerCase();
      regionsById.set(key, [...(regionsById.get(key) ?? []), placed]);
      regionsOf.set(provider.id, [...(regionsOf.get(provider.id) ?? []), placed]);
      if (region.name) {
        const name = placeName(region.name);
        regionsByName.set(name, [...(regionsByName.get(name) ?? []), placed]);
      }
      const said = [region.name, region.city].filter((text): text is string => Boolean(text));
      regionWords.set(placed, {
        // What it names in the 400's nearest: its city, else its name (no parentheses: they delimit the list).
        label: (region.city ?? region.name ?? "").replace(/[()]/g, "").trim(),
        parts: [...new Set([...key.split(/[^a-z0-9]+/), ...said.flatMap((text) => placeName(text).split(" "))])],
      });
    }
  const countries = new Set([...all.map((region) => region.country), ...[...PLACE_GROUPS.values()].flat()]);
  const multiById = new Map<string, PlaceMultiRegion[]>();
  for (const multi of catalogue.multiRegions ?? []) {
    const key = multi.value.toLowerCase();
    multiById.set(key, [...(multiById.get(key) ?? []), multi]);
  }
  const metroByName = new Map<string, PlaceMetro>();
  for (const metro of catalogue.metros ?? [])
    for (const word of [metro.id, metro.name, ...metro.names]) metroByName.set(placeName(word), metro);
  const countryByName = new Map<string, string>();
  const countryName = new Map<string, string>();
  for (const code of countries) {
    const names = countryNames(code);
    if (names[0]) countryName.set(code, names[0]);
    for (const name of names) if (placeName(name).length > 2) countryByName.set(placeName(name), code);
  }
  // Each word once, case-insensitively, as it is read: a region named like a group, a country or a
  // metro (Heroku's eu, Heroku's frankfurt) by its qualified name, a value two vendors share by theirs.
  const named = new Map<string, readonly [string, string]>();
  const add = (word: string, what = "") => {
    if (!named.has(word.toLowerCase())) named.set(word.toLowerCase(), [word, what]);
  };
  for (const word of [GLOBAL_PLACE, ...PLACE_GROUPS.keys()]) add(word);
  for (const code of countries) add(code, countryName.get(code) ?? "");
  for (const [key, multis] of multiById)
    for (const multi of multis)
      add(multis.length === 1 && !named.has(key) ? multi.value : `${multi.providerId}:${multi.value}`, multi.name);
  for (const metro of catalogue.metros ?? []) add(metro.id, metro.name);
  const taken = new Set([...named.keys(), ...metroByName.keys()]);
  for (const [key, regions] of regionsById)
    for (const region of regions)
      add(taken.has(key) ? `${region.providerId}:${region.id}` : region.id, regionWords.get(region)?.label ?? "");
  const words = [...named.values()].sort((a, b) => a[0].localeCompare(b[0]));
  const index = {
    regionsById,
    regionsOf,
    all,
    countries,
    multiById,
    metroByName,
    countryByName,
    countryName,
    regionsByName,
    regionWords,
    words,
  };
  indexes.set(catalogue, index);
  return index;
}

function multiRegionPlace(index: PlaceIndex, multi: PlaceMultiRegion): Place {
  const own = index.regionsOf.get(multi.providerId) ?? [];
  const named = new Set(multi.regions ?? []);
  const countries = new Set(multi.countries ?? []);
  // The regions the vendor names; else, where it names only countries (Google's EU), its regions there.
  const regions = multi.regions
    ? own.filter((region) => named.has(region.id))
    : own.filter((region) => countries.has(region.country));
  return {
    place: multi.value,
    kind: "multi-region",
    providerId: multi.providerId,
    regions,
    countries: sortedUnique([...(multi.countries ?? []), ...regions.map((region) => region.country)]),
    offeredBy: [...multi.services],
  };
}

function regionPlace(word: string, regions: readonly PlaceRegion[]): Place {
  const providers = new Set(regions.map((region) => region.providerId));
  return {
    place: word,
    kind: "region",
    ...(providers.size === 1 ? { providerId: regions[0]!.providerId } : {}),
    regions,
    countries: sortedUnique(regions.map((region) => region.country)),
  };
}

/** A provider-qualified word (`heroku:eu`, `gcp:US`): that provider's region or multi-region. */
function qualifiedPlace(index: PlaceIndex, providerId: string, value: string): Place | undefined {
  const lower = value.toLowerCase();
  const multi = index.multiById.get(lower)?.find((candidate) => candidate.providerId === providerId);
  if (multi) return multiRegionPlace(index, multi);
  const regions = (index.regionsById.get(lower) ?? []).filter((region) => region.providerId === providerId);
  return regions.length > 0 ? regionPlace(`${providerId}:${lower}`, regions) : undefined;
}

/** One word as a place, or undefined when none answers to it. */
export function resolvePlace(catalogue: PlaceCatalogue, word: string): Place | undefined {
  const index = indexOf(catalogue);
  const raw = word.trim();
  const lower = raw.toLowerCase();
  const upper = raw.toUpperCase();
  if (lower === GLOBAL_PLACE) return { place: GLOBAL_PLACE, kind: "global", regions: [], countries: [] };
  const colon = raw.indexOf(":");
  if (colon > 0) return qualifiedPlace(index, lower.slice(0, colon), raw.slice(colon + 1));
  const members = PLACE_GROUPS.get(upper);
  if (members) {
    const inGroup = new Set(members);
    return {
      place: upper,
      kind: "group",
      regions: index.all.filter((region) => inGroup.has(region.country)),
      countries: [...members].sort(),
    };
  }
  if (/^[A-Z]{2}$/.test(upper) && index.countries.has(upper))
    return {
      place: upper,
      kind: "country",
      regions: index.all.filter((region) => region.country === upper),
      countries: [upper],
    };
  const metro = index.metroByName.get(placeName(raw));
  if (metro) return metroPlace(index, metro, raw);
  const multis = index.multiById.get(lower);
  // A value two vendors share would be ambiguous: it is read as a region id below, or asked qualified.
  if (multis?.length === 1) return multiRegionPlace(index, multis[0]!);
  const regions = index.regionsById.get(lower);
  if (regions) return regionPlace(lower, regions);
  return namedPlace(index, raw);
}

/** A metro: the regions its cities hold, on every provider. */
function metroPlace(index: PlaceIndex, metro: PlaceMetro, given: string): Place {
  const held = new Set(metro.regions);
  const regions = index.all.filter((region) => held.has(`${region.providerId}:${region.id}`));
  return {
    place: metro.id,
    kind: "metro",
    regions,
    countries: sortedUnique([metro.country, ...regions.map((region) => region.country)]),
    name: metro.name,
    ...(given.trim().toLowerCase() !== metro.id ? { given: given.trim() } : {}),
  };
}

/** A country by its name ("Germany", "Allemagne"), else regions by their vendors' display name. */
function namedPlace(index: PlaceIndex, raw: string): Place | undefined {
  const name = placeName(raw);
  const code = index.countryByName.get(name);
  if (code)
    return {
      place: code,
      kind: "country",
      regions: index.all.filter((region) => region.country === code),
      countries: [code],
      given: raw,
      ...(index.countryName.get(code) ? { name: index.countryName.get(code)! } : {}),
    };
  const regions = index.regionsByName.get(name);
  if (!regions) return undefined;
  const providers = new Set(regions.map((region) => region.providerId));
  const first = regions[0]!;
  return {
    ...regionPlace(providers.size === 1 && regions.length === 1 ? first.id : name, regions),
    given: raw,
  };
}

/** How many names and codes an unknown word is compared with before the edit distance: those containing it. */
const NEAREST = 3;

/**
 * The up to three known words nearest an unknown one, each with what it names ("DE = Germany",
 * "eu-west-gra = Gravelines (GRA), Gravelines"): first a region whose id, name or city has the word
 * as a part ("gra": OVHcloud's Gravelines), then every word (codes, metros, countries by name,
 * regions) by edit distance.
 */
export function nearestPlaces(catalogue: PlaceCatalogue, word: string): string[] {
  const index = indexOf(catalogue);
  const lower = word.toLowerCase();
  const name = placeName(word);
  const found: string[] = [];
  const push = (entry: string) => {
    if (!found.includes(entry) && found.length < NEAREST) found.push(entry);
  };
  const said = (known: string, what: string) =>
    what && what.toLowerCase() !== known.toLowerCase() ? `${known} = ${what}` : known;
  const wordOf = (region: PlaceRegion) =>
    index.words.find(([known]) => known === region.id || known === `${region.providerId}:${region.id}`);
  if (name.length >= 3)
    for (const [region, { parts }] of index.regionWords)
      if (parts.includes(name)) {
        const known = wordOf(region);
        if (known) push(said(known[0], known[1]));
      }
  const most = Math.max(2, Math.floor(lower.length / 3));
  const candidates: [string, string, number][] = [];
  // Codes and ids by their spelling, said as they are ("eu-centrl-1" → eu-central-1).
  for (const [known] of index.words) candidates.push([known, "", editDistance(lower, known.toLowerCase(), most)]);
  // Names: a metro's or country's, compared as names are and said with the name ("germny" → DE = Germany).
  for (const [metroName, metro] of index.metroByName)
    candidates.push([metro.id, metro.name, editDistance(name, metroName, most)]);
  for (const [countryName, code] of index.countryByName)
    candidates.push([code, index.countryName.get(code) ?? "", editDistance(name, countryName, most)]);
  candidates
    .filter(([, , distance]) => distance <= most)
    .sort((a, b) => a[2] - b[2] || a[0].localeCompare(b[0]))
    .forEach(([known, what]) => push(said(known, what)));
  return found;
}

/**
 * Words as places, each once, in the order given; every unknown one named, with its nearest, in one
 * UnknownPlacesError (the caller answers it as its 400). `parameter` names the field in that sentence.
 */
export function resolvePlaces(catalogue: PlaceCatalogue, words: readonly string[], parameter: string): Place[] {
  const places: Place[] = [];
  const seen = new Set<string>();
  const unknown: UnknownPlace[] = [];
  for (const word of words) {
    const trimmed = word.trim();
    if (trimmed === "") continue;
    const place = resolvePlace(catalogue, trimmed);
    if (!place) {
      unknown.push({ word: trimmed, nearest: nearestPlaces(catalogue, trimmed) });
      continue;
    }
    const key = `${place.kind}:${place.providerId ?? ""}:${place.place}`;
    if (!seen.has(key)) places.push(place);
    seen.add(key);
  }
  if (unknown.length > 0) throw new UnknownPlacesError(parameter, unknown);
  return places;
}

/** Whether a place covers one provider's region (by id, or by its country for a country or group). */
export function placeCovers(place: Place, providerId: string, regionId: string): boolean {
  return place.regions.some((region) => region.providerId === providerId && region.id === regionId);
}

/** Whether any of the places covers the region. */
export const placesCover = (places: readonly Place[], providerId: string, regionId: string): boolean =>
  places.some((place) => placeCovers(place, providerId, regionId));

/** One provider's regions the places cover, each once, in the provider's order. */
export function regionsOfPlaces(
  catalogue: PlaceCatalogue,
  places: readonly Place[],
  providerId: string,
): PlaceRegion[] {
  return (indexOf(catalogue).regionsOf.get(providerId) ?? []).filter((region) =>
    placesCover(places, providerId, region.id),
  );
}

/** Every region id that is also a group's or a country's code, or a metro's word: reached only as provider:region. */
export function shadowedRegions(catalogue: PlaceCatalogue): string[] {
  const index = indexOf(catalogue);
  return index.all
    .filter((region) => {
      const upper = region.id.toUpperCase();
      return (
        PLACE_GROUPS.has(upper) ||
        (/^[A-Z]{2}$/.test(upper) && index.countries.has(upper)) ||
        index.metroByName.has(placeName(region.id))
      );
    })
    .map((region) => `${region.providerId}:${region.id}`)
    .sort();
}

/**
 * A multi-region is allowed when every region it covers is (or, where its vendor names countries
 * rather than regions, every country): data in a multi-region may be kept in any of them. The
 * deployment check and the Google location policy both decide by it (issue 124).
 */
export function multiRegionAllowed(multi: Place, allowed: readonly Place[]): boolean {
  if (allowed.some((place) => place.kind === "multi-region" && place.place === multi.place)) return true;
  if (multi.regions.length > 0)
    return multi.regions.every((covered) =>
      allowed.some((place) =>
        place.regions.some((region) => region.providerId === covered.providerId && region.id === covered.id),
      ),
    );
  const countries = new Set(
    allowed.filter((place) => place.kind !== "multi-region").flatMap((place) => place.countries),
  );
  return multi.countries.length > 0 && multi.countries.every((country) => countries.has(country));
}
