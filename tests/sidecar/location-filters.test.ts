/**
 * Locations (1.11.0) through the routes, each answer checked against the OpenAPI document by the
 * build() helper: a service's regions on GET /v1/services/{slug}, region= and country= on
 * /v1/services (unknown values refused as jurisdiction= is), and /v1/exposure?regions=.
 */
import { describe, expect, it } from "vitest";
import { build, realCatalogue } from "../helpers/app.ts";

interface Listing {
  data: { slug: string; providerId: string }[];
  pagination: { total: number };
}
interface Detail {
  regions?: { id: string; country: string; level: string }[];
}

describe("GET /v1/services/{slug}: regions", () => {
  it("gives an AWS service its regions from the endpoint metadata, level service", async () => {
    const app = await build();
    const response = await app.inject("/v1/services/aws-s3");
    expect(response.statusCode).toBe(200);
    const regions = response.json<Detail>().regions!;
    expect(regions.every((region) => region.level === "service")).toBe(true);
    expect(regions).toContainEqual({ id: "eu-central-1", country: "DE", level: "service" });
    // S3 runs in the AWS European Sovereign Cloud: the aws-eusc partition of the metadata names it.
    expect(regions).toContainEqual({ id: "eusc-de-east-1", country: "DE", level: "service" });
  });

  it("marks a service without per-service data as provider level, leaving out the EU sovereign partition", async () => {
    const catalogue = realCatalogue();
    const app = await build({ catalogue });
    const regions = (await app.inject("/v1/services/gcp-iam")).json<Detail>().regions!;
    expect(regions.map((region) => region.id)).toEqual(catalogue.providerById.get("gcp")!.regions.map(({ id }) => id));
    expect(new Set(regions.map((region) => region.level))).toEqual(new Set(["provider"]));
    // aws-app-studio: not in the endpoint metadata, so AWS's regions, but not eusc-de-east-1.
    const appStudio = (await app.inject("/v1/services/aws-app-studio")).json<Detail>().regions!;
    expect(appStudio[0]!.level).toBe("provider");
    expect(appStudio.map((region) => region.id)).toContain("eu-central-1");
    expect(appStudio.map((region) => region.id)).not.toContain("eusc-de-east-1");
  });
});

describe("GET /v1/services?region= and ?country=", () => {
  it("keeps the services running in a region, case-insensitively, any of a list", async () => {
    const catalogue = realCatalogue();
    const app = await build({ catalogue });
    const total = async (query: string) =>
      (await app.inject(`/v1/services?${query}&limit=1`)).json<Listing>().pagination.total;
    const eusc = await total("region=eusc-de-east-1");
    const expected = [...catalogue.bySlug.values()].filter((record) =>
      record.regions.some((region) => region.id === "eusc-de-east-1"),
    ).length;
    expect(eusc).toBe(expected);
    expect(eusc).toBeGreaterThan(50);
    expect(eusc).toBeLessThan(catalogue.services.filter((s) => s.providerId === "aws").length);
    expect(await total("region=EUSC-DE-EAST-1")).toBe(eusc);
    const frankfurt = await total("region=eu-central-1");
    expect(frankfurt).toBeGreaterThan(eusc);
    // Any of them: every eusc service also runs in eu-central-1 or not, so the union is at least each.
    expect(await total("region=eu-central-1,eusc-de-east-1")).toBeGreaterThanOrEqual(frankfurt);
    // An empty place is a 400 since issue 123, as the POST bodies' allowedLocations are.
    expect((await app.inject("/v1/services?region=")).statusCode).toBe(400);
    expect(await total("region=eusc-de-east-1&provider=gcp")).toBe(0);
  });

  it("keeps the services with a region in a country", async () => {
    const catalogue = realCatalogue();
    const app = await build({ catalogue });
    const response = await app.inject("/v1/services?country=ch&provider=hetzner&limit=200");
    expect(response.statusCode).toBe(200);
    const hetznerInCh = catalogue.providerById.get("hetzner")!.regionCountries.includes("CH");
    expect(response.json<Listing>().pagination.total).toBe(
      hetznerInCh ? catalogue.services.filter((s) => s.providerId === "hetzner").length : 0,
    );
    const de = (await app.inject("/v1/services?country=DE&limit=200")).json<Listing>();
    for (const service of de.data)
      expect(catalogue.bySlug.get(service.slug)!.regions.some((region) => region.country === "DE")).toBe(true);
    expect(de.pagination.total).toBeLessThan(catalogue.services.length);
  });

  it("refuses a region no provider has, naming the nearest", async () => {
    const app = await build();
    const response = await app.inject("/v1/services?region=eu-centrl-1");
    expect(response.statusCode).toBe(400);
    const body = response.json<{ error: string; status: number; details: string }>();
    expect(body.error).toBe("Unknown region");
    expect(body.status).toBe(400);
    expect(body.details).toMatch(/^region: "eu-centrl-1" \(nearest: eu-central-1, /);
  });

  it("refuses a country no region is in, naming the nearest places", async () => {
    const app = await build();
    const response = await app.inject("/v1/services?country=DE,XX");
    expect(response.statusCode).toBe(400);
    const body = response.json<{ error: string; details: string }>();
    expect(body.error).toBe("Unknown country");
    expect(body.details).toMatch(
      /^country: "XX" \(nearest: [A-Z]{2}, [A-Z]{2}, [A-Z]{2}\) is no place the catalogue knows/,
    );
  });
});

describe("GET /v1/exposure?regions=", () => {
  interface Report {
    byRegionCountry: { key: string; count: number }[];
    services: { slug: string; regionCountries: string[]; dataRegions?: string[] }[];
    regions?: string[];
    notInRegions?: string[];
    disclaimer: string;
  }

  it("places each service's data in the regions asked, and says the parent's jurisdiction still reaches it", async () => {
    const app = await build();
    const ids = "aws-s3,gcp-gke,ovhcloud-object-storage";
    const plain = (await app.inject(`/v1/exposure?ids=${ids}`)).json<Report>();
    const response = await app.inject(`/v1/exposure?ids=${ids}&regions=EU-Central-1,eusc-de-east-1`);
    expect(response.statusCode).toBe(200);
    const placed = response.json<Report>();
    expect(placed.regions).toEqual(["eu-central-1", "eusc-de-east-1"]);
    const row = (slug: string) => placed.services.find((service) => service.slug === slug)!;
    expect(row("aws-s3")).toMatchObject({ dataRegions: ["eu-central-1", "eusc-de-east-1"], regionCountries: ["DE"] });
    // Neither GCP nor OVHcloud has a region of those ids: no data placed there.
    expect(row("gcp-gke")).toMatchObject({ dataRegions: [], regionCountries: [] });
    expect(placed.notInRegions).toEqual(["gcp-gke", "ovhcloud-object-storage"]);
    expect(placed.byRegionCountry).toEqual([{ key: "DE", count: 1, percentage: 33.3 }]);
    // Without regions, the countries of every provider region, as before.
    expect(plain.byRegionCountry.length).toBeGreaterThan(10);
    expect(plain.services[0]!.dataRegions).toBeUndefined();
    expect(plain.disclaimer).not.toContain("parent company");
    expect(placed.disclaimer).toContain("parent company");
    expect(placed.disclaimer.startsWith(plain.disclaimer)).toBe(true);
  });

  it("refuses an unknown region id", async () => {
    const app = await build();
    const response = await app.inject("/v1/exposure?ids=aws-s3&regions=mars-1");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "Unknown region", status: 400 });
  });
});
