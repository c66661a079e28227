/**
 * Calendar reminders (issue 99): the VALARMs of the lifecycle calendars read back by ical.js, the
 * RFC 5545 shape of each (ACTION:DISPLAY with DESCRIPTION and a negative TRIGGER), and the
 * `alarms` pattern that the server and OpenAPI share.
 */
import ICAL from "ical.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CALENDAR_ALARMS } from "../../catalogue/base/limits.ts";
import { addDays, catalogueDay, lifecycleCalendar } from "../../catalogue/lifecycle/lifecycle.ts";
import { ALARMS_PATTERN, LifecycleCalendarQuery } from "../../catalogue/schema/index.ts";
import { realCatalogue, URLS } from "../helpers/app.ts";
import { eventAlarms } from "../helpers/calendar.ts";

const catalogue = realCatalogue();
const asOf = catalogueDay(catalogue);

describe("calendar reminders", () => {
  const text = lifecycleCalendar(catalogue, URLS, { name: "All", description: "Every date" });
  const events = eventAlarms(text);

  /** The default reminders whose own day is still to come on the calendar's day. */
  const due = (date: string, days: readonly number[] = [180, 90, 30]) =>
    days.filter((before) => addDays(date, -before) >= asOf);
  const triggerOf = (days: number) => (days === 0 ? "PT0S" : `-P${days}D`);

  it("gives each event its display reminders 180, 90 and 30 days before it by default, those still to come", () => {
    const upcoming = events.filter((event) => event.date >= asOf);
    expect(upcoming.length).toBeGreaterThan(0);
    // Some events to come have all three, some fewer: a reminder whose day has passed is left out.
    expect(upcoming.some((event) => event.alarms.length === 3)).toBe(true);
    expect(upcoming.some((event) => event.alarms.length > 0 && event.alarms.length < 3)).toBe(true);
    for (const event of upcoming) {
      expect(event.alarms.map((alarm) => alarm.trigger)).toEqual(due(event.date).map(triggerOf));
      for (const alarm of event.alarms) {
        expect(alarm.action).toBe("DISPLAY");
        expect(alarm.description).toMatch(/ \(in \d+ days\)\.$/);
      }
    }
    // ical.js reads the trigger as the duration before the event's start.
    const trigger = new ICAL.Component(ICAL.parse(text))
      .getAllSubcomponents("vevent")
      .find((vevent) => vevent.getFirstSubcomponent("valarm"))!
      .getFirstSubcomponent("valarm")!
      .getFirstPropertyValue("trigger") as ICAL.Duration;
    expect(trigger.isNegative).toBe(true);
    expect(trigger.toSeconds()).toBeLessThan(0);
  });

  it("gives past events no reminder and no event a reminder already past (issue 113)", () => {
    const past = events.filter((event) => event.date < asOf);
    expect(past.length).toBeGreaterThan(0);
    expect(past.every((event) => event.alarms.length === 0)).toBe(true);
    const expected = events.reduce((sum, event) => sum + due(event.date).length, 0);
    expect(text.match(/^BEGIN:VALARM\r$/gm)?.length).toBe(expected);
    expect(text.match(/^END:VALARM\r$/gm)?.length).toBe(expected);
    for (const event of events)
      for (const alarm of event.alarms) {
        const days = Number(/\d+/.exec(alarm.trigger)?.[0] ?? 0);
        expect(addDays(event.date, -days) >= asOf, `${event.date} ${alarm.trigger}`).toBe(true);
      }
  });

  it("counts the reminders still to come from the calendar's day: a later day drops those passed since", () => {
    const later = addDays(asOf, 60);
    const after = eventAlarms(lifecycleCalendar(catalogue, URLS, { name: "All", description: "x", asOf: later }));
    const count = (list: typeof events) => list.reduce((sum, event) => sum + event.alarms.length, 0);
    expect(count(after)).toBeLessThan(count(events));
    for (const event of after)
      for (const alarm of event.alarms)
        expect(addDays(event.date, -Number(/\d+/.exec(alarm.trigger)?.[0] ?? 0)) >= later).toBe(true);
  });

  it("writes the reminders asked, none for an empty list, and says today for 0 days", () => {
    const chosen = eventAlarms(
      lifecycleCalendar(catalogue, URLS, { name: "All", description: "x", alarms: [30, 7, 0] }),
    ).filter((event) => event.date >= asOf);
    for (const event of chosen)
      expect(event.alarms.map((alarm) => alarm.trigger)).toEqual(due(event.date, [30, 7, 0]).map(triggerOf));
    const all = chosen.find((event) => event.alarms.length === 3)!;
    expect(all.alarms[2]!.description).toMatch(/ \(today\)\.$/);
    const none = lifecycleCalendar(catalogue, URLS, { name: "All", description: "x", alarms: [] });
    expect(none).not.toContain("VALARM");
    expect(eventAlarms(none)).toHaveLength(events.length);
  });

  it("keeps every line CRLF-terminated and folded at 75 octets with the reminders in", () => {
    expect(text.endsWith("\r\n")).toBe(true);
    const lines = text.split("\r\n").slice(0, -1);
    expect(lines.every((line) => !/[\r\n]/.test(line) && Buffer.byteLength(line) <= 75)).toBe(true);
    // Each VALARM sits inside a VEVENT, after its properties.
    expect(text).toMatch(/TRANSP:TRANSPARENT\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:/);
  });
});

describe("the alarms parameter", () => {
  const parse = (alarms: string) => LifecycleCalendarQuery.safeParse({ alarms });

  it("reads days most first, repeats dropped, a d allowed, and none as no reminder", () => {
    expect(parse("30,7").data?.alarms).toEqual([30, 7]);
    expect(parse("7,30d,7").data?.alarms).toEqual([30, 7]);
    expect(parse("none").data?.alarms).toEqual([]);
    expect(parse("0").data?.alarms).toEqual([0]);
    expect(parse(String(CALENDAR_ALARMS.maxDays)).data?.alarms).toEqual([CALENDAR_ALARMS.maxDays]);
    expect(LifecycleCalendarQuery.parse({}).alarms).toBeUndefined();
  });

  it("refuses more than five, more than 730 days, negatives, blanks and words", () => {
    for (const bad of ["1,2,3,4,5,6", "731", "1000", "-1", "", "30,", ",30", "30 ,7", "1.5", "soon", "none,30", "P30D"])
      expect(parse(bad).success, bad).toBe(false);
  });

  it("matches OpenAPI's pattern exactly: a value passes the server when it passes the pattern", () => {
    const pattern = new RegExp(ALARMS_PATTERN);
    const item = fc.oneof(fc.integer({ min: -5, max: 1200 }).map(String), fc.constantFrom("d", "none", "", " 1", "07"));
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 7 }), fc.boolean(), (numbers, suffix) => {
        const items = numbers.map((days) => (suffix ? `${days}d` : days));
        const value = items.join(",");
        const valid =
          value === "none" ||
          (items.length <= CALENDAR_ALARMS.maxCount &&
            items.every(
              (days) => /^\d{1,3}d?$/.test(days) && Number(days.replace(/d$/, "")) <= CALENDAR_ALARMS.maxDays,
            ));
        expect(pattern.test(value), value).toBe(valid);
        expect(parse(value).success, value).toBe(valid);
      }),
    );
  });
});
