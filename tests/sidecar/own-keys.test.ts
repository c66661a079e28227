/**
 * Own keys only: every name that a plain object inherits (hasOwnProperty, __proto__, constructor…)
 * sent as an id, a slug, a provider or a key through every row of the contract table, every text-host
 * route and every MCP tool is answered as the unknown name it is — never a 5xx, always the Error
 * shape (or the tool error) — because each lookup by a client's key reads own keys only.
 */
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { PAGES } from "../../catalogue/outputs/pages.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { build, realCatalogue, tempStore } from "../helpers/app.ts";

/** Every name Object.prototype holds, and the three keys prototype pollution uses. */
const INHERITED = [
  ...new Set([...Object.getOwnPropertyNames(Object.prototype), "__proto__", "constructor", "prototype"]),
];

/** `value` with every string in it replaced by `name` (arrays keep one item). */
function withName(value: unknown, name: string): unknown {
  if (typeof value === "string") return name;
  if (Array.isArray(value)) return value.length === 0 ? [] : [withName(value[0], name)];
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withName(inner, name)]));
  return value;
}

interface Probe {
  readonly method: "GET" | "POST";
  readonly url: string;
  readonly payload?: unknown;
}

/** For one name: every row's path parameters, query keys and body strings set to it, one place at a time. */
function apiProbes(name: string): Probe[] {
  const encoded = encodeURIComponent(name);
  const probes: Probe[] = [];
  for (const row of ENDPOINTS) {
    if (row.path === "/mcp") continue;
    const path = row.path.replace(/\{[^}]+\}/g, encoded);
    const [examplePath, exampleQuery = ""] = row.example.request.replace(/^(GET|POST) /, "").split("?");
    if (row.path.includes("{")) probes.push({ method: row.method, url: path, payload: row.example.body });
    for (const key of Object.keys(row.query?.shape ?? {})) {
      const others = new URLSearchParams(exampleQuery);
      others.set(key, key === "ids" ? `aws-s3,${name}` : name);
      probes.push({ method: row.method, url: `${examplePath}?${others}`, payload: row.example.body });
    }
    if (row.example.body !== undefined) {
      probes.push({ method: row.method, url: examplePath!, payload: withName(row.example.body, name) });
      for (const key of Object.keys(row.example.body as object))
        probes.push({
          method: row.method,
          url: examplePath!,
          payload: {
            ...(row.example.body as object),
            [key]: withName((row.example.body as Record<string, unknown>)[key], name),
          },
        });
    }
  }
  return probes;
}

/** The text host's routes with every path parameter set to the name, and its forms' fields. */
function textProbes(name: string): Probe[] {
  const encoded = encodeURIComponent(name);
  const probes: Probe[] = [];
  for (const page of PAGES) {
    if (page.path === "/*") continue;
    const path = page.path.replace(/:[a-z]+/g, encoded);
    if ((page.methods as readonly string[]).includes("GET")) {
      probes.push({ method: "GET", url: path });
      for (const key of ["ids", "providers", "provider", "category", "q", "status", "to", "width"])
        probes.push({ method: "GET", url: `${path}?${key}=${key === "ids" ? `aws-s3,${encoded}` : encoded}` });
    }
  }
  probes.push({ method: "GET", url: `/compare/aws-s3,${encoded}` });
  probes.push({ method: "GET", url: `/${encoded}/s3` });
  probes.push({ method: "GET", url: `/list/files/scp.json?ids=${encoded}` });
  probes.push({ method: "POST", url: "/lists", payload: `ids=${encoded}&name=x` });
  probes.push({ method: "POST", url: "/lists", payload: `${encoded}=aws-s3` });
  probes.push({ method: "POST", url: "/feedback", payload: `message=hello&type=${encoded}&${encoded}=1` });
  return probes;
}

function expectErrorShape(app: string, probe: Probe, status: number, body: string, contentType: string) {
  const where = `${app} ${probe.method} ${probe.url} ${JSON.stringify(probe.payload ?? "")}`;
  expect(status, where).toBeLessThan(500);
  if (status >= 400 && contentType.includes("json")) {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    expect(typeof parsed.error, where).toBe("string");
    expect(parsed.status, where).toBe(status);
  }
}

async function send(app: FastifyInstance, probe: Probe, form = false) {
  return app.inject({
    method: probe.method,
    url: probe.url,
    headers: form
      ? { "content-type": "application/x-www-form-urlencoded", accept: "text/plain" }
      : { "content-type": "application/json", accept: "application/json" },
    remoteAddress: `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
    ...(probe.payload === undefined ? {} : { payload: probe.payload as string }),
  });
}

describe("names Object.prototype holds, sent wherever a key is read", () => {
  it("every row of the contract table answers them in the Error shape, never a 5xx", { timeout: 240_000 }, async () => {
    const app = await build();
    let sent = 0;
    for (const name of INHERITED)
      for (const probe of apiProbes(name)) {
        const response = await send(app, probe);
        expectErrorShape("api", probe, response.statusCode, response.body, String(response.headers["content-type"]));
        sent++;
      }
    expect(sent).toBeGreaterThan(INHERITED.length * 30);
  });

  it("every text-host route and form answers them, never a 5xx", { timeout: 240_000 }, async () => {
    const catalogue = realCatalogue();
    const app = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue,
      store: await tempStore(),
      perMinute: 1_000_000,
    });
    try {
      for (const name of INHERITED)
        for (const probe of textProbes(name)) {
          const response = await send(app, probe, probe.method === "POST");
          expectErrorShape("text", probe, response.statusCode, response.body, String(response.headers["content-type"]));
        }
    } finally {
      await app.close();
    }
  });

  it("every MCP tool answers them as a tool error, never a protocol error", { timeout: 240_000 }, async () => {
    const app = await build();
    const call = async (method: string, params: unknown) =>
      (
        await app.inject({
          method: "POST",
          url: "/mcp",
          headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
          remoteAddress: `198.19.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
          payload: { jsonrpc: "2.0", id: 1, method, params },
        })
      ).json() as { result?: { isError?: boolean; tools?: { name: string; inputSchema: Schema }[] }; error?: unknown };
    interface Schema {
      type?: string;
      properties?: Record<string, Schema>;
      items?: Schema;
      enum?: unknown[];
    }
    const fill = (schema: Schema, name: string): unknown => {
      if (schema.enum) return schema.enum[0];
      if (schema.type === "string") return name;
      if (schema.type === "array") return [fill(schema.items ?? { type: "string" }, name)];
      if (schema.type === "object")
        return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, fill(v, name)]));
      if (schema.type === "boolean") return true;
      return undefined;
    };
    const tools = (await call("tools/list", {})).result!.tools!;
    expect(tools.length).toBeGreaterThan(5);
    for (const name of INHERITED)
      for (const tool of tools) {
        for (const key of Object.keys(tool.inputSchema.properties ?? {})) {
          const args = { [key]: fill(tool.inputSchema.properties![key]!, name) };
          const answer = await call("tools/call", { name: tool.name, arguments: args });
          const where = `${tool.name} ${JSON.stringify(args)}`;
          expect(answer.error, where).toBeUndefined();
          expect(JSON.stringify(answer.result), where).not.toMatch(/is not a function|Cannot read prop|Internal/);
        }
        const answer = await call("tools/call", { name: tool.name, arguments: fill(tool.inputSchema, name) });
        expect(answer.error, tool.name).toBeUndefined();
      }
  });
});
