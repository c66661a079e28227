/**
 * Generated requests across every endpoint of the contract table: bodies, query strings, path
 * parameters and headers, including huge, deeply nested, unicode, control-character and
 * prototype-key inputs. Never a 5xx; every error in the Error shape (the build() helper also
 * checks every response against the OpenAPI document).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { build as buildDist } from "../../scripts/build.ts";
import { buildApp } from "../../sidecar/app.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { buildTextApp, loadSiteHandler } from "../../sidecar/text/app.ts";
import { build, FIXTURE_DIR, fixtureCatalogue, realCatalogue } from "../helpers/app.ts";
import { freePort } from "../helpers/components.ts";

export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);

/**
 * Every endpoint, the whole dump (GET /catalogue.json, 18 MB: 0.3 s to write and check) a tenth as
 * often as each other: it takes no input, and 160 of them were 70 s of the 90.
 */
const DUMP = "getCatalogueDump";
const anyEndpoint = fc.oneof(
  { weight: 10 * ENDPOINTS.length, arbitrary: fc.constantFrom(...ENDPOINTS.filter((e) => e.operationId !== DUMP)) },
  { weight: 1, arbitrary: fc.constantFrom(...ENDPOINTS.filter((e) => e.operationId === DUMP)) },
);

const slug = () =>
  fc.constantFrom(
    ...realCatalogue()
      .services.slice(0, 40)
      .map((s) => s.slug),
  );
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "../../etc/passwd",
    "%2e%2e%2f",
    "<script>alert(1)</script>",
    "\u0000",
    "\u001b[31m",
    "‮",
    "😀",
    "a".repeat(6000),
  ),
  slug(),
);
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    nasty,
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(nasty, tie("value"), { maxKeys: 5 }),
  ),
})).value;

const body = fc.oneof(
  jsonValue.map((v) => JSON.stringify(v)),
  fc
    .record({
      approvedServiceIds: fc.array(fc.oneof(slug(), nasty), { maxLength: 12 }),
      name: fc.option(nasty, { nil: undefined }),
      slug: fc.option(nasty, { nil: undefined }),
    })
    .map((v) => JSON.stringify(v)),
  fc
    .record({
      message: nasty,
      type: fc.option(nasty, { nil: undefined }),
      email: fc.option(nasty, { nil: undefined }),
      page: fc.option(nasty, { nil: undefined }),
    })
    .map((v) => JSON.stringify(v)),
  fc.record({ url: nasty, serviceId: fc.option(nasty, { nil: undefined }) }).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '{"__proto__":{"polluted":1},"approvedServiceIds":["aws-s3"]}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`,
    "{",
    "",
    "null",
    "[]",
    '"str"',
    "1e999",
    `{"approvedServiceIds":${JSON.stringify(Array(600).fill("aws-s3"))}}`,
    "x".repeat(70_000),
  ),
  nasty,
);

const query = fc.dictionary(
  fc.oneof(
    fc.constantFrom("q", "ids", "page", "limit", "provider", "category", "freeTier", "lifecycle", "format"),
    nasty,
  ),
  fc.oneof(
    nasty,
    fc.array(slug(), { maxLength: 60 }).map((s) => s.join(",")),
    fc.integer().map(String),
  ),
  { maxKeys: 4 },
);

const headers = fc.record({
  "content-type": fc.constantFrom(
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/JSON",
    "",
  ),
  "x-api-key": fc.option(nasty, { nil: undefined }),
  "x-forwarded-for": fc.ipV4(),
  accept: fc.constantFrom("*/*", "application/json", "text/html", "text/markdown"),
});

describe("fuzzing every endpoint", () => {
  it(`answers ${FUZZ_RUNS} generated requests without a 5xx, errors in the Error shape`, async () => {
    // TRUST_PROXY names inject()'s loopback address, so generated X-Forwarded-For addresses spread
    // requests over many buckets and the handlers behind the limiter get exercised too.
    const app = await build({ config: { LOG_LEVEL: "silent", TRUST_PROXY: ["127.0.0.1"] } });
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        anyEndpoint,
        fc.oneof(slug(), nasty),
        query,
        body,
        headers,
        fc.boolean(),
        async (endpoint, param, q, payload, head, wrongMethod) => {
          const path = endpoint.path.replace(/\{[^}]+\}/, encodeURIComponent(param));
          const search = new URLSearchParams(Object.entries(q)).toString();
          const method = wrongMethod ? (endpoint.method === "GET" ? "POST" : "GET") : endpoint.method;
          const cleanHeaders = Object.fromEntries(
            Object.entries(head).filter(([, v]) => v !== undefined && v !== ""),
          ) as Record<string, string>;
          const response = await app.inject({
            method,
            url: `${path}${search ? `?${search}` : ""}`,
            headers: cleanHeaders,
            ...(method === "POST" ? { payload } : {}),
          });
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          expect(response.statusCode, `${method} ${path}`).toBeLessThan(500);
          if (response.statusCode >= 400) {
            const error = response.json() as { error: unknown; status: unknown };
            expect(typeof error.error).toBe("string");
            expect(error.status).toBe(response.statusCode);
          }
        },
      ),
      { numRuns: FUZZ_RUNS },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    console.log(`fuzz: ${FUZZ_RUNS} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  }, 600_000);
});

/**
 * Both hosts over real sockets, with the built site's on-demand handler: methods, paths with dot
 * segments and percent-encodings, headers and bodies. No 5xx, no request left unanswered for 5 s,
 * every API error (on either host's /v1/*) in the Error shape.
 */
export const HTTP_FUZZ_RUNS = Number(process.env.HTTP_FUZZ_RUNS ?? 10_000);
const HANG_MS = 5000;

const segment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(".", "..", "%2e", "%2E", "%2e%2e", "%2E%2e", ".%2e", "%2e.") },
  {
    weight: 3,
    arbitrary: fc.constantFrom("%2f", "%5c", "%00", "%", "%zz", "%E0%A4%A", "%ff", "", "~", ";x", "a%20b", "%0d%0a"),
  },
  { weight: 4, arbitrary: slug() },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 6 }).map(encodeURIComponent) },
);
const fuzzPath = fc
  .tuple(
    fc.constantFrom(
      "",
      "/lists",
      "/compare",
      "/aws",
      "/aws/s3",
      "/category",
      "/v1",
      "/v1/lists",
      "/v1/services",
      "/v1/compare",
      "/mirror",
      "/mirror/site",
      "/_astro",
      "/pagefind",
      "/v1/policies",
    ),
    fc.array(segment, { maxLength: 3 }),
    fc.option(
      fc.constantFrom(
        "?format=html",
        "?format=md",
        "?format=ansi&color=never",
        "?ids=aws-s3,gcp-cloud-storage",
        "?q=%",
        "?page=-1",
      ),
      { nil: "" },
    ),
  )
  .map(([base, segments, query]) => `${base}/${segments.join("/")}${query}`.replace(/^\/\//, "/"));

const fuzzRequest = fc.record({
  host: fc.constantFrom("api" as const, "text" as const),
  method: fc.constantFrom("GET", "GET", "GET", "HEAD", "POST", "OPTIONS", "PUT", "DELETE", "PATCH"),
  path: fuzzPath,
  accept: fc.constantFrom("*/*", "text/html", "text/markdown", "application/json", "text/html;q=0", ""),
  encoding: fc.constantFrom("", "gzip", "br", "gzip, br", "identity;q=0"),
  contentType: fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", ""),
  idempotencyKey: fc.option(
    fc.oneof(
      fc.uuid(),
      nasty.filter((s) => /^[\x20-\x7e]*$/.test(s)),
    ),
    { nil: undefined },
  ),
  body: body,
  ip: fc.oneof(fc.ipV4(), fc.ipV6()),
});

describe("fuzzing both hosts over HTTP", () => {
  it(`answers ${HTTP_FUZZ_RUNS} generated requests in time, without a 5xx, API errors in the Error shape`, async () => {
    const distDir = mkdtempSync(join(tmpdir(), "csc-fuzz-dist-"));
    const dataDir = mkdtempSync(join(tmpdir(), "csc-fuzz-data-"));
    const [apiPort, textPort] = [await freePort(), await freePort()];
    const urls = { apiUrl: `http://127.0.0.1:${apiPort}`, textUrl: `http://127.0.0.1:${textPort}` };
    await buildDist({ dataDir: FIXTURE_DIR, outDir: distDir, urls, log: () => undefined });
    const catalogue = fixtureCatalogue();
    const store = await EmbeddedStore.open(dataDir);
    const files = await BuiltFiles.open(distDir);
    const siteHandler = await loadSiteHandler(distDir);
    const config = { LOG_LEVEL: "silent" as const, TRUST_PROXY: ["127.0.0.1"] };
    const api = await buildApp({ config, catalogue, store, urls, files });
    const text = await buildTextApp({
      config,
      catalogue,
      store,
      files,
      api,
      urls,
      perMinute: 1_000_000,
      ...(siteHandler ? { siteHandler } : {}),
    });
    await api.listen({ port: apiPort, host: "127.0.0.1" });
    await text.listen({ port: textPort, host: "127.0.0.1" });
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const statuses = new Map<number, number>();
    const problems: string[] = [];
    let hangs = 0;
    let slowest = 0;
    const started = performance.now();
    try {
      const requests = fc.sample(fuzzRequest, { numRuns: HTTP_FUZZ_RUNS, seed: 19 });
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const r = requests[next++]!;
          const headers: Record<string, string> = { "x-forwarded-for": r.ip };
          if (r.accept) headers.accept = r.accept;
          if (r.encoding) headers["accept-encoding"] = r.encoding;
          if (r.idempotencyKey) headers["idempotency-key"] = r.idempotencyKey;
          const withBody = ["POST", "PUT", "PATCH"].includes(r.method);
          if (withBody && r.contentType) headers["content-type"] = r.contentType;
          const answer = await send(
            r.host === "api" ? apiPort : textPort,
            r.method,
            r.path,
            headers,
            withBody ? r.body : undefined,
            agent,
          );
          const what = `${r.host} ${r.method} ${r.path}`;
          if (answer === "hang") {
            hangs++;
            problems.push(`${what}: no answer in ${HANG_MS} ms`);
            continue;
          }
          slowest = Math.max(slowest, answer.ms);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status >= 500) problems.push(`${what}: ${answer.status}`);
          const apiPath = r.host === "api" || /^\/v1(?:[/?]|$)/.test(r.path);
          if (apiPath && answer.status >= 400 && r.method !== "HEAD") {
            const shaped = errorShaped(answer.status, answer.contentType, answer.body);
            if (shaped) problems.push(`${what}: ${answer.status} ${shaped}`);
          }
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
    } finally {
      agent.destroy();
      await Promise.all([api.close(), text.close()]);
      await store.close();
      rmSync(distDir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `fuzz http: ${HTTP_FUZZ_RUNS} requests over both hosts in ${seconds.toFixed(1)} s, ${hangs} hangs, slowest ${Math.round(slowest)} ms, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    expect(problems.slice(0, 20)).toEqual([]);
    expect(hangs).toBe(0);
  }, 300_000);
});

/** Why a body is not the Error shape {error, status, details?}, or undefined when it is. */
function errorShaped(status: number, contentType: string | undefined, body: string): string | undefined {
  if (!String(contentType).startsWith("application/json")) return `not JSON: ${contentType}`;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return "unparseable JSON";
  }
  const keys = Object.keys(parsed).sort().join(",");
  if (keys !== "error,status" && keys !== "details,error,status") return `keys ${keys}`;
  if (parsed.status !== status || typeof parsed.error !== "string") return `body ${body.slice(0, 100)}`;
  return undefined;
}

function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  payload: string | undefined,
  agent: Agent,
): Promise<{ status: number; contentType: string | undefined; body: string; ms: number } | "hang"> {
  const started = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: { status: number; contentType: string | undefined; body: string; ms: number } | "hang") => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(value);
    };
    const request = httpRequest({ host: "127.0.0.1", port, method, path, headers, agent }, (response) => {
      let text = "";
      response.setEncoding("latin1");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () =>
        finish({
          status: response.statusCode!,
          contentType: response.headers["content-type"],
          body: text,
          ms: performance.now() - started,
        }),
      );
      response.on("error", () => finish({ status: 0, contentType: undefined, body: "", ms: 0 }));
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish("hang");
    }, HANG_MS);
    // A path node refuses to send (control characters) is not a server problem.
    request.on("error", (error: NodeJS.ErrnoException) =>
      finish(
        error.code === "ERR_UNESCAPED_CHARACTERS" || error.code === "ERR_INVALID_CHAR"
          ? { status: 0, contentType: undefined, body: "", ms: 0 }
          : { status: 599, contentType: undefined, body: String(error.message), ms: 0 },
      ),
    );
    request.end(payload);
  });
}
