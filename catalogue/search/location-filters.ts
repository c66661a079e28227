/**
 * ?region= and ?country= of GET /v1/services and ?regions= of GET /v1/exposure (contract 1.11.0,
 * "Locations"; 1.12.0, places): values read as places (locations/places.ts: region ids, countries,
 * EU, EEA, multi-regions, global), an unknown one being a 400 that names the nearest. What a place
 * holds is answered from service-level data only (docs/decisions.md#places): a regional service runs
 * there when one of its own regions is covered, a global service when `global` is asked or its home
 * region is covered; a provider-level service only may run there, and is told apart. Pure.
 */
import type { Catalogue } from "../load/load.ts";
import { HttpError } from "../base/problem.ts";
import type { ErrorTitle } from "../base/error-catalogue.ts";
import { placesCover, resolvePlaces, UnknownPlacesError, type Place } from "../locations/places.ts";
import { placeWordProblem } from "../schema/requests.ts";

/** How a service stands in the places asked: runs there (regional), global there, may run there (provider level). */
export type PlaceMatch = "service" | "global" | "provider-level";

/** Places of a query parameter; an unknown one is a 400 with `title`, naming the nearest. */
export function placesOf(
  catalogue: Catalogue,
  values: readonly string[],
  parameter: string,
  title: Extract<ErrorTitle, "Unknown region" | "Unknown country"> = "Unknown region",
): Place[] {
  // The place rule of every face, refused in the words a body's allowedLocations is (issue 123).
  for (const value of values) {
    const problem = placeWordProblem(value.trim());
    if (problem) throw new HttpError(400, "Invalid query", `${parameter}: "${value.trim().slice(0, 40)}" ${problem}`);
  }
  try {
    return resolvePlaces(catalogue, values, parameter);
  } catch (error) {
    if (error instanceof UnknownPlacesError) throw new HttpError(400, title, error.message);
    throw error;
  }
}

/** How one service stands in the places: undefined when it is not there (or retired). */
export function placeMatch(catalogue: Catalogue, slug: string, places: readonly Place[]): PlaceMatch | undefined {
  const record = catalogue.bySlug.get(slug);
  if (!record?.placement) return undefined;
  const providerId = record.service.providerId;
  const covered = record.regions.some(({ id }) => placesCover(places, providerId, id));
  switch (record.placement.kind) {
    case "global":
      return places.some((place) => place.kind === "global") || covered ? "global" : undefined;
    case "regional":
      return covered || places.some((place) => place.offeredBy?.includes(slug)) ? "service" : undefined;
    case "provider-level":
      return covered ? "provider-level" : undefined;
  }
}

/**
 * How a service stands in every place parameter asked (each must hold it: region= and country=
 * together); the weakest answer of them: provider level when any is, then global. An empty list of
 * parameters asks nothing: "service".
 */
export function matchAll(
  catalogue: Catalogue,
  slug: string,
  asked: readonly (readonly Place[])[],
): PlaceMatch | undefined {
  let answer: PlaceMatch = "service";
  for (const places of asked.filter((list) => list.length > 0)) {
    const match = placeMatch(catalogue, slug, places);
    if (!match) return undefined;
    if (match === "provider-level" || answer === "service") answer = match;
  }
  return answer;
}

/** The places as an answer names them: the word, its kind and what it covers. */
export function placesAnswer(places: readonly Place[]) {
  return places.map((place) => ({
    place: place.place,
    kind: place.kind,
    ...(place.providerId ? { providerId: place.providerId } : {}),
    ...(place.given ? { given: place.given } : {}),
    ...(place.name ? { name: place.name } : {}),
    countries: [...place.countries],
    regions: place.regions.length,
  }));
}

/** A global service as a data table row: answered from its vendor's global endpoint (placement global). */
export interface GlobalServiceRow {
  readonly slug: string;
  readonly providerId: string;
  /** The region(s) the vendor names for it (its control plane); empty when it names none. */
  readonly homeRegions: readonly string[];
  readonly source: string;
  readonly asOf: string;
}

/**
 * Every global service, by provider then slug: the table the deployment check reads to answer a
 * resource of such a service as global (no region to allow or deny), and GET-able as data.
 */
export function globalServices(catalogue: Catalogue): GlobalServiceRow[] {
  return catalogue.services
    .flatMap((service) => {
      const placement = catalogue.bySlug.get(service.slug)?.placement;
      return placement?.kind === "global"
        ? [
            {
              slug: service.slug,
              providerId: service.providerId,
              homeRegions: placement.homeRegions ?? [],
              source: placement.source,
              asOf: placement.asOf,
            },
          ]
        : [];
    })
    .sort((a, b) => a.providerId.localeCompare(b.providerId) || a.slug.localeCompare(b.slug));
}
