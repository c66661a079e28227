/**
 * The record of lifecycle event dates (catalogue/releases/event-dates.txt): per calendar event
 * (a service's sunset, a version's phase date, named by the key of its UID), every date it has had,
 * oldest first. A calendar's SEQUENCE is how many times the date changed (RFC 5545 §3.8.7.4): from
 * this committed record, never from a clock or the git history, so the same data builds the same
 * bytes. `npm run release` appends the dates that moved; until it does, a moved date counts one more.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const EVENT_DATES_FILE = "event-dates.txt";

const HEADER = [
  "# Lifecycle event dates: one event a line, its key (the calendar UID before @) then every date it",
  "# has had, oldest first. Written by `npm run release` (scripts/release.ts); read by the loader for",
  "# each calendar event's SEQUENCE (catalogue/load/event-dates.ts). Do not edit by hand.",
];

/** The record in a releases folder; empty when there is none. A malformed line stops the load, naming it. */
export function readEventDates(releasesDir: string): Record<string, string[]> {
  let text: string;
  try {
    text = readFileSync(join(releasesDir, EVENT_DATES_FILE), "utf8");
  } catch {
    return {};
  }
  const record: Record<string, string[]> = {};
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "" || line.startsWith("#")) return;
    const [key, ...dates] = line.trim().split(/\s+/);
    if (
      !key ||
      dates.length === 0 ||
      dates.some((date) => !/^\d{4}-\d{2}-\d{2}$/.test(date)) ||
      Object.hasOwn(record, key)
    )
      throw new Error(
        `catalogue/releases/${EVENT_DATES_FILE}: line ${index + 1}: expected "<event key> <YYYY-MM-DD>…" once per key`,
      );
    record[key] = dates;
  });
  return record;
}

/** The record with each event's current date appended where it moved, and new events added. */
export function updatedEventDates(
  record: Readonly<Record<string, readonly string[]>>,
  current: ReadonlyMap<string, string>,
): Record<string, string[]> {
  const next: Record<string, string[]> = {};
  for (const [key, dates] of Object.entries(record)) next[key] = [...dates];
  for (const [key, date] of current) {
    const dates = (next[key] ??= []);
    if (dates.at(-1) !== date) dates.push(date);
  }
  return next;
}

/** Writes the record, one event a line, keys in order. */
export function writeEventDates(releasesDir: string, record: Readonly<Record<string, readonly string[]>>): void {
  const lines = Object.keys(record)
    .sort()
    .map((key) => `${key} ${record[key]!.join(" ")}`);
  writeFileSync(join(releasesDir, EVENT_DATES_FILE), `${[...HEADER, ...lines].join("\n")}\n`);
}
