/**
 * ?region= and ?country= of GET /v1/services (contract 1.11.0, "Locations"): values checked against
 * the regions the catalogue records (values already split: query.ts's listItems), a value none has being a 400 that names the valid ones, as
 * ?jurisdiction= does. Pure.
 */
import type { Catalogue } from "../load/load.ts";
import { HttpError } from "../base/problem.ts";
import { nearestKey } from "../schema/unknown-keys.ts";

/** Every region id of every provider, lower-cased, sorted. */
export const regionIds = (catalogue: Catalogue): string[] =>
  [
    ...new Set(catalogue.providers.flatMap((provider) => (provider.regions ?? []).map(({ id }) => id.toLowerCase()))),
  ].sort();

/** Every country a provider region is in, sorted. */
export const regionCountryCodes = (catalogue: Catalogue): string[] =>
  [
    ...new Set(catalogue.providers.flatMap((provider) => (provider.regions ?? []).map(({ country }) => country))),
  ].sort();

/** ?region=: region ids, case-insensitive; unknown ones are a 400 naming the nearest valid ids. */
export function regionFilterOf(catalogue: Catalogue, values: readonly string[]): Set<string> {
  const ids = values.map((id) => id.toLowerCase());
  const known = regionIds(catalogue);
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length > 0) {
    const named = unknown
      .slice(0, 5)
      .map((id) => {
        const near = nearestKey(id, known);
        return `"${id.slice(0, 40)}"${near ? ` (did you mean "${near}"?)` : ""}`;
      })
      .join(", ");
    throw new HttpError(
      400,
      "Unknown region",
      `region: ${named} is not a region id of any provider; the ${known.length} ids are those of GET /v1/providers (regions[].id), e.g. ${
        known
          .filter((id) => id.startsWith(unknown[0]!.slice(0, 2)))
          .slice(0, 12)
          .join(", ") || known.slice(0, 12).join(", ")
      }`,
    );
  }
  return new Set(ids);
}

/** ?country=: ISO 3166-1 alpha-2 codes, case-insensitive; a country no region is in is a 400 listing those there are. */
export function countryFilterOf(catalogue: Catalogue, values: readonly string[]): Set<string> {
  const codes = values.map((code) => code.toUpperCase());
  const known = regionCountryCodes(catalogue);
  const unknown = codes.filter((code) => !known.includes(code));
  if (unknown.length > 0)
    throw new HttpError(
      400,
      "Unknown country",
      `country: ${unknown
        .slice(0, 5)
        .map((code) => `"${code.slice(0, 40)}"`)
        .join(", ")} is not a country any provider region is in; one of ${known.join(", ")}`,
    );
  return new Set(codes);
}

/** Whether a service runs in one of the regions and one of the countries asked (an empty set asks nothing). */
export function runsIn(
  catalogue: Catalogue,
  slug: string,
  regions: ReadonlySet<string>,
  countries: ReadonlySet<string>,
): boolean {
  if (regions.size === 0 && countries.size === 0) return true;
  const where = catalogue.bySlug.get(slug)?.regions ?? [];
  return (
    (regions.size === 0 || where.some(({ id }) => regions.has(id.toLowerCase()))) &&
    (countries.size === 0 || where.some(({ country }) => countries.has(country)))
  );
}
