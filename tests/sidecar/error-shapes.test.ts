/**
 * Every error the API host answers is in the Error shape {error, status, details?}, including the
 * ones node's HTTP parser and the CORS plugin answer before routing, and the API's paths served
 * through the text host.
 */
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../../sidecar/app.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { fixtureCatalogue, tempStore, URLS } from "../helpers/app.ts";
import { rawRequest, socketExchange } from "../helpers/raw-http.ts";

const listening: FastifyInstance[] = [];
afterEach(async () => {
  while (listening.length > 0) await listening.pop()!.close();
});

async function hosts() {
  const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: undefined };
  const store = await tempStore();
  const api = await buildApp({ config, catalogue: fixtureCatalogue(), store, urls: URLS });
  const text = await buildTextApp({ config, catalogue: fixtureCatalogue(), store, api });
  const urls: string[] = [];
  for (const app of [api, text]) {
    listening.push(app);
    await app.listen({ port: 0, host: "127.0.0.1" });
    urls.push(`http://127.0.0.1:${(app.server.address() as { port: number }).port}`);
  }
  return { api: urls[0]!, text: urls[1]! };
}

function expectErrorShape(status: number, contentType: unknown, body: string) {
  expect(String(contentType)).toMatch(/^application\/json/);
  const parsed = JSON.parse(body) as Record<string, unknown>;
  expect(Object.keys(parsed).sort()).toEqual(
    Object.keys(parsed).length === 3 ? ["details", "error", "status"] : ["error", "status"],
  );
  expect(parsed.status).toBe(status);
  expect(typeof parsed.error).toBe("string");
}

/** The status line, headers and body of a raw HTTP answer. */
function parseRaw(answer: string) {
  const [head, ...rest] = answer.split("\r\n\r\n");
  const lines = head!.split("\r\n");
  const headers = Object.fromEntries(
    lines.slice(1).map((l) => [l.split(":")[0]!.toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
  );
  return { status: Number(lines[0]!.split(" ")[1]), headers, body: rest.join("\r\n\r\n") };
}

describe("the Error shape on the API host", () => {
  it("answers a URL over 16 KiB with 431 in the Error shape", async () => {
    const { api } = await hosts();
    const answer = await rawRequest(api, { path: `/v1/services?q=${"a".repeat(17_000)}` });
    if (answer === "hang") throw new Error("hang");
    expect([414, 431]).toContain(answer.status);
    expectErrorShape(answer.status, answer.headers["content-type"], answer.body);
  });

  it("answers conflicting Content-Length and Transfer-Encoding in the Error shape", async () => {
    const { api } = await hosts();
    const { answer } = await socketExchange(
      api,
      "POST /v1/lists HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      3000,
    );
    const parsed = parseRaw(answer);
    expect(parsed.status).toBe(400);
    expectErrorShape(400, parsed.headers["content-type"], parsed.body);
  });

  it("answers a bare OPTIONS with 204, never text/plain", async () => {
    const { api } = await hosts();
    const answer = await rawRequest(api, { method: "OPTIONS", path: "/v1/lists" });
    if (answer === "hang") throw new Error("hang");
    expect(answer.status).toBe(204);
    expect(answer.headers["content-type"]).toBeUndefined();
  });

  it("answers a JSON body sent as text/plain with 415", async () => {
    const { api } = await hosts();
    const answer = await rawRequest(api, {
      method: "POST",
      path: "/v1/policies/alpha-scp",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ approvedServiceIds: ["aws-s3"] }),
    });
    if (answer === "hang") throw new Error("hang");
    expect(answer.status).toBe(415);
    expectErrorShape(415, answer.headers["content-type"], answer.body);
  });

  it("answers /v1/* errors on the text host in the Error shape, not as text", async () => {
    const { text } = await hosts();
    const requests: Parameters<typeof rawRequest>[1][] = [
      { path: "/v1/services/%E0%A4%A" },
      { path: `/v1/services/${"x".repeat(3000)}` },
      { path: "/v1/nope" },
      // Found by the HTTP fuzz: the site's 404 page answered this one.
      { path: "/v1/?format=html", headers: { accept: "text/html" } },
      {
        method: "POST",
        path: "/v1/lists",
        headers: { "content-type": "application/json" },
        body: `{"approvedServiceIds":["${"a".repeat(70_000)}"]}`,
      },
    ];
    for (const request of requests) {
      const answer = await rawRequest(text, request);
      if (answer === "hang") throw new Error("hang");
      expect(answer.status, request.path).toBeGreaterThanOrEqual(400);
      expectErrorShape(answer.status, answer.headers["content-type"], answer.body);
    }
  });
});

describe("errors node used to answer on its own (decisions.md#error-shape)", () => {
  it("answers a stalled body on the text host's /v1/feedback with 408 in the Error shape", async () => {
    const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: undefined };
    const store = await tempStore();
    const timeouts = { headersMs: 500, requestMs: 1000, idleMs: 1000 };
    const api = await buildApp({ config: { ...config, timeouts }, catalogue: fixtureCatalogue(), store, urls: URLS });
    const text = await buildTextApp({ config: { ...config, timeouts }, catalogue: fixtureCatalogue(), store, api });
    listening.push(api, text);
    await text.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(text.server.address() as { port: number }).port}`;
    const stalled = await socketExchange(
      base,
      'POST /v1/feedback HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"type":',
      8000,
    );
    const { status, headers, body } = parseRaw(stalled.answer);
    expect(status).toBe(408);
    expectErrorShape(408, headers["content-type"], body);
  });

  it("answers an HTTP/1.1 request without Host with 400 in each host's format", async () => {
    const { api, text } = await hosts();
    for (const [base, path] of [
      [api, "/v1/providers"],
      [text, "/v1/providers"],
    ] as const) {
      const { status, headers, body } = parseRaw(
        (await socketExchange(base, `GET ${path} HTTP/1.1\r\nConnection: close\r\n\r\n`, 3000)).answer,
      );
      expect(status, base).toBe(400);
      expectErrorShape(400, headers["content-type"], body);
      expect(body).toContain("Host");
    }
    const page = parseRaw((await socketExchange(text, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n", 3000)).answer);
    expect(page.status).toBe(400);
    expect(page.headers["content-type"]).toMatch(/^text\/plain/);
    expect(page.body).toContain("Host");
    // HTTP/1.0 may leave it out.
    const old = parseRaw((await socketExchange(api, "GET /v1/providers HTTP/1.0\r\n\r\n", 3000)).answer);
    expect(old.status).toBe(200);
  });
});
