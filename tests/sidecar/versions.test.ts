/**
 * Versions and tiers through the API app (issue 99): ServiceDetail.versions with statuses computed
 * as of the catalogue's day, the lifecycle list's kind=version entries under ids, provider and
 * within, a 400 for a bad kind, and a saved list's calendar holding its services' version ends.
 */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import type { LifecycleListT, ServiceDetailT } from "../../catalogue/schema/index.ts";
import { build, realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
const at = (day: string) => () => new Date(`${day}T12:00:00Z`);

describe("GET /v1/services/{slug}: versions", () => {
  it("lists a service's version families with their source and statuses as of the catalogue's day", async () => {
    const app = await build();
    const response = await app.inject("/v1/services/aws-eks");
    expect(response.statusCode).toBe(200);
    const { versions } = response.json() as ServiceDetailT;
    expect(versions!.asOf).toBe(catalogue.lastUpdated.slice(0, 10));
    const kubernetes = versions!.families.find((family) => family.id === "kubernetes")!;
    expect(kubernetes.kind).toBe("kubernetes");
    expect(kubernetes.source.url).toBe("https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html");
    expect(kubernetes.terms).toEqual({
      standardEnd: "End of standard support",
      extendedEnd: "End of extended support",
    });
    const byId = new Map(kubernetes.versions.map((version) => [version.id, version]));
    expect(byId.get("1.34")).toMatchObject({ standardEnd: "2026-12-02", extendedEnd: "2027-12-02" });
    // Every status agrees with its dates on the day the answer names.
    for (const version of kubernetes.versions) {
      const asOf = versions!.asOf;
      const expected =
        !version.standardEnd || asOf <= version.standardEnd
          ? "supported"
          : version.extendedEnd && asOf <= version.extendedEnd
            ? "extended"
            : "ended";
      expect(version.status, version.id).toBe(expected);
    }
  });

  it("leaves versions out for a service with none recorded", async () => {
    const app = await build();
    const response = await app.inject("/v1/services/aws-s3");
    expect(response.statusCode).toBe(200);
    expect("versions" in (response.json() as object)).toBe(false);
  });
});

describe("GET /v1/lifecycle?kind=version", () => {
  it("keeps version entries, narrowed by ids, provider and within from the request's day", async () => {
    const app = await build({ now: at("2026-11-28") });
    const response = await app.inject("/v1/lifecycle?kind=version&ids=aws-eks,gcp-gke&provider=aws&within=30d");
    expect(response.statusCode).toBe(200);
    const { asOf, data } = response.json() as LifecycleListT;
    expect(asOf).toBe("2026-11-28");
    expect(data.map((entry) => `${entry.slug} ${entry.version?.id} ${entry.version?.end} ${entry.sunsetDate}`)).toEqual(
      ["aws-eks 1.34 standardEnd 2026-12-02"],
    );
    expect(data[0]).toMatchObject({ kind: "version", status: "sunset", version: { status: "supported" } });
  });

  it("keeps the services' own entries with kind=service", async () => {
    const app = await build();
    const response = await app.inject("/v1/lifecycle?kind=service&ids=azure-cache-for-redis");
    expect(response.statusCode).toBe(200);
    const { data } = response.json() as LifecycleListT;
    expect(data.map((entry) => entry.kind)).toEqual(["service"]);
  });

  it("answers 400 for an unknown kind", async () => {
    const app = await build();
    const response = await app.inject("/v1/lifecycle?kind=tier");
    expect(response.statusCode).toBe(400);
    expect((response.json() as { status: number }).status).toBe(400);
  });
});

describe("a saved list's calendar", () => {
  it("holds its services' version end dates as events, with kind=version keeping only those", async () => {
    const app = await build({ now: at("2026-11-28") });
    const created = await app.inject({
      method: "POST",
      url: "/v1/lists",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ approvedServiceIds: ["azure-cache-for-redis"] }),
    });
    expect(created.statusCode).toBe(200);
    const { id } = created.json() as { id: string };
    const events = async (query: string) => {
      const response = await app.inject(`/v1/lists/${id}/lifecycle.ics${query}`);
      expect(response.statusCode).toBe(200);
      return new ICAL.Component(ICAL.parse(response.body))
        .getAllSubcomponents("vevent")
        .map((vevent) => new ICAL.Event(vevent))
        .map((event) => `${event.startDate.toString()} ${event.summary}`);
    };
    const all = await events("");
    expect(all).toContain("2027-03-31 Azure Cache for Redis Tier Enterprise (Azure): Retirement 2027-03-31");
    const versions = await events("?kind=version");
    expect(versions).toHaveLength(5);
    expect(all).toHaveLength(versions.length + 1);
  });
});
