/**
 * The list filters of 1.11.0, through the routes (each answer checked against the OpenAPI document
 * by the build() helper): jurisdiction on /v1/services (the provider's head-office jurisdiction as
 * the catalogue records it, any of a list), compliance as a case-insensitive list whose programmes
 * are all required (docs/decisions.md#list-filters), and ids on the lifecycle rows.
 */
import { describe, expect, it } from "vitest";
import { providerWideProgrammes } from "../../catalogue/compliance/compliance.ts";
import type { Catalogue } from "../../catalogue/load/load.ts";
import { build, realCatalogue } from "../helpers/app.ts";

interface Listing {
  data: { slug: string; providerId: string; compliance?: string[] }[];
  pagination: { total: number };
  compliance?: { id: string; name: string; programmes?: { id: string; name: string }[]; sources: object };
}

const jurisdictionOf = (catalogue: Catalogue, providerId: string) =>
  catalogue.providerById.get(providerId)!.provider.jurisdiction;

describe("GET /v1/services?jurisdiction=", () => {
  it("keeps the services of providers headquartered in the jurisdiction, as Provider.jurisdiction records it", async () => {
    const catalogue = realCatalogue();
    const app = await build({ catalogue });
    const response = await app.inject("/v1/services?jurisdiction=EU&limit=200");
    expect(response.statusCode).toBe(200);
    const body = response.json<Listing>();
    const expected = catalogue.services.filter((s) => jurisdictionOf(catalogue, s.providerId) === "EU");
    expect(body.pagination.total).toBe(expected.length);
    expect(body.pagination.total).toBeLessThan(catalogue.services.length);
    expect(body.pagination.total).toBeGreaterThan(100);
    for (const service of body.data) expect(jurisdictionOf(catalogue, service.providerId)).toBe("EU");
  });

  it("reads values case-insensitively and a comma-separated list as any of them", async () => {
    const catalogue = realCatalogue();
    const app = await build({ catalogue });
    const total = async (query: string) =>
      (await app.inject(`/v1/services?${query}&limit=1`)).json<Listing>().pagination.total;
    const eu = await total("jurisdiction=EU");
    const ch = await total("jurisdiction=CH");
    expect(ch).toBeGreaterThan(0);
    expect(await total("jurisdiction=eu")).toBe(eu);
    expect(await total("jurisdiction=eu,%20Ch")).toBe(eu + ch);
    expect(await total("jurisdiction=EU,CH,eu")).toBe(eu + ch);
    // Names read as codes (issue 123): Switzerland is CH, European Union is EU.
    expect(await total("jurisdiction=Switzerland")).toBe(ch);
    expect(await total("jurisdiction=European%20Union")).toBe(eu);
    // Empty: a 400 since issue 123, never the unfiltered listing.
    expect((await app.inject("/v1/services?jurisdiction=")).statusCode).toBe(400);
    // It combines with the other filters.
    expect(await total("jurisdiction=EU&provider=aws")).toBe(0);
  });

  it("refuses a jurisdiction no provider has, listing those the catalogue records", async () => {
    const app = await build();
    const response = await app.inject("/v1/services?jurisdiction=EU,DE");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: "Unknown jurisdiction",
      status: 400,
      // Every filter's wording since issue 123: the value, its nearest (EU for a member state), the vocabulary.
      details:
        'jurisdiction: "DE" (nearest: EU, CH, CN) is no jurisdiction the catalogue knows; ids and names are read case-insensitively (jurisdictions: CH, CN, EU, JP, KR, SG, US); a head office in an EU/EEA member state is recorded as EU',
    });
  });
});

describe("GET /v1/services?compliance= as a list", () => {
  it("reads programme ids case-insensitively: SECNUMCLOUD is secnumcloud", async () => {
    const app = await build();
    const upper = await app.inject("/v1/services?compliance=SECNUMCLOUD");
    expect(upper.statusCode).toBe(200);
    const lower = await app.inject("/v1/services?compliance=secnumcloud");
    expect(upper.json<Listing>().data.map((s) => s.slug)).toEqual(lower.json<Listing>().data.map((s) => s.slug));
    // The services a scope list names; S3NS's, held provider-wide (issue 100), only when asked (issue 115).
    expect(upper.json<Listing>().data.map((s) => s.slug)).toEqual([
      "ovhcloud-bare-metal-pod",
      "ovhcloud-hosted-private-cloud-vmware",
    ]);
    const all = await app.inject("/v1/services?compliance=SECNUMCLOUD&complianceScope=all");
    const wide = (all.json<Listing>().compliance as { providerWide?: Record<string, string[]> }).providerWide ?? {};
    expect(Object.keys(wide).length).toBeGreaterThan(0);
    expect(Object.keys(wide).every((slug) => slug.startsWith("s3ns-"))).toBe(true);
    expect(upper.json<Listing>().compliance).toMatchObject({ id: "secnumcloud", programmes: [{ id: "secnumcloud" }] });
  });

  it("requires every programme of a comma-separated list (all of them, not any)", async () => {
    const catalogue = realCatalogue();
    const app = await build({ catalogue });
    // A service holds a programme by its own scope list or provider-wide (issue 100).
    const holds = (id: string) => (s: (typeof catalogue.services)[number]) =>
      (s.compliance ?? []).includes(id) ||
      providerWideProgrammes(catalogue.providerById.get(s.providerId)!.provider, s).includes(id);
    const both = catalogue.services.filter((s) => holds("c5")(s) && holds("ens-high")(s));
    const either = catalogue.services.filter((s) => holds("c5")(s) || holds("ens-high")(s));
    // The data tells all-of from any-of apart.
    expect(both.length).toBeGreaterThan(0);
    expect(either.length).toBeGreaterThan(both.length);
    const response = await app.inject("/v1/services?compliance=C5,%20ens-high&complianceScope=all&limit=200");
    expect(response.statusCode).toBe(200);
    const body = response.json<Listing>();
    expect(body.pagination.total).toBe(both.length);
    const providerWide = (body.compliance as { providerWide?: Record<string, string[]> }).providerWide ?? {};
    for (const service of body.data)
      expect([...(service.compliance ?? []), ...(providerWide[service.slug] ?? [])]).toEqual(
        expect.arrayContaining(["c5", "ens-high"]),
      );
    expect(body.compliance).toMatchObject({
      id: "c5",
      programmes: [{ id: "c5" }, { id: "ens-high" }],
    });
    expect(Object.keys(body.compliance!.sources).sort()).toEqual(body.data.map((s) => s.slug).sort());
    // hds,secnumcloud: the one service both lists name.
    const french = await app.inject("/v1/services?compliance=hds,SecNumCloud");
    expect(french.json<Listing>().data.map((s) => s.slug)).toEqual(["ovhcloud-hosted-private-cloud-vmware"]);
  });

  it("refuses a list with an unknown programme, naming it with the nearest id", async () => {
    const app = await build();
    const response = await app.inject("/v1/services?compliance=c5,secnum");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "Unknown compliance programme", status: 400 });
    expect(response.json().details).toMatch(
      /^compliance: "secnum" \(nearest: secnumcloud\) is no programme the catalogue knows; .*\bc5\b/,
    );
  });
});

describe("GET /v1/lifecycle?ids=", () => {
  it("keeps only the entries of the services named (aws-ec2 has none: it no longer answers every entry)", async () => {
    const app = await build();
    const all = (await app.inject("/v1/lifecycle")).json<{ data: { slug: string }[] }>().data;
    expect(all.length).toBeGreaterThan(100);
    const ec2 = await app.inject("/v1/lifecycle?ids=aws-ec2");
    expect(ec2.statusCode).toBe(200);
    expect(ec2.json<{ data: unknown[] }>().data).toEqual([]);
    const some = await app.inject("/v1/lifecycle?ids=aws-chime,%20aws-cloud-directory,aws-ec2,aws-chime");
    expect(some.statusCode).toBe(200);
    expect(
      some
        .json<{ data: { slug: string }[] }>()
        .data.map((entry) => entry.slug)
        .sort(),
    ).toEqual(["aws-chime", "aws-cloud-directory"]);
  });

  it("combines ids with provider, status and within", async () => {
    const app = await build();
    const slugs = async (query: string) =>
      (await app.inject(`/v1/lifecycle?${query}`)).json<{ data: { slug: string }[] }>().data.map((e) => e.slug);
    expect(await slugs("ids=aws-chime,aws-cloud-directory&provider=gcp")).toEqual([]);
    expect(await slugs("ids=aws-chime,aws-cloud-directory&status=retired")).toEqual(["aws-chime"]);
    expect(await slugs("ids=aws-chime,aws-cloud-directory&provider=aws&within=3650d")).toEqual(["aws-cloud-directory"]);
  });

  it("refuses unknown ids as every id list does, naming them with the nearest slugs", async () => {
    const app = await build();
    const response = await app.inject("/v1/lifecycle?ids=aws-chime,aws-chimes");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "Unknown service ids", status: 400 });
    expect(response.json().details).toMatch(/^Not in the catalogue: aws-chimes \(did you mean [^)]*aws-chime/);
    const empty = await app.inject("/v1/lifecycle?ids=");
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: "ids is required", status: 400 });
  });

  it("filters the Atom feed and the calendar the same way, the feed's id carrying the ids", async () => {
    const app = await build();
    const atom = await app.inject("/v1/lifecycle.atom?ids=aws-chime");
    expect(atom.statusCode).toBe(200);
    expect(atom.body).toContain("ids=aws-chime");
    expect(atom.body.match(/<entry>/g)).toHaveLength(1);
    const calendar = await app.inject("/v1/lifecycle.ics?ids=aws-cloud-directory,aws-ec2");
    expect(calendar.statusCode).toBe(200);
    expect(calendar.body.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect((await app.inject("/v1/lifecycle.ics?ids=nope")).statusCode).toBe(400);
  });
});
