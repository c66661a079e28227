/**
 * GET /v1/services?compliance= (1.10.0): the services a scheme's own published list names, each
 * with the source that names it, never a service whose provider only holds the programme or whose
 * tags mention it; and the exposure scorecard's provider-level-only programmes.
 */
import { describe, expect, it } from "vitest";
import { exposureReport } from "../../catalogue/equivalence/exposure.ts";
import { listServices } from "../../catalogue/search/query.ts";
import type { Catalogue } from "../../catalogue/load/load.ts";
import { build, fixtureCatalogue, realCatalogue } from "../helpers/app.ts";

/** Every page of the listing for one programme: slugs and, per slug, the URLs of its backing sources. */
function answer(catalogue: Catalogue, compliance: string) {
  const slugs: string[] = [];
  const sources: Record<string, { url: string; asOf?: string }[]> = {};
  for (let page = 1; ; page++) {
    const body = listServices(catalogue, { page, limit: 200, compliance });
    slugs.push(...body.data.map((service) => service.slug));
    Object.assign(sources, body.compliance!.sources);
    if (page >= body.pagination.totalPages) return { slugs, sources, total: body.pagination.total };
  }
}

/** What the data says independently: services whose own list names the programme. */
const named = (catalogue: Catalogue, id: string) =>
  catalogue.services.filter((service) => (service.compliance ?? []).includes(id)).map((service) => service.slug);

describe("GET /v1/services?compliance=", () => {
  it("c5: exactly the services BSI C5 scope lists name, each with a scope list, AWS's copy dated", () => {
    const catalogue = realCatalogue();
    const { slugs, sources } = answer(catalogue, "c5");
    expect(slugs.length).toBeGreaterThan(50);
    expect([...slugs].sort()).toEqual(named(catalogue, "c5").sort());
    for (const slug of slugs) expect(sources[slug]!.length).toBeGreaterThan(0);
    // AWS's programmes come from its 2022 tables: the copy's date is shown with each source.
    for (const slug of slugs.filter((s) => s.startsWith("aws-")))
      for (const source of sources[slug]!) expect(source.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(slugs).toContain("aws-api-gateway");
    // Services AWS added in its 2024 C5 cycle (blog of 2025-01-29) carry that copy's date, not 2022's.
    expect(sources["aws-security-lake"]!.map((source) => source.asOf)).toEqual(["2025-01-29"]);
  });

  it("ens-high: exactly the services Spain's ENS High scope lists name, with their sources", () => {
    const catalogue = realCatalogue();
    const { slugs, sources } = answer(catalogue, "ens-high");
    expect(slugs.length).toBeGreaterThan(0);
    expect([...slugs].sort()).toEqual(named(catalogue, "ens-high").sort());
    expect(slugs).toContain("aws-artifact");
    for (const slug of slugs) expect(sources[slug]!.length).toBeGreaterThan(0);
  });

  // The services each scheme's published scope names, as read on the vendors' pages on 2026-11-27
  // (catalogue/data/README.md, "Compliance"), written here by hand so that a programme added to or
  // dropped from a service without its list fails: ANSSI's own list was not readable, so SecNumCloud
  // counts only an offer its vendor says is qualified (never "in qualification"); HDS only a service
  // whose vendor page says it is certified. S3NS's PREMI3NS qualification stays provider-level (no
  // readable page names its services).
  const SCHEME_LISTS = {
    secnumcloud: {
      "ovhcloud-hosted-private-cloud-vmware": "docs.ovhcloud.com",
      "ovhcloud-bare-metal-pod": "help.ovhcloud.com",
    },
    hds: { "ovhcloud-hosted-private-cloud-vmware": "help.ovhcloud.com" },
  } as const;

  for (const [scheme, listed] of Object.entries(SCHEME_LISTS))
    it(`${scheme}: exactly the services the vendors' scope pages name, each with that page and the offer in scope`, async () => {
      const catalogue = realCatalogue();
      const { slugs, sources, total } = answer(catalogue, scheme);
      expect([...slugs].sort()).toEqual(Object.keys(listed).sort());
      expect(total).toBe(Object.keys(listed).length);
      // The same through the route (its answer checked against the OpenAPI document by the helper).
      const app = await build({ catalogue });
      const response = await app.inject(`/v1/services?compliance=${scheme}&limit=200`);
      expect(response.statusCode).toBe(200);
      const body = response.json() as { data: { slug: string }[]; compliance: { sources: Record<string, unknown[]> } };
      expect(body.data.map((service) => service.slug).sort()).toEqual(Object.keys(listed).sort());
      expect(Object.keys(body.compliance.sources).sort()).toEqual(Object.keys(listed).sort());
      await app.close();
      for (const [slug, host] of Object.entries(listed)) {
        const backing = sources[slug] as { url: string; offer?: string; programmes?: string[] }[];
        expect(backing.map((source) => new URL(source.url).hostname)).toEqual([host]);
        // The scope is an offer or option of the service, named as the vendor names it.
        expect(backing[0]!.offer).toMatch(/\w/);
        expect(backing[0]!.programmes).toEqual([scheme]);
      }
    });

  it("secnumcloud: a tag or a provider's holding is not a qualification", () => {
    const catalogue = realCatalogue();
    // S3NS services carry the word as a search tag and S3NS holds it provider-wide; neither is a list.
    expect(catalogue.services.some((s) => s.providerId === "s3ns" && s.tags?.includes("secnumcloud"))).toBe(true);
    expect(answer(catalogue, "secnumcloud").slugs.some((slug) => slug.startsWith("s3ns-"))).toBe(false);
  });

  it("keeps only the sources that name the service for the programme asked", () => {
    // The fixture's aws-s3 lists PCI DSS from one scope page among its other sources.
    const body = listServices(fixtureCatalogue(), { page: 1, limit: 50, compliance: "pci-dss" });
    expect(body.data.map((s) => s.slug)).toEqual(["aws-s3"]);
    expect(body.compliance!.sources["aws-s3"]!.every((source) => source.backs.includes("compliance"))).toBe(true);
    expect(body.compliance!.sources["aws-s3"]!.length).toBeGreaterThan(0);
    expect(listServices(fixtureCatalogue(), { page: 1, limit: 50, compliance: "c5" }).data).toEqual([]);
  });

  it("answers an unknown programme with a 400 naming the ids", async () => {
    const app = await build();
    const response = await app.inject("/v1/services?compliance=secnum");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "Unknown compliance programme" });
    expect(response.json().details).toMatch(/unknown programme "secnum".*secnumcloud/);
    expect((await app.inject("/v1/services?compliance=c5")).statusCode).toBe(200);
  });
});

describe("the exposure scorecard's compliance", () => {
  it("says which programmes are claimed at provider level only, apart from the service's own", () => {
    const catalogue = realCatalogue();
    const [zaraz, gateway] = exposureReport(catalogue, ["cloudflare-zaraz", "aws-api-gateway"]).services;
    // Cloudflare holds ISO/IEC 27001 platform-wide; no scope list the catalogue cites names Zaraz.
    expect(zaraz!.compliance.own).toEqual([]);
    expect(zaraz!.compliance.providerOnly).toContain("iso-27001");
    // API Gateway's own programmes are never repeated as the provider's.
    expect(gateway!.compliance.own).toContain("c5");
    for (const id of gateway!.compliance.own) expect(gateway!.compliance.providerOnly).not.toContain(id);
  });
});
