/**
 * decisions.md#openapi-truth: Stoplight Prism's validating proxy (`prism proxy --errors`), a tool nobody
 * here wrote, in front of the real API server, driven over every operation of the OpenAPI document:
 * the document's own examples (valid requests) and requests that break one of its request schemas
 * (invalid ones). Prism checks each request against the document and each answer the server gives
 * against the operation's responses; with --errors a violation is an error answer. Expected: no
 * 5xx, no response violation, every invalid request caught by Prism (422) and answered 4xx by the
 * server too. A document made wrong on purpose shows Prism does catch a response violation here.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFiles } from "../../catalogue/outputs/static.ts";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { realCatalogue, tempStore, URLS } from "../helpers/app.ts";
import { fakeBuild } from "../helpers/fake-build.ts";
import { freePort, waitFor } from "../helpers/components.ts";
import { DOC, documentRejects, OPERATIONS, type Json, type Operation, type Parameter } from "./openapi-schema.ts";

const PRISM = fileURLToPath(new URL("../../node_modules/.bin/prism", import.meta.url));

let dir: string;
let app: FastifyInstance;
let upstream: string;
const prisms: ChildProcess[] = [];

/** Starts `prism proxy --errors` on `doc` in front of the server; its address once it answers. */
async function startPrism(doc: object, name: string): Promise<{ url: string; log: () => string }> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(doc));
  const port = await freePort();
  const child = spawn(PRISM, ["proxy", file, upstream, "--errors", "--host", "127.0.0.1", "--port", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  prisms.push(child);
  let log = "";
  child.stdout.on("data", (chunk) => (log += chunk));
  child.stderr.on("data", (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => (await fetch(`${url}/v1/health`).catch(() => undefined)) !== undefined,
    60_000,
    `Prism on ${name}`,
  ).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}\n${log}`, { cause: error });
  });
  return { url, log: () => log };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "csc-prism-"));
  const catalogue = realCatalogue();
  // A build to mirror: the providers file as the build writes it, and a non-JSON file.
  const providers = [...apiFiles(catalogue, URLS)].find((file) => file.file === "v1/providers.json")!;
  const built = (file: string) => [...apiFiles(catalogue, URLS)].find((candidate) => candidate.file === file)!.body;
  // The mirror operations' examples, one per depth, and a non-JSON file.
  const files = await BuiltFiles.open(
    fakeBuild({
      "api/openapi.json": built("openapi.json"),
      "api/v1/providers.json": providers.body,
      "api/v1/services/aws-s3.json": built("v1/services/aws-s3.json"),
      "api/v1/services/pages/2.json": built("v1/services/pages/2.json"),
      "text/robots.txt": "User-agent: *\n",
    }),
  );
  app = await buildApp({
    // Each request names its own client (X-Forwarded-For), so rate limits do not get in the way.
    config: { LOG_LEVEL: "silent", TRUST_PROXY: ["127.0.0.1"] },
    catalogue,
    store: await tempStore(),
    urls: URLS,
    files,
    sampleStatus: true,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  upstream = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  for (const child of prisms) child.kill("SIGTERM");
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Sent {
  readonly what: string;
  readonly status: number;
  readonly contentType: string;
  readonly violations: string | null;
  readonly body: string;
}

let client = 0;
async function call(
  base: string,
  operation: Operation,
  request: { path?: string; query?: Record<string, string>; headers?: Record<string, string>; body?: unknown },
  readBody = true,
): Promise<Sent> {
  const path = request.path ?? examplePath(operation);
  const query = new URLSearchParams(request.query ?? {}).toString();
  const url = `${base}${path}${query ? `?${query}` : ""}`;
  client++;
  const response = await fetch(url, {
    method: operation.method,
    headers: {
      "x-forwarded-for": `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`,
      ...(request.headers ?? {}),
      ...(request.body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  // Left unread, the body is cancelled: a GET compared by status and type alone (18 MB for /catalogue.json).
  if (!readBody) await response.body?.cancel();
  return {
    what: `${operation.method} ${path}${query ? `?${query}` : ""} ${request.body === undefined ? "" : JSON.stringify(request.body).slice(0, 120)}`,
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    violations: response.headers.get("sl-violations"),
    body: readBody ? await response.text() : "",
  };
}

/** The operation's path with each parameter's example; a '/' in a value is escaped (one path segment). */
function examplePath(operation: Operation): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(operation.parameters.find((p) => p.name === name)!.example)),
  );
}

/** The document's own example of a valid request: parameter examples and the body example. */
function exampleRequest(operation: Operation) {
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    if (parameter.example === undefined) continue;
    if (parameter.in === "query") query[parameter.name] = String(parameter.example);
    if (parameter.in === "header") headers[parameter.name] = String(parameter.example);
  }
  if (operation.operationId === "createList") headers["idempotency-key"] = "prism-example-1";
  return { query, headers, body: operation.bodyExample };
}

/** A value `schema` rejects (checked by the caller), as a query string or header would carry it. */
function breakParameter(schema: Json): string[] {
  // Not "": Prism takes an empty query parameter or header as absent (OpenAPI's allowEmptyValue).
  const candidates = [" ", "!", "not-a-value", "-1", "0", "999999", "1.5", "abc", "99999d", ",".repeat(3)];
  if (typeof schema.maximum === "number") candidates.push(String(schema.maximum + 1));
  if (typeof schema.minimum === "number") candidates.push(String(schema.minimum - 1));
  if (typeof schema.maxLength === "number") candidates.push("a".repeat(schema.maxLength + 1));
  return candidates;
}

/** Requests that break the document in one place each: a parameter, a property, a required field. */
function invalidRequests(operation: Operation) {
  const example = exampleRequest(operation);
  const requests: { query: Record<string, string>; headers: Record<string, string>; body?: unknown }[] = [];
  for (const parameter of operation.parameters.filter((p): p is Parameter => p.in !== "path")) {
    // A header's outer white space is not part of its value (HTTP trims it).
    for (const value of breakParameter(parameter.schema).filter((v) => parameter.in === "query" || v.trim() === v)) {
      const request =
        parameter.in === "query"
          ? { ...example, query: { ...example.query, [parameter.name]: value } }
          : { ...example, headers: { ...example.headers, [parameter.name]: value } };
      if (documentRejects(operation, request).length > 0) {
        requests.push(request);
        break;
      }
    }
  }
  if (operation.body) {
    const schema = DOC.components.schemas[String(operation.body.$ref).split("/").pop()!] ?? operation.body;
    const body = example.body as Record<string, unknown>;
    for (const key of (schema.required ?? []) as string[]) {
      const { [key]: _, ...rest } = body;
      requests.push({ ...example, body: rest });
    }
    for (const key of Object.keys(schema.properties ?? {}))
      for (const value of [12345, { nested: true }, "x".repeat(6000)]) {
        const request = { ...example, body: { ...body, [key]: value } };
        if (documentRejects(operation, request).length > 0) {
          requests.push(request);
          break;
        }
      }
    requests.push({ ...example, body: ["not", "an", "object"] });
  }
  return requests;
}

/** Lists are created before they are read; the list example's id is the slug the create example gets. */
const ORDERED = [...OPERATIONS].sort(
  (a, b) => Number(b.operationId === "createList") - Number(a.operationId === "createList"),
);

describe("Prism's validating proxy in front of the server", () => {
  it("finds no violation on any operation, valid or invalid requests, and no 5xx", async () => {
    const prism = await startPrism(DOC, "openapi");
    const answers: Sent[] = [];
    const invalid: { sent: Sent; direct: Sent }[] = [];
    // Prism's proxy answers 500 to every HEAD (it reads the empty body as the GET's content): HEAD is
    // checked against the server below.
    for (const operation of ORDERED.filter((candidate) => candidate.method !== "HEAD")) {
      const example = exampleRequest(operation);
      answers.push(await call(prism.url, operation, example));
      if (operation.operationId === "getBuildFile") {
        // Any file: a JSON file, a text file, and one the build does not hold.
        answers.push(await call(prism.url, operation, { ...example, path: "/mirror/text%2Frobots.txt" }));
        answers.push(await call(prism.url, operation, { ...example, path: "/mirror/no-such-file.txt" }));
      }
      if (operation.operationId === "getBuildFileAtDepth2")
        answers.push(await call(prism.url, operation, { ...example, path: "/mirror/text/robots.txt" }));
      // Query booleans written 1 and 0 (the one style of every boolean parameter).
      if (operation.operationId === "planExit" || operation.operationId === "getListExitPlan")
        answers.push(
          await call(prism.url, operation, { ...example, query: { ...example.query, format: "csv", bom: "1" } }),
        );
      if (operation.operationId === "getListExitPlan")
        answers.push(
          await call(prism.url, operation, { ...example, query: { sovereignOption: "1", euResidentOnly: "0" } }),
        );
      if (operation.operationId === "listServices")
        answers.push(await call(prism.url, operation, { query: { freeTier: "1" } }));
      // A JSON-RPC notification: accepted, 202, no body and no content type.
      if (operation.operationId === "mcp") {
        const notification = await call(prism.url, operation, {
          ...example,
          body: { jsonrpc: "2.0", method: "notifications/initialized" },
        });
        expect(notification).toMatchObject({ status: 202, contentType: "", body: "" });
        answers.push(notification);
      }
      for (const request of invalidRequests(operation))
        invalid.push({
          sent: await call(prism.url, operation, request),
          direct: await call(upstream, operation, request),
        });
    }

    // Every operation was driven, and the examples were answered as the document says.
    expect(answers.length).toBeGreaterThanOrEqual(OPERATIONS.filter((operation) => operation.method !== "HEAD").length);
    expect(
      answers
        .filter((answer) => answer.status >= 500)
        .map((answer) => `${answer.what} ${answer.status} ${answer.body.slice(0, 300)}`),
    ).toEqual([]);
    expect(
      answers
        .filter((answer) => answer.violations || answer.contentType.includes("problem+json"))
        .map((answer) => `${answer.what}: ${answer.status} ${answer.violations ?? answer.body.slice(0, 300)}`),
    ).toEqual([]);
    const notFound = answers
      .filter((answer) => answer.status >= 400)
      .map((answer) => `${answer.what} ${answer.status}`);
    expect(notFound).toEqual([expect.stringMatching(/^GET \/mirror\/no-such-file\.txt .*404$/)]);

    // Invalid requests: Prism rejects each (422, its own problem+json), and so does the server.
    expect(invalid.length).toBeGreaterThan(20);
    expect(
      invalid
        .filter(({ sent }) => !(sent.status === 422 && sent.contentType.includes("problem+json")))
        .map(({ sent }) => `${sent.what}: Prism answered ${sent.status} ${sent.body.slice(0, 200)}`),
    ).toEqual([]);
    expect(
      invalid
        .filter(({ direct }) => direct.status < 400 || direct.status >= 500)
        .map(({ direct }) => `${direct.what}: the server answered ${direct.status}`),
    ).toEqual([]);
    console.log(
      `prism: ${answers.length} valid requests over ${OPERATIONS.length} operations, ${invalid.length} invalid ones; 0 violations, 0 × 5xx`,
    );
  }, 180_000);

  it("answers HEAD wherever the document declares it: the GET's status and type, no body", async () => {
    const heads = OPERATIONS.filter((operation) => operation.method === "HEAD");
    expect(heads.length).toBe(OPERATIONS.filter((operation) => operation.method === "GET").length);
    const differing: string[] = [];
    for (const head of heads) {
      const get = OPERATIONS.find((operation) => operation.method === "GET" && operation.path === head.path)!;
      const [got, headed] = [
        await call(upstream, get, exampleRequest(get), false),
        await call(upstream, head, exampleRequest(head)),
      ];
      if (headed.status !== got.status || headed.contentType !== got.contentType || headed.body !== "")
        differing.push(
          `${head.path}: GET ${got.status} ${got.contentType}, HEAD ${headed.status} ${headed.contentType} ${headed.body.length} bytes`,
        );
      if (!Object.keys(DOC.paths[head.path]!.head!.responses).includes(String(headed.status)))
        differing.push(`${head.path}: HEAD ${headed.status} is not declared`);
    }
    expect(differing).toEqual([]);
  });

  it("does report a response violation when the document is wrong (the check can fail)", async () => {
    const wrong = JSON.parse(JSON.stringify(DOC)) as typeof DOC;
    const health = wrong.components.schemas.Health as { required: string[]; properties: Record<string, Json> };
    health.properties.inventedField = { type: "string" };
    health.required.push("inventedField");
    const prism = await startPrism(wrong, "wrong");
    const operation = OPERATIONS.find((candidate) => candidate.operationId === "getHealth")!;
    const answer = await call(prism.url, operation, {});
    expect(`${answer.status} ${answer.violations ?? ""} ${answer.body}`).toMatch(/inventedField/);
  }, 120_000);
});
