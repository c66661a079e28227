/**
 * GET /v1/services?compliance= (1.10.0): the services a scheme's own published list names, each
 * with the source that names it, never a service whose tags mention it; those whose provider holds
 * the programme provider-wide (issue 100) only when asked with complianceScope=provider or all
 * (issue 115), labelled so (compliance.providerWide) and never given a source, both holdings counted
 * apart (compliance.counts); and the exposure scorecard's provider-level-only programmes.
 */
import { describe, expect, it } from "vitest";
import { exposureReport } from "../../catalogue/equivalence/exposure.ts";
import { listServices, serviceDetail } from "../../catalogue/search/query.ts";
import { providerWideProgrammes } from "../../catalogue/compliance/compliance.ts";
import type { Catalogue } from "../../catalogue/load/load.ts";
import type { ComplianceFilterScope } from "../../catalogue/schema/index.ts";
import { build, fixtureCatalogue, realCatalogue } from "../helpers/app.ts";

/**
 * Every page of the listing for one programme: slugs and, per slug, the URLs of its backing sources;
 * both holdings (complianceScope=all) unless another scope is asked, or none ("not given": the default).
 */
function answer(
  catalogue: Catalogue,
  compliance: string,
  complianceScope: ComplianceFilterScope | "not given" = "all",
  provider?: string,
) {
  const slugs: string[] = [];
  const sources: Record<string, { url: string; asOf?: string; retrieved: string }[]> = {};
  const providerWide: Record<string, string[]> = {};
  for (let page = 1; ; page++) {
    const body = listServices(catalogue, {
      page,
      limit: 200,
      compliance,
      ...(complianceScope === "not given" ? {} : { complianceScope }),
      ...(provider ? { provider } : {}),
    });
    slugs.push(...body.data.map((service) => service.slug));
    Object.assign(sources, body.compliance!.sources);
    Object.assign(providerWide, body.compliance!.providerWide);
    if (page >= body.pagination.totalPages)
      return { slugs, sources, providerWide, total: body.pagination.total, counts: body.compliance!.counts! };
  }
}

/** What the data says independently: services whose own list names the programme. */
const named = (catalogue: Catalogue, id: string) =>
  catalogue.services.filter((service) => (service.compliance ?? []).includes(id)).map((service) => service.slug);

/** Services the programme reaches only through their provider's provider-wide holding. */
const heldProviderWide = (catalogue: Catalogue, id: string) =>
  catalogue.services
    .filter(
      (service) =>
        !(service.compliance ?? []).includes(id) &&
        providerWideProgrammes(catalogue.providerById.get(service.providerId)!.provider, service).includes(id),
    )
    .map((service) => service.slug);

describe("GET /v1/services?compliance=", () => {
  it("c5: the services BSI C5 scope lists name, each with a scope list, AWS's copy dated", () => {
    const catalogue = realCatalogue();
    const { slugs, sources, providerWide } = answer(catalogue, "c5");
    const listed = named(catalogue, "c5");
    expect(listed.length).toBeGreaterThan(50);
    expect(slugs.filter((slug) => !providerWide[slug]).sort()).toEqual([...listed].sort());
    for (const slug of listed) expect(sources[slug]!.length).toBeGreaterThan(0);
    // AWS's programmes come from its 2022 tables: the copy's date is shown with each source.
    for (const slug of slugs.filter((s) => s.startsWith("aws-")))
      for (const source of sources[slug]!) expect(source.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(slugs).toContain("aws-api-gateway");
    // The 2024 C5 additions rested on a personal blog's mirror of AWS's post (issue 115): not known now.
    expect(slugs).not.toContain("aws-security-lake");
  });

  it("ens-high: the services Spain's ENS High scope lists name, with their sources", () => {
    const catalogue = realCatalogue();
    const { slugs, sources, providerWide } = answer(catalogue, "ens-high");
    const listed = named(catalogue, "ens-high");
    expect(listed.length).toBeGreaterThan(0);
    expect(slugs.filter((slug) => !providerWide[slug]).sort()).toEqual([...listed].sort());
    expect(slugs).toContain("aws-artifact");
    for (const slug of listed) expect(sources[slug]!.length).toBeGreaterThan(0);
  });

  // Issue 100: compliance=c5 answered 118 AWS services and 1 Google one, while STACKIT, IONOS and
  // Open Telekom Cloud hold C5 platform-wide. Their services are answered now, labelled provider-wide.
  it("c5: adds the services whose provider holds C5 provider-wide, labelled so and never given a source", () => {
    const catalogue = realCatalogue();
    const { slugs, sources, providerWide, total } = answer(catalogue, "c5");
    const wide = heldProviderWide(catalogue, "c5");
    expect(Object.keys(providerWide).sort()).toEqual([...wide].sort());
    expect(total).toBe(named(catalogue, "c5").length + wide.length);
    for (const provider of ["stackit", "ionos", "otc"]) {
      const theirs = slugs.filter((slug) => slug.startsWith(`${provider}-`));
      expect(theirs.length, provider).toBeGreaterThan(5);
      for (const slug of theirs) {
        expect(providerWide[slug], slug).toEqual(["c5"]);
        expect(sources[slug], slug).toEqual([]);
      }
    }
    // A preview or retired service is in no programme's scope, provider-wide or not.
    for (const slug of slugs)
      expect(["preview", "retired"]).not.toContain(catalogue.bySlug.get(slug)!.service.lifecycle?.status);
    expect(catalogue.services.some((s) => s.providerId === "otc" && !slugs.includes(s.slug))).toBe(false);
  });

  it("never labels provider-wide a programme the service's own list names", () => {
    const catalogue = realCatalogue();
    const { providerWide } = answer(catalogue, "c5,iso-27001");
    expect(Object.keys(providerWide).length).toBeGreaterThan(0);
    for (const [slug, ids] of Object.entries(providerWide))
      for (const id of ids)
        expect(catalogue.bySlug.get(slug)!.service.compliance ?? [], `${slug} ${id}`).not.toContain(id);
  });

  it("says on each service which programmes hold for it provider-wide (ServiceDetail.providerWideCompliance)", () => {
    const catalogue = realCatalogue();
    const stackit = catalogue.services.find((s) => s.providerId === "stackit" && !s.lifecycle)!;
    expect(serviceDetail(catalogue, stackit.slug)!.providerWideCompliance).toEqual(
      expect.arrayContaining(["c5", "iso-27001"]),
    );
    // Preview: none of its provider's programmes is shown on it.
    expect(serviceDetail(catalogue, "azure-horizondb")!.providerWideCompliance).toBeUndefined();
    // AWS's programmes with a complete scope list (listed) are never provider-wide on a service it leaves out.
    const aws = catalogue.providerById.get("aws")!.provider;
    const listedIds = (aws.complianceScope ?? []).filter((scope) => scope.listed).flatMap((scope) => scope.programmes);
    for (const service of catalogue.services.filter((s) => s.providerId === "aws"))
      for (const id of serviceDetail(catalogue, service.slug)!.providerWideCompliance ?? [])
        expect(listedIds, `${service.slug} ${id}`).not.toContain(id);
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
      const { slugs, sources, providerWide, total } = answer(catalogue, scheme);
      const own = slugs.filter((slug) => !providerWide[slug]);
      expect([...own].sort()).toEqual(Object.keys(listed).sort());
      expect(total).toBe(Object.keys(listed).length + heldProviderWide(catalogue, scheme).length);
      // The same through the route (its answer checked against the OpenAPI document by the helper).
      const app = await build({ catalogue });
      // Every page of the route's answer: the provider-wide services come first (by provider).
      const ownThroughRoute: string[] = [];
      const withSources: string[] = [];
      for (let page = 1; ; page++) {
        const response = await app.inject(
          `/v1/services?compliance=${scheme}&complianceScope=all&limit=200&page=${page}`,
        );
        expect(response.statusCode).toBe(200);
        const body = response.json() as {
          data: { slug: string }[];
          pagination: { totalPages: number };
          compliance: { sources: Record<string, unknown[]>; providerWide?: Record<string, string[]> };
        };
        ownThroughRoute.push(
          ...body.data.map((service) => service.slug).filter((slug) => !body.compliance.providerWide?.[slug]),
        );
        withSources.push(
          ...Object.entries(body.compliance.sources).flatMap(([slug, list]) => (list.length > 0 ? [slug] : [])),
        );
        if (page >= body.pagination.totalPages) break;
      }
      expect(ownThroughRoute.sort()).toEqual(Object.keys(listed).sort());
      expect(withSources.sort()).toEqual(Object.keys(listed).sort());
      await app.close();
      for (const [slug, host] of Object.entries(listed)) {
        const backing = sources[slug] as { url: string; offer?: string; programmes?: string[] }[];
        expect(backing.map((source) => new URL(source.url).hostname)).toEqual([host]);
        // The scope is an offer or option of the service, named as the vendor names it.
        expect(backing[0]!.offer).toMatch(/\w/);
        expect(backing[0]!.programmes).toContain(scheme);
      }
    });

  it("pci-dss: OVHcloud's Hosted Private Cloud for its Payment option, from the page that names it (issue 100)", () => {
    const catalogue = realCatalogue();
    const { sources, providerWide } = answer(catalogue, "pci-dss");
    const backing = sources["ovhcloud-hosted-private-cloud-vmware"] as { url: string; offer?: string }[];
    expect(providerWide["ovhcloud-hosted-private-cloud-vmware"]).toBeUndefined();
    expect(backing.map((source) => new URL(source.url).hostname)).toEqual(["help.ovhcloud.com"]);
    expect(backing[0]!.offer).toMatch(/PCI DSS/);
  });

  it("secnumcloud: a provider's holding is answered as provider-wide, never as a service's qualification", () => {
    const catalogue = realCatalogue();
    // S3NS services carry the word as a search tag and S3NS holds it provider-wide; neither is a list.
    expect(catalogue.services.some((s) => s.providerId === "s3ns" && s.tags?.includes("secnumcloud"))).toBe(true);
    const { slugs, sources, providerWide } = answer(catalogue, "secnumcloud");
    const s3ns = slugs.filter((slug) => slug.startsWith("s3ns-"));
    expect(s3ns.length).toBeGreaterThan(0);
    for (const slug of s3ns) {
      expect(providerWide[slug]).toEqual(["secnumcloud"]);
      expect(sources[slug]).toEqual([]);
    }
    // Outscale holds it for one region only, so not provider-wide: none of its services is answered.
    expect(slugs.some((slug) => slug.startsWith("outscale-"))).toBe(false);
  });

  it("keeps only the sources that name the service for the programme asked", () => {
    // The fixture's aws-s3 lists PCI DSS from one scope page among its other sources.
    const body = listServices(fixtureCatalogue(), {
      page: 1,
      limit: 50,
      compliance: "pci-dss",
      complianceScope: "all",
    });
    const wide = body.compliance!.providerWide ?? {};
    expect(body.data.map((s) => s.slug).filter((slug) => !wide[slug])).toEqual(["aws-s3"]);
    expect(body.compliance!.sources["aws-s3"]!.every((source) => source.backs.includes("compliance"))).toBe(true);
    expect(body.compliance!.sources["aws-s3"]!.length).toBeGreaterThan(0);
    // No fixture service lists C5: what answers is held provider-wide only, with no source.
    const c5 = listServices(fixtureCatalogue(), { page: 1, limit: 50, compliance: "c5", complianceScope: "all" });
    for (const service of c5.data) {
      expect(c5.compliance!.providerWide?.[service.slug]).toEqual(["c5"]);
      expect(c5.compliance!.sources[service.slug]).toEqual([]);
    }
  });

  it("answers an unknown programme with a 400 naming the ids", async () => {
    const app = await build();
    const response = await app.inject("/v1/services?compliance=secnum");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "Unknown compliance programme" });
    // Every filter's wording since issue 123: the value, its nearest ids, the vocabulary.
    expect(response.json().details).toMatch(/"secnum" \(nearest: secnumcloud\) is no programme the catalogue knows/);
    expect((await app.inject("/v1/services?compliance=c5")).statusCode).toBe(200);
  });
});

// Issue 115: docs/api.md said compliance= never answers a service whose provider holds the
// programme only provider-wide, while 1.11.0 answered them always (iso-27001: 1,254 services, 4 of
// them named by a list). The rule now: own by default, provider-wide only when asked, both counted.
describe("GET /v1/services?compliance=: own by default, provider-wide only when asked", () => {
  it("answers by default only the services a scope list names, counting the provider-wide ones apart", () => {
    const catalogue = realCatalogue();
    for (const id of ["iso-27001", "hds", "c5"]) {
      const { slugs, providerWide, total, counts } = answer(catalogue, id, "not given");
      expect(slugs.sort(), id).toEqual(named(catalogue, id).sort());
      expect(providerWide, id).toEqual({});
      expect(counts, id).toEqual({ own: total, provider: heldProviderWide(catalogue, id).length });
      expect(counts.provider, id).toBeGreaterThan(0);
    }
    expect(listServices(catalogue, { page: 1, limit: 1, compliance: "c5" }).compliance!.scope).toBe("own");
  });

  it("answers with complianceScope=provider only the provider-wide holders, and with all both", () => {
    const catalogue = realCatalogue();
    const own = answer(catalogue, "iso-27001", "own");
    const wide = answer(catalogue, "iso-27001", "provider");
    const all = answer(catalogue, "iso-27001", "all");
    expect(wide.slugs.sort()).toEqual(heldProviderWide(catalogue, "iso-27001").sort());
    expect(Object.keys(wide.providerWide).sort()).toEqual([...wide.slugs].sort());
    expect(all.slugs.sort()).toEqual([...own.slugs, ...wide.slugs].sort());
    // The counts are the same whichever the scope: both holdings, apart.
    for (const asked of [own, wide, all]) expect(asked.counts).toEqual({ own: own.total, provider: wide.total });
  });

  it("counts a service with one programme own and another provider-wide as provider-wide", () => {
    const catalogue = realCatalogue();
    // OVHcloud's Hosted Private Cloud names HDS by its own list; ISO/IEC 27001 is OVHcloud's, provider-wide.
    const own = answer(catalogue, "hds,iso-27001", "own");
    const wide = answer(catalogue, "hds,iso-27001", "provider");
    expect(own.slugs).not.toContain("ovhcloud-hosted-private-cloud-vmware");
    expect(wide.providerWide["ovhcloud-hosted-private-cloud-vmware"]).toEqual(["iso-27001"]);
  });

  // The case: 0 AWS services for ISO/IEC 27001 while Alibaba's answered provider-wide.
  it("answers AWS services for ISO/IEC 27001 from AWS's ISO page, with the copy's date", () => {
    const catalogue = realCatalogue();
    const { slugs, sources, counts } = answer(catalogue, "iso-27001", "not given", "aws");
    expect(slugs).toEqual(expect.arrayContaining(["aws-s3", "aws-ec2", "aws-lambda", "aws-dynamodb"]));
    expect(slugs.length).toBeGreaterThan(100);
    // AWS cites a list for ISO: a service it leaves out is not known, never provider-wide.
    expect(counts.provider).toBe(0);
    for (const slug of ["aws-s3", "aws-ec2"])
      expect(sources[slug]).toEqual([
        expect.objectContaining({
          url: "https://aws.amazon.com/compliance/iso-certified/",
          asOf: "2021-09-04",
          via: expect.stringContaining("/aws_allowlister/data/iso-certified.html"),
        }),
      ]);
  });

  it("refuses complianceScope without compliance, and a scope it does not know", async () => {
    const app = await build();
    const alone = await app.inject("/v1/services?complianceScope=all");
    expect(alone.statusCode).toBe(400);
    expect(alone.json()).toMatchObject({ error: "Invalid query", status: 400 });
    expect(alone.json().details).toMatch(/^complianceScope applies with compliance only: .*give compliance too/);
    const unknown = await app.inject("/v1/services?compliance=c5&complianceScope=everyone");
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toMatch(/complianceScope/);
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
