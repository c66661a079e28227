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
/** Every published date of every version (data/versions/): its ends and blocks, one version entry each. */
const versionEnds = [...catalogue.bySlug.values()].flatMap((record) =>
  record.versions.flatMap((family) =>
    family.versions.flatMap((version) =>
      [version.standardEnd, version.blockCreate, version.blockUpdate, version.extendedEnd].filter(
        (date) => date !== undefined,
      ),
    ),
  ),
);

function calendarEvents(text: string) {
  const component = new ICAL.Component(ICAL.parse(text));
  return component.getAllSubcomponents("vevent").map((vevent) => {
    const event = new ICAL.Event(vevent);
    return { uid: event.uid, start: event.startDate, end: event.endDate, summary: event.summary };
  });
}

describe("lifecycle list", () => {
  it("holds every lifecycle entry of the catalogue exactly once, and one entry per version date", () => {
    const list = lifecycleList(catalogue, URLS, "2026-11-23");
    const services = list.data.filter((entry) => entry.kind === "service");
    expect(services.map((entry) => entry.slug).sort()).toEqual(withLifecycle.map((service) => service.slug).sort());
    expect(list.data.filter((entry) => entry.kind === "version")).toHaveLength(versionEnds.length);
    expect(versionEnds.length).toBeGreaterThan(0);
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
    const { data } = lifecycleList(catalogue, URLS, "2026-11-23", {
      statuses: new Set(["retired"]),
      providerIds: new Set(["gcp"]),
    });
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((entry) => entry.status === "retired" && entry.providerId === "gcp")).toBe(true);
  });

  it("filters by lists of statuses and providers, any of each", () => {
    const { data } = lifecycleList(catalogue, URLS, "2026-11-23", {
      statuses: new Set(["sunset", "deprecated"]),
      providerIds: new Set(["azure", "gcp"]),
    });
    expect(new Set(data.map((entry) => entry.providerId))).toEqual(new Set(["azure", "gcp"]));
    expect(new Set(data.map((entry) => entry.status))).toEqual(new Set(["sunset", "deprecated"]));
  });
});

describe("lifecycle Atom feed", () => {
  it("parses as Atom with one entry per lifecycle announcement, each with its dates and links", () => {
    const feed = parseFeed(lifecycleAtom(catalogue, URLS));
    expect(feed.meta.type).toBe("atom");
    expect(feed.self).toBe(`${URLS.apiUrl}/v1/lifecycle.atom`);
    expect(feed.items).toHaveLength(withLifecycle.length + versionEnds.length);
    const bySlug = new Map(withLifecycle.map((service) => [service.slug, service]));
    // A service's own entry is lifecycle/<slug>/<status>/<date>; a version's has its family, id and end between.
    for (const item of feed.items.filter((each) => /lifecycle\/[^/]+\/[a-z]+\/[^/]+$/.test(each.id!))) {
      const slug = /lifecycle\/([^/]+)\//.exec(item.id!)![1]!;
      const service = bySlug.get(slug)!;
      expect(item.title).toContain(service.name);
      if (service.lifecycle!.sunsetDate) expect(item.title).toContain(service.lifecycle!.sunsetDate);
      // What its lifecycle source is verified as of: the copy's date where it gives one, else the day
      // it was read; the catalogue's own day for an entry without one.
      const sources = catalogue.bySlug.get(slug)!.sources.filter((source) => source.backs.includes("lifecycle"));
      const newest = sources
        .map((source) => source.asOf ?? source.retrieved)
        .sort()
        .at(-1);
      expect(item.updated?.toISOString().slice(0, 10)).toBe(newest ?? catalogue.lastUpdated.slice(0, 10));
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

  it("parses as iCalendar with one all-day event per sunset or retirement date, its UID without the date", () => {
    // A service's own event is <slug>@host; a version's has its family, id and which date between.
    const events = calendarEvents(text).filter((event) => /^[a-z0-9-]+@/.test(event.uid));
    expect(calendarEvents(text)).toHaveLength(dated.length + versionEnds.length);
    expect(events).toHaveLength(dated.length);
    const expected = new Map(dated.map((service) => [service.slug, service.lifecycle!.sunsetDate!]));
    for (const event of events) {
      const slug = event.uid.split("@")[0]!;
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

describe("version entries (issue 99)", () => {
  const asOf = "2026-11-28";
  const lambda = (list: ReturnType<typeof lifecycleList>) =>
    list.data.filter((entry) => entry.slug === "aws-lambda" && entry.version?.id === "nodejs20.x");

  it("kind=version keeps version entries only, kind=service the services' own", () => {
    const versions = lifecycleList(catalogue, URLS, asOf, { kinds: new Set(["version"]) }).data;
    const services = lifecycleList(catalogue, URLS, asOf, { kinds: new Set(["service"]) }).data;
    expect(versions.length).toBe(versionEnds.length);
    expect(versions.every((entry) => entry.kind === "version" && entry.version !== undefined)).toBe(true);
    expect(services.map((entry) => entry.slug).sort()).toEqual(withLifecycle.map((service) => service.slug).sort());
    expect(services.some((entry) => entry.version !== undefined)).toBe(false);
  });

  it("gives each date of a version its own entry, with the phase it leads into: sunset while to come, retired once passed", () => {
    // Lambda's nodejs20.x: deprecated 2026-04-30, creating blocked from 2027-02-01, updating from 2027-03-03.
    const entries = lambda(lifecycleList(catalogue, URLS, asOf));
    expect(entries).toHaveLength(3);
    const deprecation = entries.find((entry) => entry.version!.end === "standardEnd");
    const create = entries.find((entry) => entry.version!.end === "blockCreate");
    const update = entries.find((entry) => entry.version!.end === "blockUpdate");
    expect(deprecation).toMatchObject({
      status: "retired",
      sunsetDate: "2026-04-30",
      version: {
        family: "nodejs",
        end: "standardEnd",
        endName: "Deprecation",
        phase: "deprecated",
        status: "extended",
      },
    });
    expect(create).toMatchObject({
      status: "sunset",
      sunsetDate: "2027-02-01",
      version: { end: "blockCreate", endName: "Block function create", phase: "block-create" },
    });
    // What the phase means is said in the feeds' summaries, from the family's description.
    const atom = parseFeed(lifecycleAtom(catalogue, URLS));
    const item = atom.items.find((each) =>
      each.id!.endsWith("lifecycle/aws-lambda/nodejs/nodejs20.x/blockCreate/sunset/2027-02-01"),
    )!;
    expect(item.description).toContain("New functions can no longer be created on the runtime");
    expect(update).toMatchObject({ status: "sunset", sunsetDate: "2027-03-03", version: { phase: "block-update" } });
    // The deprecation date is read in endoflife.date's copy, the block-create date in cfn-lint's.
    expect(deprecation!.announcementUrl).toBe("https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtimes.html");
    expect(deprecation).toMatchObject({
      lifecycleVerified: "2026-08-16",
      sourceAsOf: "2026-08-16",
      sourceRetrieved: "2026-11-28",
    });
    expect(create).toMatchObject({ lifecycleVerified: "2026-06-02", sourceAsOf: "2026-06-02" });
  });

  it("never says a version's dates were verified on the day an older copy was read", () => {
    const entries = lifecycleList(catalogue, URLS, asOf, { kinds: new Set(["version"]) }).data;
    for (const entry of entries)
      if (entry.sourceAsOf)
        expect(entry.lifecycleVerified, `${entry.slug} ${entry.version!.id}`).toBe(entry.sourceAsOf);
      else expect(entry.lifecycleVerified).toBe(entry.sourceRetrieved);
    expect(entries.filter((entry) => entry.sourceAsOf).length).toBeGreaterThan(200);
  });

  it("filters version entries by ids, provider and within", () => {
    const ids = lifecycleList(catalogue, URLS, asOf, { kinds: new Set(["version"]), slugs: new Set(["aws-eks"]) }).data;
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((entry) => entry.slug === "aws-eks")).toBe(true);
    const azure = lifecycleList(catalogue, URLS, asOf, {
      kinds: new Set(["version"]),
      providerIds: new Set(["azure"]),
    }).data;
    expect(azure.some((entry) => entry.slug === "azure-cache-for-redis" && entry.version?.id === "Enterprise")).toBe(
      true,
    );
    expect(azure.every((entry) => entry.providerId === "azure")).toBe(true);
    // EKS 1.34's standard support ends 2026-12-02: within 4 days of 2026-11-28, not within 3.
    const has = (days: number) =>
      lifecycleList(catalogue, URLS, asOf, { kinds: new Set(["version"]), withinDays: days }).data.some(
        (entry) => entry.slug === "aws-eks" && entry.version?.id === "1.34" && entry.version.end === "standardEnd",
      );
    expect(has(4)).toBe(true);
    expect(has(3)).toBe(false);
  });

  it("puts a version's end date in the calendar as an all-day event with its reminders still to come", () => {
    const text = lifecycleCalendar(catalogue, URLS, {
      name: "EKS",
      description: "EKS versions",
      slugs: new Set(["aws-eks"]),
      filtered: { filter: { kinds: new Set(["version"]) }, asOf, query: "kind=version" },
    });
    const component = new ICAL.Component(ICAL.parse(text));
    const vevent = component
      .getAllSubcomponents("vevent")
      .find((each) => String(each.getFirstPropertyValue("uid")).startsWith("aws-eks.kubernetes.1.34.standardEnd@"));
    expect(vevent).toBeDefined();
    const event = new ICAL.Event(vevent!);
    expect(event.startDate.isDate).toBe(true);
    expect(event.startDate.toString()).toBe("2026-12-02");
    expect(event.summary).toBe(
      "Amazon Elastic Kubernetes Service Kubernetes 1.34 (AWS): End of standard support 2026-12-02",
    );
    // Its 180, 90 and 30-day reminders fell before 2026-11-28: none is written, as one gone by would only nag.
    expect(vevent!.getAllSubcomponents("valarm")).toHaveLength(0);
    const extended = component
      .getAllSubcomponents("vevent")
      .find((each) => String(each.getFirstPropertyValue("uid")).startsWith("aws-eks.kubernetes.1.34.extendedEnd@"))!;
    expect(
      extended.getAllSubcomponents("valarm").map((alarm) => String(alarm.getFirstPropertyValue("trigger"))),
    ).toEqual(["-P180D", "-P90D", "-P30D"]);
  });
});
