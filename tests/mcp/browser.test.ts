/**
 * A web assistant on another origin drives POST /mcp with the SDK's own client in Debian's
 * chromium (playwright-core): the preflight lets Mcp-Protocol-Version through, so tools/list and
 * tools/call work after initialize; a page on an origin the server does not allow is refused.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { build as bundle } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/chromium.ts";
import { requireComponent } from "../helpers/components.ts";
import { build } from "../helpers/app.ts";

const executablePath = requireComponent("chromium");

/** The SDK's client and its Streamable HTTP transport as one script a page loads. */
async function clientBundle(): Promise<string> {
  const result = await bundle({
    stdin: {
      contents: `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
window.mcpAsk = async (url) => {
  const client = new Client({ name: "browser-assistant", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  const search = await client.callTool({ name: "search_services", arguments: { query: "object storage", provider: "amazon", limit: 3 } });
  await client.close();
  return { tools, protocol: client.transport?.protocolVersion ?? null, slugs: search.structuredContent.data.map((s) => s.slug) };
};`,
      resolveDir: process.cwd(),
      loader: "js",
    },
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
  });
  return result.outputFiles[0]!.text;
}

/** A page server on its own port: another origin than the API. */
async function pageServer(script: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    if (request.url === "/client.js") {
      response.writeHead(200, { "content-type": "text/javascript" }).end(script);
      return;
    }
    response
      .writeHead(200, { "content-type": "text/html" })
      .end('<!doctype html><title>assistant</title><script src="/client.js"></script>');
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.skipIf(!executablePath)("POST /mcp from a browser page on another origin", () => {
  let browser: Browser;
  let page: { server: Server; origin: string };
  beforeAll(async () => {
    page = await pageServer(await clientBundle());
    browser = await launchChromium(executablePath!, {
      // The refused page is "public" (assistant.example) and the API loopback: let the request
      // reach the server, as it would in a DNS-rebinding attack, so the server's refusal is tested.
      disableFeatures: [
        "PrivateNetworkAccessSendPreflights",
        "PrivateNetworkAccessRespectPreflightResults",
        "BlockInsecurePrivateNetworkRequests",
        "LocalNetworkAccessChecks",
      ],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => page?.server.close(done));
  });

  async function ask(apiOrigin: string, pageUrl: string) {
    const tab = await browser.newPage();
    try {
      await tab.goto(pageUrl);
      await tab.waitForFunction(() => "mcpAsk" in window);
      return await tab.evaluate(
        (url) =>
          (window as unknown as { mcpAsk: (url: string) => Promise<unknown> })
            .mcpAsk(url)
            .catch((error: Error) => ({ error: error.message })),
        `${apiOrigin}/mcp`,
      );
    } finally {
      await tab.close();
    }
  }

  it("connects, lists the tools and calls one with the SDK client, across origins", async () => {
    const app = await build({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined, MCP_ALLOWED_ORIGINS: ["http://localhost:1"] },
    });
    const api = await app.listen({ port: 0, host: "127.0.0.1" });
    // The page at 127.0.0.1:<its port>, the API at localhost:<another>: two origins.
    const answer = (await ask(api.replace("127.0.0.1", "localhost"), page.origin)) as Record<string, unknown>;
    expect(answer.error).toBeUndefined();
    expect(answer.tools).toContain("search_services");
    expect((answer.slugs as string[]).every((slug) => slug.startsWith("aws-"))).toBe(true);
  });

  it("is refused from a page whose origin the server does not allow", async () => {
    const app = await build();
    const statuses: number[] = [];
    app.addHook("onResponse", async (request, reply) => {
      if (request.method === "POST" && request.url === "/mcp") statuses.push(reply.statusCode);
    });
    const api = await app.listen({ port: 0, host: "127.0.0.1" });
    // The same page under a name that is neither loopback nor allowed (as DNS rebinding would give).
    const tab = await browser.newPage();
    await tab.route("http://assistant.example/**", async (route) => {
      const response = await fetch(`${page.origin}${new URL(route.request().url()).pathname}`);
      await route.fulfill({
        status: 200,
        body: await response.text(),
        contentType: response.headers.get("content-type") ?? "",
      });
    });
    await tab.goto("http://assistant.example/");
    await tab.waitForFunction(() => "mcpAsk" in window);
    const answer = (await tab.evaluate(
      (url) =>
        (window as unknown as { mcpAsk: (url: string) => Promise<unknown> })
          .mcpAsk(url)
          .catch((error: Error) => ({ error: error.message })),
      `${api}/mcp`,
    )) as Record<string, unknown>;
    await tab.close();
    expect(answer.error).toBeDefined();
    // The server saw the page's request and refused it.
    expect(statuses).toEqual([403]);
  });
});
