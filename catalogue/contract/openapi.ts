/**
 * The OpenAPI 3.1 document and the discovery document (GET /), both generated from the rows of a
 * contract table (contract/) and the zod schemas in schema/.
 */
import { z } from "zod";
import { closesQuery, ERROR_REASONS, servingOf, type CachePolicy, type Endpoint } from "./endpoint.ts";
import { ERRORS, titlesOf } from "../base/error-catalogue.ts";
import {
  bodyTooLargeDetails,
  BUCKETS,
  LIST_LIFETIME_DAYS,
  MAX_JSON_DEPTH,
  MAX_TEMPLATE_BODY_BYTES,
  MCP_UNCOUNTED_METHODS,
  READ_CACHE_SECONDS,
  TEMPLATE_BUDGET_TEXT,
  TEXT_HOST_LIMIT,
  TIME_LIMITS_TEXT,
} from "../base/limits.ts";
import { ApiError } from "../schema/index.ts";
import type { PublicUrls } from "../base/urls.ts";
import { API_MAJOR, API_VERSION } from "../base/version.ts";

/** How each cache policy reads in prose. */
const CACHE_PROSE: Record<CachePolicy, string> = {
  public: `Cached for ${READ_CACHE_SECONDS / 60} minutes.`,
  revalidate: "Revalidate (ETag) before reusing a stored copy.",
  "until-expiry": `Cached for ${READ_CACHE_SECONDS / 60} minutes at most, never past the list's expiry.`,
  "no-store": "Not cached.",
};

/** The operations that share a bucket, for the prose of the discovery document. */
const bucketMembers = (table: readonly Endpoint[], bucket: keyof typeof BUCKETS) =>
  [...new Set(table.filter((row) => row.bucket === bucket).map((row) => `${row.method} ${row.path}`))].join(", ");

type JsonSchema = Record<string, unknown>;

/**
 * Every object schema of the document left open to fields it does not name (zod closes them with
 * `additionalProperties: false`): responses gain optional fields in compatible versions (docs/design.md:
 * "response schemas stay open to new fields"), and request bodies' unknown fields are ignored by
 * the server, so a closed schema would make validating clients reject what the API promises.
 * `additionalProperties` that is a schema (a record's values) is kept; componentSchemas closes again
 * the request bodies that refuse unknown keys.
 */
function openObjects<T>(json: T): T {
  if (Array.isArray(json)) json.forEach((item) => openObjects(item as unknown));
  else if (json && typeof json === "object") {
    const record = json as JsonSchema;
    if (record.additionalProperties === false) delete record.additionalProperties;
    for (const value of Object.values(record)) openObjects(value);
  }
  return json;
}

/** A zod object that refuses keys it does not name (z.strictObject: its catchall is never). */
const isStrictObject = (schema: unknown): boolean =>
  schema instanceof z.ZodObject && (schema.def.catchall as z.ZodType | undefined)?.def.type === "never";

/** The request bodies of the table and the objects they hold (ExitPlanBody and its ExitTarget). */
function requestBodySchemas(table: readonly Endpoint[]): z.ZodType[] {
  const bodies = table.flatMap((row) => (row.body ? [row.body] : []));
  // A held object may be optional (the register's entity): the object inside is what closes.
  const held = bodies.flatMap((body) =>
    body instanceof z.ZodObject
      ? Object.values(body.shape as Record<string, z.ZodType>).map((field) =>
          field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType) : field,
        )
      : [],
  );
  return [...bodies, ...held];
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** A registered schema (or an array of one) as a component reference; anything else inline. */
function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return ref(id);
  if (schema instanceof z.ZodArray) return { type: "array", items: toJsonSchema(schema.element as z.ZodType, io) };
  const json = openObjects(z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema);
  delete json.$schema;
  return componentRefs(json);
}

/**
 * A schema whose registered parts zod wrote as local definitions (a union of a registered schema
 * and an array of it: /mcp's message or batch) refers to the components instead, which hold them.
 */
function componentRefs(json: JsonSchema): JsonSchema {
  const defs = json.$defs as Record<string, unknown> | undefined;
  if (!defs) return json;
  delete json.$defs;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== "object") return value;
    const object = value as Record<string, unknown>;
    if (typeof object.$ref === "string" && object.$ref.startsWith("#/$defs/"))
      return ref(object.$ref.slice("#/$defs/".length));
    return Object.fromEntries(Object.entries(object).map(([key, inner]) => [key, walk(inner)]));
  };
  return walk(json) as JsonSchema;
}

/** A self-contained schema (no component references), for the discovery document. */
function inlineJsonSchema(schema: z.ZodType): JsonSchema {
  const json = openObjects(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema);
  delete json.$schema;
  return json;
}

function componentSchemas(table: readonly Endpoint[]): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: "any",
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
    openObjects(schema);
  }
  // A request body that refuses unknown keys (a strictObject: an exit plan's misspelt criterion is
  // a 400, docs/design.md "Decisions on what the contract leaves open") stays closed, so the document says what the server does.
  for (const schema of requestBodySchemas(table)) {
    const id = z.globalRegistry.get(schema)?.id;
    if (id && schemas[id] && isStrictObject(schema)) schemas[id].additionalProperties = false;
  }
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
}

/** An OpenAPI parameter object, as the discovery document lists it too. */
interface Parameter {
  readonly name: string;
  readonly in: "path" | "query" | "header";
  readonly required: boolean;
  readonly description: string | undefined;
  readonly schema: JsonSchema;
  readonly example?: unknown;
}

function parameters(endpoint: Endpoint): Parameter[] {
  const result: Parameter[] = [];
  for (const [where, schema] of [
    ["path", endpoint.params],
    ["query", endpoint.query],
    ["header", endpoint.headers],
  ] as const) {
    if (!schema) continue;
    const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
      properties: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(json.properties)) {
      const { description, example, ...rest } = property;
      result.push({
        name,
        in: where,
        required: where === "path" || (json.required ?? []).includes(name),
        description: typeof description === "string" ? description : undefined,
        schema: rest,
        ...(example === undefined ? {} : { example }),
      });
    }
  }
  return result;
}

/** What every /v1/ operation says of a query parameter it does not list (docs/decisions.md#closed-queries). */
const UNKNOWN_PARAMETERS =
  "A query parameter not listed here is a 400 (Invalid query) naming it, the listed one it most likely meant and every listed one.";

/** The row's error statuses, with the 400 every /v1/ row answers to a parameter it does not take. */
export const errorStatuses = (endpoint: Endpoint): number[] =>
  closesQuery(endpoint) && !endpoint.errors.includes(400)
    ? [400, ...endpoint.errors].sort((a, b) => a - b)
    : [...endpoint.errors];

function operation(endpoint: Endpoint): JsonSchema {
  const responses: Record<string, JsonSchema> = {
    [endpoint.response.status]: {
      description: endpoint.summary,
      ...(endpoint.bucket
        ? {
            headers: {
              "X-RateLimit-Limit": {
                description: `The limit of this endpoint's ${endpoint.bucket} bucket (${BUCKETS[endpoint.bucket].max} per minute per IP)`,
                schema: { type: "integer" },
              },
            },
          }
        : {}),
      content: {
        [endpoint.response.contentType.split(";")[0]!]: endpoint.response.schema
          ? { schema: toJsonSchema(endpoint.response.schema, "output") }
          : /^text\/|\+xml/.test(endpoint.response.contentType)
            ? { schema: { type: "string" } }
            : // Any file, byte for byte, in its own media type: no schema describes its content.
              {},
        ...Object.fromEntries(
          (endpoint.response.alternates ?? []).map((type) => [type.split(";")[0]!, { schema: { type: "string" } }]),
        ),
      },
    },
    ...(endpoint.response.accepted
      ? // Accepted with an empty body and no Content-Type (a JSON-RPC notification).
        { 202: { description: endpoint.response.accepted } }
      : {}),
  };
  for (const status of errorStatuses(endpoint)) {
    responses[status] = {
      description: `${ERROR_REASONS[status] ?? "Error"}. The body's error is one of: ${titlesOf(status).join("; ")} (x-error-catalogue says when each happens).`,
      ...(status === 429
        ? {
            headers: {
              "Retry-After": { description: "Seconds until the bucket has room again", schema: { type: "integer" } },
            },
          }
        : {}),
      content: { "application/json": { schema: ref("Error") } },
    };
  }
  // Any request can also be malformed (bad percent-encoding, over-long path): the Error shape still holds.
  responses["4XX"] = {
    description: "Any other client error",
    content: { "application/json": { schema: ref("Error") } },
  };
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: `${endpoint.description}${closesQuery(endpoint) ? ` ${UNKNOWN_PARAMETERS}` : ""}${endpoint.bucket ? ` Rate limit: ${endpoint.bucket} bucket, ${BUCKETS[endpoint.bucket].max} requests per minute per IP.` : endpoint.missBucket ? ` Rate limit: only reads that find nothing, in the ${endpoint.missBucket} bucket (${BUCKETS[endpoint.missBucket].max} per minute per IP).` : " Not rate-limited."} ${CACHE_PROSE[endpoint.cache]}`,
    tags: [endpoint.tag],
    security: [],
    ...(endpoint.params || endpoint.query || endpoint.headers ? { parameters: parameters(endpoint) } : {}),
    ...(endpoint.body
      ? {
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: toJsonSchema(endpoint.body, "input"),
                ...(endpoint.example.body ? { example: endpoint.example.body } : {}),
              },
            },
          },
        }
      : {}),
    responses,
    ...endpoint.extensions,
  };
}

/** A real file of a build at each depth past the first: the examples of /mirror/{dir1}/…/{path}. */
const MIRROR_EXAMPLES = [
  "api/openapi.json",
  "api/v1/providers.json",
  "api/v1/services/aws-s3.json",
  "api/v1/services/pages/2.json",
];

/** The deepest file of a build, in path segments (tests/build/static.test.ts checks a build fits). */
export const MIRROR_DEPTH = MIRROR_EXAMPLES.length + 1;

/**
 * A rest parameter ("the path may contain '/'") has no OpenAPI form: a path parameter is one
 * segment, so validating proxies (Prism) routed no real mirror URL. The row is described once per
 * depth as well, `/mirror/{dir1}/{path}` and so on, each with its own operationId.
 */
function pathTemplates(endpoint: Endpoint): [string, Endpoint][] {
  const [, last] = /\{(\w+)\}$/.exec(endpoint.path) ?? [];
  if (!endpoint.restParam || !last) return [[endpoint.path, endpoint]];
  const deeper = MIRROR_EXAMPLES.map((example): [string, Endpoint] => {
    const segments = example.split("/");
    const file = segments.pop()!;
    const params = Object.fromEntries(
      segments.map((name, i) => [
        `dir${i + 1}`,
        z.string().meta({ description: `Folder ${i + 1} of the path`, example: name }),
      ]),
    );
    params[last] = z.string().meta({ description: "File name inside those folders", example: file });
    return [
      endpoint.path.replace(/\{\w+\}$/, [...segments.map((_, i) => `{dir${i + 1}}`), `{${last}}`].join("/")),
      { ...endpoint, operationId: `${endpoint.operationId}AtDepth${segments.length + 1}`, params: z.object(params) },
    ];
  });
  return [[endpoint.path, endpoint], ...deeper];
}

/** HEAD of a GET: what GET answers, headers only (the server answers HEAD wherever it answers GET). */
function headOperation(get: JsonSchema): JsonSchema {
  const responses = Object.fromEntries(
    Object.entries(get.responses as Record<string, JsonSchema>).map(([status, { content: _, ...rest }]) => [
      status,
      rest,
    ]),
  );
  const id = String(get.operationId);
  return {
    ...get,
    operationId: `head${id[0]!.toUpperCase()}${id.slice(1)}`,
    summary: `${String(get.summary)} (headers only)`,
    responses,
  };
}

export function openApiDocument(urls: PublicUrls, table: readonly Endpoint[]) {
  void ApiError; // registered as the "Error" component by importing schema/index.ts
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const endpoint of table) {
    for (const [path, row] of pathTemplates(endpoint)) {
      const get = operation(row);
      paths[path] = { ...paths[path], [row.method.toLowerCase()]: get };
      if (row.method === "GET") paths[path].head = headOperation(get);
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Cloud Services Catalogue API",
      version: API_VERSION,
      summary: "A read-mostly catalogue of cloud services across 32 providers.",
      description:
        "Providers, categories and services with equivalents across providers, compliance tags and lifecycle; a jurisdictional exposure scorecard; policy scaffolds (AWS SCP, Azure policy initiative, GCP organisation policy); Markdown export; shareable lists. Open: no credentials; an X-API-Key header is accepted and ignored. Every error body has the Error shape. Answers are open: they may gain fields in compatible versions. Request bodies are closed: a key a body does not name is a 400 naming it (since 1.9.0). A query parameter given more than once (?provider=aws&provider=gcp) is a 400 on every endpoint: give each once, lists comma-separated. Under /v1/ a query parameter an endpoint does not list is a 400 naming it, the nearest listed one and the listed ones, from every server that answers (a filter is never ignored in silence; no cache-busting parameter is taken: revalidate with If-None-Match instead) (since 1.11.0).",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: urls.apiUrl }],
    tags: [
      { name: "Discovery", description: "What this API offers" },
      { name: "Catalogue", description: "Providers, categories, services, compare and exposure" },
      { name: "Policies", description: "Policy scaffolds and Markdown export from an approved list" },
      { name: "Lists", description: `Saved approved-services lists (${LIST_LIFETIME_DAYS} days from the last read)` },
      { name: "Operations", description: "Status, health, feedback and telemetry" },
      { name: "Mirror", description: "The whole catalogue and the build, for scripts and offline mirrors" },
      { name: "MCP", description: "The catalogue as a Model Context Protocol server, for assistants" },
    ],
    paths,
    components: { schemas: componentSchemas(table) },
    // Every error title a client can receive, its status and when (catalogue/base/error-catalogue.ts).
    "x-error-catalogue": Object.entries(ERRORS).map(([error, { status, when }]) => ({ error, status, when })),
  };
}

/** GET / — the discovery document. */
export function discoveryDocument(urls: PublicUrls, table: readonly Endpoint[]) {
  const describe = (endpoint: Endpoint) => ({
    method: endpoint.method,
    path: endpoint.path,
    auth: "open" as const,
    served: servingOf(endpoint),
    cache: endpoint.cache,
    description: endpoint.description,
    params: parameters(endpoint).map((parameter) => ({
      name: parameter.name,
      in: parameter.in,
      required: parameter.required,
      ...(parameter.description === undefined ? {} : { description: parameter.description }),
    })),
    body: endpoint.body ? inlineJsonSchema(endpoint.body) : null,
    rateLimit: endpoint.bucket ? { bucket: endpoint.bucket, perMinute: BUCKETS[endpoint.bucket].max } : null,
    example: endpoint.example,
  });
  const versioned = (endpoint: Endpoint) => endpoint.path.startsWith(`/${API_MAJOR}/`);
  return {
    name: "Cloud Services Catalogue API",
    description:
      "A read-mostly catalogue of cloud services across 32 providers: equivalents, compliance, lifecycle, jurisdictional exposure, policy scaffolds, Markdown export and shareable lists.",
    latestVersion: API_MAJOR,
    apiVersion: API_VERSION,
    documentation: {
      openapi: `${urls.apiUrl}/openapi.json`,
      changelog: `${urls.apiUrl}/${API_MAJOR}/changelog`,
      textHost: urls.textUrl,
      site: urls.textUrl,
    },
    auth: { scheme: "open" as const, description: "No authentication. An X-API-Key header is accepted and ignored." },
    rateLimits: {
      reads: `GET endpoints are not rate-limited; responses are cached for ${READ_CACHE_SECONDS / 60} minutes unless an endpoint says otherwise.`,
      strict: `${BUCKETS.strict.max} requests per minute per IP: ${bucketMembers(table, "strict")}.`,
      relaxed: `${BUCKETS.relaxed.max} requests per minute per IP: ${bucketMembers(table, "relaxed")}.`,
      mcp: `${BUCKETS.mcp.max} requests per minute per IP: ${bucketMembers(table, "mcp")}; a session's setup and discovery (${MCP_UNCOUNTED_METHODS.join(", ")}) are not counted.`,
      misses: `${BUCKETS.misses.max} reads per minute per IP that find no saved list: ${[...new Set(table.filter((row) => row.missBucket === "misses").map((row) => `${row.method} ${row.path}`))].join(", ")}; past it every read of a list is 429 until the minute is over (reads that find one are not counted).`,
      textHost: `${TEXT_HOST_LIMIT.max} requests per minute per IP on the text host.`,
      headers: "X-RateLimit-Limit reports the endpoint's bucket limit; a 429 carries Retry-After in seconds.",
    },
    limits: {
      bodies: `${bodyTooLargeDetails(MAX_TEMPLATE_BODY_BYTES)} (POST /v1/deployments/check and the text host's POST /deployments/check); over it a 413. A refusal sent before the body ended closes the connection after reading at most 64 MiB or 10 s more.`,
      templates: `Each deployment-check template is read with budgets of its own: ${TEMPLATE_BUDGET_TEXT}. Past one, that request alone gets a 422 Template too costly naming it; a key given twice in one object is a 400.`,
      nesting: `JSON nested more than ${MAX_JSON_DEPTH} levels is a 400.`,
      time: TIME_LIMITS_TEXT,
    },
    versions: [
      {
        version: API_MAJOR,
        status: "stable",
        contractVersion: API_VERSION,
        baseUrl: `${urls.apiUrl}/${API_MAJOR}`,
        endpoints: table.filter(versioned).map(describe),
      },
    ],
    /** Outside the versioned API: the whole catalogue and the build, for scripts and mirrors. */
    downloads: table.filter((endpoint) => !versioned(endpoint) && endpoint.tag === "Mirror").map(describe),
    /** The Model Context Protocol server, for assistants (what it offers: its x-mcp extension). */
    mcp: table
      .filter((endpoint) => endpoint.tag === "MCP")
      .map((endpoint) => ({ ...describe(endpoint), ...endpoint.extensions })),
  };
}
