/**
 * The lifecycle watch's pure parts: the order and the `within` filter, and the Atom feed and the
 * iCalendar read back by parsers nobody here wrote (@rowanmanning/feed-parser, ical.js).
 */
import { parseFeed } from "@rowanmanning/feed-parser";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { changesAtom } from "../../catalogue/load/changes.ts";
import { addDays, lifecycleAtom, lifecycleCalendar, lifecycleList } from "../../catalogue/lifecycle/lifecycle.ts";
import { loadCatalogue } from "../../catalogue/load/load.ts";
import { foldLine } from "../../catalogue/format/feeds.ts";
import { realCatalogue, URLS } from "../helpers/app.ts";

const catalogue = realCatalogue();
const withLifecycle = catalogue.services.filter((service) => service.lifecycle);
const dated = withLifecycle.filter((service) => service.lifecycle!.sunsetDate);

function calendarEvents(text: string) {
  const component = new ICAL.Component(ICAL.parse(text));
  return component.getAllSubcomponents("vevent").map((vevent) => {
    const event = new ICAL.Event(vevent);
    return { uid: event.uid, start: event.startDate, end: event.endDate, summary: event.summary };
  });
}

describe("lifecycle list", () => {
  it("holds every lifecycle entry of the catalogue exactly once", () => {
    const list = lifecycleList(catalogue, URLS, "2026-11-23");
    expect(list.data.map((entry) => entry.slug).sort()).toEqual(withLifecycle.map((service) => service.slug).sort());
  });

  it("puts upcoming dates first (soonest first), then undated entries, then past dates (most recent first)", () => {
    const asOf = "2026-11-23";
    const { data } = lifecycleList(catalogue, URLS, asOf);
    const rank = (date?: string) => (!date ? 1 : date >= asOf ? 0 : 2);
    const ranks = data.map((entry) => rank(entry.sunsetDate));
    expect(ranks).toEqual([...ranks].sort());
    const upcoming = data.filter((entry) => rank(entry.sunsetDate) === 0).map((entry) => entry.sunsetDate!);
    const past = data.filter((entry) => rank(entry.sunsetDate) === 2).map((entry) => entry.sunsetDate!);
    expect(upcoming).toEqual([...upcoming].sort());
    expect(past).toEqual([...past].sort().reverse());
    expect(upcoming.length).toBeGreaterThan(0);
  });

  it("within N days includes today and today + N days, and leaves out N + 1 days, past and undated entries", () => {
    const target = dated.find((service) => service.lifecycle!.status === "sunset")!;
    const date = target.lifecycle!.sunsetDate!;
    const has = (asOf: string, withinDays: number) =>
      lifecycleList(catalogue, URLS, asOf, { withinDays }).data.some((entry) => entry.slug === target.slug);
    expect(has(date, 0)).toBe(true);
    expect(has(addDays(date, -90), 90)).toBe(true);
    expect(has(addDays(date, -91), 90)).toBe(false);
    expect(has(addDays(date, 1), 90)).toBe(false);
    const all = lifecycleList(catalogue, URLS, "2026-11-23", { withinDays: 3650 }).data;
    expect(all.every((entry) => entry.sunsetDate && entry.sunsetDate >= "2026-11-23")).toBe(true);
  });

  it("filters by status and provider", () => {
    const { data } = lifecycleList(catalogue, URLS, "2026-11-23", { status: "retired", providerId: "gcp" });
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((entry) => entry.status === "retired" && entry.providerId === "gcp")).toBe(true);
  });
});

describe("lifecycle Atom feed", () => {
  it("parses as Atom with one entry per lifecycle announcement, each with its dates and links", () => {
    const feed = parseFeed(lifecycleAtom(catalogue, URLS));
    expect(feed.meta.type).toBe("atom");
    expect(feed.self).toBe(`${URLS.apiUrl}/v1/lifecycle.atom`);
    expect(feed.items).toHaveLength(withLifecycle.length);
    const bySlug = new Map(withLifecycle.map((service) => [service.slug, service]));
    for (const item of feed.items) {
      const slug = /lifecycle\/([^/]+)\//.exec(item.id!)![1]!;
      const service = bySlug.get(slug)!;
      expect(item.title).toContain(service.name);
      if (service.lifecycle!.sunsetDate) expect(item.title).toContain(service.lifecycle!.sunsetDate);
      // The day its lifecycle source was read; the catalogue's own day for an entry without one.
      expect(item.updated?.toISOString().slice(0, 10)).toBe(
        service.verified?.lifecycle ?? catalogue.lastUpdated.slice(0, 10),
      );
      expect(item.url).toMatch(new RegExp(`^${URLS.textUrl}/${service.providerId}/`));
    }
    expect(new Set(feed.items.map((item) => item.id)).size).toBe(feed.items.length);
  });

  it("keeps the same ids and bytes across two builds of the same data", () => {
    const first = lifecycleAtom(loadCatalogue(), URLS);
    const second = lifecycleAtom(loadCatalogue(), URLS);
    expect(parseFeed(second).items.map((item) => item.id)).toEqual(parseFeed(first).items.map((item) => item.id));
    expect(second).toBe(first);
  });

  it("escapes markup in text so the feed stays well-formed", () => {
    const feed = parseFeed(
      changesAtom(
        [
          {
            release: "2026-12-01",
            previousRelease: "2026-11-22",
            released: true,
            added: [{ slug: "aws-x", name: 'A <b>&</b> "B"', providerId: "aws" }],
            removed: [],
            renamed: [],
            lifecycle: [],
          },
        ],
        catalogue.lastUpdated,
        URLS,
      ),
    );
    expect(feed.items).toHaveLength(1);
    expect(feed.items[0]!.description).toContain('A <b>&</b> "B"');
    expect(feed.items[0]!.updated?.toISOString()).toBe("2026-12-01T00:00:00.000Z");
  });
});

describe("lifecycle calendar", () => {
  const text = lifecycleCalendar(catalogue, URLS, { name: "All", description: "Every date" });

  it("parses as iCalendar with one all-day event per sunset or retirement date", () => {
    const events = calendarEvents(text);
    expect(events).toHaveLength(dated.length);
    const expected = new Map(dated.map((service) => [service.slug, service.lifecycle!.sunsetDate!]));
    for (const event of events) {
      const slug = event.uid.split(".")[0]!;
      expect(event.start.isDate).toBe(true);
      expect(event.start.toString()).toBe(expected.get(slug));
      expect(event.end.toString()).toBe(addDays(expected.get(slug)!, 1));
    }
    expect(new Set(events.map((event) => event.uid)).size).toBe(events.length);
  });

  it("ends every line with CRLF and folds lines at 75 octets", () => {
    expect(text.endsWith("\r\n")).toBe(true);
    const lines = text.split("\r\n").slice(0, -1);
    expect(lines.every((line) => !line.includes("\n") && !line.includes("\r"))).toBe(true);
    expect(Math.max(...lines.map((line) => Buffer.byteLength(line)))).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith(" "))).toBe(true);
  });

  it("keeps the same UIDs and bytes across two builds, DTSTAMP being the catalogue's last update", () => {
    const again = lifecycleCalendar(loadCatalogue(), URLS, { name: "All", description: "Every date" });
    expect(calendarEvents(again).map((event) => event.uid)).toEqual(calendarEvents(text).map((event) => event.uid));
    expect(again).toBe(text);
    const stamp = catalogue.lastUpdated.replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "");
    expect(text).toContain(`DTSTAMP:${stamp}\r\n`);
  });

  it("folds multi-byte text without splitting a character, and unfolds to the original", () => {
    const line = `SUMMARY:${"Überprüfung des Dienstes – ☁️ ".repeat(8)}`;
    const folded = foldLine(line);
    for (const part of folded.split("\r\n")) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, "")).toBe(line);
  });

  it("has a component even when no service has a date (RFC 5545: 1*component), and no event", () => {
    const undated = catalogue.services.find((service) => !service.lifecycle?.sunsetDate)!;
    const empty = lifecycleCalendar(catalogue, URLS, {
      name: "None",
      description: "No dates",
      slugs: new Set([undated.slug]),
    });
    const root = new ICAL.Component(ICAL.parse(empty));
    expect(root.getAllSubcomponents().length).toBeGreaterThan(0);
    expect(root.getAllSubcomponents("vevent")).toHaveLength(0);
    expect(root.getFirstSubcomponent("vtimezone")?.getFirstPropertyValue("tzid")).toBe("UTC");
    expect(empty.split("\r\n").filter((line) => line.startsWith("BEGIN:")).length).toBeGreaterThan(1);
  });

  it("escapes commas, semicolons, backslashes and newlines in text values", () => {
    const calendar = lifecycleCalendar(catalogue, URLS, { name: "a,b;c\\d\ne", description: "x" });
    // ical.js leaves X- properties undecoded: decode the value as the TEXT type it is.
    const raw = new ICAL.Component(ICAL.parse(calendar)).getFirstPropertyValue("x-wr-calname") as string;
    expect(ICAL.design.icalendar.value.text!.fromICAL!(raw)).toBe("a,b;c\\d\ne");
  });
});
