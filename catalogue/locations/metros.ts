/**
 * The metro areas of data/places/metros.yaml as the vocabulary of places reads them (PlaceMetro):
 * each with the regions of every provider, in its country, whose city (providers/<id>.yaml `city`)
 * is one of its cities. Pure.
 */
import type { MetrosFileT } from "../schema/words-places-files.ts";
import { placeName, type PlaceMetro } from "./places.ts";

/** A provider's regions as the data holds them: id, country and city. */
interface CityRegions {
  readonly id: string;
  readonly regions: readonly { readonly id: string; readonly country: string; readonly city?: string | undefined }[];
}

/** A metro's regions as `provider:region`: every region in its country whose city is one of its cities. */
export function metroRegions(metro: MetrosFileT["metros"][number], providers: readonly CityRegions[]): string[] {
  const cities = new Set(metro.cities.map(placeName));
  return providers.flatMap((provider) =>
    provider.regions
      .filter((region) => region.country === metro.country && region.city && cities.has(placeName(region.city)))
      .map((region) => `${provider.id}:${region.id}`),
  );
}

/** The metros as the places vocabulary reads them, each with its regions. */
export function placeMetros(file: MetrosFileT | undefined, providers: readonly CityRegions[]): PlaceMetro[] {
  return (file?.metros ?? []).map((metro) => ({
    id: metro.id,
    name: metro.name,
    country: metro.country,
    names: [...metro.names],
    regions: metroRegions(metro, providers),
  }));
}
