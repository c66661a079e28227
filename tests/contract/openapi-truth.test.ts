/**
 * decisions.md#openapi-truth: the OpenAPI document says what the server does. Responses are
 * open to added fields; request bodies are as open as the server (which ignores unknown fields);
 * the bounds the prose states are schema keywords the server agrees with; /mirror/{path} is any
 * file; cross-origin JavaScript can read the X-RateLimit-Limit, Retry-After and ETag headers, and
 * is told of no header the API never sends; and a list
 * stored before names were cleaned answers without ESC or bidi characters.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { LifecycleQuery } from "../../catalogue/schema/index.ts";
import { LIFECYCLE_WITHIN_MAX_DAYS, MAX_COMPARE_IDS, MAX_EXPOSURE_IDS } from "../../catalogue/base/limits.ts";
import { openApiDocument } from "../../catalogue/contract/openapi.ts";
import { build, fixtureCatalogue, tempStore } from "../helpers/app.ts";
import { URLS } from "../helpers/app.ts";

type Json = Record<string, unknown>;
type Parameter = { name: string; in: string; schema: Json };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
};
const doc = JSON.parse(JSON.stringify(openApiDocument(URLS, ENDPOINTS))) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
};

const ajv = new Ajv2020({ strict: false });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
ajv.addSchema({ $id: "openapi.json", components: doc.components });
const component = (name: string): ValidateFunction => ajv.getSchema(`openapi.json#/components/schemas/${name}`)!;
const queryParameter = (path: string, name: string): ValidateFunction =>
  ajv.compile(doc.paths[path]!.get!.parameters!.find((p) => p.name === name)!.schema);

/** Every `additionalProperties: false` in the document, by where it is. */
function closedObjects(value: unknown, at = "#"): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => closedObjects(item, `${at}/${i}`));
  if (!value || typeof value !== "object") return [];
  const record = value as Json;
  return [
    ...(record.additionalProperties === false ? [at] : []),
    ...Object.entries(record).flatMap(([key, item]) => closedObjects(item, `${at}/${key}`)),
  ];
}

describe("the OpenAPI document tells the truth", () => {
  it("closes the request bodies and nothing else: responses may gain fields, bodies refuse unknown keys", async () => {
    // Every request body refuses an unknown key (a misspelt field would otherwise be ignored in silence).
    expect(closedObjects(doc)).toEqual([
      "#/components/schemas/ApprovedServicesBody",
      "#/components/schemas/ExitPlanBody",
      "#/components/schemas/ExitTarget",
      "#/components/schemas/FeedbackBody",
      "#/components/schemas/OutboundClickBody",
      "#/components/schemas/PolicyBody",
      "#/components/schemas/RegisterBody",
      "#/components/schemas/RegisterEntity",
      "#/components/schemas/SavedListCreate",
      "#/components/schemas/ScpBody",
      "#/components/schemas/TemplateCheckBody",
    ]);
    expect(component("ExitPlanBody")({ approvedServiceIds: ["aws-s3"], to: { euResident: true } })).toBe(false);
    // A newer server's added field passes a validating client.
    const status = (await (await build({ catalogue: fixtureCatalogue() })).inject("/v1/status")).json() as Json;
    expect(component("StatusReport")({ ...status, addedInALaterVersion: { any: "thing" } })).toBe(true);
    // An unknown request field: the document refuses it and so does the server, naming it.
    const body = { message: "Works well for us", sentFrom: "a newer client" };
    expect(component("FeedbackBody")(body)).toBe(false);
    const app = await build({ catalogue: fixtureCatalogue() });
    const response = await app.inject({ method: "POST", url: "/v1/feedback", payload: body });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ details: string }>().details).toContain('unknown key "sentFrom"');
  });

  it("states the feedback message's bounds as keywords the server agrees with", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const feedback = component("FeedbackBody");
    for (const message of ["abcd", "     ", "\t\n \u00a0 ", "a".repeat(5001), "😀".repeat(5001)]) {
      expect(feedback({ message }), JSON.stringify(message.slice(0, 10))).toBe(false);
      expect((await app.inject({ method: "POST", url: "/v1/feedback", payload: { message } })).statusCode).toBe(400);
    }
    // Lengths are code points on both sides: 5 emoji are 10 UTF-16 units.
    for (const message of ["abcde", "😀😀😀😀😀", " x   ", "a".repeat(5000), "😀".repeat(5000)]) {
      expect(feedback({ message }), JSON.stringify(message.slice(0, 10))).toBe(true);
      expect((await app.inject({ method: "POST", url: "/v1/feedback", payload: { message } })).statusCode).toBe(201);
    }
  });

  it("bounds compare and exposure ids as the server does: 1 to 10 and 1 to 50, blanks dropped, repeats counted", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const slug = fixtureCatalogue().services[0]!.slug;
    for (const [path, max] of [
      ["/v1/compare", MAX_COMPARE_IDS],
      ["/v1/exposure", MAX_EXPOSURE_IDS],
    ] as const) {
      const ids = queryParameter(path, "ids");
      const cases: [string, boolean][] = [
        ["", false],
        [",", false],
        [" , ,", false],
        [slug, true],
        [` ,${slug}, ,`, true],
        [Array(max).fill(slug).join(","), true],
        [Array(max).fill(slug).join(",,"), true],
        [
          Array(max + 1)
            .fill(slug)
            .join(","),
          false,
        ],
      ];
      for (const [value, valid] of cases) {
        expect(ids(value), `${path} ${value.slice(0, 40)}`).toBe(valid);
        const response = await app.inject({ url: path, query: { ids: value } });
        expect(response.statusCode, `${path} ${value.slice(0, 40)}`).toBe(valid ? 200 : 400);
      }
    }
  });

  it("bounds lifecycle's within as the server does, for every value of up to five digits", () => {
    const within = queryParameter("/v1/lifecycle", "within");
    const disagree: string[] = [];
    for (let n = 0; n <= 99_999; n++) {
      for (const digits of new Set([String(n), String(n).padStart(5, "0")])) {
        for (const value of [digits, `${digits}d`]) {
          if (within(value) !== LifecycleQuery.safeParse({ within: value }).success) disagree.push(value);
        }
      }
    }
    expect(disagree).toEqual([]);
    expect(within(`${LIFECYCLE_WITHIN_MAX_DAYS}d`)).toBe(true);
    expect(within(`${LIFECYCLE_WITHIN_MAX_DAYS + 1}d`)).toBe(false);
  });

  it("describes /mirror/{path} as any file, not as an object", () => {
    const ok = doc.paths["/mirror/{path}"]!.get!.responses["200"]!;
    expect(Object.keys(ok.content!)).toEqual(["*/*"]);
    expect(ok.content!["*/*"]!.schema).toBeUndefined();
  });

  it("lets cross-origin JavaScript read X-RateLimit-Limit, Retry-After and ETag, each of them sent", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const origin = { origin: "https://elsewhere.example" };
    const sent = new Set<string>();
    const answers = [await app.inject({ method: "GET", url: "/v1/providers", headers: origin })];
    // Feedback until its bucket is full: the 429 carries Retry-After.
    for (let i = 0; i < 40 && answers.at(-1)!.statusCode !== 429; i++)
      answers.push(
        await app.inject({ method: "POST", url: "/v1/feedback", payload: { message: "hello there" }, headers: origin }),
      );
    expect(answers.at(-1)!.statusCode).toBe(429);
    for (const response of answers) {
      for (const name of Object.keys(response.headers)) sent.add(name.toLowerCase());
      const exposed = String(response.headers["access-control-expose-headers"] ?? "")
        .split(",")
        .map((name) => name.trim().toLowerCase());
      // Exactly the headers the API sends beyond the safelisted ones; none it never sends.
      expect(exposed.sort()).toEqual(["etag", "retry-after", "x-ratelimit-limit"]);
    }
    for (const name of ["etag", "retry-after", "x-ratelimit-limit"]) expect(sent, name).toContain(name);
  });

  it("answers a list stored before names were cleaned without ESC or bidi characters", async () => {
    const store = await tempStore();
    const slug = fixtureCatalogue().services[0]!.slug;
    const createdAt = new Date();
    // As an older version saved it: straight into the store, name uncleaned.
    await store.createList({
      id: "old-list-uncleaned",
      name: "\u001b[31mTeam\u202e evil\u2066 \u200f",
      approvedServiceIds: [slug],
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 86_400_000),
    });
    await store.createList({
      id: "old-list-only-controls",
      name: "\u001b\u202e",
      approvedServiceIds: [slug],
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 86_400_000),
    });
    const app = await build({ catalogue: fixtureCatalogue(), store });
    const response = await app.inject("/v1/lists/old-list-uncleaned");
    expect(response.statusCode).toBe(200);
    expect(response.json().name).toBe("[31mTeam evil");
    // eslint-disable-next-line no-control-regex -- what must not be there
    expect(response.body).not.toMatch(/\\u001b|\u001b|\\u202e|\u202e|\\u2066|\u2066|\\u200f|\u200f/i);
    expect((await app.inject("/v1/lists/old-list-only-controls")).json().name).toBeNull();
  });

  it("says Vary: Accept-Encoding on every compressible answer and Vary: Accept on every negotiated one", async () => {
    const store = await tempStore();
    const slugs = fixtureCatalogue().services.map((service) => service.slug);
    const createdAt = new Date();
    await store.createList({
      id: "vary-list",
      name: "Vary",
      approvedServiceIds: slugs,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 86_400_000),
    });
    const app = await build({ catalogue: fixtureCatalogue(), store });
    const vary = (headers: Record<string, unknown>) =>
      String(headers.vary ?? "")
        .split(",")
        .map((name) => name.trim().toLowerCase());
    // Computed answers of more than a kilobyte, compressed or not, first asked or kept.
    for (const encoding of ["identity", "br", "identity"])
      for (const url of ["/v1/services?q=storage", "/v1/compare?ids=" + slugs.slice(0, 2).join(",")]) {
        const response = await app.inject({ url, headers: { "accept-encoding": encoding } });
        expect(response.statusCode, url).toBe(200);
        expect(response.rawPayload.length, url).toBeGreaterThan(encoding === "identity" ? 1024 : 0);
        expect(vary(response.headers), `${url} (${encoding})`).toContain("accept-encoding");
      }
    // The saved list's exit plan: JSON, Markdown or CSV by Accept.
    for (const accept of ["application/json", "text/markdown", "text/csv"]) {
      const response = await app.inject({
        url: "/v1/lists/vary-list/exit-plan?sovereignOption=1",
        headers: { accept, "accept-encoding": "identity" },
      });
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers["content-type"], accept).toContain(accept);
      expect(vary(response.headers), accept).toEqual(expect.arrayContaining(["accept", "accept-encoding"]));
    }
  });

  it("answers an MCP notification 202 with no body and no content type", async () => {
    const app = await build({ catalogue: fixtureCatalogue() });
    const response = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      payload: { jsonrpc: "2.0", method: "notifications/initialized" },
    });
    expect(response.statusCode).toBe(202);
    expect(response.headers["content-type"]).toBeUndefined();
    expect(response.body).toBe("");
  });

  it("reads every boolean query parameter one way: true or false, 1 or 0, and nothing else", async () => {
    const booleans = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, operation]) =>
        (operation.parameters ?? [])
          .filter((parameter) => JSON.stringify(parameter.schema).includes('"boolean"'))
          .map((parameter) => ({ path, method, name: parameter.name, schema: parameter.schema })),
      ),
    );
    expect(booleans.map(({ name }) => name).sort()).toEqual(
      expect.arrayContaining(["bom", "essentials", "euResidentOnly", "explain", "freeTier", "sovereignOption"]),
    );
    // Declared alike: a boolean, or one of the four words.
    for (const { path, name, schema } of booleans)
      expect(schema, `${path} ${name}`).toEqual({
        anyOf: [{ type: "boolean" }, { type: "string", enum: expect.arrayContaining(["true", "false", "1", "0"]) }],
      });
    const app = await build({ catalogue: fixtureCatalogue() });
    const slug = fixtureCatalogue().services.find((service) => service.providerId === "aws")!.slug;
    const ask = (query: string) =>
      app.inject({
        method: "POST",
        url: `/v1/policies/alpha-scp?${query}`,
        payload: { approvedServiceIds: [slug] },
        headers: { "x-forwarded-for": `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
      });
    const [one, yes] = [await ask("explain=1&essentials=0"), await ask("explain=true&essentials=false")];
    expect(one.statusCode).toBe(200);
    expect(one.body).toBe(yes.body);
    const word = await ask("explain=yes");
    expect(word.statusCode).toBe(400);
    expect(word.json().details).toMatch(/explain.*true, false, 1 or 0/);
    const services = [await app.inject("/v1/services?freeTier=1"), await app.inject("/v1/services?freeTier=true")];
    expect(services[0]!.statusCode).toBe(200);
    expect(services[0]!.body).toBe(services[1]!.body);
    expect((await app.inject("/v1/services?freeTier=yes")).statusCode).toBe(400);
  });
});
