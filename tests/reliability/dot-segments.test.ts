/**
 * Dot segments never climb out of a path. The text host answered /v1/* through an in-process
 * inject whose URL parser resolved them: `curl --path-as-is 'http://…/v1/%2e%2e/catalogue.json'`
 * on the text host answered 200 with the 11 MB dump, and the same for manifest.json and
 * openapi.json. Sent as written (no client resolves them here), in several encodings, to both
 * hosts: never the dump, the manifest or the OpenAPI document; a 404 in the host's error format.
 */
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { hasDotSegment } from "../../sidecar/dot-segments.ts";
import { BuiltFiles } from "../../sidecar/files.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { build, fixtureCatalogue, tempStore } from "../helpers/app.ts";
import { fakeBuild } from "../helpers/fake-build.ts";
import { rawRequest, type RawAnswer } from "../helpers/raw-http.ts";

const DUMP = '{"marker":"the-whole-catalogue-dump"}';
const OPENAPI = '{"openapi":"3.1.0","marker":"the-openapi-document"}';
const MARKERS = ["the-whole-catalogue-dump", "the-openapi-document", '"files":['];

/** Each climbs from /v1/ (or a page) to a file at the root of the API. */
const CLIMBS = [
  "/v1/../catalogue.json",
  "/v1/%2e%2e/catalogue.json",
  "/v1/%2E%2e/catalogue.json",
  "/v1/.%2e/catalogue.json",
  "/v1/%2e./manifest.json",
  "/v1/..%2fopenapi.json",
  "/v1/..%2Fcatalogue.json",
  "/v1/%2e%2e%2fcatalogue.json",
  "/v1/services/..%2f..%2fcatalogue.json",
  "/v1/services/%2e%2e/%2e%2e/manifest.json",
  "/v1/%252e%252e/catalogue.json",
  "/v1/..%5ccatalogue.json",
  "/v1/./../openapi.json",
  "/v1/%2e/%2e%2e/catalogue.json?format=json",
  "/aws/%2e%2e/v1/%2e%2e/catalogue.json",
  "/%2e%2e/catalogue.json",
];

/** Both hosts over a build holding the dump and the OpenAPI document, listening; build() closes the API after the test. */
async function hosts(): Promise<{ api: FastifyInstance; text: FastifyInstance }> {
  const dist = fakeBuild({ "api/catalogue.json": DUMP, "api/openapi.json": OPENAPI });
  const files = await BuiltFiles.open(dist);
  const store = await tempStore();
  const catalogue = fixtureCatalogue();
  const api = await build({ catalogue, store, files });
  const config = { LOG_LEVEL: "silent", TRUST_PROXY: undefined } as const;
  const text = await buildTextApp({ config, catalogue, store, api, files, perMinute: 10_000 });
  await api.listen({ port: 0, host: "127.0.0.1" });
  await text.listen({ port: 0, host: "127.0.0.1" });
  return { api, text };
}

const base = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

describe("dot segments in a request's path", () => {
  let text: FastifyInstance | undefined;
  afterEach(async () => {
    await text?.close();
    text = undefined;
  });

  it("serves the dump and the OpenAPI document at their own paths on the API host (what the climbs aim at)", async () => {
    const { api } = await hosts();
    const dump = (await rawRequest(base(api), { path: "/catalogue.json" })) as RawAnswer;
    expect(dump.body).toContain("the-whole-catalogue-dump");
    const openapi = (await rawRequest(base(api), { path: "/openapi.json" })) as RawAnswer;
    expect(openapi.body).toContain("the-openapi-document");
  });

  for (const host of ["API", "text"] as const) {
    it(`never serves them to a path that climbs, on the ${host} host: 404 in its error format`, async () => {
      const both = await hosts();
      text = both.text;
      const app = host === "API" ? both.api : both.text;
      for (const path of CLIMBS) {
        const answer = await rawRequest(base(app), { path, headers: { "user-agent": "curl/8" } });
        expect(answer, path).not.toBe("hang");
        const { status, headers, body } = answer as RawAnswer;
        for (const marker of MARKERS) expect(body, path).not.toContain(marker);
        expect(status, path).toBe(404);
        if (host === "API" || path.startsWith("/v1/")) {
          expect(headers["content-type"], path).toBe("application/json; charset=utf-8");
          expect(JSON.parse(body), path).toMatchObject({ error: "Not found", status: 404, details: /"\.\."/ });
        } else {
          expect(headers["content-type"], path).toBe("text/plain; charset=utf-8");
          expect(body, path).toContain("404 Not found");
        }
      }
    });
  }

  it("tells dot segments from names with dots", () => {
    for (const path of CLIMBS) expect(hasDotSegment(path), path).toBe(true);
    for (const path of ["/v1/services/aws-s3", "/catalogue.json", "/_astro/a.b.js", "/v1/x...y", "/..a/b", "/?q=../x"])
      expect(hasDotSegment(path), path).toBe(false);
  });
});
