/**
 * Filters ignored in silence (1.11.0: ?jurisdiction=EU answered all 1,677 services, /v1/exposure
 * ignored ?regions=, which it now takes): a query parameter a /v1/ row does not take is a 400 in the Error shape naming
 * it, the nearest one the row takes and every one it takes — from the computed route, from the
 * route of a built file (npm start, a mirror), and through nginx, whose static locations send such
 * a query to a sidecar (docs/decisions.md#closed-queries).
 */
import { describe, expect, it } from "vitest";
import { apiFiles } from "../../catalogue/outputs/static.ts";
import { closesQuery, queryNames } from "../../catalogue/contract/endpoint.ts";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { renderNginxConfig } from "../../scripts/deploy-config.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { build, fixtureCatalogue, URLS } from "../helpers/app.ts";
import { fakeBuild } from "../helpers/fake-build.ts";

const SERVICES_TAKES =
  "provider, category, q, freeTier, lifecycle, compliance, complianceScope, jurisdiction, region, country, page, limit";

describe("an unknown query parameter on /v1/", () => {
  it("answers /v1/services?jurisdictions=EU with a 400 naming it, the nearest parameter and every one", async () => {
    const app = await build();
    const response = await app.inject("/v1/services?jurisdictions=EU");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: "Invalid query",
      status: 400,
      details: `query: unknown parameter "jurisdictions" (did you mean "jurisdiction"?); this endpoint takes: ${SERVICES_TAKES}`,
    });
    // A name differing only by case is the same hint.
    expect((await app.inject("/v1/services?Provider=aws")).json().details).toContain(
      'unknown parameter "Provider" (did you mean "provider"?)',
    );
  });

  it("answers /v1/exposure?region= with a 400 rather than a scorecard that ignored the region", async () => {
    const app = await build();
    const response = await app.inject("/v1/exposure?ids=aws-s3,ovhcloud-object-storage&region=eu-central-1");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: "Invalid query",
      status: 400,
      details: 'query: unknown parameter "region" (did you mean "regions"?); this endpoint takes: ids, regions',
    });
  });

  it("names several unknown parameters at once, each with its hint", async () => {
    const app = await build();
    const response = await app.inject("/v1/lifecycle?provder=gcp&withn=90d&ids=aws-chime");
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toBe(
      'query: unknown parameters "provder" (did you mean "provider"?), "withn" (did you mean "within"?); this endpoint takes: within, status, provider, ids, kind',
    );
  });

  it("refuses one on every /v1/ row of the table, GET and POST, before reading anything else", async () => {
    const app = await build();
    const rows = ENDPOINTS.filter(closesQuery);
    expect(rows.length).toBeGreaterThan(25);
    for (const row of rows) {
      const [method, url] = row.example.request.split(" ") as ["GET" | "POST", string];
      const response = await app.inject({
        method,
        url: `${url}${url.includes("?") ? "&" : "?"}bogus=1`,
        ...(method === "POST" ? { payload: (row.example.body ?? {}) as object } : {}),
      });
      expect(response.statusCode, row.example.request).toBe(400);
      const names = queryNames(row);
      expect(response.json(), row.example.request).toEqual({
        error: "Invalid query",
        status: 400,
        details: `query: unknown parameter "bogus"; ${names.length > 0 ? `this endpoint takes: ${names.join(", ")}` : "this endpoint takes no query parameters"}`,
      });
    }
  });

  it("takes no cache buster: ?v= and ?_= are refused, with no far-fetched hint", async () => {
    const app = await build();
    for (const url of ["/v1/providers?v=3", "/v1/services?_=1732780000000", "/v1/services/aws-s3?v=2"]) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().details, url).not.toContain("did you mean");
    }
    expect((await app.inject("/v1/providers?v=3")).json().details).toBe(
      'query: unknown parameter "v"; this endpoint takes no query parameters',
    );
    // An empty query is no parameter.
    expect((await app.inject("/v1/providers?")).statusCode).toBe(200);
  });

  it("leaves the downloads outside /v1/ answering whatever the query", async () => {
    const app = await build();
    for (const url of ["/?v=1", "/openapi.json?v=1"]) expect((await app.inject(url)).statusCode, url).toBe(200);
  });
});

describe("the faces that answer /v1/ from built files", () => {
  it("serves the file without a query, and refuses an unknown parameter rather than serve the file", async () => {
    const catalogue = fixtureCatalogue();
    const wanted = new Set(["v1/providers.json", "v1/services.json", "v1/services/aws-s3.json", "v1/lifecycle.json"]);
    // Indented, so that an answer from the file is told from the sidecar's computed one.
    const files = Object.fromEntries(
      [...apiFiles(catalogue, URLS)]
        .filter((f) => wanted.has(f.file))
        .map((f) => [`api/${f.file}`, JSON.stringify(JSON.parse(f.body), null, 1)]),
    );
    expect(Object.keys(files)).toHaveLength(wanted.size);
    const app = await build({ catalogue, files: await BuiltFiles.open(fakeBuild(files)) });
    for (const url of [
      "/v1/providers",
      "/v1/services",
      "/v1/services?page=1",
      "/v1/services/aws-s3",
      "/v1/lifecycle",
    ]) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(files[`api/${fileOf(url)}`]);
    }
    for (const [url, name] of [
      ["/v1/providers?jurisdiction=EU", "jurisdiction"],
      ["/v1/services/aws-s3?format=md", "format"],
      ["/v1/services?page=1&regions=eu", "regions"],
      ["/v1/lifecycle?v=1", "v"],
    ] as const) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toMatchObject({ error: "Invalid query", status: 400 });
      expect(response.json().details, url).toContain(`unknown parameter "${name}"`);
    }
  });

  it("has nginx send a /v1/ static row's query to a sidecar, and serve the downloads whatever the query", () => {
    const nginx = renderNginxConfig({
      dist: "/srv/dist",
      prefix: "/tmp/nginx",
      apiPort: 80,
      textPort: 8081,
      sidecars: [{ host: "127.0.0.1", apiPort: 8080, textPort: 8082 }],
    });
    const location = (path: string) => nginx.split("\n").find((line) => line.includes(`location = ${path} {`));
    const sendsQuery = /if \(\$args != ""\) \{ return 418; \}/;
    for (const path of ["/v1/providers", "/v1/categories", "/v1/changelog", "/v1/equivalents", "/v1/lifecycle"])
      expect(location(path), path).toMatch(sendsQuery);
    const slugLocation = nginx.split("\n").find((line) => line.includes("location ~ ^/v1/services/(?<slug>"));
    expect(slugLocation).toMatch(sendsQuery);
    // The listing's files are mapped from page alone; any other query has no file ("" → a sidecar).
    expect(nginx).toMatch(/location = \/v1\/services \{[^\n]*if \(\$static_listServices = ""\) \{ return 418; \}/);
    expect(location("/openapi.json")).not.toMatch(sendsQuery);
  });
});

/** The built file that answers a plain URL of the test above. */
function fileOf(url: string): string {
  if (url.startsWith("/v1/services?")) return "v1/services.json";
  return `${url.slice(1)}.json`;
}
