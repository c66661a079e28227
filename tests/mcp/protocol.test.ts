/**
 * POST /mcp as browsers and strict clients meet it: CORS for the MCP headers, Origin and Host
 * checked (DNS rebinding) with the MCP_ALLOWED_ORIGINS allow-list, Accept: *\/*, the JSON-RPC
 * error codes, the capabilities and protocol revision offered, and the ids a model guesses.
 */
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { loadConfig } from "../../sidecar/config.ts";
import { MAX_JSON_DEPTH } from "../../catalogue/base/limits.ts";
import { HeavyWorker } from "../../sidecar/worker/pool.ts";
import { nestsDeeperThan } from "../../catalogue/base/nesting.ts";
import { build, realCatalogue, tempStore, URLS, workerCatalogueSource } from "../helpers/app.ts";

const QUIET = { LOG_LEVEL: "silent", TRUST_PROXY: undefined } as const;
const HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };
const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "t", version: "1" } },
};
/** An MCP initialize POSTed to `app` with these headers beside the MCP ones, at `url`. */
const initializeOn = (app: FastifyInstance, headers: Record<string, string>, url = "/mcp") =>
  app.inject({ method: "POST", url, headers: { ...HEADERS, ...headers }, payload: initialize });
const callTool = (name: string, args: unknown, id = 2) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

describe("POST /mcp for browsers and strict clients", () => {
  it("lets a browser send and read the MCP headers (CORS)", async () => {
    const app = await build({ config: { ...QUIET, MCP_ALLOWED_ORIGINS: ["https://assistant.example"] } });
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/mcp",
      headers: {
        origin: "https://assistant.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, mcp-protocol-version, mcp-session-id, last-event-id",
      },
    });
    expect(preflight.statusCode).toBe(204);
    const allowed = String(preflight.headers["access-control-allow-headers"]).toLowerCase();
    for (const header of ["mcp-protocol-version", "mcp-session-id", "last-event-id"]) expect(allowed).toContain(header);
    const answer = await initializeOn(app, { origin: "https://assistant.example" });
    expect(answer.statusCode).toBe(200);
    expect(String(answer.headers["access-control-expose-headers"]).toLowerCase()).toContain("mcp-protocol-version");
  });

  it("reads MCP_ALLOWED_ORIGINS as a comma-separated list of origins or *", () => {
    expect(
      loadConfig({ MCP_ALLOWED_ORIGINS: "https://a.example/, http://b.example:3000,*" }).MCP_ALLOWED_ORIGINS,
    ).toEqual(["https://a.example", "http://b.example:3000", "*"]);
    expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: "ftp://a.example" })).toThrow(/MCP_ALLOWED_ORIGINS/);
  });

  it("refuses a foreign Origin or Host with 403 in the Error shape, and allows loopback and listed ones", async () => {
    const app = await build();
    const evil = await initializeOn(app, { host: "evil.example.com", origin: "http://evil.example.com" });
    expect(evil.statusCode).toBe(403);
    expect(evil.json()).toMatchObject({
      error: "Forbidden",
      status: 403,
      details: expect.stringContaining("MCP_ALLOWED_ORIGINS"),
    });
    const foreignOrigin = await initializeOn(app, { host: "127.0.0.1:8080", origin: "https://elsewhere.example" });
    expect(foreignOrigin.statusCode).toBe(403);
    const rebound = await initializeOn(app, { host: "evil.example.com" });
    expect(rebound.statusCode).toBe(403);
    for (const [host, origin] of [
      ["127.0.0.1:8080", "http://127.0.0.1:8080"],
      ["localhost:3000", "http://localhost:5173"],
      ["[::1]:8080", undefined],
      ["api.test", "http://text.test"],
    ] as const) {
      const ok = await initializeOn(app, { host, ...(origin ? { origin } : {}) });
      expect(ok.statusCode, `${host} ${origin}`).toBe(200);
    }
    // Other routes keep their open CORS: only /mcp is checked.
    const other = await app.inject({ url: "/v1/providers", headers: { origin: "https://elsewhere.example" } });
    expect(other.statusCode).toBe(200);
    const open = await build({ config: { ...QUIET, MCP_ALLOWED_ORIGINS: ["*"] } });
    const anyOrigin = await initializeOn(open, { host: "mcp.example.org", origin: "https://elsewhere.example" });
    expect(anyOrigin.statusCode).toBe(200);
  });

  it("guards every spelling of the /mcp path the router decodes", async () => {
    const app = await build();
    for (const url of ["/%6dcp", "/%6Dcp", "/mc%70", "/%6d%63%70", "/mcp/", "/%6dcp/", "/mcp?x=1", "/%6dcp?x=1"]) {
      const evil = await initializeOn(app, { host: "127.0.0.1:8080", origin: "http://evil.example" }, url);
      expect(evil.statusCode, url).toBe(403);
      expect(evil.json().error, url).toBe("Forbidden");
      const own = await initializeOn(app, { host: "127.0.0.1:8080" }, url);
      expect(own.statusCode, url).toBe(200);
    }
    // Mixed case is another path: no route, so no session either.
    const upper = await initializeOn(app, { host: "127.0.0.1:8080", origin: "http://evil.example" }, "/MCP");
    expect(upper.statusCode).toBe(404);
  });

  it("accepts */*, offers the SDK's newest revision and claims no list changes", async () => {
    const app = await build();
    const answer = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: { "content-type": "application/json", accept: "*/*" },
      payload: initialize,
    });
    expect(answer.statusCode).toBe(200);
    const result = answer.json().result;
    expect(result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(result.capabilities.tools).toEqual({ listChanged: false });
    expect(result.capabilities.resources?.listChanged).toBe(false);
    expect(result.capabilities.prompts?.listChanged).toBe(false);
    expect(result.serverInfo.websiteUrl).toBe("http://text.test");
    expect(result.serverInfo.icons[0].src).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(result.instructions).toMatch(/Provider ids.*\baws\b.*\bovhcloud\b/);
    expect(result.instructions).toMatch(/Category ids.*\bsecurity-identity\b/);
  });

  it("answers params that are not a call with -32602, and every tool lists an outputSchema", async () => {
    const app = await build();
    const post = (payload: object) => app.inject({ method: "POST", url: "/mcp", headers: HEADERS, payload });
    for (const args of [null, "text", [1]]) {
      const answer = await post(callTool("get_service", args));
      expect(answer.json().error?.code, JSON.stringify(args)).toBe(-32602);
    }
    const list = (await post({ jsonrpc: "2.0", id: 3, method: "tools/list" })).json().result;
    for (const tool of list.tools) expect(tool.outputSchema?.type, tool.name).toBe("object");
  });

  it("answers a JSON-RPC batch under protocol 2025-03-26 and refuses one under later revisions", async () => {
    // Through the worker thread, as the sidecar answers /mcp with a built catalogue.
    const app = await build({ catalogueSource: workerCatalogueSource() });
    const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
    const old = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: { ...HEADERS, "mcp-protocol-version": "2025-03-26" },
      payload: [ping(1), callTool("get_service", { slug: "aws-s3" }, 2)],
    });
    expect(old.statusCode).toBe(200);
    const answers = old.json() as { id: number; result: Record<string, unknown> }[];
    expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2]);
    expect(answers.find((answer) => answer.id === 2)!.result.structuredContent).toMatchObject({ slug: "aws-s3" });
    const newer = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: { ...HEADERS, "mcp-protocol-version": LATEST_PROTOCOL_VERSION },
      payload: [ping(1), ping(2)],
    });
    expect(newer.statusCode).toBe(400);
    expect(newer.json()).toMatchObject({ status: 400, details: expect.stringContaining("2025-03-26") });
  });

  it("refuses arguments nested past the bound with 400 before the worker, and the worker's own check", async () => {
    const app = await build({ catalogueSource: workerCatalogueSource() });
    const deepText = `${"[".repeat(6000)}${"]".repeat(6000)}`;
    const deep = JSON.parse(deepText) as unknown;
    // Written by hand: JSON.stringify itself recurses.
    const call = JSON.stringify(callTool("exit_plan", { approvedServiceIds: ["aws-s3"], to: { providers: 0 } }));
    const answer = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: HEADERS,
      payload: call.replace('"providers":0', `"providers":${deepText}`),
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      error: "Invalid body",
      status: 400,
      details: expect.stringMatching(/nested/),
    });
    // The worker's check stands alone too: whatever builds the input, it is refused before postMessage.
    const worker = new HeavyWorker({}, URLS, await tempStore());
    await expect(worker.run("planExit", { body: deep }, new Date())).rejects.toMatchObject({ statusCode: 400 });
    await worker.close();
    expect(nestsDeeperThan(deep, MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan({ a: [{ b: [1] }] }, 4)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: [1] }] }, 3)).toBe(true);
  });

  it("completes prompt arguments: a slug, a provider id, the last item of a slug list", async () => {
    const app = await build();
    const complete = async (name: string, argument: string, value: string) =>
      (
        await app.inject({
          method: "POST",
          url: "/mcp",
          headers: HEADERS,
          payload: {
            jsonrpc: "2.0",
            id: 9,
            method: "completion/complete",
            params: { ref: { type: "ref/prompt", name }, argument: { name: argument, value } },
          },
        })
      ).json().result.completion.values as string[];
    expect(await complete("find_equivalent", "service", "aws-s")).toContain("aws-s3");
    expect(await complete("find_equivalent", "provider", "ovh")).toEqual(["ovhcloud"]);
    const list = await complete("plan_exit", "serviceIds", "aws-s3,aws-lam");
    expect(list).toContain("aws-s3,aws-lambda");
    expect(list.every((value) => value.startsWith("aws-s3,aws-lam"))).toBe(true);
  });

  it("says how many completions there are and that more exist past MCP's 100 (issue 126: total 50, no more, of 277)", async () => {
    const app = await build();
    const complete = async (ref: object, argument: string, value: string) =>
      (
        await app.inject({
          method: "POST",
          url: "/mcp",
          headers: HEADERS,
          payload: {
            jsonrpc: "2.0",
            id: 10,
            method: "completion/complete",
            params: { ref, argument: { name: argument, value } },
          },
        })
      ).json().result.completion as { values: string[]; total?: number; hasMore?: boolean };
    const aws = realCatalogue().services.filter((service) => service.slug.startsWith("aws-")).length;
    expect(aws).toBeGreaterThan(100);
    for (const [ref, argument] of [
      [{ type: "ref/prompt", name: "find_equivalent" }, "service"],
      [{ type: "ref/resource", uri: "catalogue://services/{slug}" }, "slug"],
    ] as const) {
      const completion = await complete(ref, argument, "aws-");
      expect(completion.values).toHaveLength(100);
      expect(completion.total).toBe(aws);
      expect(completion.hasMore).toBe(true);
    }
    const few = await complete({ type: "ref/prompt", name: "find_equivalent" }, "service", "aws-s3");
    expect(few.hasMore).toBe(false);
    expect(few.total).toBe(few.values.length);
  });

  it("resolves the provider and category names a model guesses, and refuses the rest with the ids", async () => {
    const app = await build();
    const post = async (name: string, args: object) =>
      (await app.inject({ method: "POST", url: "/mcp", headers: HEADERS, payload: callTool(name, args) })).json()
        .result;
    for (const [name, id] of [
      ["amazon", "aws"],
      ["AWS", "aws"],
      ["Google Cloud", "gcp"],
      ["google", "gcp"],
      ["Microsoft", "azure"],
      ["OVH", "ovhcloud"],
      ["digital-ocean", "digitalocean"],
      ["open-telekom-cloud", "otc"],
      ["Open Telekom Cloud", "otc"],
      ["oracle", "oci"],
    ]) {
      const search = await post("search_services", { query: "object storage", provider: name });
      expect(search.isError ?? false, name).toBe(false);
      expect(search.structuredContent.data.length, name).toBeGreaterThan(0);
      expect(new Set(search.structuredContent.data.map((s: { providerId: string }) => s.providerId)), name).toEqual(
        new Set([id]),
      );
      const lifecycle = await post("lifecycle_upcoming", { provider: name });
      expect(lifecycle.isError ?? false, name).toBe(false);
    }
    const identity = await post("search_services", { category: "identity" });
    expect(identity.structuredContent.data.every((s: { category: string }) => s.category === "security-identity")).toBe(
      true,
    );
    // Unknown: the same refusal from both tools, with the ids.
    const unknown = await post("search_services", { provider: "amazn web servces inc" });
    const unknownLifecycle = await post("lifecycle_upcoming", { provider: "amazn web servces inc" });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toEqual(unknownLifecycle.structuredContent);
    expect(unknown.structuredContent.details).toContain("aws, azure");
    const slug = await post("get_service", { slug: "aws-s4" });
    expect(slug.isError).toBe(true);
    expect(slug.content[0].text).toMatch(/did you mean .*aws-s3/);
  });
});
