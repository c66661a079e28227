/**
 * An MCP tool's whole structured answer, however many parts it came in: an answer past the budget
 * (mcp/server.ts, ANSWER_MAX_LENGTH) comes as text parts of its JSON, each with the startIndex of
 * the next (structuredContent.continuation); this asks each part in turn and parses the whole.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** The JSON slice a part's text carries, between its first line and its release line. */
const slice = (result: CallToolResult): string =>
  /\n\n([\s\S]*)\n\n[^\n]*\n$/.exec(
    result.content.map((part) => (part.type === "text" ? part.text : "")).join(""),
  )?.[1] ?? "";

export async function wholeAnswer<T>(
  call: (args: Record<string, unknown>) => Promise<CallToolResult>,
  args: Record<string, unknown>,
): Promise<{ answer: T; parts: number }> {
  const first = await call(args);
  if (first.isError) throw new Error(`the tool answered an error: ${JSON.stringify(first.content)}`);
  const continuation = (first.structuredContent as { continuation?: { nextIndex: number | null } } | undefined)
    ?.continuation;
  if (!continuation) return { answer: first.structuredContent as T, parts: 1 };
  let json = slice(first);
  let next = continuation.nextIndex;
  let parts = 1;
  while (next !== null) {
    const part = await call({ ...args, startIndex: next });
    json += slice(part);
    next = (part.structuredContent as { continuation: { nextIndex: number | null } }).continuation.nextIndex;
    parts++;
  }
  return { answer: JSON.parse(json) as T, parts };
}
