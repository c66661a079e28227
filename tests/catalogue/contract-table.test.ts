/**
 * One edit, every face: a row added to the contract table is routed, built, mapped to its file,
 * served from the build, described in OpenAPI and discovery, and given an nginx location.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { endpoint, type Endpoint } from "../../catalogue/contract/endpoint.ts";
import { discoveryDocument, openApiDocument } from "../../catalogue/contract/openapi.ts";
import { DEFAULT_PAGE_SIZE } from "../../catalogue/base/limits.ts";
import { HttpError } from "../../catalogue/base/problem.ts";
import { apiFiles, staticFileFor } from "../../catalogue/outputs/static.ts";
import { renderNginxConfig } from "../../scripts/deploy-config.ts";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { fixtureCatalogue, tempStore, URLS } from "../helpers/app.ts";
import { findBinary } from "../helpers/components.ts";
import { fakeBuild } from "../helpers/fake-build.ts";

const ProviderCount = z
  .object({
    providerId: z.string().meta({ description: "Provider id" }),
    services: z.number().int().meta({ description: "How many services it has" }),
  })
  .meta({ id: "TestProviderCount", description: "A test-only resource" });

/** The one edit: a static row with a path parameter, a response schema, a handler and the files it builds. */
const countRow = endpoint({
  operationId: "getProviderCount",
  method: "GET",
  path: "/v1/provider-counts/{providerId}",
  summary: "Services per provider",
  description: "How many services a provider has.",
  tag: "Catalogue",
  params: z.object({ providerId: z.string().meta({ description: "Provider id", example: "aws" }) }),
  response: { status: 200, schema: ProviderCount, contentType: "application/json" },
  errors: [404],
  cache: "public",
  pure: true,
  static: {
    file: "v1/provider-counts/{providerId}.json",
    files: (catalogue) =>
      catalogue.providers.map((provider) => ({
        file: `v1/provider-counts/${provider.id}.json`,
        body: JSON.stringify({
          providerId: provider.id,
          services: catalogue.services.filter((s) => s.providerId === provider.id).length,
        }),
      })),
  },
  example: { request: "GET /v1/provider-counts/aws" },
  handler: (c, { params }) => {
    if (!c.catalogue.providerById.has(params.providerId)) throw new HttpError(404, "Provider not found");
    return {
      body: {
        providerId: params.providerId,
        services: c.catalogue.services.filter((s) => s.providerId === params.providerId).length,
      },
    };
  },
});
const table: readonly Endpoint[] = [...ENDPOINTS, countRow];

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A build of the API files alone, with the manifest BuiltFiles reads. */
const writeApiBuild = () =>
  fakeBuild(
    Object.fromEntries([...apiFiles(fixtureCatalogue(), URLS, table)].map(({ file, body }) => [`api/${file}`, body])),
  );

async function app(files?: BuiltFiles) {
  const built = await buildApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: fixtureCatalogue(),
    store: await tempStore(),
    urls: URLS,
    table,
    ...(files ? { files } : {}),
  });
  return built;
}

describe("a row added to the contract table", () => {
  it("is routed, with its input validated and typed from the row's schema", async () => {
    const api = await app();
    const response = await api.inject("/v1/provider-counts/aws");
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("public, max-age=300");
    expect(response.json()).toEqual({
      providerId: "aws",
      services: fixtureCatalogue().services.filter((s) => s.providerId === "aws").length,
    });
    expect((await api.inject("/v1/provider-counts/nope")).statusCode).toBe(404);
    await api.close();
  });

  it("is built, mapped from its URL to its file, and served from the build byte for byte", async () => {
    const written = [...apiFiles(fixtureCatalogue(), URLS, table)].map((f) => f.file);
    expect(written).toContain("v1/provider-counts/aws.json");
    expect(staticFileFor(table, "/v1/provider-counts/aws", "")).toMatchObject({
      path: "api/v1/provider-counts/aws.json",
    });
    // Not a file-safe segment: the sidecar answers.
    expect(staticFileFor(table, "/v1/provider-counts/..", "")).toBeUndefined();

    const dist = writeApiBuild();
    const api = await app(await BuiltFiles.open(dist));
    const computed = await (await app()).inject("/v1/provider-counts/aws");
    const served = await api.inject("/v1/provider-counts/aws");
    expect(served.statusCode).toBe(200);
    expect(served.body).toBe(computed.body);
    // The build's ETag comes from the manifest's sha256: proof the file answered, not the handler.
    const sha = createHash("sha256").update(served.body).digest("hex");
    expect(served.headers.etag).toBe(`"${sha.slice(0, 32)}"`);
    await api.close();
  });

  it("is described in OpenAPI and the discovery document", () => {
    const openapi = openApiDocument(URLS, table) as {
      paths: Record<string, { get?: { operationId: string; responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, unknown> };
    };
    expect(openapi.paths["/v1/provider-counts/{providerId}"]?.get?.operationId).toBe("getProviderCount");
    expect(openapi.components.schemas.TestProviderCount).toBeDefined();
    const discovery = discoveryDocument(URLS, table) as {
      versions: { endpoints: { path: string; served: string; cache: string }[] }[];
    };
    expect(discovery.versions[0]!.endpoints).toContainEqual(
      expect.objectContaining({ path: "/v1/provider-counts/{providerId}", served: "static", cache: "public" }),
    );
  });

  it("gets an nginx location that serves its file and falls back to a sidecar", () => {
    const config = renderNginxConfig({
      dist: "/srv/dist",
      prefix: "/tmp/csc-nginx",
      apiPort: 8080,
      textPort: 8081,
      sidecars: [{ host: "127.0.0.1", apiPort: 9080, textPort: 9081 }],
      table,
    });
    const location = config.split("\n").find((line) => line.includes("/v1/provider-counts/"));
    expect(location).toContain("location ~ ^/v1/provider-counts/(?<providerId>");
    expect(location).toContain("try_files /v1/provider-counts/$providerId.json @sidecar;");
    const nginx = findBinary("nginx", ["/usr/sbin/nginx", "/usr/bin/nginx"]);
    if (!nginx) return; // the deploy suite requires nginx; here the text check suffices
    const prefix = mkdtempSync(join(tmpdir(), "csc-table-nginx-"));
    dirs.push(prefix);
    const file = join(prefix, "nginx.conf");
    writeFileSync(file, config.replaceAll("/tmp/csc-nginx", prefix));
    // nginx's own parser accepts the generated configuration.
    execFileSync(nginx, ["-t", "-q", "-p", prefix, "-c", file], { stdio: "pipe" });
  });
});

describe("a paged row's query, mapped to its built file", () => {
  const services = (query: string) => staticFileFor(ENDPOINTS, "/v1/services", query)?.path;

  it("names a page's file only for limit and page, however the keys are written", () => {
    expect(services("")).toBe("api/v1/services.json");
    expect(services("page=1")).toBe("api/v1/services.json");
    expect(services("page=2")).toBe("api/v1/services/pages/2.json");
    expect(services(`limit=${DEFAULT_PAGE_SIZE}&page=3`)).toBe("api/v1/services/pages/3.json");
    // Escaped keys are decoded as URLSearchParams decodes them.
    expect(services("%70age=2")).toBe("api/v1/services/pages/2.json");
    expect(services("&page=2")).toBe("api/v1/services/pages/2.json");
  });

  it("leaves any other query to the sidecar", () => {
    for (const query of ["q=postgres", "page=2&q=postgres", "q=x&limit=20", "limit=7", "page=0", "=x", "%71=x", "q+=x"])
      expect(services(query), query).toBeUndefined();
  });
});
