/**
 * Search dead ends on the text host and over MCP (issue 101): a product the catalogue does not list
 * is answered with its kind's services and said so, linking the kind; a word nothing knows is said
 * to be unknown. (The site's page: tests/site/text-browsers.test.ts and browser-phone-answers.test.ts.)
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { build, realCatalogue, tempStore, URLS } from "../helpers/app.ts";

async function textApp() {
  const app = await buildTextApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: realCatalogue(),
    store: await tempStore(),
    perMinute: 10_000,
    urls: URLS,
  });
  onTestFinished(() => app.close());
  return app;
}

describe("the text host's /search at a dead end", () => {
  it("says Snowflake is not in the catalogue and links the data warehouses it shows instead", async () => {
    const app = await textApp();
    const response = await app.inject({
      url: "/search?q=alternatief%20voor%20Snowflake",
      headers: { accept: "text/markdown" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(
      "Snowflake is not in the catalogue; shown instead, the services of its kind: [Data warehouses](/equivalents/data-warehouse).",
    );
    expect(response.body).toContain("[Amazon Redshift](/aws/redshift)");
  });

  it("says a word nothing knows is not known", async () => {
    const app = await textApp();
    const response = await app.inject({
      url: "/search?q=alternative%20to%20xyzzyqwerty",
      headers: { accept: "text/plain" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("No service has: xyzzyqwerty; the catalogue does not know what that is.");
  });
});

describe("MCP search_services at a dead end", () => {
  it("answers search.otherProduct with the kinds, and the kinds' services", async () => {
    const app = await build();
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp`)));
    onTestFinished(() => client.close());
    const result = (await client.callTool({
      name: "search_services",
      arguments: { query: "alternative to Vercel" },
    })) as unknown as {
      structuredContent: {
        data: { slug: string }[];
        search: { otherProduct?: { name: string; kinds: { id: string }[] } };
      };
    };
    expect(result.structuredContent.search.otherProduct).toMatchObject({
      name: "Vercel",
      kinds: [{ id: "static-site-hosting" }, { id: "edge-functions" }],
    });
    expect(result.structuredContent.data.map(({ slug }) => slug)).toContain("azure-static-web-apps");
  });
});
