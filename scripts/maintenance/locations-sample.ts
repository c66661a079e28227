/**
 * `node scripts/maintenance/locations-sample.ts [seed]`: prints issue 112's sample (catalogue/quality/
 * locations-sample.ts) — 10 services each of AWS, Azure and Google Cloud and 10 of European
 * providers — with the seed first, so the same sample can be drawn again, and per service its kind
 * of place, source, the copy's date and its regions, for grading against the vendors' pages. A seed
 * not given is today's date as a number (20261128), printed.
 */
import { loadCatalogue } from "../../catalogue/load/load.ts";
import { locationsSample } from "../../catalogue/quality/locations-sample.ts";

const seed = Number(process.argv[2] ?? new Date().toISOString().slice(0, 10).replaceAll("-", ""));
if (!Number.isInteger(seed)) {
  console.error("usage: node scripts/maintenance/locations-sample.ts [integer seed]");
  process.exit(1);
}
const sample = locationsSample(loadCatalogue(), seed);
console.log(`seed ${seed}`);
for (const entry of sample)
  console.log(
    [
      entry.group,
      entry.slug,
      entry.placement.kind,
      `as of ${entry.placement.asOf}`,
      entry.placement.homeRegions ? `home ${entry.placement.homeRegions.join(",")}` : "",
      `${entry.regions.length} regions: ${entry.regions.join(",")}`,
      entry.placement.source,
    ]
      .filter(Boolean)
      .join(" | "),
  );
const kinds = (group: string) =>
  ["global", "regional", "provider-level"]
    .map((kind) => `${kind} ${sample.filter((entry) => entry.group === group && entry.placement.kind === kind).length}`)
    .join(", ");
console.log(`big three: ${kinds("big three")}; European: ${kinds("European")}`);
