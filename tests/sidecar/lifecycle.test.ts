/**
 * The lifecycle endpoints through the API app: `within` reckoned from the request's day (the app's
 * `now`), 400 for bad parameters, and a saved list's calendar holding exactly its services' dates.
 */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { addDays, dayOf } from "../../catalogue/lifecycle/lifecycle.ts";
import { build, postJson, realCatalogue, URLS } from "../helpers/app.ts";
import { eventAlarms } from "../helpers/calendar.ts";

function expectError(response: { statusCode: number; json(): unknown }, status: number) {
  expect(response.statusCode).toBe(status);
  const body = response.json() as { status: number; error: string; details?: string };
  expect(body.status).toBe(status);
  return body;
}

const catalogue = realCatalogue();
const sunset = catalogue.services.find((service) => service.lifecycle?.status === "sunset")!;
const date = sunset.lifecycle!.sunsetDate!;
const at = (day: string) => () => new Date(`${day}T12:00:00Z`);

describe("GET /v1/lifecycle", () => {
  it("answers every entry without a query, ordered as of the catalogue's last update", async () => {
    const app = await build();
    const response = await app.inject("/v1/lifecycle");
    expect(response.statusCode).toBe(200);
    const body = response.json() as { asOf: string; data: { slug: string }[] };
    expect(body.asOf).toBe(catalogue.lastUpdated.slice(0, 10));
    const services = body.data.filter((entry) => (entry as { kind?: string }).kind === "service");
    expect(services).toHaveLength(catalogue.services.filter((service) => service.lifecycle).length);
  });

  it("within=Nd includes a date N days after today and today itself, not N + 1 days and not past dates", async () => {
    const slugsOn = async (today: string, within: string) => {
      const app = await build({ now: at(today) });
      const response = await app.inject(`/v1/lifecycle?within=${within}`);
      expect(response.statusCode).toBe(200);
      const body = response.json() as { asOf: string; data: { slug: string }[] };
      expect(body.asOf).toBe(today);
      return body.data.map((entry) => entry.slug);
    };
    expect(await slugsOn(date, "0d")).toContain(sunset.slug);
    expect(await slugsOn(addDays(date, -90), "90d")).toContain(sunset.slug);
    expect(await slugsOn(addDays(date, -91), "90d")).not.toContain(sunset.slug);
    expect(await slugsOn(addDays(date, 1), "3650d")).not.toContain(sunset.slug);
  });

  it("filters by status and provider", async () => {
    const app = await build({ now: at("2026-11-23") });
    const response = await app.inject("/v1/lifecycle?status=retired&provider=aws");
    expect(response.statusCode).toBe(200);
    const { data } = response.json() as { data: { status: string; providerId: string }[] };
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((entry) => entry.status === "retired" && entry.providerId === "aws")).toBe(true);
  });

  it("takes comma-separated lists of statuses, providers and kinds, and ids whatever their case (issue 113)", async () => {
    const app = await build({ now: at("2026-11-23") });
    const list = async (query: string) => {
      const response = await app.inject(`/v1/lifecycle?${query}`);
      expect(response.statusCode, query).toBe(200);
      return (response.json() as { data: { status: string; providerId: string; kind: string; slug: string }[] }).data;
    };
    const providers = await list("provider=azure,gcp");
    expect(new Set(providers.map((entry) => entry.providerId))).toEqual(new Set(["azure", "gcp"]));
    expect(await list("provider=Azure, GCP")).toEqual(providers);
    const statuses = await list("status=deprecated,preview");
    expect(new Set(statuses.map((entry) => entry.status))).toEqual(new Set(["deprecated", "preview"]));
    expect((await list("kind=service,version")).length).toBe(
      (await list("status=preview,deprecated,sunset,retired")).length,
    );
    const lambda = await list("ids=AWS-LAMBDA");
    expect(lambda.length).toBeGreaterThan(0);
    expect(lambda.every((entry) => entry.slug === "aws-lambda")).toBe(true);
    expect(expectError(await app.inject("/v1/lifecycle?provider=azure,nope"), 400).details).toContain('"nope"');
    expectError(await app.inject("/v1/lifecycle?status=deprecated,gone"), 400);
    expectError(await app.inject("/v1/lifecycle?kind=version,tier"), 400);
    // The feeds take the same lists, their self link the list as read.
    const atom = await app.inject("/v1/lifecycle.atom?provider=azure,gcp&status=sunset,retired");
    expect(atom.statusCode).toBe(200);
    expect(atom.body).toContain("/v1/lifecycle.atom?status=sunset%2Cretired&#38;provider=azure%2Cgcp");
  });

  it("answers 400 for a bad within, a bad status or an unknown provider", async () => {
    const app = await build();
    for (const within of ["d", "-1d", "1.5d", "3651d", "99999d", "90days", "9 0d"])
      expectError(await app.inject(`/v1/lifecycle?within=${encodeURIComponent(within)}`), 400);
    expectError(await app.inject("/v1/lifecycle?status=gone"), 400);
    expect(expectError(await app.inject("/v1/lifecycle?provider=nope"), 400).error).toBe("Unknown provider");
    expect((await app.inject("/v1/lifecycle?within=3650d")).statusCode).toBe(200);
    // The d is optional, as on the text host's /lifecycle?within=90.
    expect((await app.inject("/v1/lifecycle?within=90")).json()).toEqual(
      (await app.inject("/v1/lifecycle?within=90d")).json(),
    );
  });
});

describe("feeds", () => {
  it("serves the Atom feeds and the calendar with their content types, cacheable", async () => {
    const app = await build();
    for (const [url, type] of [
      ["/v1/lifecycle.atom", "application/atom+xml"],
      ["/v1/changes.atom", "application/atom+xml"],
      ["/v1/lifecycle.ics", "text/calendar; charset=utf-8"],
    ] as const) {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe(type);
      expect(response.headers["cache-control"]).toMatch(/^public, max-age=\d+$/);
    }
  });

  it("filter the lifecycle feed and calendar by status, provider and within, as GET /v1/lifecycle does", async () => {
    const app = await build({ now: at("2026-11-23") });
    const entries = async (query: string) =>
      ((await app.inject(`/v1/lifecycle?${query}`)).json() as { data: { slug: string; sunsetDate?: string }[] }).data;
    const whole = (await app.inject("/v1/lifecycle.atom")).body.match(/<entry>/g)!.length;
    for (const query of ["status=retired&provider=gcp", "provider=aws", "within=365d", "status=sunset&within=3650d"]) {
      const expected = await entries(query);
      const atom = await app.inject(`/v1/lifecycle.atom?${query}`);
      expect(atom.statusCode, query).toBe(200);
      expect(atom.body.match(/<entry>/g)?.length ?? 0, query).toBe(expected.length);
      expect(expected.length, query).toBeLessThan(whole);
      expect(atom.body, query).toContain(`/v1/lifecycle.atom?${query.replace(/&/g, "&#38;")}`);
      const calendar = ICAL.parse((await app.inject(`/v1/lifecycle.ics?${query}`)).body) as unknown[];
      const events = new ICAL.Component(calendar as never).getAllSubcomponents("vevent");
      expect(events.length, query).toBe(expected.filter((entry) => entry.sunsetDate).length);
    }
    expectError(await app.inject("/v1/lifecycle.atom?provider=nope"), 400);
    expectError(await app.inject("/v1/lifecycle.ics?status=gone"), 400);
  });

  it("gives the calendar's events to come the reminders asked in alarms, the default 180, 90, 30 days", async () => {
    const app = await build({ now: at("2026-11-23") });
    const triggers = async (query: string) => {
      const response = await app.inject(`/v1/lifecycle.ics${query}`);
      expect(response.statusCode, query).toBe(200);
      const events = eventAlarms(response.body).filter((event) => event.alarms.length > 0);
      expect(events.length, query).toBeGreaterThan(0);
      return [...new Set(events.map((event) => event.alarms.map((alarm) => alarm.trigger).join(" ")))];
    };
    // Each reminder only while its own day is still to come (issue 113): an event 60 days away keeps
    // its 30-day reminder alone. A query is answered on the request's day, the built file on the catalogue's.
    expect(await triggers("")).toContain("-P180D -P90D -P30D");
    expect(await triggers("")).toContain("-P30D");
    expect(await triggers("?alarms=30,7")).toContain("-P30D -P7D");
    expect(await triggers("?alarms=7,30d,7&within=3650d")).toContain("-P30D -P7D");
    const response = await app.inject("/v1/lifecycle.ics?alarms=180,90,30");
    for (const event of eventAlarms(response.body))
      for (const alarm of event.alarms)
        expect(addDays(event.date, -Number(/\d+/.exec(alarm.trigger)![0])) >= "2026-11-23", event.date).toBe(true);
    const none = await app.inject("/v1/lifecycle.ics?alarms=none");
    expect(none.statusCode).toBe(200);
    expect(none.body).not.toContain("BEGIN:VALARM");
    expect(none.body.match(/BEGIN:VEVENT/g)!.length).toBe(
      (await app.inject("/v1/lifecycle.ics")).body.match(/BEGIN:VEVENT/g)!.length,
    );
  });

  it("answers a bad alarms with a 400 in the Error shape naming the parameter", async () => {
    const app = await build();
    for (const alarms of ["1,2,3,4,5,6", "731", "-7", "30,", "soon", "", "none,7"]) {
      const body = expectError(await app.inject(`/v1/lifecycle.ics?alarms=${encodeURIComponent(alarms)}`), 400);
      expect(JSON.stringify(body), alarms).toContain("alarms");
    }
    // The Atom feed has no reminders: there alarms is a parameter it does not take.
    expect(expectError(await app.inject("/v1/lifecycle.atom?alarms=30"), 400).details).toMatch(/alarms/);
  });

  it("builds the static calendar with the default reminders, the bytes the sidecar answers without a query", async () => {
    const row = ENDPOINTS.find((endpoint) => endpoint.path === "/v1/lifecycle.ics")!;
    const [built] = [...row.static!.files!(catalogue, URLS, ENDPOINTS)];
    expect(built!.file).toBe("v1/lifecycle.ics");
    const events = eventAlarms(built!.body).filter((event) => event.alarms.length > 0);
    expect(events.length).toBeGreaterThan(0);
    // The default reminders still to come on the catalogue's day, the day the file is built for.
    const day = catalogue.lastUpdated.slice(0, 10);
    for (const event of events)
      expect(event.alarms.map((alarm) => alarm.trigger)).toEqual(
        [180, 90, 30].filter((days) => addDays(event.date, -days) >= day).map((days) => `-P${days}D`),
      );
    const app = await build({ now: at("2030-01-01") });
    expect((await app.inject("/v1/lifecycle.ics")).body).toBe(built!.body);
  });

  it("lists the changes since the previous release snapshot", async () => {
    const app = await build();
    const response = await app.inject("/v1/changes");
    expect(response.statusCode).toBe(200);
    const { data } = response.json() as {
      data: { release: string; previousRelease: string; added: { slug: string }[] }[];
    };
    const release = data.find((entry) => entry.release === "2026-11-23");
    expect(release?.previousRelease).toBe("2026-11-22");
    expect(release?.added.map((service) => service.slug)).toContain("aws-nimble-studio");
  });
});

describe("GET /v1/lists/{id}/lifecycle.ics", () => {
  it("holds exactly the sunset and retirement dates of the list's services", async () => {
    const app = await build();
    const withDates = catalogue.services.filter((service) => service.lifecycle?.sunsetDate).slice(0, 3);
    const undated = catalogue.services.filter((service) => !service.lifecycle?.sunsetDate).slice(0, 2);
    const ids = [...withDates, ...undated].map((service) => service.slug);
    const created = await app.inject(postJson("/v1/lists", { name: "Team, baseline", approvedServiceIds: ids }));
    expect(created.statusCode).toBe(200);
    const { id, slug } = created.json() as { id: string; slug: string };
    for (const key of [id, slug]) {
      const response = await app.inject(`/v1/lists/${key}/lifecycle.ics`);
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("text/calendar; charset=utf-8");
      const events = new ICAL.Component(ICAL.parse(response.body))
        .getAllSubcomponents("vevent")
        .map((vevent) => new ICAL.Event(vevent));
      // A service's UID is its slug and the host: no date, so a moved date updates the event.
      const got = events.map((event) => `${event.uid.split("@")[0]} ${event.startDate.toString()}`).sort();
      const expected = withDates.map((service) => `${service.slug} ${service.lifecycle!.sunsetDate}`).sort();
      expect(got).toEqual(expected);
    }
    // The list's own route still answers beside the calendar's.
    expect((await app.inject(`/v1/lists/${id}`)).statusCode).toBe(200);
  });

  it("answers 404 for a list that does not exist", async () => {
    const app = await build();
    expectError(await app.inject("/v1/lists/no-such-list/lifecycle.ics"), 404);
  });

  /** A list of dated services around `today`: one past, some within 90 days, some later. */
  async function datedList(today: string) {
    const app = await build({ now: at(today) });
    const dated = catalogue.services.filter((service) => service.lifecycle?.sunsetDate);
    const created = await app.inject(
      postJson("/v1/lists", { approvedServiceIds: dated.map((service) => service.slug) }),
    );
    expect(created.statusCode).toBe(200);
    const { id } = created.json() as { id: string };
    const dates = async (query: string) => {
      const response = await app.inject(`/v1/lists/${id}/lifecycle.ics${query}`);
      expect(response.statusCode, query).toBe(200);
      return eventAlarms(response.body);
    };
    return { app, id, dated, dates };
  }

  it("takes within as GET /v1/lifecycle does: the dates from today to today + n days", async () => {
    const today = "2026-11-23";
    const { dated, dates } = await datedList(today);
    for (const within of ["0d", "90d", "365", "3650d"]) {
      const days = Number(within.replace(/d$/, ""));
      const expected = dated
        .map((service) => service.lifecycle!.sunsetDate!)
        .filter((date) => date >= today && date <= addDays(today, days))
        .sort();
      const got = (await dates(`?within=${within}&kind=service`)).map((event) => event.date).sort();
      expect(got, within).toEqual(expected);
    }
    expect((await dates("?kind=service")).length).toBe(dated.length);
    expect((await dates("?within=90d")).length).toBeLessThan((await dates("?within=3650d")).length);
  });

  it("takes kind (service or version) and alarms, and gives past events no reminder", async () => {
    const today = "2026-11-23";
    const { dated, dates } = await datedList(today);
    const all = await dates("");
    // A dated service with tiers (Azure Cache for Redis) brings its tiers' ends as version events.
    const services = await dates("?kind=service");
    const versions = await dates("?kind=version");
    expect(services).toHaveLength(dated.length);
    expect(versions.length).toBeGreaterThan(0);
    expect(services.length + versions.length).toBe(all.length);
    for (const event of all)
      expect(
        event.alarms.map((alarm) => alarm.trigger),
        event.date,
      ).toEqual([180, 90, 30].filter((days) => addDays(event.date, -days) >= today).map((days) => `-P${days}D`));
    const chosen = await dates("?within=365d&kind=service&alarms=14,1");
    expect(chosen.length).toBeGreaterThan(0);
    for (const event of chosen)
      expect(event.alarms.map((alarm) => alarm.trigger)).toEqual(
        [14, 1].filter((days) => addDays(event.date, -days) >= today).map((days) => `-P${days}D`),
      );
    expect((await dates("?alarms=none")).every((event) => event.alarms.length === 0)).toBe(true);
  });

  it("answers a bad within, kind or alarms, or a parameter it does not take, with a 400 in the Error shape", async () => {
    const { app, id } = await datedList(dayOf(new Date()));
    for (const query of [
      "within=3651d",
      "within=soon",
      "kind=tier",
      "kind=",
      "alarms=800",
      "alarms=1,2,3,4,5,6",
      "status=sunset",
    ])
      expectError(await app.inject(`/v1/lists/${id}/lifecycle.ics?${query}`), 400);
  });
});
