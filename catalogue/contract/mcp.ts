/**
 * The /mcp row: the MCP server's Streamable HTTP transport on the API host, in its own rate-limit
 * bucket, described in OpenAPI with an `x-mcp` extension naming its tools, resources and prompts,
 * and listed in discovery. The server itself (mcp/) is handed to the row through the operation
 * context (`answerMcp`), so the domain never imports it and the build never loads the SDK.
 */
import { z } from "zod";
import { endpoint } from "./endpoint.ts";
import { MAX_ID_LENGTH } from "../base/limits.ts";
import { HttpError } from "../base/problem.ts";
import { d } from "../schema/vocabulary.ts";

/** The one protocol revision whose clients may send JSON-RPC batches (MCP 2025-03-26; later ones removed them). */
export const BATCH_PROTOCOL = "2025-03-26";

/** The tools the server offers, by name and title; mcp/tools.ts gives each its input and its row. */
export const MCP_TOOLS = [
  { name: "search_services", title: "Search cloud services" },
  { name: "get_service", title: "Get one service" },
  { name: "compare_services", title: "Compare services" },
  { name: "exposure_scorecard", title: "Jurisdictional exposure scorecard" },
  { name: "lifecycle_upcoming", title: "Lifecycle watch" },
  { name: "generate_policy", title: "Generate a policy document" },
  { name: "exit_plan", title: "Plan an exit" },
  { name: "get_saved_list", title: "Get a saved list" },
  { name: "check_deployment", title: "Check a deployment" },
  { name: "dora_register", title: "DORA register of information" },
] as const;

export type McpToolName = (typeof MCP_TOOLS)[number]["name"];

export const mcpToolTitle = (name: McpToolName): string => MCP_TOOLS.find((tool) => tool.name === name)!.title;

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
  tools: MCP_TOOLS,
  resourceTemplates: [
    "catalogue://services/{slug}",
    "catalogue://providers/{id}",
    "catalogue://categories/{id}",
    "catalogue://equivalents/{id}",
  ],
  resources: ["catalogue://equivalents", "catalogue://changelog", "catalogue://changes"],
  prompts: ["find_equivalent", "plan_exit", "sunsets_soon"],
};

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
  handler: (context, { body, headers, client, countIn }) => {
    if (!context.answerMcp) throw new HttpError(404, "Not found", "This server does not serve MCP");
    return context.answerMcp({ ...context, client, ...(countIn ? { countIn } : {}) }, body, headers);
  },
});
