/**
 * Calendars that update in place (issue 113): a UID names an event (a service's sunset, one date of
 * one version), never its date, so a date that moves is the same event with SEQUENCE one higher
 * (RFC 5545 §3.8.7.4), counted from the recorded event dates (catalogue/releases/event-dates.txt);
 * subscribers are asked to refresh daily; and a server on another port folds every line it rewrites,
 * UIDs included.
 */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { assembleCatalogue, readCatalogueSource, type CatalogueSource } from "../../catalogue/load/load.ts";
import { updatedEventDates } from "../../catalogue/load/event-dates.ts";
import { currentEventDates, lifecycleCalendar, revisionOf } from "../../catalogue/lifecycle/lifecycle.ts";
import { foldLine, rewriteCalendar } from "../../catalogue/format/feeds.ts";
import { URLS } from "../helpers/app.ts";

const source = readCatalogueSource();
const KEY = "aws-lambda.python.python3.10.standardEnd";

/** The calendar's events by UID: start day and SEQUENCE, as ical.js reads them. */
function events(text: string) {
  const vevents = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent");
  return new Map(
    vevents.map((vevent) => [
      String(vevent.getFirstPropertyValue("uid")),
      {
        start: new ICAL.Event(vevent).startDate.toString(),
        sequence: Number(vevent.getFirstPropertyValue("sequence")),
      },
    ]),
  );
}

/** The real data with python3.10's deprecation date moved, and the recorded dates given. */
function moved(date: string | undefined, eventDates: CatalogueSource["eventDates"]): CatalogueSource {
  const versions = structuredClone(source.versions!) as NonNullable<CatalogueSource["versions"]>;
  const python = versions["aws-lambda"]!.find((family) => family.id === "python")!;
  const entry = python.versions.find((version) => version.id === "python3.10")! as { standardEnd?: string };
  if (date) entry.standardEnd = date;
  return { ...source, versions, ...(eventDates ? { eventDates } : {}) };
}

const calendar = (data: CatalogueSource) =>
  lifecycleCalendar(assembleCatalogue(data), URLS, { name: "All", description: "Every date" });

describe("a calendar event across a date change (issue 113)", () => {
  const before = events(calendar(source));
  const uid = [...before.keys()].find((each) => each.startsWith(`${KEY}@`))!;

  it("names each event without its date: one UID per service, version and which date", () => {
    expect(uid).toBe(`${KEY}@${new URL(URLS.textUrl).hostname}`);
    for (const each of before.keys()) expect(each, each).not.toMatch(/\d{8}@/);
    expect(before.get(uid)).toEqual({ start: "2026-10-31", sequence: 0 });
  });

  it("keeps one event when the date moves, its SEQUENCE one higher, every other event as it was", () => {
    const after = events(calendar(moved("2026-12-15", source.eventDates)));
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    expect(after.get(uid)).toEqual({ start: "2026-12-15", sequence: 1 });
    for (const [each, event] of before) if (each !== uid) expect(after.get(each), each).toEqual(event);
  });

  it("counts every recorded move: a second move once the first is recorded is SEQUENCE 2", () => {
    const catalogue = assembleCatalogue(moved("2026-12-15", source.eventDates));
    const recorded = updatedEventDates(source.eventDates ?? {}, currentEventDates(catalogue));
    expect(recorded[KEY]).toEqual(["2026-10-31", "2026-12-15"]);
    expect(events(calendar(moved("2026-12-15", recorded))).get(uid)!.sequence).toBe(1);
    expect(events(calendar(moved("2027-01-20", recorded))).get(uid)).toEqual({ start: "2027-01-20", sequence: 2 });
    // Moved back to a date it had: still a change, counted.
    expect(revisionOf(["2026-10-31", "2026-12-15"], "2026-10-31")).toBe(2);
    expect(revisionOf(undefined, "2026-10-31")).toBe(0);
  });

  it("records every dated event of the catalogue at its current date", () => {
    const catalogue = assembleCatalogue(source);
    const unrecorded = [...currentEventDates(catalogue)].filter(
      ([key, date]) => catalogue.eventDates.get(key)?.at(-1) !== date,
    );
    expect(unrecorded).toEqual([]);
  });
});

describe("calendar refresh and folding", () => {
  const text = calendar(source);

  it("asks subscribers to refresh daily (RFC 7986 REFRESH-INTERVAL, and X-PUBLISHED-TTL)", () => {
    const root = new ICAL.Component(ICAL.parse(text));
    expect(String(root.getFirstPropertyValue("refresh-interval"))).toBe("P1D");
    expect(String(root.getFirstPropertyValue("x-published-ttl"))).toBe("P1D");
  });

  it("folds every line a server on another port rewrites, UIDs over 75 octets included, and keeps UIDs", () => {
    // A deployment's own host name makes the longest UIDs longer than a line.
    const urls = {
      apiUrl: "https://api.cloud-services-catalogue.example.org",
      textUrl: "https://cloud-services-catalogue.example.org",
    };
    const built = lifecycleCalendar(assembleCatalogue(source), urls, { name: "All", description: "Every date" });
    const lines = built.split("\r\n");
    const folded = lines.filter((line, at) => line.startsWith("UID:") && lines[at + 1]?.startsWith(" "));
    expect(folded.length).toBeGreaterThan(0);
    const rewritten = rewriteCalendar(built, (line) => line.replaceAll(urls.textUrl, "http://127.0.0.1:18081"));
    for (const line of rewritten.split("\r\n")) expect(Buffer.byteLength(line), line).toBeLessThanOrEqual(75);
    expect([...events(rewritten).keys()]).toEqual([...events(built).keys()]);
    expect(rewritten).toContain("URL:http://127.0.0.1:18081/");
    // Unfolded, every line is the built file's but for the URL; UIDs name events, not places.
    const unfold = (calendarText: string) => calendarText.replace(/\r\n[ \t]/g, "");
    expect(unfold(rewritten)).toBe(
      unfold(built)
        .split("\r\n")
        .map((line) => (line.startsWith("UID:") ? line : line.replaceAll(urls.textUrl, "http://127.0.0.1:18081")))
        .join("\r\n"),
    );
    expect(foldLine(`UID:${"x".repeat(120)}`).split("\r\n")).toHaveLength(2);
  });
});
