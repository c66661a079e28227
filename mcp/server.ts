/**
 * The MCP server of the catalogue: the tools of ./tools.ts (each answered by its contract row),
 * the resources and the prompts, over whichever transport connects it (../scripts/mcp-stdio.ts, ./http.ts).
 * Read only: the tools run the API's read and compute operations, never a write, a file or the
 * network; every answer carries the catalogue release in its text and its _meta.
 */
import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { LRUCache } from "lru-cache";
import { ErrorCode, McpError, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { API_VERSION } from "../catalogue/base/version.ts";
import { UnknownIdsError } from "../catalogue/search/ids.ts";
import { issueDetails } from "../catalogue/base/issues.ts";
import { HttpError, isHttpError } from "../catalogue/base/problem.ts";
import { nearestSlugs } from "./ids.ts";
import { instructionsFor, ICON } from "./instructions.ts";
import { ANSWER_MAX_LENGTH, toolInput, toolOutput } from "./schemas.ts";
import { registerPrompts } from "./prompts.ts";
import { registerResources, RELEASE_META } from "./resources.ts";
import { catalogueRelease, releaseLine, resourceLinks, toolText } from "./text.ts";
import { invalid } from "../catalogue/contract/run.ts";
import { mcpToolTitle } from "../catalogue/contract/mcp.ts";
import { runRow, TOOLS, type ToolContext, type ToolSpec } from "./tools.ts";
import { replaceToolHandlers, toolListOf, toolParts } from "./sdk-adapter.ts";

export const SERVER_NAME = "cloud-services-catalogue";

/**
 * The API's pointers in a refusal's words, as an assistant follows them here: a tool or a
 * resource, not a REST URL it cannot call (the longest first, so /v1/services/{slug} wins).
 */
const REST_TO_MCP: readonly [RegExp, string][] = [
  [/GET \/v1\/services\/\{?[a-z0-9-]*\}?/g, "the get_service tool"],
  [/GET \/v1\/services\?q=…/g, "the search_services tool"],
  [/GET \/v1\/services/g, "the search_services tool"],
  [/GET \/v1\/providers/g, "the catalogue://providers/{id} resources (resources/list)"],
  [/GET \/v1\/categories/g, "the catalogue://categories/{id} resources (resources/list)"],
  [/GET \/v1\/equivalents\/\{?[a-z0-9-]*\}?/g, "the resource catalogue://equivalents"],
  [/GET \/v1\/equivalents/g, "the resource catalogue://equivalents"],
];
export const inMcpTerms = (text: string) => REST_TO_MCP.reduce((said, [rest, mcp]) => said.replace(rest, mcp), text);

/** A refusal as a tool error: the API's Error body as structured content, and in words. */
function toolError(context: ToolContext, refusal: HttpError, hint?: string): CallToolResult {
  const release = catalogueRelease(context.catalogue);
  const error = {
    statusCode: refusal.statusCode,
    message: refusal.message,
    details: refusal.details === undefined ? undefined : inMcpTerms(refusal.details),
  };
  const body = { error: error.message, status: error.statusCode, ...(error.details ? { details: error.details } : {}) };
  return {
    isError: true,
    structuredContent: body,
    content: [
      {
        type: "text",
        text: `${error.message} (${error.statusCode})${error.details ? `: ${error.details}` : ""}${hint ? `\n\n${hint}` : ""}\n\n${releaseLine(release)}`,
      },
    ],
    _meta: { [RELEASE_META]: release },
  };
}

/**
 * Answers of tools whose row is pure (its answer depends only on the catalogue and the input), kept
 * as the API's route keeps the rows' (sidecar/routes/api.ts): per catalogue and text host, by
 * bytes. Lifecycle (today's date) and saved lists (the store) are computed every time.
 */
const KEPT_BYTES = 8 * 1024 * 1024;
const kept = new WeakMap<object, LRUCache<string, { result: CallToolResult; bytes: number }>>();

function keptFor(context: ToolContext) {
  let cache = kept.get(context.catalogue);
  if (!cache) {
    cache = new LRUCache({ maxSize: KEPT_BYTES, sizeCalculation: (value, key) => value.bytes + key.length });
    kept.set(context.catalogue, cache);
  }
  return cache;
}

async function callTool(context: ToolContext, spec: ToolSpec, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    if (spec.name === "get_saved_list" && context.listsUnavailable)
      throw new HttpError(503, "Saved lists unavailable", context.listsUnavailable);
    const request = spec.request(args, context.catalogue);
    const row = context.table.find((candidate) => candidate.operationId === request.operationId);
    // The row's own bucket (strict for policies, relaxed for exit plans) counts the call as the API would.
    if (row?.bucket && row.bucket !== "mcp") await context.countIn?.(row.bucket);
    // A saved-list read over MCP counts in the row's miss bucket found or not: the refusal that
    // follows a client's misses over HTTP is kept on the main thread, so here every read counts,
    // and a 429 can never tell a guessed slug that exists from one that does not.
    if (row?.missBucket) await context.countIn?.(row.missBucket);
    const pure = row?.pure === true;
    const key = `${context.urls.textUrl}\0${spec.name}\0${JSON.stringify(args)}`;
    const hit = pure ? keptFor(context).get(key) : undefined;
    if (hit) return hit.result;
    const result = await computeTool(context, spec, args, request);
    // A refusal is cheap to make again and says nothing worth keeping.
    if (pure && !result.isError) keptFor(context).set(key, { result, bytes: JSON.stringify(result).length });
    return result;
  } catch (error) {
    if (error instanceof UnknownIdsError) return toolError(context, error, nearestSlugs(context.catalogue, error.ids));
    if (isHttpError(error)) return toolError(context, error);
    throw error;
  }
}

async function computeTool(
  context: ToolContext,
  spec: ToolSpec,
  args: Record<string, unknown>,
  request: ReturnType<ToolSpec["request"]>,
): Promise<CallToolResult> {
  let answer;
  try {
    answer = await runRow(context, request);
  } catch (error) {
    // One service asked by slug and not found: the nearest slugs beside the API's 404.
    if (isHttpError(error) && error.statusCode === 404 && spec.name === "get_service")
      return toolError(context, error, nearestSlugs(context.catalogue, [String(args.slug)]));
    throw error;
  }
  const json = "json" in answer ? answer.json : { text: answer.text, contentType: answer.contentType };
  const structured = (spec.fit ? spec.fit(json as never, args, context.catalogue) : json) as Record<string, unknown>;
  return {
    structuredContent: structured,
    content: [{ type: "text", text: toolText(context.catalogue, spec.name, structured) }, ...resourceLinks(structured)],
    _meta: { [RELEASE_META]: catalogueRelease(context.catalogue) },
  };
}

/** Room a part keeps for the words around its slice of JSON and its structured content. */
const PART_FRAME = 1_000;

/** Where a part from `start` ends so that, escaped in a JSON string as it is sent, it is at most `budget` long. */
function partEnd(whole: string, start: number, budget: number): number {
  let end = Math.min(whole.length, start + budget);
  for (let over = JSON.stringify(whole.slice(start, end)).length - budget; over > 0;) {
    end -= Math.ceil(over / 2) + 1;
    over = JSON.stringify(whole.slice(start, end)).length - budget;
  }
  return end;
}

/** The answer, or the part of its JSON from `startIndex` when it is longer than `maxLength`. */
function inParts(
  context: ToolContext,
  name: string,
  result: CallToolResult,
  { maxLength = ANSWER_MAX_LENGTH, startIndex = 0 }: { maxLength?: number; startIndex?: number },
): CallToolResult {
  if (result.isError) return result;
  const whole = JSON.stringify(result.structuredContent);
  // As sent: the text inside a JSON string, its quotes and newlines escaped.
  const text = result.content.reduce(
    (sum, part) => sum + (part.type === "text" ? JSON.stringify(part.text).length : 0),
    0,
  );
  if (startIndex === 0 && whole.length + text <= maxLength) return result;
  if (startIndex >= whole.length)
    return toolError(
      context,
      new HttpError(
        400,
        "Invalid arguments",
        `startIndex ${startIndex} is past the end of this answer's JSON (${whole.length} characters)`,
      ),
    );
  const end = partEnd(whole, startIndex, maxLength - PART_FRAME);
  const nextIndex = end < whole.length ? end : null;
  const release = catalogueRelease(context.catalogue);
  const then =
    nextIndex === null
      ? "the last part"
      : `call ${name} again with the same arguments and startIndex: ${nextIndex} for the next part`;
  return {
    structuredContent: { continuation: { startIndex, nextIndex, totalLength: whole.length } },
    content: [
      {
        type: "text",
        text: `Part of a long answer: characters ${startIndex} to ${end} of its ${whole.length} characters of JSON; ${then}. The tool's own size arguments (limit, page, detail) give a shorter whole answer.\n\n${whole.slice(startIndex, end)}\n\n${releaseLine(release)}\n`,
      },
    ],
    _meta: { [RELEASE_META]: release },
  };
}

/**
 * Every tool as the SDK registers it (McpServer.registerTool), made once: a stateless request
 * makes a server, and building the zod schemas (./schemas.ts) is the costly part, not registering.
 */
const REGISTRATIONS = TOOLS.map((spec) => ({
  spec,
  config: {
    title: mcpToolTitle(spec.name),
    description: spec.description,
    inputSchema: toolInput(spec.input),
    outputSchema: toolOutput(spec.output),
    annotations: {
      title: mcpToolTitle(spec.name),
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
}));

/** What a tool that failed on this server's side answers: nothing was checked, nothing is concluded. */
export const TOOL_FAULT_DETAILS =
  "The tool failed on this server's side: nothing was checked, and no answer is implied. Retry, or report the call if it fails again.";

/**
 * A tool's answer to arguments its schema accepted: in parts past maxLength. A fault of this server
 * (an error that is not a refusal) is a tool error in the API's Error shape with status 500, never
 * the protocol's -32603, which a client may take for the tool's verdict (issue 109).
 */
async function answerTool(context: ToolContext, spec: ToolSpec, args: Record<string, unknown>) {
  const { maxLength, startIndex, ...toolArgs } = args as { maxLength?: number; startIndex?: number };
  try {
    return inParts(context, spec.name, await callTool(context, spec, toolArgs), { maxLength, startIndex });
  } catch (error) {
    if (isHttpError(error)) return toolError(context, error);
    console.error(
      `mcp: ${spec.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return toolError(context, new HttpError(500, "Internal server error", TOOL_FAULT_DETAILS));
  }
}

/** tools/call's request as the protocol layer parses it: loose, so that bad params are our -32602, not -32603. */
const LooseCallRequest = z.object({ method: z.literal("tools/call"), params: z.unknown() });
const CallParams = z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() });

/**
 * tools/list as McpServer makes it from the registered tools (the SDK's own converter and
 * fields), made once: the SDK converts their zod schemas again on every call (POST /mcp
 * tools/list measured 24 ms so, 4 ms with the list kept), and a stateless client lists them in
 * every session. The tools are REGISTRATIONS', the same in
 * every server, so the first server's list is every server's.
 */
let toolList: Tool[] | undefined;

/**
 * The tools the SDK registered, listed and called here rather than by McpServer's own handlers:
 * its tools/list (above), and its tools/call, which answers a refused argument or an unknown tool
 * with bare text and params that are not a call with -32603. Here those are a tool error like any
 * other (the API's Error shape and wording, and the release), and bad params -32602.
 */
function answerTools(server: McpServer, context: ToolContext, tools: ReadonlyMap<string, RegisteredTool>) {
  const list = () => ({ tools: (toolList ??= toolListOf(tools)) });
  replaceToolHandlers(server, list, LooseCallRequest, async ({ params }, extra) => {
    const call = CallParams.safeParse(params);
    if (!call.success)
      throw new McpError(
        ErrorCode.InvalidParams,
        "tools/call params must be {name: string, arguments?: object}",
        issueDetails(call.error.issues, "params"),
      );
    const { name, arguments: given = {} } = call.data;
    const tool = tools.get(name);
    if (!tool)
      return toolError(
        context,
        new HttpError(404, "Unknown tool", `No tool is named "${name.slice(0, 100)}"; tools/list names them`),
      );
    // The schema registered is the zod object of ./schemas.ts (toolInput).
    const { input, handler } = toolParts(tool);
    const args = input.safeParse(given);
    if (!args.success) return toolError(context, invalid(wrongTypeFirst(args.error), "arguments"));
    return handler(args.data, extra);
  });
}

/**
 * The issues of an argument of the wrong type, without the checks zod still ran on it: `ids` sent
 * as one string was also told "expected string to have <=10 characters" (issue 101).
 */
function wrongTypeFirst(error: z.ZodError): z.ZodError {
  const wrongType = new Set(
    error.issues.filter((issue) => issue.code === "invalid_type").map((issue) => JSON.stringify(issue.path)),
  );
  const issues = error.issues.filter(
    (issue) => issue.code === "invalid_type" || !wrongType.has(JSON.stringify(issue.path)),
  );
  return new z.ZodError(issues);
}

/**
 * One JSON Schema validator for every server: each McpServer would make its own Ajv instance
 * (half the cost of a stateless request, which makes a server per request); this server never
 * asks a client for input (elicitation), the only use the SDK makes of it.
 */
const JSON_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

export function catalogueMcpServer(context: ToolContext): McpServer {
  const server = new McpServer(
    {
      name: SERVER_NAME,
      title: "Cloud Services Catalogue",
      version: API_VERSION,
      websiteUrl: context.urls.textUrl,
      icons: [{ src: ICON, mimeType: "image/svg+xml", sizes: ["any"] }],
    },
    { jsonSchemaValidator: JSON_SCHEMA_VALIDATOR, instructions: instructionsFor(context.catalogue) },
  );
  const tools = new Map(
    REGISTRATIONS.map(({ spec, config }) => [
      spec.name,
      server.registerTool(spec.name, config, (args: Record<string, unknown>) => answerTool(context, spec, args)),
    ]),
  );
  answerTools(server, context, tools);
  registerResources(server, context);
  registerPrompts(server, context);
  // What is true: the lists never change while a server runs (a new catalogue is a new server).
  server.server.registerCapabilities({
    tools: { listChanged: false },
    resources: { listChanged: false },
    prompts: { listChanged: false },
  });
  return server;
}
