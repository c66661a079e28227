/**
 * The one vocabulary of places and the three kinds of place (issue 112), through every endpoint
 * that takes a place — GET /v1/services region= and country=, GET /v1/exposure regions=, the three
 * policies' and the deployment check's allowedLocations — each answer checked against OpenAPI by
 * the build() helper; and resolvePlace itself.
 */
import { describe, expect, it } from "vitest";
import { resolvePlace, shadowedRegions } from "../../catalogue/locations/places.ts";
import { globalServices } from "../../catalogue/search/location-filters.ts";
import { build, realCatalogue } from "../helpers/app.ts";
import { terraformPlan } from "../helpers/terraform-plan.ts";

const catalogue = realCatalogue();

interface Listing {
  data: { slug: string }[];
  pagination: { total: number };
  places?: {
    asked: { place: string; kind: string; providerId?: string; countries: string[] }[];
    global: string[];
    providerLevel: { total: number; services: string[] };
  };
}
interface Exposure {
  services: {
    slug: string;
    dataRegions?: string[];
    possibleRegions?: string[];
    placement?: string;
    regionCountries: string[];
  }[];
  regions?: string[];
  notInRegions?: string[];
  providerLevel?: string[];
  operators?: { providerId: string; company?: string; unnamedOperatorRegions?: string[] }[];
}

describe("resolvePlace", () => {
  it("reads each kind of word, groups and countries before region ids, a qualified id as that provider's", () => {
    expect(resolvePlace(catalogue, "global")).toMatchObject({ kind: "global", regions: [] });
    expect(resolvePlace(catalogue, "eu")).toMatchObject({ place: "EU", kind: "group" });
    expect(resolvePlace(catalogue, "EEA")!.countries).toContain("NO");
    expect(resolvePlace(catalogue, "de")).toMatchObject({ place: "DE", kind: "country", countries: ["DE"] });
    expect(resolvePlace(catalogue, "Eu-Central-1")).toMatchObject({ place: "eu-central-1", kind: "region" });
    expect(resolvePlace(catalogue, "heroku:eu")).toMatchObject({
      place: "heroku:eu",
      kind: "region",
      providerId: "heroku",
      countries: ["IE"],
    });
    const eur4 = resolvePlace(catalogue, "eur4")!;
    expect(eur4).toMatchObject({ place: "EUR4", kind: "multi-region", providerId: "gcp", countries: ["FI", "NL"] });
    expect(eur4.regions.map(({ id }) => id).sort()).toEqual(["europe-north1", "europe-west4"]);
    expect(resolvePlace(catalogue, "gcp:US")).toMatchObject({
      kind: "multi-region",
      providerId: "gcp",
      countries: ["US"],
    });
    expect(resolvePlace(catalogue, "US")).toMatchObject({ kind: "country" });
    expect(resolvePlace(catalogue, "heroku:nowhere")).toBeUndefined();
    expect(resolvePlace(catalogue, "mars-1")).toBeUndefined();
  });

  it("names the regions reached only qualified: Heroku's eu and us, Cloudflare's us and ca", () => {
    const shadowed = shadowedRegions(catalogue);
    for (const qualified of ["heroku:eu", "heroku:us", "cloudflare:us", "cloudflare:ca"])
      expect(shadowed).toContain(qualified);
  });
});

/** Every parameter and body that takes a place, asked with `places`; the answer's status and body. */
async function askEverywhere(places: string[]) {
  const app = await build({ catalogue });
  const get = (url: string) => app.inject(url);
  const post = (url: string, payload: Record<string, unknown>) => app.inject({ method: "POST", url, payload });
  const list = places.join(",");
  const template = JSON.stringify(terraformPlan([["hcloud_server", "web", { location: "fsn1" }]]));
  return {
    "services region": await get(`/v1/services?region=${list}`),
    "services country": await get(`/v1/services?country=${list}`),
    "exposure regions": await get(`/v1/exposure?ids=aws-s3&regions=${list}`),
    "alpha-scp allowedLocations": await post("/v1/policies/alpha-scp", {
      approvedServiceIds: ["aws-s3"],
      allowedLocations: [...places, "eu-central-1"],
    }),
    "beta-policy allowedLocations": await post("/v1/policies/beta-policy", {
      approvedServiceIds: ["azure-blob-storage"],
      allowedLocations: [...places, "westeurope"],
    }),
    "gamma-org-policy allowedLocations": await post("/v1/policies/gamma-org-policy?part=2", {
      approvedServiceIds: ["gcp-cloud-storage"],
      allowedLocations: [...places, "europe-west3"],
    }),
    "deployment check allowedLocations": await post("/v1/deployments/check", {
      template,
      approvedServiceIds: ["hetzner-cloud-servers"],
      allowedLocations: places,
    }),
  };
}

describe("the one vocabulary across every endpoint", () => {
  it("is taken by every parameter and body: a region, a qualified region, a country, EU, EEA, a dual-region, global", async () => {
    const answers = await askEverywhere(["eu-central-1", "heroku:eu", "DE", "EU", "EEA", "EUR4", "global"]);
    for (const [where, response] of Object.entries(answers))
      expect(response.statusCode, `${where}: ${response.body}`).toBe(200);
  });

  it("refuses an unknown place with the same details on every endpoint, naming the nearest", async () => {
    const answers = await askEverywhere(["EUR9x"]);
    const titles: Record<string, string> = {};
    for (const [where, response] of Object.entries(answers)) {
      expect(response.statusCode, where).toBe(400);
      const body = response.json<{ error: string; details: string }>();
      titles[where] = body.error;
      expect(body.details, where).toMatch(
        /"EUR9x" \(nearest: [^)]+\) is no place the catalogue knows\. A place is a region id of any provider/,
      );
    }
    // Each parameter keeps its 1.11.0 title.
    expect(titles).toEqual({
      "services region": "Unknown region",
      "services country": "Unknown country",
      "exposure regions": "Unknown region",
      "alpha-scp allowedLocations": "Unknown locations",
      "beta-policy allowedLocations": "Unknown locations",
      "gamma-org-policy allowedLocations": "Unknown locations",
      "deployment check allowedLocations": "Unknown locations",
    });
  });
});

describe("GET /v1/services: runs here, from service-level data only", () => {
  it("answers a global service as global: not in eu-central-1, found for global or the region its vendor names", async () => {
    const app = await build({ catalogue });
    const frankfurt = (await app.inject("/v1/services?region=eu-central-1&q=cloudfront")).json<Listing>();
    expect(frankfurt.data.map(({ slug }) => slug)).not.toContain("aws-cloudfront");
    const global = (await app.inject("/v1/services?region=global&limit=200")).json<Listing>();
    const named = ["aws-cloudfront", "aws-cloudfront-functions", "aws-organizations", "aws-budgets", "aws-shield"];
    for (const slug of [
      ...named,
      "aws-cloud-wan",
      "aws-codecatalyst",
      "aws-cost-explorer",
      "aws-health",
      "aws-iam",
      "aws-route-53",
      "azure-front-door",
    ]) {
      expect(
        global.data.map((service) => service.slug),
        slug,
      ).toContain(slug);
      expect(global.places!.global, slug).toContain(slug);
    }
    const virginia = (await app.inject("/v1/services?region=us-east-1&q=cloudfront")).json<Listing>();
    expect(virginia.places!.global).toContain("aws-cloudfront");
  });

  it("lists provider-level services apart: Hetzner in Singapore", async () => {
    const app = await build({ catalogue });
    const response = await app.inject("/v1/services?region=sin&provider=hetzner&limit=200");
    expect(response.statusCode).toBe(200);
    const body = response.json<Listing>();
    expect(body.data).toEqual([]);
    expect(body.places!.providerLevel.services).toContain("hetzner-cloud-servers");
    // Object Storage and dedicated servers have their own regions (Germany and Finland): neither.
    expect(body.places!.providerLevel.services).not.toContain("hetzner-object-storage");
    expect(body.places!.providerLevel.services).not.toContain("hetzner-dedicated-root-servers");
    expect(body.places!.providerLevel.total).toBe(body.places!.providerLevel.services.length);
    const germany = (await app.inject("/v1/services?country=DE&provider=hetzner&limit=200")).json<Listing>();
    expect(germany.data.map(({ slug }) => slug).sort()).toEqual([
      "hetzner-dedicated-root-servers",
      "hetzner-object-storage",
    ]);
  });

  it("places the named services where their vendors say: ModelArts, Apple silicon, Aurora DSQL", async () => {
    const app = await build({ catalogue });
    const inRegion = async (region: string, slug: string) =>
      (await app.inject(`/v1/services?region=${region}&limit=200`)).json<Listing>().data.some((s) => s.slug === slug);
    expect(await inRegion("eu-de", "otc-modelarts")).toBe(true);
    expect(await inRegion("eu-nl", "otc-modelarts")).toBe(false);
    expect(await inRegion("eu-ch2", "otc-modelarts")).toBe(false);
    expect(await inRegion("fr-par", "scaleway-apple-silicon")).toBe(true);
    expect(await inRegion("nl-ams", "scaleway-apple-silicon")).toBe(false);
    expect(await inRegion("af-south-1", "aws-aurora-dsql")).toBe(false);
    expect(await inRegion("eu-west-1", "aws-aurora-dsql")).toBe(true);
  });

  it("reads EU as the group, and Heroku's eu region only as heroku:eu", async () => {
    const app = await build({ catalogue });
    const eu = (await app.inject("/v1/services?region=eu&provider=heroku")).json<Listing>();
    expect(eu.places!.asked).toEqual([expect.objectContaining({ place: "EU", kind: "group" })]);
    const heroku = (await app.inject("/v1/services?region=heroku:eu&provider=heroku")).json<Listing>();
    expect(heroku.places!.asked).toEqual([expect.objectContaining({ place: "heroku:eu", providerId: "heroku" })]);
  });
});

describe("GET /v1/exposure?regions=", () => {
  it("places a global service's data in the region its vendor names, not in the regions asked", async () => {
    const app = await build({ catalogue });
    const response = await app.inject("/v1/exposure?ids=aws-cloudfront,aws-organizations,aws-s3&regions=eu-central-1");
    expect(response.statusCode).toBe(200);
    const report = response.json<Exposure>();
    const row = (slug: string) => report.services.find((service) => service.slug === slug)!;
    expect(row("aws-cloudfront")).toMatchObject({
      placement: "global",
      dataRegions: ["us-east-1"],
      regionCountries: ["US"],
    });
    expect(row("aws-s3")).toMatchObject({ placement: "regional", dataRegions: ["eu-central-1"] });
    expect(report.notInRegions).toEqual(["aws-cloudfront", "aws-organizations"]);
  });

  it("reads regions=EU as the group, not Heroku's eu", async () => {
    const app = await build({ catalogue });
    const report = (await app.inject("/v1/exposure?ids=aws-s3&regions=EU")).json<Exposure>();
    expect(report.regions).toEqual(["EU"]);
    expect(report.notInRegions).toEqual([]);
    expect(report.services[0]!.dataRegions).toContain("eu-central-1");
  });

  it("names no operator where the region's entity is not known: the EU Sovereign Cloud, OCI's eu-frankfurt-2", async () => {
    const app = await build({ catalogue });
    const eusc = (await app.inject("/v1/exposure?ids=aws-s3&regions=eusc-de-east-1")).json<Exposure>();
    expect(eusc.operators).toEqual([
      expect.objectContaining({ providerId: "aws", unnamedOperatorRegions: ["eusc-de-east-1"] }),
    ]);
    expect(eusc.operators![0]).not.toHaveProperty("company");
    expect(JSON.stringify(eusc)).not.toContain("Amazon Web Services, Inc.");
    const oci = [...catalogue.bySlug.values()].find(
      (record) => record.service.providerId === "oci" && record.placement,
    )!;
    const frankfurt = (
      await app.inject(`/v1/exposure?ids=${oci.service.slug}&regions=eu-frankfurt-2`)
    ).json<Exposure>();
    expect(frankfurt.operators![0]).not.toHaveProperty("company");
    expect(JSON.stringify(frankfurt)).not.toContain("Oracle Corporation");
    // Where the operator is known, it is named.
    const ireland = (await app.inject("/v1/exposure?ids=aws-s3&regions=eu-west-1")).json<Exposure>();
    expect(ireland.operators![0]!.company).toBe("Amazon Web Services, Inc.");
  });

  it("lists a provider-level service apart, with the provider's regions there as possibleRegions", async () => {
    const app = await build({ catalogue });
    const report = (
      await app.inject("/v1/exposure?ids=hetzner-cloud-servers,hetzner-object-storage&regions=sin")
    ).json<Exposure>();
    expect(report.providerLevel).toEqual(["hetzner-cloud-servers"]);
    expect(report.notInRegions).toEqual(["hetzner-object-storage"]);
    const row = report.services.find((service) => service.slug === "hetzner-cloud-servers")!;
    expect(row).toMatchObject({ placement: "provider-level", possibleRegions: ["sin"], regionCountries: ["SG"] });
    expect(row).not.toHaveProperty("dataRegions");
  });
});

describe("the global services' table", () => {
  it("holds the services the issue named, with the region AWS names, and no regional service", () => {
    const rows = globalServices(catalogue);
    const bySlug = new Map(rows.map((row) => [row.slug, row]));
    for (const slug of ["aws-cloudfront", "aws-organizations", "aws-budgets", "aws-shield", "aws-iam", "aws-route-53"])
      expect(bySlug.get(slug)?.homeRegions, slug).toEqual(["us-east-1"]);
    expect(bySlug.get("aws-cloud-wan")?.homeRegions).toEqual(["us-west-2"]);
    expect(bySlug.get("azure-front-door")?.homeRegions).toEqual([]);
    expect(bySlug.has("aws-s3")).toBe(false);
    for (const row of rows) expect(catalogue.bySlug.get(row.slug)!.placement!.kind).toBe("global");
  });
});
