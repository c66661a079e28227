/**
 * The service field table (catalogue/schema/service-fields.ts): each row reaches the data file's
 * schema, the API's schema and OpenAPI, the loader's copy, the URL checks and both renderers, and a
 * field added to it asks for a line in the changelog.
 */
import { describe, expect, it } from "vitest";
import { CHANGELOG } from "../../catalogue/contract/changelog.ts";
import { openApiDocument } from "../../catalogue/contract/openapi.ts";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { serviceProblems, type Known } from "../../catalogue/load/entry-checks.ts";
import { renderMarkdown } from "../../catalogue/format/markdown.ts";
import { servicePage } from "../../catalogue/render/service-page.ts";
import { OutboundClickBody, Service, ServiceEntry } from "../../catalogue/schema/index.ts";
import {
  SERVICE_FIELD_ROWS,
  SERVICE_FIELDS,
  serviceFieldUrls,
  type ServiceFieldShown,
} from "../../catalogue/schema/service-fields.ts";
import { API_VERSION } from "../../catalogue/base/version.ts";
import { URLS, realCatalogue } from "../helpers/app.ts";

/**
 * The table's fields of published versions, with the version that added each: history, which a new
 * field never changes (it is added at API_VERSION, and the changelog's entry for it names it).
 */
const PUBLISHED: Readonly<Record<string, string>> = {
  description: "1.0.0",
  logo: "1.0.0",
  pricingModel: "1.0.0",
  hasFreeTier: "1.0.0",
  documentationUrl: "1.0.0",
  pricingUrl: "1.0.0",
  aliases: "1.6.0",
  tags: "1.0.0",
};

const changesOf = (version: string) => CHANGELOG.find((entry) => entry.version === version)?.changes ?? [];

describe("the service field table", () => {
  it("asks for a changelog line for a field it adds, and keeps the published ones", () => {
    for (const { key, since } of SERVICE_FIELD_ROWS) {
      // A field not yet published is added at this version, not back-dated into an old one.
      expect(PUBLISHED[key] ?? API_VERSION, `${key}: since`).toBe(since);
      if (since === "1.0.0") continue;
      const named = changesOf(since).some((line) => new RegExp(`\\b${key}\\b`).test(line));
      expect(named, `the changelog entry of ${since} names the service field ${key}`).toBe(true);
    }
    for (const key of Object.keys(PUBLISHED))
      expect(key in SERVICE_FIELDS, `${key} is published: removing it breaks clients`).toBe(true);
  });

  it("gives each row to the data file's schema, the API's and OpenAPI", () => {
    const openApiService = (openApiDocument(URLS, ENDPOINTS).components.schemas as Record<string, unknown>)[
      "Service"
    ] as {
      properties: Record<string, { description?: string }>;
    };
    for (const { key } of SERVICE_FIELD_ROWS) {
      expect(Object.keys(ServiceEntry.shape), key).toContain(key);
      expect(Object.keys(Service.shape), key).toContain(key);
      expect(openApiService.properties[key]?.description, key).toBeTruthy();
    }
  });

  it("copies each row into the service and shows the shown ones in the text rendering", () => {
    const catalogue = realCatalogue();
    for (const { key, shown } of SERVICE_FIELD_ROWS) {
      const record = catalogue.source.services.find(({ entry }) => entry[key] !== undefined);
      if (!record) continue;
      const service = catalogue.bySlug.get(record.entry.slug)!.service;
      expect(service[key], key).toEqual(record.entry[key]);
      if (shown && service[key] !== false)
        expect(renderMarkdown(servicePage(catalogue, service.slug)), key).toContain(shown.label);
    }
  });

  it("checks every url row's host against the provider's official domains", () => {
    const urlRows = SERVICE_FIELD_ROWS.filter((row) => row.url).map((row) => row.key);
    const entry = Object.fromEntries(urlRows.map((key) => [key, `https://example.org/${key}`]));
    expect(serviceFieldUrls(entry).map(([field]) => field)).toEqual(urlRows);
    const known = {
      compliance: new Map(),
      compatibility: new Map(),
      categoryById: new Map([["storage", {}]]),
      providers: new Map([["aws", { file: { officialDomains: ["aws.amazon.com"] } }]]),
    } as unknown as Known;
    const problems = serviceProblems(
      { slug: "aws-x", name: "X", category: "storage", ...entry },
      "aws",
      known,
      undefined,
    );
    expect(problems).toEqual(
      urlRows.map((key) => `field ${key}: host example.org is not one of aws's officialDomains`),
    );
  });

  it("names each link's data-outbound with a kind POST /v1/analytics/outbound accepts", () => {
    const outbound = SERVICE_FIELD_ROWS.flatMap(({ shown }) => (shown?.outbound ? [shown.outbound] : []));
    expect(outbound.length).toBeGreaterThan(0);
    for (const kind of outbound) expect(OutboundClickBody.shape.kind.safeParse(kind).success, kind).toBe(true);
    // The row's type is the endpoint's kind: a name the endpoint refuses does not typecheck.
    // @ts-expect-error "docs" is not an outbound kind
    const refused: ServiceFieldShown = { label: "Docs", as: "link", outbound: "docs" };
    expect(OutboundClickBody.shape.kind.safeParse(refused.outbound).success).toBe(false);
  });
});
