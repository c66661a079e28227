/**
 * generate_policy with terraform: true answers the API's .tf for the same request (format=terraform,
 * tests/catalogue/policies-terraform.test.ts), as text/x-hcl in structuredContent.text.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { build } from "../helpers/app.ts";

async function connect() {
  const app = await build();
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  const client = new Client({ name: "terraform", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp`)));
  onTestFinished(() => client.close());
  const call = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: "generate_policy", arguments: args })) as CallToolResult;
  return { app, call };
}

const CASES = [
  { format: "scp", path: "alpha-scp", ids: ["aws-s3", "aws-lambda"] },
  { format: "azure", path: "beta-policy", ids: ["azure-blob-storage"] },
  { format: "gcp", path: "gamma-org-policy", ids: ["gcp-cloud-storage"] },
] as const;

describe("generate_policy terraform", () => {
  it("answers each vendor's .tf as the API does for the same request", async () => {
    const { app, call } = await connect();
    for (const { format, path, ids } of CASES) {
      const result = await call({ format, approvedServiceIds: ids, terraform: true });
      expect(result.isError ?? false, format).toBe(false);
      const api = await app.inject({
        method: "POST",
        url: `/v1/policies/${path}?format=terraform`,
        headers: { "content-type": "application/json" },
        payload: JSON.stringify({ approvedServiceIds: ids }),
      });
      expect(api.statusCode).toBe(200);
      expect(result.structuredContent, format).toEqual({ text: api.body, contentType: "text/x-hcl; charset=utf-8" });
    }
  });

  it("is a tool error with explain, as the API's 400", async () => {
    const { call } = await connect();
    const result = await call({ format: "gcp", approvedServiceIds: ["gcp-gke"], terraform: true, explain: true });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.structuredContent)).toMatch(/explain=true answers JSON/);
  });
});
