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
 * - a region id of any provider, case-insensitive (`eu-central-1`; every provider's region of that id).
 * So a region named like a group or a country (Heroku's `eu`, Cloudflare's `us`) is reached with
 * its provider's prefix, and `EU` always means the EU. An unknown word is named with its nearest.
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

export const PLACE_KINDS = ["region", "country", "group", "multi-region", "global"] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/** A region as the catalogue holds it (Provider.regions[]). */
export interface PlaceRegionData {
  readonly id: string;
  readonly country: string;
  readonly market?: string | undefined;
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
  return `${parameter}: ${named.join("; ")} ${unknown.length === 1 ? "is" : "are"} no place the catalogue knows. A place is a region id of any provider (eu-central-1; provider:region for a region named like a group or a country, e.g. heroku:eu), an ISO 3166-1 alpha-2 country code a region is in (DE), a group (EU, EEA), a vendor's multi-region or dual-region (ASIA, NAM4, EUR4; gcp:US for Google's US multi-region) or global (a vendor's global endpoint).`;
}

const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();

/** The catalogue's places, indexed once per catalogue object. */
interface PlaceIndex {
  readonly regionsById: ReadonlyMap<string, readonly PlaceRegion[]>;
  readonly regionsOf: ReadonlyMap<string, readonly PlaceRegion[]>;
  readonly all: readonly PlaceRegion[];
  readonly countries: ReadonlySet<string>;
  readonly multiById: ReadonlyMap<string, readonly PlaceMultiRegion[]>;
  /** Every word a place answers to, for the nearest. */
  readonly words: readonly string[];
}

const indexes = new WeakMap<PlaceCatalogue, PlaceIndex>();

function indexOf(catalogue: PlaceCatalogue): PlaceIndex {
  const known = indexes.get(catalogue);
  if (known) return known;
  const regionsById = new Map<string, PlaceRegion[]>();
  const regionsOf = new Map<string, PlaceRegion[]>();
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
    }
  const countries = new Set([...all.map((region) => region.country), ...[...PLACE_GROUPS.values()].flat()]);
  const multiById = new Map<string, PlaceMultiRegion[]>();
  for (const multi of catalogue.multiRegions ?? []) {
    const key = multi.value.toLowerCase();
    multiById.set(key, [...(multiById.get(key) ?? []), multi]);
  }
  // Each word once, case-insensitively, as it is read: a region named like a group or a country
  // (Heroku's eu) by its qualified name, a value two vendors share by theirs.
  const named = new Map<string, string>();
  const add = (word: string) => {
    if (!named.has(word.toLowerCase())) named.set(word.toLowerCase(), word);
  };
  for (const word of [GLOBAL_PLACE, ...PLACE_GROUPS.keys(), ...countries]) add(word);
  for (const [key, multis] of multiById)
    for (const multi of multis)
      add(multis.length === 1 && !named.has(key) ? multi.value : `${multi.providerId}:${multi.value}`);
  const taken = new Set(named.keys());
  for (const [key, regions] of regionsById)
    for (const region of regions) add(taken.has(key) ? `${region.providerId}:${region.id}` : region.id);
  const words = [...named.values()].sort();
  const index = { regionsById, regionsOf, all, countries, multiById, words };
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
  const multis = index.multiById.get(lower);
  // A value two vendors share would be ambiguous: it is read as a region id below, or asked qualified.
  if (multis?.length === 1) return multiRegionPlace(index, multis[0]!);
  const regions = index.regionsById.get(lower);
  if (regions) return regionPlace(lower, regions);
  return undefined;
}

/** The up to three known words nearest an unknown one. */
export function nearestPlaces(catalogue: PlaceCatalogue, word: string): string[] {
  const known = indexOf(catalogue).words;
  const lower = word.toLowerCase();
  const most = Math.max(2, Math.floor(lower.length / 3));
  return known
    .map((candidate) => ({ candidate, distance: editDistance(lower, candidate.toLowerCase(), most) }))
    .filter(({ distance }) => distance <= most)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
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

/** Every region id that is also a group's or a country's code: reached only as provider:region. */
export function shadowedRegions(catalogue: PlaceCatalogue): string[] {
  const index = indexOf(catalogue);
  return index.all
    .filter((region) => {
      const upper = region.id.toUpperCase();
      return PLACE_GROUPS.has(upper) || (/^[A-Z]{2}$/.test(upper) && index.countries.has(upper));
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
