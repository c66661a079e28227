/**
 * Every use this project makes of the MCP SDK beyond its documented API, in one file: the
 * converter McpServer lists tools with, the handler a registered tool keeps, and replacing
 * McpServer's own tools/list and tools/call handlers (./server.ts says why). An SDK upgrade that
 * changes one of them fails tests/mcp/sdk-adapter.test.ts, which is pinned to SDK_VERSION.
 */
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { toJsonSchemaCompat } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";
import type { AnyObjectSchema } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";

/** The SDK version these uses were read from (package-lock.json); the adapter's test holds the installed one to it. */
export const SDK_VERSION = "1.32.2";

export type ToolHandler = (args: Record<string, unknown>, extra: unknown) => Promise<CallToolResult>;

/** tools/list's entries as McpServer makes them from its registered tools (its converter and fields). */
export const toolListOf = (tools: ReadonlyMap<string, RegisteredTool>): Tool[] =>
  [...tools].map(([name, tool]) => ({
    name,
    title: tool.title,
    description: tool.description,
    inputSchema: toJsonSchemaCompat(tool.inputSchema as AnyObjectSchema, {
      pipeStrategy: "input",
    }) as Tool["inputSchema"],
    outputSchema: toJsonSchemaCompat(tool.outputSchema as AnyObjectSchema, {
      pipeStrategy: "output",
    }) as Tool["outputSchema"],
    annotations: tool.annotations,
    execution: tool.execution,
  }));

/** A registered tool's input schema (the zod object it was registered with) and its handler. */
export const toolParts = (tool: RegisteredTool) => ({
  input: tool.inputSchema as z.ZodType<Record<string, unknown>>,
  handler: tool.handler as ToolHandler,
});

/**
 * Replaces McpServer's handlers of tools/list and tools/call (it registers both when a tool is
 * registered); `callRequest` is the schema the call handler is registered for.
 */
export function replaceToolHandlers<Call extends z.ZodObject<{ method: z.ZodLiteral<"tools/call"> }>>(
  server: McpServer,
  list: () => { tools: Tool[] },
  callRequest: Call,
  call: (request: z.infer<Call>, extra: unknown) => Promise<CallToolResult>,
): void {
  server.server.removeRequestHandler("tools/list");
  server.server.setRequestHandler(ListToolsRequestSchema, list);
  server.server.removeRequestHandler("tools/call");
  server.server.setRequestHandler(callRequest, call);
}
