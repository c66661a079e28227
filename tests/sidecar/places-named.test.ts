/**
 * Places as people name them (issue 123): GET /v1/places/{place} reads a metro, a country by name
 * and a region by its vendor's name, answering every provider's regions there with the page that
 * states each city; every place parameter takes the same words; an unknown one names the nearest by
 * name as well as code. The twenty names of docs/api.md's "Place names" table
 * (tests/fixtures/place-names.ts) each reach the regions the vendors list. Answers are checked
 * against OpenAPI by the build() helper.
 */
import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { build, realCatalogue } from "../helpers/app.ts";
import { markdownTable } from "../helpers/markdown-table.ts";
import { PLACE_NAMES } from "../fixtures/place-names.ts";

interface PlaceAnswer {
  place: string;
  kind: string;
  given?: string;
  name?: string;
  countries: string[];
  regions: {
    providerId: string;
    id: string;
    name?: string;
    city?: string;
    country: string;
    citySource?: { url: string };
  }[];
  byProvider: { providerId: string; regions: string[] }[];
  metros: { id: string; name: string; regions: number }[];
}

// build() closes its app after each test (and checks every answer against OpenAPI).
let app: FastifyInstance;
beforeEach(async () => {
  app = await build();
});

const get = async (url: string) => {
  const response = await app.inject(url);
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
};
const place = async (word: string) => {
  const { status, body } = await get(`/v1/places/${encodeURIComponent(word)}`);
  expect(status, `${word}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
  return body as unknown as PlaceAnswer;
};

describe("GET /v1/places/{place}", () => {
  it("reads Frankfurt as every provider's Frankfurt regions, each city with the vendor page that states it", async () => {
    const frankfurt = await place("Frankfurt");
    expect(frankfurt).toMatchObject({ place: "frankfurt", kind: "metro", name: "Frankfurt", countries: ["DE"] });
    const held = frankfurt.regions.map((region) => `${region.providerId}:${region.id}`);
    for (const region of ["aws:eu-central-1", "gcp:europe-west3", "azure:germanywestcentral", "oci:eu-frankfurt-1"])
      expect(held).toContain(region);
    // Every region there is in Germany, with a city; a city the vendor's own page states says which page.
    const sources = realCatalogue().source.metros!.citySources;
    for (const region of frankfurt.regions) {
      expect(region.country).toBe("DE");
      expect(region.city).toBe("Frankfurt");
      expect(region.citySource?.url).toBe(
        Object.hasOwn(sources, region.providerId) ? sources[region.providerId]!.url : undefined,
      );
    }
    // The same regions by provider, largest provider first.
    expect(frankfurt.byProvider.flatMap((p) => p.regions.map((id) => `${p.providerId}:${id}`))).toEqual(held);
    expect(frankfurt.byProvider[0]!.providerId).toBe("aws");
  });

  it("leads a region back to its metro, whose answer holds the other providers' regions there", async () => {
    const region = await place("eu-central-1");
    expect(region.kind).toBe("region");
    const metro = region.metros.find((m) => m.id === "frankfurt")!;
    expect(metro.regions).toBe((await place("frankfurt")).regions.length);
    expect(metro.regions).toBeGreaterThan(3);
  });

  it("reads a country by its name in several languages, and a region by its vendor's name", async () => {
    for (const word of ["germany", "Deutschland", "Allemagne", "Germania", "Alemania", "Duitsland", "DE"])
      expect((await place(word)).place, word).toBe("DE");
    expect(await place("Germany West Central")).toMatchObject({
      place: "germanywestcentral",
      kind: "region",
      given: "Germany West Central",
    });
    expect((await place("US East (N. Virginia)")).place).toBe("us-east-1");
  });

  it("names the nearest by name as well as code for an unknown place: gra, germny", async () => {
    const gra = await get("/v1/places/gra");
    expect(gra.status).toBe(404);
    expect(gra.body).toMatchObject({ error: "Place not found", status: 404 });
    expect(gra.body.details).toMatch(/nearest: eu-west-gra = Gravelines/);
    const germny = await get("/v1/places/germny");
    expect(germny.body.details).toMatch(/nearest: DE = Germany/);
  });

  it("refuses a word no place could be with a 400, as every place parameter does", async () => {
    const empty = await get("/v1/places/%20");
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: "Invalid path" });
    const long = await get(`/v1/places/${"a".repeat(60)}`);
    expect(long.status).toBe(400);
    expect(long.body.details).toMatch(/is 60 characters; a place is at most 40/);
    const region = await get(`/v1/services?region=${"a".repeat(480)}`);
    expect(region.status).toBe(400);
    expect(region.body.details).toMatch(/is 480 characters; a place is at most 40/);
  });
});

describe("a metro in every place parameter", () => {
  it("filters GET /v1/services?region=Frankfurt to what runs in any provider's Frankfurt region", async () => {
    const { status, body } = await get("/v1/services?region=Frankfurt&limit=1");
    expect(status).toBe(200);
    expect((body as { places: { asked: { kind: string; place: string }[] } }).places.asked[0]).toMatchObject({
      kind: "metro",
      place: "frankfurt",
    });
    // Each provider's share: the services of its Frankfurt region, named by id.
    const total = (answer: { body: Record<string, unknown> }) =>
      (answer.body as { pagination: { total: number } }).pagination.total;
    for (const [provider, region] of [
      ["aws", "eu-central-1"],
      ["gcp", "europe-west3"],
      ["azure", "germanywestcentral"],
    ]) {
      const byMetro = await get(`/v1/services?region=Frankfurt&provider=${provider}&limit=1`);
      const byRegion = await get(`/v1/services?region=${provider}:${region}&provider=${provider}&limit=1`);
      expect(total(byMetro), provider).toBeGreaterThan(10);
      expect(total(byMetro), provider).toBe(total(byRegion));
    }
  });

  it("places an exposure's services in Frankfurt, and allows Frankfurt in a policy", async () => {
    const exposure = await get("/v1/exposure?ids=aws-s3,gcp-cloud-storage&regions=Frankfurt");
    expect(exposure.status).toBe(200);
    const services = (exposure.body as { services: { slug: string; dataRegions?: string[] }[] }).services;
    expect(services.find((s) => s.slug === "aws-s3")!.dataRegions).toContain("eu-central-1");
    expect(services.find((s) => s.slug === "gcp-cloud-storage")!.dataRegions).toContain("europe-west3");
    const policy = await app.inject({
      method: "POST",
      url: "/v1/policies/beta-policy",
      payload: { approvedServiceIds: ["azure-blob-storage"], allowedLocations: ["Frankfurt"] },
    });
    expect(policy.statusCode).toBe(200);
    expect(policy.body).toContain("germanywestcentral");
  });
});

describe("docs/api.md's twenty place names", () => {
  const docs = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");

  it("are twenty names people type, each read as the place the table says", async () => {
    expect(PLACE_NAMES).toHaveLength(20);
    for (const name of PLACE_NAMES) {
      const answer = await place(name.name);
      expect({ place: answer.place, kind: answer.kind }, name.name).toEqual({ place: name.place, kind: name.kind });
    }
  });

  it("reach the regions AWS, Azure, Google Cloud and Oracle list there, each city with its source", async () => {
    for (const name of PLACE_NAMES) {
      const answer = await place(name.name);
      for (const wanted of name.regions) {
        const region = answer.regions.find((row) => `${row.providerId}:${row.id}` === wanted);
        expect(region, `${name.name} → ${wanted}`).toBeDefined();
        if (name.kind !== "country") expect(region!.citySource?.url, `${name.name} → ${wanted}`).toMatch(/^https:\/\//);
      }
    }
  });

  it("are the rows of docs/api.md's table, each naming its place and its regions", () => {
    const table = markdownTable(docs, "| Name typed | Read as |");
    expect(table.map(([name]) => name)).toEqual(PLACE_NAMES.map((name) => name.name));
    for (const [i, name] of PLACE_NAMES.entries()) {
      const [, readAs, regions] = table[i]!;
      expect(readAs, name.name).toBe(`${name.kind} \`${name.place}\``);
      for (const region of name.regions) {
        const [provider, id] = region.split(":");
        expect(regions, `${name.name} → ${region}`).toMatch(new RegExp(`(^|; )${provider} [^;]*\\b${id}\\b`));
      }
    }
  });
});
