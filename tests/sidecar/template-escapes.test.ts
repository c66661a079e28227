/**
 * Issue 109: a `.tf` holding `bucket = "\UFFFFFFFF"` (or `\U00110000`) reached String.fromCodePoint
 * unchecked and was a 500 on the API, "Something went wrong" on the text host and -32603 over MCP.
 * The reader now refuses it as a template error (catalogue/templates/hcl.ts): each face answers
 * its "invalid template" naming the file, line and column. And a crash is never a verdict: a fault
 * of the server is the API's 500, and over MCP a tool error in the Error shape, not a protocol error.
 */
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { TOOL_FAULT_DETAILS } from "../../mcp/server.ts";
import { buildApp } from "../../sidecar/app.ts";
import { build, expectError, postJson, realCatalogue, tempStore, URLS } from "../helpers/app.ts";
import { buildText } from "../helpers/text-app.ts";

const ESCAPES = [
  ["\\UFFFFFFFF", "U+FFFFFFFF"],
  ["\\U00110000", "U+00110000"],
] as const;

/** A Terraform bucket named with `escape`, the string starting at line 2, column 12 (its escape at 13). */
const terraform = (escape: string) => `resource "aws_s3_bucket" "logs" {\n  bucket = "${escape}"\n}\n`;

const MCP_HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };
const checkDeployment = (template: string) => ({
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name: "check_deployment", arguments: { template, approvedServiceIds: ["aws-s3"] } },
});

describe("an HCL escape UTF-8 cannot encode", () => {
  it.each(ESCAPES)(
    "%s is a 400 naming file, line and column on the API, as .tf files and as a template",
    async (escape, code) => {
      const app = await build();
      const asFiles = await app.inject(
        postJson("/v1/deployments/check", { approvedServiceIds: ["aws-s3"], files: { "main.tf": terraform(escape) } }),
      );
      const refused = expectError(asFiles, 400);
      expect(refused.error).toBe("Invalid template");
      expect(refused.details).toMatch(
        new RegExp(`^main\\.tf, line 2, column 13: .*${code.replace("+", "\\+")} cannot be encoded`),
      );
      const asText = await app.inject(
        postJson("/v1/deployments/check", { approvedServiceIds: ["aws-s3"], template: terraform(escape) }),
      );
      expect(expectError(asText, 400).details).toMatch(/^the template, line 2, column 13: /);
    },
  );

  it.each(ESCAPES)("%s is the text host's 400 naming line and column, in the request's rendering", async (escape) => {
    const text = await buildText();
    const answer = await text.inject({
      method: "POST",
      url: "/deployments/check?ids=aws-s3&color=never",
      headers: { "content-type": "text/plain", accept: "text/plain" },
      payload: terraform(escape),
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toMatch(/^400 Invalid template\n/);
    // The text is wrapped at the terminal's width.
    expect(answer.body.replace(/\s+/g, " ")).toMatch(/the template, line 2, column 13: .*cannot be encoded/);
    expect(answer.body).not.toMatch(/Something went wrong/);
  });

  it.each(ESCAPES)("%s is an MCP tool error in the Error shape naming line and column", async (escape) => {
    const app = await build();
    const answer = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: MCP_HEADERS,
      payload: checkDeployment(terraform(escape)),
    });
    expect(answer.statusCode).toBe(200);
    const { result, error } = answer.json() as {
      result?: { isError?: boolean; structuredContent?: unknown };
      error?: unknown;
    };
    expect(error).toBeUndefined();
    expect(result?.isError).toBe(true);
    expect(result?.structuredContent).toMatchObject({
      error: "Invalid template",
      status: 400,
      details: expect.stringMatching(/^the template, line 2, column 13: .*cannot be encoded/),
    });
  });
});

describe("a fault of the server", () => {
  /** The contract table with its service search failing as a bug would: not a refusal, a plain Error. */
  const faulty = ENDPOINTS.map((row) =>
    row.operationId === "listServices"
      ? {
          ...row,
          handler: () => {
            throw new TypeError("a bug, not the request");
          },
        }
      : row,
  );
  const app = async () =>
    buildApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: realCatalogue(),
      store: await tempStore(),
      urls: URLS,
      table: faulty,
    });

  it("is the API's 500 in the Error shape, and a refusal stays the refusal it is", async () => {
    const api = await app();
    const fault = expectError(await api.inject({ url: "/v1/services?q=storage" }), 500);
    expect(fault).toEqual({ error: "Internal server error", status: 500 });
    expectError(await api.inject({ url: "/v1/services?limit=0" }), 400);
    await api.close();
  });

  it("is an MCP tool error in the Error shape with status 500, never the protocol's -32603", async () => {
    const api = await app();
    const answer = await api.inject({
      method: "POST",
      url: "/mcp",
      headers: MCP_HEADERS,
      payload: {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "search_services", arguments: { query: "storage" } },
      },
    });
    await api.close();
    expect(answer.statusCode).toBe(200);
    const { result, error } = answer.json() as {
      result?: { isError?: boolean; structuredContent?: unknown };
      error?: unknown;
    };
    expect(error).toBeUndefined();
    expect(result?.isError).toBe(true);
    expect(result?.structuredContent).toEqual({
      error: "Internal server error",
      status: 500,
      details: TOOL_FAULT_DETAILS,
    });
  });
});
