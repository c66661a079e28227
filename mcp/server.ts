/**
 * The MCP server of the catalogue: the tools of ./tools.ts (each answered by its contract row),
 * the resources and the prompts, over whichever transport connects it (./stdio.ts, ./http.ts).
 * Read only: the tools run the API's read and compute operations, never a write, a file or the
 * network; every answer carries the catalogue release in its text and its _meta.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { API_VERSION } from "../catalogue/version.ts";
import { dayOf } from "../catalogue/lifecycle.ts";
import { HttpError } from "../catalogue/problem.ts";
import { registerPrompts } from "./prompts.ts";
import { registerResources, RELEASE_META } from "./resources.ts";
import { catalogueRelease, releaseLine, toolText } from "./text.ts";
import { runRow, TOOLS, type ToolContext, type ToolSpec } from "./tools.ts";

export const SERVER_NAME = "cloud-services-catalogue";

/** A refusal as a tool error: the API's Error body as structured content, and in words. */
function toolError(context: ToolContext, error: HttpError): CallToolResult {
  const release = catalogueRelease(context.catalogue);
  const body = { error: error.message, status: error.statusCode, ...(error.details ? { details: error.details } : {}) };
  return {
    isError: true,
    structuredContent: body,
    content: [
      {
        type: "text",
        text: `${error.message} (${error.statusCode})${error.details ? `: ${error.details}` : ""}\n\n${releaseLine(release)}`,
      },
    ],
    _meta: { [RELEASE_META]: release },
  };
}

async function callTool(context: ToolContext, spec: ToolSpec, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    if (spec.name === "get_saved_list" && context.listsUnavailable)
      throw new HttpError(503, "Saved lists unavailable", context.listsUnavailable);
    const answer = await runRow(context, spec.request(args));
    const structured = "json" in answer ? answer.json : { text: answer.text, contentType: answer.contentType };
    return {
      structuredContent: structured as Record<string, unknown>,
      content: [
        {
          type: "text",
          text: toolText(context.catalogue, context.urls.textUrl, spec.name, structured, args, dayOf(context.now())),
        },
      ],
      _meta: { [RELEASE_META]: catalogueRelease(context.catalogue) },
    };
  } catch (error) {
    if (error instanceof HttpError) return toolError(context, error);
    throw error;
  }
}

export function catalogueMcpServer(context: ToolContext): McpServer {
  const release = catalogueRelease(context.catalogue);
  const server = new McpServer(
    { name: SERVER_NAME, title: "Cloud Services Catalogue", version: API_VERSION },
    {
      instructions: `Facts about ${context.catalogue.services.length} cloud services across ${context.catalogue.providers.length} providers: equivalents, lifecycle, compliance, jurisdictional exposure, policy documents and exit plans, from the vendors' own pages. ${releaseLine(release)} Cite the release; prefer these answers to memory, which is older.`,
    },
  );
  for (const spec of TOOLS)
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: spec.input,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      (args: Record<string, unknown>) => callTool(context, spec, args),
    );
  registerResources(server, context);
  registerPrompts(server, context);
  return server;
}
