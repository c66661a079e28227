/**
 * `npm run release [-- --date YYYY-MM-DD]`: records a catalogue release. Writes
 * catalogue/releases/<date>.json (default: today, UTC): every service's name, provider and
 * lifecycle, one per line. The build then lists this release's changes (from the snapshot before
 * it) under GET /v1/changes and /v1/changes.atom, and counts later edits from it. Also appends to
 * catalogue/releases/event-dates.txt every lifecycle event's date that moved (and adds new events),
 * from which each calendar event's SEQUENCE is counted (catalogue/load/event-dates.ts);
 * `--events-only` records those alone, without a release.
 * `--data DIR` snapshots another data folder (how the first snapshot was made from the data before
 * the 2026-11-23 refresh).
 */
import { writeFileSync, mkdirSync } from "node:fs";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { serializeSnapshot, snapshotServices } from "../catalogue/load/changes.ts";
import { readEventDates, updatedEventDates, writeEventDates } from "../catalogue/load/event-dates.ts";
import { currentEventDates } from "../catalogue/lifecycle/lifecycle.ts";
import { CatalogueError, DEFAULT_DATA_DIR, loadCatalogue, releasesDirOf } from "../catalogue/load/load.ts";

const { values } = parseArgs({
  options: { date: { type: "string" }, data: { type: "string" }, "events-only": { type: "boolean" } },
});
const release = values.date ?? new Date().toISOString().slice(0, 10);
if (!/^\d{4}-\d{2}-\d{2}$/.test(release)) {
  console.error(`release: --date ${release}: expected YYYY-MM-DD`);
  process.exit(2);
}
try {
  const catalogue = loadCatalogue(values.data ?? DEFAULT_DATA_DIR);
  const dir = releasesDirOf(DEFAULT_DATA_DIR);
  mkdirSync(dir, { recursive: true });
  const recorded = readEventDates(dir);
  const next = updatedEventDates(recorded, currentEventDates(catalogue));
  const moved = Object.keys(next).filter((key) => next[key]!.length !== (recorded[key]?.length ?? 0)).length;
  writeEventDates(dir, next);
  console.log(
    `release: ${moved} event dates recorded or moved → ${relative(process.cwd(), join(dir, "event-dates.txt"))}`,
  );
  if (values["events-only"]) process.exit(0);
  const path = join(dir, `${release}.json`);
  writeFileSync(path, serializeSnapshot({ release, services: snapshotServices(catalogue.services) }));
  const pending = catalogue.changes.find((change) => !change.released);
  console.log(
    `release: ${catalogue.services.length} services → ${relative(process.cwd(), path)}` +
      (pending && !values.data
        ? ` (${pending.added.length} added, ${pending.removed.length} removed, ${pending.renamed.length} renamed, ${pending.lifecycle.length} lifecycle moves since ${pending.previousRelease})`
        : ""),
  );
} catch (error) {
  console.error(error instanceof CatalogueError ? error.message : error);
  process.exit(1);
}
