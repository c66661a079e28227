/**
 * A strict client as API users build one: openapi-fetch over the types openapi-typescript generates
 * from our OpenAPI document (catalogue/generated/openapi-types.ts, checked here to be what the document generates
 * today), calling every operation of the document against a started app with no cast: each call
 * typechecks under `npm run check:types` and is answered with the status the document declares.
 */
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import createClient, { type Middleware } from "openapi-fetch";
import { describe, expect, it } from "vitest";
import { apiFiles } from "../../catalogue/outputs/static.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { formattedOpenApiTypes, OPENAPI_TYPES } from "../../scripts/write-openapi.ts";
import { build, realCatalogue, URLS } from "../helpers/app.ts";
import { fakeBuild } from "../helpers/fake-build.ts";
import { OPERATIONS } from "./openapi-schema.ts";
import type { paths } from "../../catalogue/generated/openapi-types.ts";

describe("a strict openapi-fetch client generated from the OpenAPI document", () => {
  it("uses the types the document generates today", async () => {
    // Regenerate: node scripts/write-openapi.ts --types
    expect(readFileSync(OPENAPI_TYPES, "utf8")).toBe(await formattedOpenApiTypes(URLS));
  });

  it("calls every operation with no cast, each answered as declared", async () => {
    const catalogue = realCatalogue();
    const providers = [...apiFiles(catalogue, URLS)].find((file) => file.file === "v1/providers.json")!;
    const app = await build({
      catalogue,
      files: await BuiltFiles.open(fakeBuild({ "api/v1/providers.json": providers.body })),
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    const client = createClient<paths>({ baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` });
    const called = new Set<string>();
    const record: Middleware = {
      onRequest({ schemaPath, request }) {
        called.add(`${request.method} ${schemaPath}`);
      },
    };
    client.use(record);
    const statuses: [string, number, number][] = [];
    const expectStatus = (what: string, response: Response, status = 200) =>
      statuses.push([what, response.status, status]);

    const approved = { approvedServiceIds: ["aws-s3", "aws-lambda"] };
    const mcpHeader = { accept: "application/json, text/event-stream" };
    const calls: [string, Promise<{ response: Response; data?: unknown }>, number?][] = [
      ["discovery", client.GET("/")],
      ["openapi", client.GET("/openapi.json")],
      ["changelog", client.GET("/v1/changelog")],
      ["providers", client.GET("/v1/providers")],
      ["categories", client.GET("/v1/categories")],
      [
        "services",
        client.GET("/v1/services", { params: { query: { q: "object storage", freeTier: true, limit: 10 } } }),
      ],
      ["services 1", client.GET("/v1/services", { params: { query: { freeTier: "1", provider: "aws" } } })],
      ["service", client.GET("/v1/services/{slug}", { params: { path: { slug: "aws-s3" } } })],
      ["equivalents", client.GET("/v1/equivalents")],
      ["group", client.GET("/v1/equivalents/{id}", { params: { path: { id: "object-storage" } } })],
      ["place", client.GET("/v1/places/{place}", { params: { path: { place: "Frankfurt" } } })],
      ["lifecycle", client.GET("/v1/lifecycle", { params: { query: { within: "90d", provider: "gcp" } } })],
      ["lifecycle.atom", client.GET("/v1/lifecycle.atom", { parseAs: "text" })],
      ["lifecycle.ics", client.GET("/v1/lifecycle.ics", { parseAs: "text" })],
      ["changes", client.GET("/v1/changes")],
      ["changes.atom", client.GET("/v1/changes.atom", { parseAs: "text" })],
      ["compare", client.GET("/v1/compare", { params: { query: { ids: "aws-s3,gcp-cloud-storage" } } })],
      ["exposure", client.GET("/v1/exposure", { params: { query: { ids: "aws-s3,ovhcloud-object-storage" } } })],
      [
        "scp",
        client.POST("/v1/policies/alpha-scp", {
          params: { query: { explain: true, essentials: false, strategy: "deny-list" } },
          body: approved,
        }),
      ],
      [
        "azure",
        client.POST("/v1/policies/beta-policy", {
          params: { query: { explain: "1" } },
          body: { approvedServiceIds: ["azure-blob-storage"] },
        }),
      ],
      ["gcp", client.POST("/v1/policies/gamma-org-policy", { body: { approvedServiceIds: ["gcp-cloud-storage"] } })],
      ["markdown", client.POST("/v1/export/markdown", { body: approved, parseAs: "text" })],
      [
        "deployment check",
        client.POST("/v1/deployments/check", {
          body: { template: ["run.googleapis.com"], approvedServiceIds: ["gcp-cloud-run"] },
        }),
      ],
      ["exit plan", client.POST("/v1/exit-plan", { body: { ...approved, to: { sovereignOption: true } } })],
      [
        "exit plan csv",
        client.POST("/v1/exit-plan", {
          params: { query: { format: "csv", bom: true } },
          body: { ...approved, to: { sovereignOption: true } },
          parseAs: "text",
        }),
      ],
      [
        "register",
        client.POST("/v1/register", {
          body: { ...approved, allowedLocations: ["EU"], entity: { lei: "EXAMPLEBANK000000014" } },
        }),
      ],
      [
        "register package",
        client.POST("/v1/register", {
          params: { query: { format: "zip" } },
          body: { ...approved, entity: { referenceDate: "2026-12-31" } },
          parseAs: "arrayBuffer",
        }),
      ],
      ["health", client.GET("/v1/health")],
      ["status", client.GET("/v1/status")],
      ["status history", client.GET("/v1/status/history")],
      [
        "feedback",
        client.POST("/v1/feedback", { body: { type: "bug", message: "The S3 pricing link is outdated." } }),
        201,
      ],
      [
        "outbound",
        client.POST("/v1/analytics/outbound", {
          body: { url: "https://aws.amazon.com/s3/pricing/", serviceId: "aws-s3", kind: "pricing" },
        }),
      ],
      [
        "mcp",
        client.POST("/mcp", {
          params: { header: mcpHeader },
          body: {
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "search_services", arguments: { query: "object storage" } },
          },
        }),
      ],
      [
        "mcp notification",
        client.POST("/mcp", {
          params: { header: mcpHeader },
          body: { jsonrpc: "2.0", method: "notifications/initialized" },
          parseAs: "text",
        }),
        202,
      ],
      ["dump", client.GET("/catalogue.json")],
      ["manifest", client.GET("/manifest.json")],
      [
        "build file",
        client.GET("/mirror/{path}", { params: { path: { path: "api/v1/providers.json" } }, parseAs: "text" }),
      ],
      [
        "build file in its folders",
        client.GET("/mirror/{dir1}/{dir2}/{path}", {
          params: { path: { dir1: "api", dir2: "v1", path: "providers.json" } },
          parseAs: "text",
        }),
      ],
    ];
    for (const [what, call, status] of calls) expectStatus(what, (await call).response, status);

    // A saved list, then what reads it.
    const created = await client.POST("/v1/lists", {
      params: { header: { "idempotency-key": "openapi-fetch-1" } },
      body: { name: "Platform baseline", approvedServiceIds: ["aws-s3", "aws-ec2"] },
    });
    expectStatus("create list", created.response);
    const id = created.data?.slug ?? created.data?.id ?? "";
    expectStatus("list", (await client.GET("/v1/lists/{id}", { params: { path: { id } } })).response);
    const calendar = await client.GET("/v1/lists/{id}/lifecycle.ics", { params: { path: { id } }, parseAs: "text" });
    expectStatus("list calendar", calendar.response);
    const planned = [
      await client.GET("/v1/lists/{id}/exit-plan", {
        params: { path: { id }, query: { sovereignOption: true }, header: { accept: "text/markdown" } },
        parseAs: "text",
      }),
      await client.GET("/v1/lists/{id}/exit-plan", {
        params: { path: { id }, query: { sovereignOption: "1", format: "csv", bom: "1" } },
        parseAs: "text",
      }),
    ];
    for (const [index, plan] of planned.entries()) expectStatus(`list exit plan ${index}`, plan.response);
    const register = await client.GET("/v1/lists/{id}/register", {
      params: {
        path: { id },
        query: { allowedLocations: "EU", jurisdictions: "EU" },
        header: { accept: "text/markdown" },
      },
      parseAs: "text",
    });
    expectStatus("list register", register.response);
    await app.close();

    expect(statuses.filter(([, got, want]) => got !== want)).toEqual([]);
    // HEAD (compared with GET in prism.test.ts) and the mirror's other depths (the same handler) aside.
    const declared = OPERATIONS.filter(
      (operation) => operation.method !== "HEAD" && !/AtDepth[^3]/.test(operation.operationId),
    );
    expect([...called].sort()).toEqual(declared.map((operation) => `${operation.method} ${operation.path}`).sort());
  });
});
