/**
 * Every error a client can receive from the API, the text host or the MCP server: its title (the
 * Error shape's `error`), its status and when it happens. HttpError and errorBody take only these
 * titles, each with its own status (checked at compile time); OpenAPI's error responses and the
 * table in docs/api.md (`npm run docs:errors`) are written from this list.
 */

export interface ErrorEntry {
  readonly status: number;
  /** When a client receives it, in words a client acts on. */
  readonly when: string;
}

export const ERRORS = {
  // 400: the request, as sent, cannot be answered
  "Bad request": {
    status: 400,
    when: "The server cannot read the request: a malformed URL or Content-Length, a missing or foreign Host, a text-host parameter out of range (width, COLUMNS), or another client error with no title of its own.",
  },
  "Invalid query": {
    status: 400,
    when: "A query parameter is malformed, out of range or given twice, or one the endpoint does not take (any /v1/ endpoint); details name it, the nearest valid one and the parameters the endpoint takes.",
  },
  "Invalid body": {
    status: 400,
    when: "The JSON body does not match the endpoint's schema: a missing field, a wrong type, a key the body does not name, or a key given twice in one object.",
  },
  "Invalid path": { status: 400, when: "A path parameter is malformed (a slug or id of the wrong shape)." },
  "Invalid headers": {
    status: 400,
    when: "A request header the endpoint reads is malformed (Idempotency-Key, MCP-Protocol-Version).",
  },
  "Invalid JSON": { status: 400, when: "The body is not valid JSON." },
  "Invalid template": {
    status: 400,
    when: "The deployment check cannot read the template: not a CloudFormation, SAM, ARM or Terraform plan document nor a list of Google APIs, unparseable JSON or YAML, a resource without a type, or too many resources; details say what was not understood.",
  },
  "Empty body": { status: 400, when: "A POST that declares JSON carries no body." },
  "Invalid request": {
    status: 400,
    when: "Two options contradict each other (exemptPrincipalArns with the allow-list SCP strategy; allowedLocations mixing AWS partitions, or exempt principals of another partition than the regions').",
  },
  "Unknown locations": {
    status: 400,
    when: "A policy request's, deployment check's or register's allowedLocations names no known place (region, country, group, multi-region or global; details give the nearest), or (policies) none of the vendor's regions.",
  },
  "Invalid register request": {
    status: 400,
    when: "A DORA register request's entity fields name a provider (arrangements, providerCodes) or a service (functions) that is not in the list, or its GET query gives a malformed LEI, date or currency; details name each.",
  },
  "Nothing to allow": {
    status: 400,
    when: "No approved service has an identifier in the policy's language (no AWS prefix, Azure type or Google API).",
  },
  "Policy too large": {
    status: 400,
    when: "The generated document would exceed what the vendor accepts (an AWS deny-list SCP over its character limit); details say what to change.",
  },
  "Several policies needed": {
    status: 400,
    when: "The Google Cloud answer with allowedLocations is two organization policies and no part was asked: ask each part, or explain=true for both.",
  },
  "Several SCPs needed": {
    status: 400,
    when: "The allow-list needs more than one SCP and no part was asked: ask each part, or explain=true for all.",
  },
  "Unknown service ids": { status: 400, when: "Ids name no service of the catalogue; details give the nearest slugs." },
  "Unknown provider": { status: 400, when: "A provider argument names no provider of the catalogue." },
  "Unknown provider ids": { status: 400, when: "An exit plan's target names providers the catalogue does not have." },
  "Unknown jurisdiction": {
    status: 400,
    when: "A jurisdiction filter names no head-office jurisdiction the catalogue records; details list those it does.",
  },
  "Unknown region": {
    status: 400,
    when: "A place filter (services' region, exposure's regions) names no known place (region, country, group, multi-region or global), or a deployment check's region names no region of the vendor its format is made in (an AWS region for CloudFormation, an Azure location for ARM; any provider's region, zone or site for Terraform); details give the nearest.",
  },
  "Unknown country": {
    status: 400,
    when: "GET /v1/services's country names no known place (a country a provider region is in, a group, a multi-region or global); details give the nearest.",
  },
  "Unknown category": { status: 400, when: "An MCP tool's category argument names no category." },
  "Unknown compliance programme": {
    status: 400,
    when: "GET /v1/services's compliance names no programme of the compliance vocabulary; details list the ids.",
  },
  "Too many ids": { status: 400, when: "More ids than the endpoint compares or scores at once." },
  "ids is required": { status: 400, when: "Compare or the exposure scorecard asked without ids." },
  "No target": {
    status: 400,
    when: "An exit plan names no target: providers, sovereignOption, euResidentOnly or jurisdictions.",
  },
  "No provider matches the target": {
    status: 400,
    when: "An exit plan's target criteria together exclude every provider.",
  },
  "serviceIds is not supported": { status: 400, when: "A body sends the field's old name; send approvedServiceIds." },
  "Invalid arguments": { status: 400, when: "An MCP tool call's arguments do not match the tool's input schema." },
  "Batches not supported": {
    status: 400,
    when: "A JSON-RPC batch under an MCP protocol version that has none (only 2025-03-26 has batches).",
  },
  "Not saved": { status: 400, when: "The text host's save-a-list form was sent with input the list cannot take." },
  // 403
  Forbidden: { status: 403, when: "POST /mcp from a browser page of another origin, or for another host name." },
  // 404
  "Not found": { status: 404, when: "No resource or page at this path." },
  "Service not found": { status: 404, when: "No service has this slug; details give the nearest slugs." },
  "Equivalence group not found": { status: 404, when: "No equivalence group has this id." },
  "Place not found": {
    status: 404,
    when: "GET /v1/places/{place} names no place: no region, country, group, multi-region, metro or name the catalogue knows; details give the nearest.",
  },
  "List not found": { status: 404, when: "No saved list has this id: it never existed or has expired." },
  "No build here": {
    status: 404,
    when: "A mirror asked of a server that computes every answer and has no build (npm run dev, tests).",
  },
  "Unknown tool": { status: 404, when: "An MCP tools/call names no tool." },
  "Provider not found": { status: 404, when: "An MCP resource names no provider." },
  "Category not found": { status: 404, when: "An MCP resource names no category." },
  // 405–429
  "Method not allowed": { status: 405, when: "The path exists but not with this method; Allow names those it has." },
  "Not acceptable": { status: 406, when: "POST /mcp whose Accept names neither JSON nor an event stream." },
  "Request timeout": { status: 408, when: "The request's headers or body did not arrive in time." },
  "Slug taken": { status: 409, when: "A saved list's chosen slug is in use." },
  Conflict: { status: 409, when: "Another conflict the HTTP layer reports." },
  "Payload too large": { status: 413, when: "The body is larger than the endpoint takes." },
  "URI too long": { status: 414, when: "The URL or a path parameter is longer than the server reads." },
  "Unsupported media type": { status: 415, when: "A body sent without Content-Type: application/json." },
  "Range not satisfiable": {
    status: 416,
    when: "A Range header none of whose ranges lies within the answer (a built file; rendered pages ignore Range).",
  },
  "Expectation failed": { status: 417, when: "An Expect header other than 100-continue." },
  "Idempotency-Key reused": {
    status: 422,
    when: "An Idempotency-Key sent again with a different body within its lifetime.",
  },
  "Template too costly": {
    status: 422,
    when: "A deployment check's template within the size limit whose reading or evaluation passes a per-request budget: its values after YAML aliases, its reader's memory or time, or the evaluation's instances, items, string lengths, steps or regular-expression work, or an ARM copy loop past Azure's 800; details name the file and line (or the template's path) and the budget.",
  },
  "Unprocessable content": { status: 422, when: "Another well-formed request the HTTP layer cannot process." },
  "Too many requests": {
    status: 429,
    when: "The client's rate-limit bucket (or its misses bucket) is full; Retry-After says when to try again.",
  },
  "Request header fields too large": { status: 431, when: "The request line and headers together exceed 16 KiB." },
  // 5xx
  "Internal server error": { status: 500, when: "A fault of the server; nothing the client sent explains it." },
  "Service unavailable": {
    status: 503,
    when: "The store cannot be reached, the server is at capacity or a computation ran past its budget; details say whether anything was saved.",
  },
  "Saved lists unavailable": { status: 503, when: "An MCP tool needs saved lists and the store cannot be reached." },
  "Not implemented": {
    status: 501,
    when: "A method the server does not implement (methods are case-sensitive: GET, not get), or a transfer coding other than chunked.",
  },
  "HTTP version not supported": { status: 505, when: "A request line naming an HTTP version other than 1.0 and 1.1." },
} as const satisfies Readonly<Record<string, ErrorEntry>>;

export type ErrorTitle = keyof typeof ERRORS;
/** The parts of a request (or of an MCP call) validated against a schema, each with its "Invalid …" title. */
export type InputPart = "query" | "path" | "body" | "headers" | "arguments";
/** The status a title goes with. */
export type StatusOf<T extends ErrorTitle> = (typeof ERRORS)[T]["status"];

/** The title a status has when nothing more specific is known (Fastify's own errors, an SDK's refusal). */
export const ERROR_REASONS: Readonly<Record<number, ErrorTitle>> = {
  400: "Bad request",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  406: "Not acceptable",
  408: "Request timeout",
  409: "Conflict",
  413: "Payload too large",
  414: "URI too long",
  415: "Unsupported media type",
  416: "Range not satisfiable",
  417: "Expectation failed",
  422: "Unprocessable content",
  429: "Too many requests",
  431: "Request header fields too large",
  500: "Internal server error",
  501: "Not implemented",
  503: "Service unavailable",
  505: "HTTP version not supported",
};

/** An error body whose title and status belong together, as a type: the union of every catalogue pair. */
export type CataloguedError = {
  [T in ErrorTitle]: { readonly status: StatusOf<T>; readonly error: T; readonly details: string };
}[ErrorTitle];

/** The titles that go with a status. */
export type TitleOf<S extends number> = { [K in ErrorTitle]: StatusOf<K> extends S ? K : never }[ErrorTitle];

/** The title a status known only as a number has (an SDK's refusal, a framework's error). */
export const titleOfStatus = (status: number): ErrorTitle =>
  ERROR_REASONS[status] ?? (status >= 500 ? "Internal server error" : "Bad request");

export const isErrorTitle = (value: string): value is ErrorTitle => Object.hasOwn(ERRORS, value);

/** The titles of a status, for OpenAPI's error responses. */
export const titlesOf = (status: number): ErrorTitle[] =>
  (Object.keys(ERRORS) as ErrorTitle[]).filter((title) => ERRORS[title].status === status);

const START = "<!-- error catalogue: npm run docs:errors writes this table -->";
const END = "<!-- end of error catalogue -->";

/** The catalogue as a Markdown table, by status then title. */
export function errorTable(): string {
  const rows = (Object.entries(ERRORS) as [ErrorTitle, ErrorEntry][]).sort(
    ([a, x], [b, y]) => x.status - y.status || a.localeCompare(b),
  );
  return [
    "| status | `error` | when |",
    "| --- | --- | --- |",
    ...rows.map(([title, { status, when }]) => `| ${status} | ${title} | ${when.replaceAll("|", "\\|")} |`),
  ].join("\n");
}

/** `text` with the table between its markers (docs/api.md). */
export function withErrorTable(text: string, table: string): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the error catalogue's markers are missing: ${START} … ${END}`);
  return `${text.slice(0, start + START.length)}\n\n${table}\n\n${text.slice(end)}`;
}
