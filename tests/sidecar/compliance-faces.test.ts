/**
 * The compliance filter's one rule on every face (issue 115): own entries by default, provider-wide
 * holdings only when asked (complianceScope=provider or all), both counted apart. The API, MCP's
 * search_services, the text host's /search and the site's search box (its index fed to the same
 * rule) answer the same services for the same question. The rule's own cases:
 * tests/catalogue/compliance-filter.test.ts.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { scopeKeeps } from "../../catalogue/compliance/compliance.ts";
import { listServices } from "../../catalogue/search/query.ts";
import type { ComplianceFilterScope } from "../../catalogue/schema/index.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { complianceHeldAt } from "../../site/src/lib/search-compliance.ts";
import { siteSearchIndex } from "../../site/src/lib/search-index.ts";
import { build, realCatalogue, tempStore, URLS } from "../helpers/app.ts";

interface Listing {
  data: { slug: string }[];
  pagination: { total: number };
  compliance: {
    scope: string;
    counts: { own: number; provider: number };
    providerWide?: Record<string, string[]>;
    sources: Record<string, { url: string; asOf?: string }[]>;
  };
}

async function textApp() {
  const app = await buildTextApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: realCatalogue(),
    store: await tempStore(),
    perMinute: 10_000,
    urls: URLS,
  });
  onTestFinished(() => app.close());
  return app;
}

/** Every slug the API lists for a question, over all its pages. */
function allSlugs(compliance: string, complianceScope?: ComplianceFilterScope, provider?: string): string[] {
  const catalogue = realCatalogue();
  const query = {
    compliance,
    limit: 200,
    ...(complianceScope ? { complianceScope } : {}),
    ...(provider ? { provider } : {}),
  };
  const first = listServices(catalogue, { ...query, page: 1 });
  const pages = Array.from({ length: first.pagination.totalPages - 1 }, (_, i) =>
    listServices(catalogue, { ...query, page: i + 2 }),
  );
  return [first, ...pages].flatMap((page) => page.data.map((service) => service.slug));
}

describe("the compliance filter on every face", () => {
  it("API: ISO/IEC 27001 on AWS answers S3 and EC2 as their own, from AWS's ISO page of 2021-09-04", async () => {
    const app = await build();
    const response = await app.inject("/v1/services?compliance=iso-27001&provider=aws&limit=200");
    expect(response.statusCode).toBe(200);
    const body = response.json<Listing>();
    const slugs = body.data.map((service) => service.slug);
    expect(slugs).toEqual(expect.arrayContaining(["aws-s3", "aws-ec2"]));
    expect(body.compliance).toMatchObject({ scope: "own", counts: { own: slugs.length, provider: 0 } });
    expect(body.compliance.providerWide).toEqual({});
    expect(body.compliance.sources["aws-s3"]!.map((source) => [source.url, source.asOf])).toEqual([
      ["https://aws.amazon.com/compliance/iso-certified/", "2021-09-04"],
    ]);
  });

  it("API: without complianceScope no provider-wide holder is listed, and the answer counts them apart", async () => {
    const app = await build();
    const own = (await app.inject("/v1/services?compliance=hds&limit=200")).json<Listing>();
    const all = (await app.inject("/v1/services?compliance=hds&complianceScope=all&limit=200")).json<Listing>();
    expect(own.data.map((service) => service.slug)).toEqual(["ovhcloud-hosted-private-cloud-vmware"]);
    expect(own.compliance.counts.own).toBe(1);
    expect(own.compliance.counts.provider).toBeGreaterThan(100);
    expect(all.pagination.total).toBe(own.compliance.counts.own + own.compliance.counts.provider);
    expect(all.compliance.counts).toEqual(own.compliance.counts);
  });

  it("MCP: search_services answers what the API answers, own by default and provider-wide when asked", async () => {
    const app = await build();
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp`)));
    onTestFinished(() => client.close());
    for (const [args, url] of [
      [{ compliance: ["c5"], limit: 5 }, "/v1/services?compliance=c5&limit=5"],
      [
        { compliance: ["c5"], complianceScope: "provider", limit: 5 },
        "/v1/services?compliance=c5&complianceScope=provider&limit=5",
      ],
    ] as const) {
      const result = (await client.callTool({ name: "search_services", arguments: args })) as unknown as {
        structuredContent: Listing;
      };
      const api = (await app.inject(url)).json<Listing>();
      expect(result.structuredContent.data.map((s) => s.slug)).toEqual(api.data.map((s) => s.slug));
      expect(result.structuredContent.compliance.counts).toEqual(api.compliance.counts);
      expect(result.structuredContent.compliance.scope).toBe(args.complianceScope ?? "own");
    }
  });

  it("text host: /search?compliance= lists the own holders without words, counts both and links the others", async () => {
    const app = await textApp();
    const response = await app.inject({
      url: "/search?compliance=iso-27001&provider=aws",
      headers: { accept: "text/markdown" },
    });
    expect(response.statusCode).toBe(200);
    const { counts } = listServices(realCatalogue(), {
      compliance: "iso-27001",
      provider: "aws",
      page: 1,
      limit: 1,
    }).compliance!;
    expect(response.body).toContain(
      `ISO/IEC 27001 — named by a scope list (their own): ${counts!.own} services; held only provider-wide, through their provider: 0 services. Shown: their own.`,
    );
    // The first page is the API's first page: AWS's services in the catalogue's order.
    expect(response.body).toContain("[Amazon API Gateway](/aws/api-gateway)");
    expect(response.body).toContain("complianceScope=all");
    expect(response.body).not.toContain("provider-wide: ");
  });

  it("text host: complianceScope=provider labels each service provider-wide, as the API's answer does", async () => {
    const app = await textApp();
    const response = await app.inject({
      url: "/search?compliance=c5&complianceScope=provider&provider=stackit",
      headers: { accept: "text/markdown" },
    });
    expect(response.statusCode).toBe(200);
    const slugs = allSlugs("c5", "provider", "stackit");
    expect(slugs.length).toBeGreaterThan(5);
    expect(response.body).toContain(`${slugs.length} services match`);
    expect(response.body).toContain("; provider-wide: BSI C5 (Germany)");
    // An unknown programme is the API's 400, on this face too (issue 123: one filter, one refusal).
    const unknown = await app.inject({ url: "/search?q=storage&compliance=nope", headers: { accept: "text/plain" } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain("Unknown compliance programme");
    expect(unknown.body).toContain('"nope"');
  });

  it("site: the search box's index, read by the same rule, keeps the services the API lists", () => {
    const catalogue = realCatalogue();
    const index = siteSearchIndex(catalogue);
    for (const compliance of ["iso-27001", "c5", "hds,iso-27001", "secnumcloud"])
      for (const scope of ["own", "provider", "all"] as const) {
        const asked = compliance.split(",");
        const kept = index.search.docs
          .filter((_, position) => scopeKeeps(scope, complianceHeldAt(index, position, asked)))
          .map((doc) => doc.id);
        expect(kept, `${compliance} ${scope}`).toEqual(allSlugs(compliance, scope));
      }
  });
});
