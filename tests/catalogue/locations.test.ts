/**
 * Locations (1.11.0): how the vendored AWS endpoint metadata becomes each service's regions
 * (endpoint-regions.node.ts, regions.ts) and what check:data holds AWS's region list to
 * (quality/locations.ts).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { endpointRegions, type EndpointRegionsFile } from "../../catalogue/inventory/endpoint-regions.node.ts";
import { regionProblems } from "../../catalogue/load/entry-checks.ts";
import { publicRegions, servicePlacement } from "../../catalogue/load/regions.ts";
import { assembleCatalogue } from "../../catalogue/load/load.ts";
import { locationLines, locationProblems } from "../../catalogue/quality/locations.ts";
import { listServices } from "../../catalogue/search/query.ts";
import type { ProviderFileT } from "../../catalogue/schema/index.ts";
import { realCatalogue } from "../helpers/catalogue.ts";

function inventoryWith(file: EndpointRegionsFile, map: string): string {
  const dir = mkdtempSync(join(tmpdir(), "endpoints-"));
  mkdirSync(join(dir, "aws", "endpoints"), { recursive: true });
  writeFileSync(join(dir, "aws", "endpoints", "regions.json"), JSON.stringify(file));
  writeFileSync(join(dir, "aws", "endpoints", "map.yaml"), map);
  return dir;
}

const FILE: EndpointRegionsFile = {
  origin: "test",
  partitions: [
    {
      partition: "aws",
      regions: { "eu-central-1": "Europe (Frankfurt)", "us-east-1": "US East (N. Virginia)" },
      services: { s3: ["eu-central-1", "us-east-1"], iam: { global: "us-east-1" }, "runtime.lex": ["us-east-1"] },
    },
    { partition: "aws-eusc", regions: { "eusc-de-east-1": "EU (Germany)" }, services: { s3: ["eusc-de-east-1"] } },
  ],
};

const AWS = {
  id: "aws",
  headOffice: { country: "US", city: "Seattle", company: "Amazon Web Services, Inc." },
  regions: [
    { id: "us-east-1", name: "US East", country: "US", market: "global" },
    { id: "eu-central-1", name: "Europe (Frankfurt)", country: "DE", market: "global" },
    { id: "eusc-de-east-1", name: "EU (Germany)", country: "DE", market: "eu-sovereign" },
  ],
} as unknown as ProviderFileT;

describe("endpointRegions", () => {
  it("gives a service the regions of the prefixes it owns, by iamPrefixes or map.yaml, across partitions", () => {
    const dir = inventoryWith(FILE, "runtime.lex: aws-lex\n");
    const data = endpointRegions(dir, [
      { slug: "aws-s3", providerId: "aws", policyIdentifiers: { iamPrefixes: ["s3"] } },
      { slug: "aws-iam", providerId: "aws", policyIdentifiers: { iamPrefixes: ["iam"] } },
      { slug: "aws-lex", providerId: "aws", policyIdentifiers: { iamPrefixes: ["lex"] } },
      { slug: "aws-new", providerId: "aws", policyIdentifiers: { iamPrefixes: ["brandnew"] } },
      { slug: "gcp-s3ish", providerId: "gcp", policyIdentifiers: { iamPrefixes: ["s3"] } },
    ])!;
    expect(data.partitionOf).toEqual({ "eu-central-1": "aws", "us-east-1": "aws", "eusc-de-east-1": "aws-eusc" });
    expect(data.services["aws-s3"]).toEqual({
      prefixes: ["s3"],
      regions: ["eu-central-1", "eusc-de-east-1", "us-east-1"],
      globalIn: [],
    });
    expect(data.services["aws-iam"]).toEqual({
      prefixes: ["iam"],
      regions: [],
      globalIn: ["aws"],
      homeRegions: ["us-east-1"],
    });
    expect(data.services["aws-lex"]).toEqual({ prefixes: ["runtime.lex"], regions: ["us-east-1"], globalIn: [] });
    // Not in the data, or not AWS's: no key, so the provider's list (level provider) applies.
    expect(Object.keys(data.services).sort()).toEqual(["aws-iam", "aws-lex", "aws-s3"]);
  });

  it("is undefined for an inventory folder without the file", () => {
    expect(endpointRegions(mkdtempSync(join(tmpdir(), "none-")), [])).toBeUndefined();
  });
});

describe("publicRegions and serviceRegions", () => {
  const partitionOf = { "us-east-1": "aws", "eu-central-1": "aws", "eusc-de-east-1": "aws-eusc" };
  const regions = publicRegions(AWS, partitionOf);

  it("states the head office's company as operator, except for a separate market's region, and AWS's partition", () => {
    expect(regions.map((region) => [region.id, region.operator, region.partition])).toEqual([
      ["us-east-1", "Amazon Web Services, Inc.", "aws"],
      ["eu-central-1", "Amazon Web Services, Inc.", "aws"],
      ["eusc-de-east-1", undefined, "aws-eusc"],
    ]);
  });

  const placed = (data?: { prefixes: string[]; regions: string[]; globalIn: string[]; homeRegions?: string[] }) =>
    servicePlacement({
      regions,
      providerListAsOf: "2026-11-22",
      providerName: "AWS",
      derived: data && { data, origin: "botocore endpoints.json at abc 2026-08-07", asOf: "2026-08-07" },
    });

  it("places a service by its regional endpoints, else at provider level, with the data's date", () => {
    expect(placed({ prefixes: ["s3"], regions: ["eusc-de-east-1", "us-east-1"], globalIn: [] })).toEqual({
      regions: [
        { id: "us-east-1", country: "US", level: "service" },
        { id: "eusc-de-east-1", country: "DE", level: "service" },
      ],
      placement: { kind: "regional", source: "botocore endpoints.json at abc 2026-08-07", asOf: "2026-08-07" },
    });
    expect(placed()).toEqual({
      regions: [
        { id: "us-east-1", country: "US", level: "provider" },
        { id: "eu-central-1", country: "DE", level: "provider" },
      ],
      placement: {
        kind: "provider-level",
        source: "AWS's regions in general availability (data/providers/)",
        asOf: "2026-11-22",
      },
    });
  });

  it("places a service answered only from a partition-wide endpoint as global, in the region it signs in, never in every region", () => {
    expect(placed({ prefixes: ["iam"], regions: [], globalIn: ["aws"], homeRegions: ["us-east-1"] })).toEqual({
      regions: [{ id: "us-east-1", country: "US", level: "global" }],
      placement: {
        kind: "global",
        source: "botocore endpoints.json at abc 2026-08-07",
        asOf: "2026-08-07",
        homeRegions: ["us-east-1"],
      },
    });
    // A global endpoint beside regional ones is a part of a regional service: its regions only.
    expect(
      placed({
        prefixes: ["waf", "waf-regional"],
        regions: ["eu-central-1"],
        globalIn: ["aws"],
        homeRegions: ["us-east-1"],
      }).regions,
    ).toEqual([{ id: "eu-central-1", country: "DE", level: "service" }]);
    // aws-global names no region: global with no home region.
    expect(placed({ prefixes: ["codecatalyst"], regions: [], globalIn: ["aws"] })).toMatchObject({
      regions: [],
      placement: { kind: "global" },
    });
  });

  it("takes a vendor page's statement over the derived data", () => {
    const source = { url: "https://docs.aws.amazon.com/x", retrieved: "2026-11-28", asOf: "2026-10-01" };
    const stated = servicePlacement({
      regions,
      providerListAsOf: "2026-11-22",
      providerName: "AWS",
      derived: {
        data: { prefixes: ["x"], regions: ["us-east-1", "eu-central-1"], globalIn: [] },
        origin: "o",
        asOf: "2026-08-07",
      },
      stated: { service: "aws-x", regions: ["eu-central-1"], source },
    });
    expect(stated).toEqual({
      regions: [{ id: "eu-central-1", country: "DE", level: "service" }],
      placement: { kind: "regional", source: "https://docs.aws.amazon.com/x", asOf: "2026-10-01" },
    });
    const global = servicePlacement({
      regions,
      providerListAsOf: "2026-11-22",
      providerName: "AWS",
      derived: {
        data: {
          prefixes: ["iam", "sts"],
          regions: ["us-east-1", "eu-central-1"],
          globalIn: ["aws"],
          homeRegions: ["us-east-1"],
        },
        origin: "o",
        asOf: "2026-08-07",
      },
      stated: { service: "aws-iam", global: {}, source },
    });
    expect(global.placement).toEqual({
      kind: "global",
      source: "https://docs.aws.amazon.com/x",
      asOf: "2026-10-01",
      homeRegions: ["us-east-1"],
    });
    expect(global.regions).toEqual([{ id: "us-east-1", country: "US", level: "global" }]);
  });
});

describe("a region another entity runs, unnamed", () => {
  const OCI = {
    id: "oci",
    officialDomains: ["oracle.com"],
    headOffice: { country: "US", city: "Austin", company: "Oracle Corporation" },
    regions: [
      { id: "eu-frankfurt-1", name: "Germany Central (Frankfurt)", country: "DE" },
      {
        id: "eu-frankfurt-2",
        name: "EU Sovereign Central (Frankfurt)",
        country: "DE",
        unnamedOperatorSource: "https://docs.oracle.com/en/solutions/learn-about-eusc/index.html",
      },
    ],
  } as unknown as ProviderFileT;

  it("states no operator for it, and the data-only source stays out of the API", () => {
    const [commercial, sovereign] = publicRegions(OCI);
    expect(commercial).toEqual({ ...OCI.regions[0], operator: "Oracle Corporation" });
    expect(sovereign).toEqual({ id: "eu-frankfurt-2", name: "EU Sovereign Central (Frankfurt)", country: "DE" });
    // Only the operator changes: whether provider-level regions list it is a market's matter, not this.
    expect(
      servicePlacement({
        regions: publicRegions(OCI),
        providerListAsOf: "2026-11-22",
        providerName: "OCI",
      }).regions.map(({ id }) => id),
    ).toEqual(["eu-frankfurt-1", "eu-frankfurt-2"]);
  });

  it("is refused beside a named operator, or from a page off the provider's domains", () => {
    const named = { ...OCI.regions[1]!, operator: "Some GmbH" };
    const offDomain = { ...OCI.regions[1]!, unnamedOperatorSource: "https://example.com/eusc" };
    expect(regionProblems({ ...OCI, regions: [OCI.regions[0]!, named] })).toEqual([
      "field regions.1.unnamedOperatorSource: not with operator, which names the entity",
    ]);
    expect(regionProblems({ ...OCI, regions: [OCI.regions[0]!, offDomain] })).toEqual([
      "field regions.1.unnamedOperatorSource: host is not one of officialDomains",
    ]);
  });

  it("holds for the catalogue's: OCI's EU Sovereign Cloud and Alibaba Cloud's partner-operated Riyadh", () => {
    const catalogue = realCatalogue();
    const operatorOf = (provider: string, region: string) =>
      catalogue.providerById.get(provider)!.regions.find((entry) => entry.id === region)!;
    for (const [provider, region] of [
      ["oci", "eu-frankfurt-2"],
      ["oci", "eu-madrid-2"],
      ["alibaba", "me-central-1"],
    ] as const) {
      expect(operatorOf(provider, region), region).not.toHaveProperty("operator");
      expect(operatorOf(provider, region), region).not.toHaveProperty("unnamedOperatorSource");
    }
    expect(operatorOf("oci", "eu-frankfurt-1").operator).toBe("Oracle Corporation");
    expect(operatorOf("alibaba", "eu-central-1").operator).toBe("Alibaba Cloud (Singapore) Private Limited");
  });
});

describe("a retired service's regions", () => {
  it("are none, so no region or country filter answers it", () => {
    const catalogue = realCatalogue();
    const retired = [...catalogue.bySlug.values()].filter((record) => record.service.lifecycle?.status === "retired");
    expect(retired.length).toBeGreaterThan(0);
    for (const record of retired) expect(record.regions, record.service.slug).toEqual([]);
    const active = [...catalogue.bySlug.values()].filter((record) => !record.service.lifecycle);
    for (const record of active) {
      expect(record.placement, record.service.slug).toBeDefined();
      // A global service whose vendor names no home region (CodeCatalyst's aws-global) lists none,
      // nor does one that runs in the customer's datacentre (Azure Stack Hub, issue 124).
      if (record.placement!.kind !== "global" && record.placement!.kind !== "on-premises")
        expect(record.regions.length, record.service.slug).toBeGreaterThan(0);
    }
  });
});

describe("the search and the AWS European Sovereign Cloud", () => {
  it("reads the name as a place: AWS's services running in eusc-de-east-1, S3 first when asked", () => {
    const catalogue = realCatalogue();
    const inEusc = (slug: string) =>
      catalogue.bySlug.get(slug)!.regions.some((region) => region.id === "eusc-de-east-1");
    const all = listServices(catalogue, { q: "AWS European Sovereign Cloud", page: 1, limit: 200 });
    expect(all.pagination.total).toBeGreaterThan(50);
    for (const service of all.data) {
      expect(service.providerId).toBe("aws");
      expect(inEusc(service.slug), service.slug).toBe(true);
    }
    // A service the metadata does not place there is not offered (App Studio: provider level, no eusc).
    expect(all.data.map(({ slug }) => slug)).not.toContain("aws-app-studio");
    const s3 = listServices(catalogue, { q: "s3 european sovereign cloud", page: 1, limit: 5 });
    expect(s3.data[0]!.slug).toBe("aws-s3");
    // "european" alone is still the EU/CH jurisdiction place.
    const european = listServices(catalogue, { q: "european object storage", page: 1, limit: 50 });
    expect(european.pagination.total).toBeGreaterThan(0);
    for (const service of european.data)
      expect(["EU", "CH"]).toContain(catalogue.providerById.get(service.providerId)!.provider.jurisdiction);
  });
});

describe("check:data's locations", () => {
  it("finds AWS's regions and the endpoint metadata in agreement, and prints every provider", () => {
    const catalogue = realCatalogue();
    expect(locationProblems(catalogue)).toEqual([]);
    const lines = locationLines(catalogue);
    expect(lines.filter((line) => /^[a-z0-9]+: \d+ services \(/.test(line))).toHaveLength(catalogue.providers.length);
    expect(lines).toContain("  aws eusc-de-east-1: DE, aws-eusc, operator not stated");
    expect(lines.find((line) => line.startsWith("aws: "))).toMatch(
      /^aws: \d+ services \((\d{3}) per service, \d+ global/,
    );
  });

  it("names a region the metadata has that aws.yaml lacks, and one in the wrong partition", () => {
    const source = realCatalogue().source;
    const aws = source.providers.find((provider) => provider.id === "aws")!;
    const edited = assembleCatalogue({
      ...source,
      providers: source.providers.map((provider) =>
        provider.id === "aws"
          ? {
              ...aws,
              regions: aws.regions
                .filter((region) => region.id !== "eu-south-2")
                .map((region) =>
                  region.id === "eu-central-1" ? { ...region, market: "eu-sovereign" as const } : region,
                ),
            }
          : provider,
      ),
    });
    expect(locationProblems(edited)).toEqual([
      "LOCATIONS: providers/aws.yaml region eu-central-1 is in partition aws of the endpoint metadata, but its market says aws-eusc",
      "LOCATIONS: the endpoint metadata has region eu-south-2 (aws), which providers/aws.yaml lacks",
    ]);
  });
});
