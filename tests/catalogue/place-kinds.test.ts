/**
 * Place kinds checked against the vendors' endpoints pages (issue 124): every service the catalogue
 * calls global or on premises is listed here with what its vendor's endpoint page or metadata says
 * (the home region where the vendor names one), so a kind that drifts from the page fails. AWS
 * Global Accelerator was regional in 34 regions (its endpoint metadata lists where its endpoints may
 * be) though AWS calls it global and has it worked with in us-west-2 only; Azure Stack Hub was
 * "global" (its Azure registration is in the global location) though it runs in the customer's
 * datacentre.
 */
import { describe, expect, it } from "vitest";
import { realCatalogue } from "../helpers/catalogue.ts";
import { placementSentence } from "../../catalogue/render/regions.ts";

const catalogue = realCatalogue();

/** Per service: its kind, the home regions its vendor names, and the page or metadata saying so. */
const EXPECTED: Readonly<Record<string, { kind: "global" | "on-premises"; home?: string[]; page: string }>> = {
  "aws-cloudfront": {
    kind: "global",
    home: ["us-east-1"],
    page: "endpoints.json: partitionEndpoint aws-global, us-east-1",
  },
  "aws-cloudfront-functions": { kind: "global", home: ["us-east-1"], page: "endpoints.json (cloudfront)" },
  "aws-codecatalyst": { kind: "global", page: "endpoints.json: a global endpoint, no region named" },
  "aws-route-53": {
    kind: "global",
    home: ["us-east-1"],
    page: "AWS Fault Isolation Boundaries, edge network global services",
  },
  "aws-budgets": { kind: "global", home: ["us-east-1"], page: "endpoints.json: partitionEndpoint aws-global" },
  "aws-cloud-wan": {
    kind: "global",
    home: ["us-west-2"],
    page: "endpoints.json (networkmanager): aws-global signs in us-west-2",
  },
  "aws-cost-explorer": {
    kind: "global",
    home: ["us-east-1"],
    page: "General Reference, Billing and Cost Management endpoints",
  },
  "aws-health": { kind: "global", home: ["us-east-1", "us-east-2"], page: "General Reference, AWS Health endpoints" },
  "aws-iam": { kind: "global", home: ["us-east-1"], page: "AWS Fault Isolation Boundaries, global services" },
  "aws-organizations": { kind: "global", home: ["us-east-1"], page: "endpoints.json: partitionEndpoint aws-global" },
  "aws-shield": { kind: "global", home: ["us-east-1"], page: "endpoints.json: partitionEndpoint aws-global" },
  "aws-global-accelerator": {
    kind: "global",
    home: ["us-west-2"],
    page: "Global Accelerator developer guide, Region availability: global, --region us-west-2",
  },
  "azure-front-door": { kind: "global", page: "Front Door FAQ: a global service" },
  "azure-app-service-certificates": {
    kind: "global",
    page: "ARM locations: Microsoft.CertificateRegistration, global",
  },
  "azure-ad-b2c": { kind: "global", page: "ARM locations: Microsoft.AzureActiveDirectory, global" },
  "azure-communication-services": { kind: "global", page: "ARM locations: Microsoft.Communication, global" },
  "azure-entra-external-id": { kind: "global", page: "ARM locations: Microsoft.AzureActiveDirectory, global" },
  "azure-stack-hub": { kind: "on-premises", page: "Azure Stack Hub overview: Azure services in your datacenter" },
};

describe("global and on-premises services against their vendors' pages (issue 124)", () => {
  const placed = catalogue.services.flatMap((service) => {
    const record = catalogue.bySlug.get(service.slug)!;
    const kind = record.placement?.kind;
    return kind === "global" || kind === "on-premises" ? [{ slug: service.slug, record }] : [];
  });

  it("calls exactly the listed services global or on premises, each as its vendor's page does", () => {
    expect(placed.map(({ slug }) => slug).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const { slug, record } of placed) {
      const expected = EXPECTED[slug]!;
      expect(record.placement!.kind, slug).toBe(expected.kind);
      expect(record.placement!.homeRegions, slug).toEqual(expected.home);
    }
  });

  it("gives Global Accelerator us-west-2 alone, and no longer 34 regions", () => {
    const record = catalogue.bySlug.get("aws-global-accelerator")!;
    expect(record.regions.map((region) => region.id)).toEqual(["us-west-2"]);
    expect(record.regions.every((region) => region.level === "global")).toBe(true);
  });

  it("places Azure Stack Hub in the customer's datacentre, in none of Azure's regions", () => {
    const record = catalogue.bySlug.get("azure-stack-hub")!;
    expect(record.regions).toEqual([]);
    expect(placementSentence(catalogue, "azure", record.placement!, 0)).toMatch(/^On premises: .*own datacentre/);
  });
});
