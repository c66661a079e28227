/**
 * The Discovery rows: what the API is (discovery, OpenAPI) and how it changed (changelog). See
 * index.ts for the table they join.
 */
import { endpoint, type Endpoint } from "./endpoint.ts";
import { discoveryDocument, openApiDocument } from "./openapi.ts";
import { changelog } from "./changelog.ts";
import { Changelog, Discovery, OpenApiDocument } from "../schema/index.ts";
import { json, file } from "./shared.ts";

export const DISCOVERY_ENDPOINTS: readonly Endpoint[] = [
  endpoint({
    operationId: "getDiscovery",
    method: "GET",
    path: "/",
    summary: "Discovery document",
    description: "Name, description, versions and the endpoint list of this API.",
    tag: "Discovery",
    response: { status: 200, schema: Discovery, contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "index.json", files: (_c, urls, table) => [file("index.json", discoveryDocument(urls, table))] },
    example: { request: "GET /" },
    handler: (c) => json(discoveryDocument(c.urls, c.table)),
  }),
  endpoint({
    operationId: "getOpenApi",
    method: "GET",
    path: "/openapi.json",
    summary: "OpenAPI 3.1 description",
    description: "This API described in OpenAPI 3.1.",
    tag: "Discovery",
    response: { status: 200, schema: OpenApiDocument, contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "openapi.json", files: (_c, urls, table) => [file("openapi.json", openApiDocument(urls, table))] },
    example: { request: "GET /openapi.json" },
    handler: (c) => json(openApiDocument(c.urls, c.table)),
  }),
  endpoint({
    operationId: "getChangelog",
    method: "GET",
    path: "/v1/changelog",
    summary: "Contract changelog",
    description: "Every version of the API contract, newest first, with its date and changes.",
    tag: "Discovery",
    response: { status: 200, schema: Changelog, contentType: "application/json" },
    errors: [],
    cache: "public",
    pure: true,
    static: { file: "v1/changelog.json", files: () => [file("v1/changelog.json", changelog())] },
    example: { request: "GET /v1/changelog" },
    handler: () => json(changelog()),
  }),
];
