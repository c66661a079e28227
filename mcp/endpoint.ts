/**
 * The /mcp row of the contract table (catalogue/contract/index.ts lists it): the MCP server's Streamable
 * HTTP transport on the API host, in its own rate-limit bucket, described in OpenAPI with an
 * `x-mcp` extension naming its tools, resources and prompts, and listed in discovery. The SDK is
 * loaded on the first request, so the build and the static servers never load it.
 */
import { z } from "zod";
import { endpoint } from "../catalogue/endpoint.ts";
import { MAX_ID_LENGTH } from "../catalogue/limits.ts";
import { d } from "../catalogue/schema/vocabulary.ts";
import { BATCH_PROTOCOL } from "./protocol.ts";
import { TOOLS } from "./tools.ts";

/** Protocol versions this SDK speaks; the client names one in MCP-Protocol-Version after initialize. */
const PROTOCOL_VERSION_EXAMPLE = "2025-06-18";

/** Header values are visible ASCII (RFC 9110 field values as clients send them); anything else is a 400, not a crash. */
const VISIBLE_ASCII = /^[\t\x20-\x7e]*$/;

export const McpHeaders = z.object({
  accept: z
    .string()
    .max(1000)
    .regex(VISIBLE_ASCII, "must be visible ASCII")
    .optional()
    .meta({
      ...d("Must list both application/json and text/event-stream (Streamable HTTP); the answer is JSON"),
      example: "application/json, text/event-stream",
    }),
  "mcp-protocol-version": z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a protocol version such as 2025-06-18")
    .optional()
    .meta({ description: "The protocol version agreed at initialize (after it)", example: PROTOCOL_VERSION_EXAMPLE }),
});

export const McpMessage = z
  .looseObject({
    jsonrpc: z.literal("2.0").meta(d("JSON-RPC version, always 2.0")),
    id: z
      .union([z.string().max(MAX_ID_LENGTH), z.number().int()])
      .optional()
      .meta(d("Request id; absent for a notification")),
    method: z.string().max(MAX_ID_LENGTH).optional().meta(d("initialize, tools/list, tools/call, resources/read…")),
    params: z.record(z.string(), z.unknown()).optional().meta(d("The method's parameters")),
  })
  .meta({
    id: "McpMessage",
    description: "One JSON-RPC 2.0 message of the Model Context Protocol",
  });

export const McpAnswer = z
  .looseObject({
    jsonrpc: z.literal("2.0").meta(d("JSON-RPC version, always 2.0")),
    id: z.union([z.string(), z.number(), z.null()]).meta(d("The request's id")),
    result: z.record(z.string(), z.unknown()).optional().meta(d("The method's result")),
    error: z
      .looseObject({
        code: z.number().int().meta(d("JSON-RPC error code")),
        message: z.string().meta(d("What went wrong")),
      })
      .optional()
      .meta(d("A protocol error (a tool's own error is a result with isError: true)")),
  })
  .meta({ id: "McpAnswer", description: "The JSON-RPC 2.0 answer to one MCP request" });

/** The protocol revision that had JSON-RPC batches (2025-06-18 removed them). */
export { BATCH_PROTOCOL };
export const MAX_BATCH = 20;

/** One message, or (protocol 2025-03-26, named in MCP-Protocol-Version) a batch of them. */
export const McpBody = z.union([
  McpMessage,
  z
    .array(McpMessage)
    .min(1)
    .max(MAX_BATCH)
    .meta(
      d(
        `A JSON-RPC batch (1 to ${MAX_BATCH} messages): protocol ${BATCH_PROTOCOL} only, named in MCP-Protocol-Version`,
      ),
    ),
]);

/** What the x-mcp extension and discovery say the server offers. */
export const MCP_OFFER = {
  transport: "streamable-http",
  stateless: true,
  stdio: "npm run --silent mcp in a clone (bin cloud-catalogue-mcp): the same server over stdio, no API server needed",
  tools: TOOLS.map((tool) => ({ name: tool.name, title: tool.title })),
  resourceTemplates: [
    "catalogue://services/{slug}",
    "catalogue://providers/{id}",
    "catalogue://categories/{id}",
    "catalogue://equivalents/{id}",
  ],
  resources: ["catalogue://equivalents", "catalogue://changelog", "catalogue://changes"],
  prompts: ["find_equivalent", "plan_exit", "sunsets_soon"],
};

/** The SDK's side, imported once: import() resolves its specifier again on every call. */
let http: Promise<typeof import("./http.ts")> | undefined;
const loadHttp = () => (http ??= import("./http.ts"));

export const MCP_ENDPOINT = endpoint({
  operationId: "mcp",
  method: "POST",
  path: "/mcp",
  summary: "Model Context Protocol (Streamable HTTP)",
  description:
    "The catalogue as an MCP server for assistants: tools (search_services, get_service, compare_services, exposure_scorecard, lifecycle_upcoming, generate_policy, exit_plan, get_saved_list) answered by the same operations as the API, resources (each service, provider, category and equivalence group; the changelog) and prompts. Stateless Streamable HTTP: each POST carries one JSON-RPC message and gets its answer as JSON (a notification: 202, empty); no session, no GET stream. Every answer carries the catalogue release. Read only.",
  tag: "MCP",
  bucket: "mcp",
  headers: McpHeaders,
  body: McpBody,
  response: {
    status: 200,
    schema: z.union([McpAnswer, z.array(McpAnswer)]),
    contentType: "application/json",
    accepted: "A notification or a response: accepted, nothing to answer (empty body)",
  },
  errors: [400, 403, 406, 413, 415, 429],
  cache: "no-store",
  // A new McpServer and transport per request, the tool and its rendering: ~1 ms each, too much
  // for the event loop under 50 clients (BENCHMARKS.md, "MCP load").
  offThread: true,
  extensions: { "x-mcp": MCP_OFFER },
  example: {
    request: "POST /mcp",
    body: {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search_services", arguments: { query: "object storage", provider: "aws" } },
    },
  },
  handler: async (context, { body, headers, client, countIn }) => {
    const { answerMcp } = await loadHttp();
    return answerMcp({ ...context, client, ...(countIn ? { countIn } : {}) }, body, headers);
  },
});
