import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { discoveryDocument, openApiDocument } from "../../catalogue/contract/openapi.ts";
import { URLS } from "../helpers/app.ts";

/** Every method and path of the contract's "Endpoints" section. */
const CONTRACT_ENDPOINTS = [
  "GET /v1/providers",
  "GET /v1/categories",
  "GET /v1/changelog",
  "GET /v1/services",
  "GET /v1/services/{slug}",
  "GET /v1/equivalents",
  "GET /v1/equivalents/{id}",
  "GET /v1/places/{place}",
  "GET /v1/compare",
  "GET /v1/exposure",
  "POST /v1/policies/alpha-scp",
  "POST /v1/policies/beta-policy",
  "POST /v1/policies/gamma-org-policy",
  "POST /v1/export/markdown",
  "POST /v1/deployments/check",
  "POST /v1/lists",
  "GET /v1/lists/{id}",
  "GET /v1/lists/{id}/lifecycle.ics",
  "GET /v1/lifecycle",
  "GET /v1/lifecycle.atom",
  "GET /v1/lifecycle.ics",
  "GET /v1/changes",
  "GET /v1/changes.atom",
  "GET /v1/status",
  "GET /v1/status/history",
  "GET /v1/health",
  "POST /v1/feedback",
  "POST /v1/analytics/outbound",
  "POST /v1/exit-plan",
  "GET /v1/lists/{id}/exit-plan",
  "POST /v1/register",
  "GET /v1/lists/{id}/register",
];

describe("the OpenAPI document", () => {
  const doc = openApiDocument(URLS, ENDPOINTS) as unknown as {
    openapi: string;
    info: { version: string };
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, { properties?: Record<string, { description?: string; $ref?: string }> }> };
  };

  it("is OpenAPI 3.1 at contract version 1.13.0", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.13.0");
  });

  it("describes ServiceDetail.compatibility and lineage with the vendor source (1.8.0)", () => {
    const schemas = doc.components.schemas;
    const detail = schemas.ServiceDetail!.properties!;
    expect(detail.compatibility?.description).toMatch(/compatibility vocabulary/);
    expect(detail.lineage?.description).toMatch(/another provider's product operated by a different company/);
    expect(Object.keys(schemas.FactSource!.properties!)).toEqual(["url", "retrieved", "asOf", "via"]);
    expect(Object.keys(schemas.ServiceCompatibility!.properties!).sort()).toEqual(["id", "name", "scope", "source"]);
  });

  it("holds every path of the contract, with its Error responses", () => {
    for (const entry of CONTRACT_ENDPOINTS) {
      const [method, path] = entry.split(" ") as [string, string];
      const operation = doc.paths[path]?.[method.toLowerCase()];
      expect(operation, entry).toBeDefined();
      const endpoint = ENDPOINTS.find((e) => e.method === method && e.path === path)!;
      for (const status of endpoint.errors)
        expect(operation!.responses[status], `${entry} ${status}`).toMatchObject({
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        });
    }
  });

  it("describes every field of every component", () => {
    const undocumented: string[] = [];
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      for (const [field, property] of Object.entries(schema.properties ?? {}))
        if (!property.description && !property.$ref) undocumented.push(`${name}.${field}`);
    }
    expect(undocumented).toEqual([]);
  });
});

describe("the discovery document", () => {
  const doc = discoveryDocument(URLS, ENDPOINTS) as {
    latestVersion: string;
    auth: { scheme: string };
    versions: {
      version: string;
      status: string;
      endpoints: { method: string; path: string; auth: string; example: unknown }[];
    }[];
  };

  it("names v1 stable and lists every endpoint with auth open and an example", () => {
    expect(doc.latestVersion).toBe("v1");
    expect(doc.auth.scheme).toBe("open");
    const v1 = doc.versions.find((version) => version.version === "v1")!;
    expect(v1.status).toBe("stable");
    expect(v1.endpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual([...CONTRACT_ENDPOINTS].sort());
    for (const endpoint of v1.endpoints) {
      expect(endpoint.auth).toBe("open");
      expect(endpoint.example).toBeDefined();
    }
  });
});
