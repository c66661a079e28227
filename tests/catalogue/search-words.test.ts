/**
 * Issue 123's search words: the names the issue found answering nothing or the wrong thing, the
 * abbreviations people type (catalogue/data/search-abbreviations.yaml, each with the vendor page
 * that uses it), a job's words outweighing what it acts on (search-words.yaml `jobs`), and answers
 * never empty while some words match — on the API's listing and the site's search over the JSON
 * it receives (the text host and MCP: tests/sidecar/search-words-faces.test.ts). The loader's
 * refusals of the two data files (catalogue/load/words-places.ts) are shown on bad rows.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { abbreviationProblems, jobProblems, metroProblems } from "../../catalogue/load/words-places.ts";
import type { MetrosFileT, SearchAbbreviationsFileT, ServiceEntryT } from "../../catalogue/schema/index.ts";
import { listServices } from "../../catalogue/search/query.ts";
import { searchData, ServiceSearch } from "../../catalogue/search/search.ts";
import { realCatalogue } from "../helpers/app.ts";
import { RANKING_CASES } from "../fixtures/ranking-queries.ts";

const catalogue = realCatalogue();
const site = new ServiceSearch(JSON.parse(JSON.stringify(searchData(catalogue))));

/** The first `n` slugs the API answers, held equal to the site's. */
function top(query: string, n = 3): string[] {
  const api = listServices(catalogue, { q: query, page: 1, limit: n }).data.map((service) => service.slug);
  expect(site.search(query).slugs.slice(0, n), `${query}: the site's order`).toEqual(api);
  return api;
}
const members = (...groups: string[]) =>
  new Set(catalogue.groups.filter((group) => groups.includes(group.id)).flatMap((group) => group.services));

describe("the names issue 123 found answering nothing or the wrong thing", () => {
  it("finds Azure's and Google's app testing with the vendor's name before the product's words", () => {
    expect(top("Azure App Testing")[0]).toBe("azure-playwright-workspaces");
    expect(top("Google App Testing")[0]).toBe("gcp-firebase-test-lab");
  });

  it("reads the abbreviations people type: ACA, AKS, EKS, GKE, ADF, ASB, SNS", () => {
    const expected = {
      ACA: "azure-container-apps",
      AKS: "azure-kubernetes-service",
      EKS: "aws-eks",
      GKE: "gcp-gke",
      ADF: "azure-data-factory",
      ASB: "azure-service-bus",
      SNS: "aws-sns",
    };
    for (const [abbreviation, slug] of Object.entries(expected)) expect(top(abbreviation)[0], abbreviation).toBe(slug);
  });

  it("answers backing up virtual machines with backup services, in English, German and French", () => {
    const backup = members("backup");
    for (const query of ["VM backup", "Backup für virtuelle Maschinen", "sauvegarde de machines virtuelles"])
      for (const slug of top(query)) expect(backup.has(slug), `${query}: ${slug}`).toBe(true);
  });

  it("answers a managed NoSQL database in French with NoSQL databases, not document AI", () => {
    const nosql = members("document-database", "key-value-database", "wide-column-database");
    for (const slug of top("base de données NoSQL gérée")) expect(nosql.has(slug), slug).toBe(true);
  });
});

describe("the abbreviations of search-abbreviations.yaml", () => {
  const file = catalogue.source.abbreviations!;

  it("each find their service first, with a vendor's page or a mark that none was found", () => {
    expect(file.abbreviations.length).toBeGreaterThanOrEqual(6);
    for (const row of file.abbreviations) {
      expect(top(row.abbreviation)[0], row.abbreviation).toBe(row.service);
      expect(Boolean(row.sources) !== Boolean(row.unsourced), row.abbreviation).toBe(true);
    }
  });

  const known = {
    providers: new Map([...catalogue.providerById].map(([id, { file: providerFile }]) => [id, { file: providerFile }])),
    entries: new Map(
      catalogue.services.map((service) => [
        service.slug,
        { providerId: service.providerId, entry: service as unknown as ServiceEntryT },
      ]),
    ),
    groups: catalogue.groups,
  };

  it("are refused for an unknown service, a page off the vendor's domains and another service's name", () => {
    const row = (fields: Partial<SearchAbbreviationsFileT["abbreviations"][number]>) => ({
      abbreviation: "ZZQ",
      service: "azure-container-apps",
      sources: [{ url: "https://learn.microsoft.com/azure/container-apps/", says: "ZZQ", retrieved: "2026-11-29" }],
      ...fields,
    });
    const problems = (rows: SearchAbbreviationsFileT["abbreviations"]) =>
      abbreviationProblems({ vendorOrganisations: { azure: ["Azure"] }, abbreviations: rows }, "file", known);
    expect(problems([row({})])).toEqual([]);
    expect(problems([row({ service: "azure-no-such-thing" })]).join()).toMatch(/no service has the slug/);
    expect(
      problems([row({ sources: [{ url: "https://example.com/aca", says: "ZZQ", retrieved: "2026-11-29" }] })]).join(),
    ).toMatch(/neither on azure's officialDomains nor in its GitHub organisations/);
    // A vendor's own GitHub organisation is its page too.
    expect(
      problems([row({ sources: [{ url: "https://github.com/Azure/zzq", says: "ZZQ", retrieved: "2026-11-29" }] })]),
    ).toEqual([]);
    expect(problems([row({ abbreviation: "GKE" })]).join()).toMatch(/"GKE" is a name of [a-z0-9]+-gke:/);
    expect(problems([row({}), row({})]).join()).toMatch(/written twice/);
  });

  it("refuse a job that is no equivalence group, and a metro no provider has a region in", () => {
    expect(jobProblems(["backup", "no-such-job"], "search-words.yaml", known)).toEqual([
      'search-words.yaml: field jobs.1: "no-such-job" is not an equivalence group',
    ]);
    const metros = (fields: Partial<MetrosFileT["metros"][number]>, url = "https://learn.microsoft.com/azure/") =>
      metroProblems(
        {
          citySources: { azure: { url, says: "cities", retrieved: "2026-11-29" } },
          metros: [{ id: "frankfurt", name: "Frankfurt", country: "DE", names: [], cities: ["Frankfurt"], ...fields }],
        },
        "metros.yaml",
        known,
      );
    expect(metros({})).toEqual([]);
    expect(metros({ cities: ["Atlantis"] }).join()).toMatch(/no provider has a region in DE whose city/);
    expect(metros({}, "https://example.com/regions").join()).toMatch(/not on azure's officialDomains/);
  });
});

describe("answers while some words match", () => {
  const answered = RANKING_CASES.map((c) => c.query).filter(
    (query) => listServices(catalogue, { q: query, page: 1, limit: 1 }).pagination.total > 0,
  );
  const vendors = [...catalogue.providerById.values()].map(({ provider }) => provider.shortName);

  it("never empties an answer for a vendor's name before the product's words", () => {
    fc.assert(
      fc.property(fc.constantFrom(...vendors), fc.constantFrom(...answered), (vendor, query) => {
        expect(listServices(catalogue, { q: `${vendor} ${query}`, page: 1, limit: 1 }).data.length).toBe(1);
      }),
      { numRuns: 150 },
    );
  });

  it("never empties an answer for a word no service holds beside words that match", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...answered),
        fc.stringMatching(/^[qxz]{2}[a-z]{4,8}$/),
        fc.boolean(),
        (query, nonsense, before) => {
          const q = before ? `${nonsense} ${query}` : `${query} ${nonsense}`;
          expect(listServices(catalogue, { q, page: 1, limit: 1 }).data.length, q).toBe(1);
        },
      ),
      { numRuns: 150 },
    );
  });
});
