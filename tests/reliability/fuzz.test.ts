/**
 * Generated requests across every endpoint of the contract table: bodies, query strings, path
 * parameters and headers, including huge, deeply nested, unicode, control-character and
 * prototype-key inputs. Never a 5xx; every error in the Error shape (the build() helper also
 * checks every response against the OpenAPI document).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract.ts";
import { build, realCatalogue } from "../helpers/app.ts";

export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);

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
        fc.constantFrom(...ENDPOINTS),
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
