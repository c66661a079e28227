/**
 * Issue 123, "one filter table for every face": every row of catalogue/search/filter-table.ts asked
 * of every face that takes it — the API (app.inject), the text host's pages (Markdown), MCP's tools
 * (POST /mcp tools/call) — with an unknown value, an empty one and a name: each face refuses the
 * first two with the row's 400 and reads the name as its id, none ignores it. The site's face is
 * the search form generated from the same rows (searchFields, below) and the pages the text host
 * renders (tests/site/on-demand.test.ts).
 */
import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { searchFields, searchRequest } from "../../catalogue/outputs/page-requests.ts";
import {
  EXPOSURE_QUERY,
  FILTER_FACES,
  FILTER_TABLE,
  filterQuery,
  mcpFilterInput,
  SERVICES_QUERY,
  siteFilters,
  takes,
  textFilterNames,
  type FilterEndpoint,
  type FilterRow,
} from "../../catalogue/search/filter-table.ts";
import { LifecycleQuery, ServicesQuery } from "../../catalogue/schema/index.ts";
import { TOOLS } from "../../mcp/tools.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { build, realCatalogue, tempStore } from "../helpers/app.ts";
import { markdownTable } from "../helpers/markdown-table.ts";

/** A value no vocabulary holds, per what a row reads. */
const UNKNOWN: Partial<Record<FilterRow["reads"], string>> = {
  providers: "no-such-cloud",
  categories: "no-such-kind",
  jurisdictions: "ZZ",
  compliance: "no-such-programme",
  lifecycle: "retiredd",
  complianceScope: "mine",
  places: "mars-1",
  slugs: "aws-no-such-service",
  choices: "sometimes",
  days: "99999d",
  flag: "maybe",
};

/** What each endpoint needs beside the row asked (exposure scores ids; complianceScope goes with compliance). */
const BESIDE: Record<FilterEndpoint, (row: FilterRow) => string> = {
  services: (row) => (row.name === "complianceScope" ? "&compliance=c5" : ""),
  lifecycle: () => "",
  exposure: (row) => (row.name === "ids" ? "" : "&ids=aws-s3"),
  equivalents: () => "",
};
const API_PATH: Partial<Record<FilterEndpoint, string>> = {
  services: "/v1/services",
  lifecycle: "/v1/lifecycle",
  exposure: "/v1/exposure",
};
const TEXT_PATH: Partial<Record<FilterEndpoint, string>> = {
  services: "/search",
  lifecycle: "/lifecycle",
  equivalents: "/equivalents",
};
const TOOL: Partial<Record<FilterEndpoint, { name: string; beside: Record<string, unknown> }>> = {
  services: { name: "search_services", beside: {} },
  lifecycle: { name: "lifecycle_upcoming", beside: {} },
  exposure: { name: "exposure_scorecard", beside: { ids: ["aws-s3"] } },
};

const rows = (Object.keys(FILTER_TABLE) as FilterEndpoint[]).flatMap((endpoint) =>
  FILTER_TABLE[endpoint].map((row) => ({ endpoint, row })),
);

let api: FastifyInstance;
let text: FastifyInstance;
beforeAll(async () => {
  const catalogue = realCatalogue();
  text = await buildTextApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue,
    store: await tempStore(),
    perMinute: 100_000,
  });
});
afterAll(() => text.close());
// The build() helper closes its apps after each test: each test has its own.
beforeEach(async () => {
  api = await build();
});

const askApi = async (url: string) => {
  const response = await api.inject(url);
  return { status: response.statusCode, body: response.json<{ error?: string; filtersRead?: unknown[] }>() };
};
const askText = async (url: string) => {
  const response = await text.inject({ url, headers: { accept: "text/markdown", "user-agent": "curl/8" } });
  return { status: response.statusCode, body: response.body };
};
const MCP_HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };
const askTool = async (name: string, args: Record<string, unknown>) => {
  const response = await api.inject({
    method: "POST",
    url: "/mcp",
    headers: MCP_HEADERS,
    payload: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
  });
  const result = response.json<{
    result: { isError?: boolean; structuredContent?: { error?: string; filtersRead?: unknown[] } };
  }>().result;
  return { refused: result.isError === true, content: result.structuredContent ?? {} };
};

describe("the filter table", () => {
  it("is the API's queries: GET /v1/services's and /v1/exposure's are made of its rows, /v1/lifecycle's names them all", () => {
    expect(Object.keys(SERVICES_QUERY.shape)).toEqual(Object.keys(ServicesQuery.shape));
    for (const [name, schema] of Object.entries(ServicesQuery.shape))
      expect(SERVICES_QUERY.shape[name as keyof typeof SERVICES_QUERY.shape], name).toBe(schema);
    expect(Object.keys(filterQuery("lifecycle").shape)).toEqual(Object.keys(LifecycleQuery.shape));
    const row = (operationId: string) => ENDPOINTS.find((endpoint) => endpoint.operationId === operationId)!;
    expect(row("listServices").query).toBe(SERVICES_QUERY);
    expect(row("getExposure").query).toBe(EXPOSURE_QUERY);
    for (const operationId of ["listLifecycle", "getLifecycleAtom", "getLifecycleCalendar"])
      for (const name of Object.keys(filterQuery("lifecycle").shape))
        expect(Object.keys(row(operationId).query!.shape), `${operationId} ${name}`).toContain(name);
  });

  it("is what MCP's tools take: each row's argument in its tool's input", () => {
    for (const [endpoint, tool] of Object.entries(TOOL)) {
      const input = TOOLS.find((candidate) => candidate.name === tool.name)!.input;
      for (const name of Object.keys(mcpFilterInput(endpoint as FilterEndpoint)))
        expect(Object.keys(input), `${tool.name} ${name}`).toContain(name);
    }
    // search_services's arguments are the table's, and nothing else.
    expect(Object.keys(TOOLS.find((tool) => tool.name === "search_services")!.input).sort()).toEqual(
      Object.keys(mcpFilterInput("services")).sort(),
    );
  });

  it("says of every face that does not take a row why, and the text host reads the rows it takes", () => {
    for (const { endpoint, row } of rows)
      for (const [face, spec] of [
        ["text", row.text],
        ["site", row.site],
        ["mcp", row.mcp],
      ] as const)
        if (typeof spec === "object" && "omitted" in spec)
          expect(spec.omitted.length, `${endpoint} ${row.name} ${face}`).toBeGreaterThan(20);
    expect(textFilterNames("services")).toEqual(Object.keys(ServicesQuery.shape));
  });

  it("makes the site's search form: a control for every row the site takes, with its vocabulary", () => {
    const catalogue = realCatalogue();
    const fields = searchFields(catalogue, undefined);
    expect(fields.map((field) => field.name)).toEqual(siteFilters("services").map((row) => row.name));
    const byName = new Map(fields.map((field) => [field.name, field]));
    expect(byName.get("provider")!.options.map((option) => option.value)).toContain("ovhcloud");
    expect(byName.get("jurisdiction")!.options.map((option) => option.value)).toEqual([
      "CH",
      "CN",
      "EU",
      "JP",
      "KR",
      "SG",
      "US",
    ]);
    expect(byName.get("region")!.control).toBe("place");
    expect(byName.get("region")!.options.map((option) => option.value)).toEqual(
      expect.arrayContaining(["Frankfurt", "EU", "DE", "global"]),
    );
    // A request's names are the ids its controls show: provider=AWS selects aws.
    const read = searchFields(catalogue, searchRequest(catalogue, new URLSearchParams("provider=AWS&q=kafka")));
    expect(read.find((field) => field.name === "provider")!.value).toBe("aws");
  });
});

describe("docs/api.md's filter table", () => {
  it("is the table's rows, every face's cell as the row says, and why a face does not take one", () => {
    const docs = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
    const cell = (row: FilterRow, face: (typeof FILTER_FACES)[number]) => {
      if (!takes(row, face)) return "—";
      if (face === "api" || face === "text") return "yes";
      const spec = face === "site" ? row.site : row.mcp;
      return "control" in spec ? spec.control : "argument" in spec ? `\`${spec.argument}\`` : "?";
    };
    expect(markdownTable(docs, "| Endpoint | Parameter | Reads |")).toEqual(
      rows.map(({ endpoint, row }) => [
        endpoint,
        `\`${row.name}\``,
        row.reads,
        row.unknown,
        row.refusesEmpty ? "400" : "allowed",
        ...FILTER_FACES.map((face) => cell(row, face)),
      ]),
    );
    const flat = docs.replace(/\s+/g, " ");
    for (const { row } of rows)
      for (const spec of [row.text, row.site, row.mcp])
        if (typeof spec === "object" && "omitted" in spec) expect(flat).toContain(spec.omitted);
  });
});

describe("no face ignores a parameter", () => {
  for (const { endpoint, row } of rows) {
    const unknown = UNKNOWN[row.reads];
    if (unknown === undefined && !row.refusesEmpty) continue;
    const beside = BESIDE[endpoint](row);
    it(`${endpoint} ${row.name}: an unknown value is the row's 400 on every face that takes it, and so is an empty one`, async () => {
      const apiPath = API_PATH[endpoint];
      const textPath = TEXT_PATH[endpoint];
      const tool = TOOL[endpoint];
      const asked = [
        ...(unknown === undefined
          ? []
          : [{ value: unknown, title: row.reads === "days" ? "Invalid query" : row.unknown }]),
        ...(row.refusesEmpty ? [{ value: "", title: undefined }] : []),
      ];
      for (const { value, title } of asked) {
        const query = `?${row.name}=${encodeURIComponent(value)}${beside}`;
        if (apiPath && takes(row, "api")) {
          const answer = await askApi(`${apiPath}${query}`);
          expect(answer.status, `API ${query}`).toBe(400);
          if (title) expect(answer.body.error, `API ${query}`).toBe(title);
        }
        if (textPath && takes(row, "text")) {
          const answer = await askText(`${textPath}${query}`);
          expect(answer.status, `text ${textPath}${query}`).toBe(400);
          if (title) expect(answer.body, `text ${textPath}${query}`).toContain(title);
        }
        if (tool && "argument" in row.mcp && value !== "") {
          const list =
            row.reads === "places" || row.reads === "slugs" || ["compliance", "jurisdiction"].includes(row.name);
          const argument = row.reads === "days" ? 99_999 : list ? [value] : row.reads === "flag" ? value : value;
          const answer = await askTool(tool.name, { ...tool.beside, [row.mcp.argument]: argument });
          expect(answer.refused, `MCP ${tool.name} ${row.mcp.argument}=${value}`).toBe(true);
        }
      }
    });
  }
});

describe("values are ids or names, case-insensitively, on every face", () => {
  it("reads provider=AWS, Google Cloud and OVH as their ids and says so", async () => {
    for (const [given, id] of [
      ["AWS", "aws"],
      ["Google Cloud", "gcp"],
      ["OVH", "ovhcloud"],
    ] as const) {
      const api = await askApi(`/v1/services?provider=${encodeURIComponent(given)}&limit=1`);
      expect(api.status, given).toBe(200);
      expect(api.body.filtersRead, given).toEqual([{ parameter: "provider", given, value: id }]);
      const page = await askText(`/search?provider=${encodeURIComponent(given)}&q=storage`);
      expect(page.status, given).toBe(200);
      expect(page.body).toContain(`Read provider "${given}" as ${id}.`);
      const tool = await askTool("search_services", { provider: given, query: "storage", limit: 1 });
      expect(tool.refused, given).toBe(false);
      expect(tool.content.filtersRead, given).toEqual([{ parameter: "provider", given, value: id }]);
    }
  });

  it("honours jurisdiction on the text host's /search as the API does (kafka in the EU)", async () => {
    const api = await askApi("/v1/services?q=kafka&jurisdiction=EU&limit=50");
    const slugs = (api.body as unknown as { data: { slug: string; providerId: string }[] }).data;
    expect(slugs.length).toBeGreaterThan(0);
    const page = await askText("/search?q=kafka&jurisdiction=EU");
    expect(page.status).toBe(200);
    expect(page.body).toContain(`${slugs.length} services match`);
    for (const provider of ["/aws/", "/azure/", "/gcp/", "/alibaba/"]) expect(page.body).not.toContain(`](${provider}`);
  });

  it("refuses a 480-character region in the same words on GET and in a POST body", async () => {
    const long = "a".repeat(480);
    const get = await askApi(`/v1/services?region=${long}`);
    expect(get.status).toBe(400);
    const post = await api.inject({
      method: "POST",
      url: "/v1/policies/alpha-scp",
      payload: { approvedServiceIds: ["aws-s3"], allowedLocations: [long] },
    });
    expect(post.statusCode).toBe(400);
    const reason = "is 480 characters; a place is at most 40";
    expect((get.body as { details?: string }).details).toContain(reason);
    expect(post.json<{ details: string }>().details).toContain(reason);
  });
});
