/**
 * The SDK's internals mcp/sdk-adapter.ts relies on, pinned to the version it was written against:
 * an upgrade of @modelcontextprotocol/sdk fails here first, naming what changed.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { replaceToolHandlers, SDK_VERSION, toolListOf, toolParts } from "../../mcp/sdk-adapter.ts";

const installed = (
  JSON.parse(
    readFileSync(new URL("../../node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url), "utf8"),
  ) as { version: string }
).version;

function serverWithTool() {
  const server = new McpServer({ name: "adapter-test", version: "1.0.0" });
  const input = z.object({ word: z.string().max(10) });
  const tool = server.registerTool(
    "echo",
    { description: "Echoes a word", inputSchema: input, outputSchema: z.object({ word: z.string() }) },
    async ({ word }) => ({ content: [{ type: "text", text: word }], structuredContent: { word } }),
  );
  return { server, tool, tools: new Map([["echo", tool]]) };
}

async function connected(server: McpServer) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "adapter-test-client", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

describe(`the MCP SDK's internals the adapter uses (written for ${SDK_VERSION})`, () => {
  it("is the SDK version the adapter was written for: read sdk-adapter.ts against the new one, then move the pin", () => {
    expect(installed).toBe(SDK_VERSION);
  });

  it("lists a registered tool exactly as McpServer's own tools/list does", async () => {
    const { server, tools } = serverWithTool();
    const client = await connected(server);
    const own = await client.listTools();
    expect(toolListOf(tools)).toEqual(own.tools);
    await client.close();
  });

  it("keeps a registered tool's zod input and handler where the adapter reads them", async () => {
    const { tool } = serverWithTool();
    const { input, handler } = toolParts(tool);
    expect(input.safeParse({ word: "hello" }).success).toBe(true);
    expect(input.safeParse({ word: "far too long a word" }).success).toBe(false);
    expect(await handler({ word: "hi" }, {})).toMatchObject({ structuredContent: { word: "hi" } });
  });

  it("replaces McpServer's tools/list and tools/call with the adapter's", async () => {
    const { server, tools } = serverWithTool();
    const CallRequest = z.object({ method: z.literal("tools/call"), params: z.unknown() });
    replaceToolHandlers(
      server,
      () => ({ tools: toolListOf(tools).map((tool) => ({ ...tool, title: "Replaced" })) }),
      CallRequest,
      async () => ({
        content: [{ type: "text", text: "answered by the replacement" }],
      }),
    );
    const client = await connected(server);
    expect((await client.listTools()).tools.map((tool) => tool.title)).toEqual(["Replaced"]);
    const answer = await client.request(
      { method: "tools/call", params: { name: "echo", arguments: { word: "x" } } },
      z.object({ content: z.array(z.object({ text: z.string() })) }),
    );
    expect(answer.content[0]?.text).toBe("answered by the replacement");
    await client.close();
  });
});
