/**
 * How the exposure scorecard's placing in places reads in words (1.12.0), the same on the site's
 * server-rendered page and in its script: what was asked, which services are in none of the places,
 * which are only provider level there, and per row where its data sits. Pure: the browser runs it.
 */
import type { ExposureReportT } from "../schema/index.ts";

type Row = ExposureReportT["services"][number];

/** One row's place, in words: global in its vendor's region, its regions there, or where it may be. */
export function placedIn(row: Row): string {
  switch (row.placement) {
    case "global":
      return `global: ${row.dataRegions?.length ? row.dataRegions.join(", ") : "its vendor names no region"}`;
    case "provider-level":
      return row.possibleRegions?.length
        ? `may be in ${row.possibleRegions.join(", ")} (its own regions are not known)`
        : "none of its provider's regions is there";
    case "on-premises":
      return "on premises: in the customer's own datacentre";
    default:
      return row.dataRegions?.length ? row.dataRegions.join(", ") : "runs in none of them";
  }
}

/** The sentences above the table: the places asked and the services apart (none when not placed). */
export function placesNotes(report: ExposureReportT): string[] {
  if (!report.places) return [];
  const names = (slugs: readonly string[]) =>
    slugs.map((slug) => report.services.find((row) => row.slug === slug)?.name ?? slug).join(", ");
  return [
    `Placed in ${report.places.map((place) => `${place.place} (${place.kind})`).join(", ")}.`,
    ...(report.notInRegions?.length ? [`In none of these places: ${names(report.notInRegions)}.`] : []),
    ...(report.providerLevel?.length
      ? [
          `Provider level, listed apart (their own regions are not known; their provider has a region here, so they may or may not run here): ${names(report.providerLevel)}.`,
        ]
      : []),
  ];
}
