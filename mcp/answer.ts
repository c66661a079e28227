/**
 * The MCP server as the /mcp row receives it (OperationContext.answerMcp): the SDK is imported on
 * the first request, so a process that never answers one never loads it.
 */
import type { McpAnswerer } from "../catalogue/contract/endpoint.ts";

// import() resolves its specifier again on every call: once is enough.
let http: Promise<typeof import("./http.ts")> | undefined;

export const answerMcp: McpAnswerer = async (context, body, headers) =>
  (await (http ??= import("./http.ts"))).answerMcp(context, body, headers);
