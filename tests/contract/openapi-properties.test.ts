/**
 * decisions.md#openapi-truth: requests generated with fast-check from the OpenAPI document's own request
 * schemas (bodies, query parameters, headers) against the API: never a 5xx, and the server and the
 * document (ajv) agree on every request's shape. The only disagreements allowed are the ones no
 * schema can state: data-dependent answers (unknown ids, an unknown provider, nothing to allow for
 * a provider, a slug taken, a missing list), the body limits (64 KiB, 4 MiB for the deployment check: 413, declared), and the rules
 * between two parameters (OpenAPI parameters cannot depend on each other): alpha-scp's `part`
 * applies to strategy=allow-list only, and only up to the number of SCPs the list needs; a
 * policy's explain=true answers JSON only, so not with format=terraform (or Accept: text/x-hcl);
 * GET /v1/services' complianceScope applies with compliance only.
 */
import fc from "fast-check";
import type { FastifyInstance } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../catalogue/base/limits.ts";
import { build, realCatalogue } from "../helpers/app.ts";
import { documentRejects, nearBody, nearParameter, OPERATIONS, type Hints, type Operation } from "./openapi-schema.ts";

const RUNS = Number(process.env.OPENAPI_PROPERTY_RUNS ?? 300);

/** A shape the server rejected: its schema check, the id list's bounds, the media type, the size. */
const SHAPE_TITLES = /^(Invalid (body|query|params|headers)|ids is required|Too many ids)$/;
/** Rejections no schema keyword can state: between parameters, or depending on the approved list. */
const BEYOND_SCHEMA =
  /^(part applies to strategy=allow-list only\.|part applies with allowedLocations only: .*|This allow-list needs \d+ SCPs?; part must be 1 to \d+\.|explain=true answers JSON \(.*\) without explain\.|complianceScope applies with compliance only: .*)$/;

let hints: Hints;
beforeAll(() => {
  const catalogue = realCatalogue();
  const slugs = catalogue.services.map((service) => service.slug);
  const slug = fc.constantFrom(...slugs);
  hints = {
    "approvedServiceIds[]": fc.oneof({ arbitrary: slug, weight: 5 }, { arbitrary: fc.string(), weight: 1 }),
    ids: fc
      .array(slug, { minLength: 1, maxLength: 12 })
      .chain((ids) =>
        fc.constantFrom(ids.join(","), ` ${ids.join(" , ")} `, `,${ids.join(",,")},`, ids.slice(0, 1).join(",")),
      ),
    serviceId: slug,
    provider: fc.constantFrom(...catalogue.providers.map((provider) => provider.id), "no-such-provider"),
    category: fc.constantFrom(...catalogue.categories.map((category) => category.id)),
    compliance: fc.constantFrom(...catalogue.compliance.keys(), "no-such-programme"),
    // The jurisdictions providers have (a value none has is a data-dependent 400, as a provider's).
    jurisdiction: fc.constantFrom(
      ...new Set(catalogue.providers.flatMap(({ jurisdiction: j }) => (j ? [j, j.toLowerCase()] : []))),
    ),
  };
});

interface Outcome {
  readonly status: number;
  readonly title: string | undefined;
  readonly details: string | undefined;
  readonly rejects: string[];
  readonly bytes: number;
}

let client = 0;
/** Sends one request, from its own address (no rate limit in the way), and says how both sides judged it. */
async function send(
  app: FastifyInstance,
  operation: Operation,
  query: Record<string, string>,
  headers: Record<string, string>,
  body: unknown,
): Promise<Outcome> {
  const payload = operation.body === undefined ? undefined : JSON.stringify(body);
  client++;
  const response = await app.inject({
    method: operation.method as "GET" | "POST",
    url: operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(String(operation.parameters.find((p) => p.name === name)?.example ?? "x")),
    ),
    query,
    headers: { ...headers, ...(payload === undefined ? {} : { "content-type": "application/json" }) },
    remoteAddress: `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`,
    ...(payload === undefined ? {} : { payload }),
  });
  const error = response.statusCode >= 400 ? (response.json() as { error?: string; details?: string }) : {};
  return {
    status: response.statusCode,
    title: error.error,
    details: error.details,
    rejects: documentRejects(operation, { query, headers, body }),
    bytes: payload === undefined ? 0 : Buffer.byteLength(payload),
  };
}

/** Where server and document disagree, or undefined. */
function disagreement(outcome: Outcome): string | undefined {
  const { status, title, details, rejects, bytes } = outcome;
  if (status >= 500) return `a ${status}`;
  if (status === 400 && BEYOND_SCHEMA.test(details ?? "")) return undefined;
  const shapeRejected = status === 415 || (status === 400 && SHAPE_TITLES.test(title ?? ""));
  if (status === 413) return bytes > MAX_BODY_BYTES ? undefined : `413 for ${bytes} bytes`;
  if (rejects.length === 0 && shapeRejected) return `the server rejects (${title}) what the document accepts`;
  if (rejects.length > 0 && !shapeRejected)
    return `the server ${status < 400 ? "accepts" : `answers ${status} ${title} to`} what the document rejects: ${rejects.join("; ")}`;
  return undefined;
}

describe("requests generated from the OpenAPI document", () => {
  // HEAD takes its GET's parameters and is answered by the same handler (prism.test.ts compares them).
  const generated = OPERATIONS.filter(
    (operation) => operation.method !== "HEAD" && (operation.body || operation.parameters.some((p) => p.in !== "path")),
  );

  it("covers every operation that takes a body, a query or a header", () => {
    expect(generated.map((operation) => operation.operationId).sort()).toEqual(
      [
        "buildRegister",
        "checkDeployment",
        "compareServices",
        "createList",
        "exportMarkdown",
        "generateAzurePolicy",
        "generateGcpOrgPolicy",
        "generateScp",
        "getExposure",
        "getLifecycleAtom",
        "getLifecycleCalendar",
        "getListExitPlan",
        "getListLifecycleCalendar",
        "getListRegister",
        "listLifecycle",
        "listServices",
        "mcp",
        "planExit",
        "recordOutboundClick",
        "sendFeedback",
      ].sort(),
    );
  });

  for (const operation of generated) {
    it(
      `${operation.method} ${operation.path}: no 5xx, and the server agrees with the document`,
      async () => {
        // A fresh app per operation; the build() helper also checks every answer against the document.
        const app = await build();
        const inputs = operation.parameters.filter((p) => p.in !== "path");
        const record = (where: "query" | "header") =>
          fc.record(
            Object.fromEntries(
              inputs.filter((p) => p.in === where).map((p) => [p.name, nearParameter(p, hints)] as const),
            ),
            { requiredKeys: [] },
          ) as fc.Arbitrary<Record<string, string>>;
        const problems: string[] = [];
        const counts = { accepted: 0, rejected: 0 };
        await fc.assert(
          fc.asyncProperty(
            record("query"),
            record("header"),
            operation.body ? nearBody(operation.body, hints) : fc.constant(undefined),
            async (query, headers, body) => {
              const outcome = await send(app, operation, query, headers, body);
              if (outcome.rejects.length === 0) counts.accepted++;
              else counts.rejected++;
              const problem = disagreement(outcome);
              if (problem && problems.length < 20)
                problems.push(
                  `${problem}\n    query ${JSON.stringify(query)} body ${JSON.stringify(body)?.slice(0, 300)}`,
                );
            },
          ),
          { numRuns: RUNS, seed: Number(process.env.OPENAPI_PROPERTY_SEED ?? 50) },
        );
        expect(problems).toEqual([]);
        // Both kinds were tried: requests the document accepts and requests it rejects.
        expect(counts.accepted, "requests the document accepts").toBeGreaterThan(RUNS / 10);
        expect(counts.rejected, "requests the document rejects").toBeGreaterThan(RUNS / 20);
      },
      30_000 + RUNS * 100,
    );
  }
});
