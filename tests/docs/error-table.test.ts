// The error catalogue is the one list of what a client can receive: docs/api.md's table and
// OpenAPI's x-error-catalogue are written from it, and every title there has one status.
import { readFileSync } from "node:fs";
import { format, resolveConfig } from "prettier";
import { describe, expect, it } from "vitest";
import { ERRORS, errorTable, withErrorTable } from "../../catalogue/base/error-catalogue.ts";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { openApiDocument } from "../../catalogue/contract/openapi.ts";

const API_MD = new URL("../../docs/api.md", import.meta.url);

describe("the error catalogue", () => {
  it("in docs/api.md is what npm run docs:errors writes", async () => {
    const committed = readFileSync(API_MD, "utf8");
    const path = API_MD.pathname;
    const written = await format(withErrorTable(committed, errorTable()), {
      ...(await resolveConfig(path)),
      filepath: path,
    });
    expect(committed).toBe(written);
  });

  it("is in OpenAPI, and each operation's error responses name the titles of their status", () => {
    const doc = openApiDocument(
      { apiUrl: "https://api.example", textUrl: "https://text.example" },
      ENDPOINTS,
    ) as unknown as {
      "x-error-catalogue": unknown[];
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    expect(doc["x-error-catalogue"]).toHaveLength(Object.keys(ERRORS).length);
    const responses = doc.paths["/v1/services/{slug}"]!.get!.responses;
    expect(responses["404"]!.description).toContain("Service not found");
    expect(responses["404"]!.description).not.toContain("Invalid query");
  });
});
