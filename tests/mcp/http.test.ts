/**
 * POST /mcp as a remote assistant reaches it: the API app listening on a free port, driven by the
 * SDK's own Client over Streamable HTTP. Answers equal the API's (app.inject on the same app);
 * saved lists come from the app's store; the endpoint counts in its own rate-limit bucket.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BUCKETS } from "../../catalogue/base/limits.ts";
import { HeavyWorker } from "../../sidecar/worker/pool.ts";
import { build, realCatalogue, workerCatalogueSource } from "../helpers/app.ts";
import {
  call,
  expectListings,
  expectPrompts,
  expectResources,
  expectSameAsApi,
  expectToolError,
  INVALID,
  VALID,
} from "./shared.ts";

const clients: Client[] = [];
// Registered after helpers/app.ts's afterEach, so it runs first (after-hooks run in reverse): clients close before apps.
afterEach(async () => {
  while (clients.length > 0) await clients.pop()!.close();
});

/** The app on a free port (build() closes it after the test) and a client connected to its /mcp. */
async function connected(): Promise<{ app: FastifyInstance; client: Client }> {
  const app = await build();
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  const client = new Client({ name: "http-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp`)));
  clients.push(client);
  return { app, client };
}

const HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

describe("the MCP server over Streamable HTTP (POST /mcp)", () => {
  it("lists its tools, resource templates, resources and prompts", async () => {
    const { client } = await connected();
    await expectListings(client, realCatalogue());
  });

  it("answers every tool as the API answers the same request", async () => {
    const { app, client } = await connected();
    for (const c of VALID) await expectSameAsApi(client, app, c, realCatalogue());
  });

  it("refuses invalid input with a tool error, the API's Error where it has one, and keeps serving", async () => {
    const { app, client } = await connected();
    for (const c of INVALID) await expectToolError(client, app, c, realCatalogue());
    expect((await call(client, VALID[2]!)).isError ?? false).toBe(false);
  });

  it("reads a saved list from the app's store as GET /v1/lists/{id} does, and 404s an unknown one", async () => {
    const { app, client } = await connected();
    const saved = await app.inject({
      method: "POST",
      url: "/v1/lists",
      payload: { name: "Platform baseline", approvedServiceIds: ["aws-s3", "aws-lambda"] },
    });
    expect(saved.statusCode).toBe(200);
    await expectSameAsApi(
      client,
      app,
      { tool: "get_saved_list", args: { id: "platform-baseline" }, api: { url: "/v1/lists/platform-baseline" } },
      realCatalogue(),
    );
    await expectToolError(
      client,
      app,
      {
        tool: "get_saved_list",
        args: { id: "no-such-list" },
        api: { url: "/v1/lists/no-such-list" },
      },
      realCatalogue(),
    );
  });

  it("reads resources as the API answers them, and refuses unknown ones", async () => {
    const { app, client } = await connected();
    await expectResources(client, app, realCatalogue());
  });

  it("answers the prompts with facts and the release, and refuses unknown ids", async () => {
    const { client } = await connected();
    await expectPrompts(client, realCatalogue());
  });

  it("is stateless: a tool call needs no session, and a notification is accepted empty", async () => {
    const app = await build();
    const call = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: { ...HEADERS, "mcp-protocol-version": "2025-06-18" },
      payload: {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "get_service", arguments: { slug: "aws-s3" } },
      },
    });
    expect(call.statusCode).toBe(200);
    expect(call.headers["mcp-session-id"]).toBeUndefined();
    expect(call.headers["cache-control"]).toBe("no-store");
    expect(call.json().result.structuredContent.slug).toBe("aws-s3");
    const note = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: HEADERS,
      payload: { jsonrpc: "2.0", method: "notifications/initialized" },
    });
    expect(note.statusCode).toBe(202);
    expect(note.body).toBe("");
  });

  it("answers many concurrent calls, each with its own answer", async () => {
    const app = await build();
    const slugs = realCatalogue()
      .services.slice(0, 30)
      .map((service) => service.slug);
    const answers = await Promise.all(
      slugs.map((slug, i) =>
        app.inject({
          method: "POST",
          url: "/mcp",
          headers: HEADERS,
          remoteAddress: `198.51.100.${i}`,
          payload: {
            jsonrpc: "2.0",
            id: i,
            method: "tools/call",
            params: { name: "get_service", arguments: { slug } },
          },
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(slugs.map(() => 200));
    expect(answers.map((answer) => answer.json().result.structuredContent.slug)).toEqual(slugs);
    expect(answers.map((answer) => answer.json().id)).toEqual(slugs.map((_, i) => i));
  });

  it("answers in the worker thread, as the heavy rows are, the same as the API and counted in the row's bucket", async () => {
    const run = vi.spyOn(HeavyWorker.prototype, "run");
    // The worker loads the run's catalogue, as realCatalogue() does, from a build's JSON.
    const app = await build({ catalogueSource: workerCatalogueSource() });
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const client = new Client({ name: "http-worker-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp`)));
    clients.push(client);
    for (const c of VALID.filter((c) => c.tool === "search_services" || c.tool === "exit_plan"))
      await expectSameAsApi(client, app, c, realCatalogue());
    await expectToolError(client, app, INVALID[2]!, realCatalogue());
    // A saved list comes from the main thread's store, through the worker's store calls.
    const saved = await app.inject({
      method: "POST",
      url: "/v1/lists",
      payload: { name: "Worker baseline", approvedServiceIds: ["aws-s3", "aws-sqs"] },
    });
    expect(saved.statusCode).toBe(200);
    await expectSameAsApi(
      client,
      app,
      { tool: "get_saved_list", args: { id: "worker-baseline" }, api: { url: "/v1/lists/worker-baseline" } },
      realCatalogue(),
    );
    expect(run.mock.calls.filter(([operationId]) => operationId === "mcp").length).toBeGreaterThan(2);
    // The worker compresses the answer in the encoding the client accepts: the same JSON.
    const search = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "search_services", arguments: {} } };
    const plain = await app.inject({ method: "POST", url: "/mcp", headers: HEADERS, payload: search });
    for (const encoding of ["br", "gzip"] as const) {
      const packed = await app.inject({
        method: "POST",
        url: "/mcp",
        headers: { ...HEADERS, "accept-encoding": encoding },
        payload: search,
      });
      expect(packed.headers["content-encoding"]).toBe(encoding);
      const unpacked = encoding === "br" ? brotliDecompressSync(packed.rawPayload) : gunzipSync(packed.rawPayload);
      expect(JSON.parse(unpacked.toString())).toEqual(plain.json());
    }
    // The worker asks the main thread to count a strict row's call: past the limit, a tool error.
    const remoteAddress = "192.0.2.88";
    const policyCall = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "generate_policy", arguments: { format: "gcp", approvedServiceIds: ["gcp-bigquery"] } },
    };
    const answers = [];
    for (let i = 0; i <= BUCKETS.strict.max; i++)
      answers.push(
        (
          await app.inject({ method: "POST", url: "/mcp", headers: HEADERS, payload: policyCall, remoteAddress })
        ).json(),
      );
    expect(answers.slice(0, -1).every((answer) => !answer.result.isError)).toBe(true);
    expect(answers.at(-1).result.isError).toBe(true);
    expect(answers.at(-1).result.structuredContent).toMatchObject({ status: 429 });
    expect(JSON.stringify(answers.at(-1).result)).toContain("the strict bucket");
    run.mockRestore();
  }, 120_000);

  it("answers transport errors in the API's Error shape: no stream (405), Accept (406), batches, bad JSON-RPC", async () => {
    const app = await build();
    const get = await app.inject({ method: "GET", url: "/mcp" });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe("POST");
    const accept = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: { "content-type": "application/json" },
      payload: ping(1),
    });
    expect(accept.statusCode).toBe(406);
    expect(accept.json()).toMatchObject({ status: 406, details: expect.stringContaining("text/event-stream") });
    const batch = await app.inject({ method: "POST", url: "/mcp", headers: HEADERS, payload: [ping(1), ping(2)] });
    expect(batch.statusCode).toBe(400);
    const invalid = await app.inject({ method: "POST", url: "/mcp", headers: HEADERS, payload: { jsonrpc: "1.0" } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ error: "Invalid body", status: 400 });
    const text = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: { ...HEADERS, "content-type": "text/plain" },
      payload: "{}",
    });
    expect(text.statusCode).toBe(415);
  });

  it("counts generate_policy in the strict bucket too, so /mcp is no way around the policies' limit", async () => {
    const app = await build();
    const remoteAddress = "192.0.2.77";
    const policyCall = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "generate_policy", arguments: { format: "scp", approvedServiceIds: ["aws-s3"] } },
    });
    for (let i = 0; i < BUCKETS.strict.max; i++) {
      const ok = await app.inject({
        method: "POST",
        url: "/mcp",
        headers: HEADERS,
        payload: policyCall(i),
        remoteAddress,
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().result.isError, JSON.stringify(ok.json().result)).toBeFalsy();
    }
    const limited = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: HEADERS,
      payload: policyCall(99),
      remoteAddress,
    });
    expect(limited.statusCode).toBe(200);
    expect(limited.json().result.isError).toBe(true);
    expect(JSON.stringify(limited.json().result)).toContain("the strict bucket");
    // The same counter as the API's: the policy endpoint is limited for this client now.
    const policy = await app.inject({
      method: "POST",
      url: "/v1/policies/alpha-scp",
      payload: { approvedServiceIds: ["aws-s3"] },
      remoteAddress,
    });
    expect(policy.statusCode).toBe(429);
    // A tool whose row has no bucket of its own is not counted there.
    const search = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: HEADERS,
      payload: {
        jsonrpc: "2.0",
        id: 100,
        method: "tools/call",
        params: { name: "search_services", arguments: { query: "object storage" } },
      },
      remoteAddress,
    });
    expect(search.json().result.isError).toBeFalsy();
  });

  it("counts in its own mcp bucket: the request past the limit is a 429, and the strict bucket is untouched", async () => {
    const app = await build();
    const remoteAddress = "192.0.2.66";
    for (let i = 0; i < BUCKETS.mcp.max; i++) {
      const ok = await app.inject({ method: "POST", url: "/mcp", headers: HEADERS, payload: ping(i), remoteAddress });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers["x-ratelimit-limit"]).toBe(String(BUCKETS.mcp.max));
    }
    const limited = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: HEADERS,
      payload: ping(0),
      remoteAddress,
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().details).toContain("the mcp bucket");
    const policy = await app.inject({
      method: "POST",
      url: "/v1/policies/alpha-scp",
      payload: { approvedServiceIds: ["aws-s3"] },
      remoteAddress,
    });
    expect(policy.statusCode).toBe(200);
  });

  it("lets an office of assistants behind one address set up: sessions' setup is not counted, their calls are", async () => {
    const app = await build();
    const remoteAddress = "192.0.2.67";
    const send = (payload: object) =>
      app.inject({ method: "POST", url: "/mcp", headers: HEADERS, payload, remoteAddress });
    const initialize = {
      jsonrpc: "2.0",
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "office", version: "1" } },
    };
    // 100 assistants start: initialize, the notification and the lists, 500 messages past the 120.
    for (let assistant = 0; assistant < 100; assistant++) {
      const setup = [
        await send({ ...initialize, id: assistant }),
        await send({ jsonrpc: "2.0", method: "notifications/initialized" }),
        await send({ jsonrpc: "2.0", id: assistant, method: "tools/list" }),
        await send({ jsonrpc: "2.0", id: assistant, method: "prompts/list" }),
        await send({ jsonrpc: "2.0", id: assistant, method: "resources/list" }),
      ];
      expect(setup.map((answer) => answer.statusCode)).toEqual([200, 202, 200, 200, 200]);
    }
    // Their calls share the address's bucket: all of it is there, and no more.
    for (let i = 0; i < BUCKETS.mcp.max; i++) expect((await send(ping(i))).statusCode).toBe(200);
    expect((await send(ping(0))).statusCode).toBe(429);
    // A batch is not setup, whatever it holds (refused, and counted).
    expect((await send([{ ...initialize, id: 1 }])).statusCode).toBe(429);
  }, 120_000);

  it("is listed in discovery and described in OpenAPI with its x-mcp extension", async () => {
    const app = await build();
    const discovery = (await app.inject("/")).json();
    expect(discovery.mcp).toHaveLength(1);
    expect(discovery.mcp[0]).toMatchObject({
      method: "POST",
      path: "/mcp",
      rateLimit: { bucket: "mcp", perMinute: BUCKETS.mcp.max },
      "x-mcp": expect.objectContaining({ transport: "streamable-http", stateless: true }),
    });
    expect(discovery.rateLimits.mcp).toContain("POST /mcp");
    const openapi = (await app.inject("/openapi.json")).json();
    const operation = openapi.paths["/mcp"].post;
    expect(operation.tags).toEqual(["MCP"]);
    expect(operation["x-mcp"].tools.map((tool: { name: string }) => tool.name)).toContain("search_services");
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "202", "406", "429"]));
  });
});
