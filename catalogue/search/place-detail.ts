/**
 * GET /v1/places/{place} (contract 1.13.0, issue 123): a place as people name it, read by the one
 * vocabulary of places (locations/places.ts) as every place parameter reads it, answered with every
 * provider's regions there — each with its vendor's name, its city and where that city comes from
 * (data/places/metros.yaml citySources) — and the metro areas those regions are in, so a region
 * leads back to the other providers' regions of its metro. Pure.
 */
import type { Catalogue } from "../load/load.ts";
import { nearestPlaces, resolvePlace, unknownPlacesDetails, type Place } from "../locations/places.ts";
import { HttpError } from "../base/problem.ts";
import type { PlaceDetailT } from "../schema/index.ts";

/** Providers by how many services they have, largest first (the matrix's and the search's order). */
function providerOrder(catalogue: Catalogue): Map<string, number> {
  const size = new Map<string, number>();
  for (const service of catalogue.services) size.set(service.providerId, (size.get(service.providerId) ?? 0) + 1);
  const ids = catalogue.providers
    .map(({ id }) => id)
    .sort((a, b) => (size.get(b) ?? 0) - (size.get(a) ?? 0) || a.localeCompare(b));
  return new Map(ids.map((id, i) => [id, i]));
}

/** The place's regions as rows, largest providers first, each provider's in its own order. */
function regionRows(catalogue: Catalogue, place: Place): PlaceDetailT["regions"] {
  const order = providerOrder(catalogue);
  const sources = catalogue.source.metros?.citySources ?? {};
  const position = (providerId: string, id: string) =>
    catalogue.providerById.get(providerId)?.regions.findIndex((region) => region.id === id) ?? 0;
  return [...place.regions]
    .sort(
      (a, b) =>
        (order.get(a.providerId) ?? 0) - (order.get(b.providerId) ?? 0) ||
        position(a.providerId, a.id) - position(b.providerId, b.id),
    )
    .map(({ providerId, id }) => {
      const region = catalogue.providerById.get(providerId)!.regions.find((candidate) => candidate.id === id)!;
      const source = region.city && Object.hasOwn(sources, providerId) ? sources[providerId] : undefined;
      return {
        providerId,
        id,
        name: region.name,
        ...(region.city ? { city: region.city } : {}),
        country: region.country,
        ...(source ? { citySource: { ...source } } : {}),
      };
    });
}

/** A place's answer, or undefined when no place answers to the word. */
export function placeDetail(catalogue: Catalogue, word: string): PlaceDetailT | undefined {
  const place = resolvePlace(catalogue, word);
  if (!place) return undefined;
  const regions = regionRows(catalogue, place);
  const byProvider: PlaceDetailT["byProvider"] = [];
  for (const { providerId, id } of regions) {
    const last = byProvider.at(-1);
    if (last?.providerId === providerId) last.regions.push(id);
    else byProvider.push({ providerId, regions: [id] });
  }
  const held = new Set(regions.map(({ providerId, id }) => `${providerId}:${id}`));
  const metros = catalogue.metros
    .filter((metro) => metro.regions.some((region) => held.has(region)))
    .map(({ id, name, regions: inMetro }) => ({ id, name, regions: inMetro.length }));
  return {
    place: place.place,
    kind: place.kind,
    ...(place.given ? { given: place.given } : {}),
    ...(place.name ? { name: place.name } : {}),
    ...(place.providerId ? { providerId: place.providerId } : {}),
    countries: [...place.countries],
    regions,
    byProvider,
    metros,
  };
}

/** GET /v1/places/{place}'s answer: the place, or a 404 naming the nearest places. */
export function placeAnswer(catalogue: Catalogue, word: string): PlaceDetailT {
  const detail = placeDetail(catalogue, word);
  if (detail) return detail;
  const shown = word.trim();
  throw new HttpError(
    404,
    "Place not found",
    unknownPlacesDetails("place", [{ word: shown, nearest: nearestPlaces(catalogue, shown) }]),
  );
}
