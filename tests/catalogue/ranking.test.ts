import { describe, expect, it } from "vitest";
import { listServices } from "../../catalogue/search/query.ts";
import { servicePath } from "../../catalogue/render/pages.ts";
import { searchData, ServiceSearch, serviceSearch } from "../../catalogue/search/search.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { realCatalogue, tempStore } from "../helpers/app.ts";
import {
  HELD_OUT_CASES,
  HELD_OUT_MISSES,
  NONSENSE_QUERIES,
  RANKING_CASES,
  type RankingCase,
} from "../fixtures/ranking-queries.ts";

const apiTop = (query: string, top: number) =>
  listServices(realCatalogue(), { q: query, page: 1, limit: top }).data.map((s) => s.slug);

function expectTop(slugs: readonly string[], { query, expect: expected }: RankingCase) {
  for (const wanted of expected) {
    const either = wanted.split("|");
    expect(
      either.some((slug) => slugs.includes(slug)),
      `${query}: ${wanted} not in ${slugs.join(" ")}`,
    ).toBe(true);
  }
}

/** The site's search: the same class over searchData() as the browser receives it (JSON). */
let siteSearch: ServiceSearch | undefined;
const site = () => (siteSearch ??= new ServiceSearch(JSON.parse(JSON.stringify(searchData(realCatalogue())))));

describe("the ranking table's expected services exist", () => {
  it.each([...RANKING_CASES, ...HELD_OUT_CASES])("$query", ({ expect: expected }) => {
    for (const wanted of expected)
      for (const slug of wanted.split("|")) expect(realCatalogue().bySlug.has(slug), slug).toBe(true);
  });
});

describe("the one ranking (API q, text host /search, site search box)", () => {
  it.each(RANKING_CASES)("API: $expect in the top $top for $query", (ranking) => {
    expectTop(apiTop(ranking.query, ranking.top), ranking);
  });

  it("the site's in-browser index ranks exactly as the API for every query of the table", () => {
    for (const { query } of [...RANKING_CASES, ...HELD_OUT_CASES])
      expect(site().search(query).slugs.slice(0, 20), query).toEqual(apiTop(query, 20));
  });

  it("the text host's /search lists the API's order", async () => {
    const app = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: realCatalogue(),
      store: await tempStore(),
      perMinute: 10_000,
    });
    for (const { query } of RANKING_CASES) {
      const response = await app.inject({
        url: `/search?q=${encodeURIComponent(query)}`,
        headers: { "user-agent": "curl/8", accept: "text/markdown" },
      });
      expect(response.statusCode, query).toBe(200);
      // Service links only: "Did you mean" and the page links lead to other searches.
      const paths = [...response.body.matchAll(/\]\((\/[^)\s]+)\)/g)]
        .map((match) => match[1])
        .filter((path) => !path!.startsWith("/search"));
      const expected = apiTop(query, 10).map((slug) => servicePath(realCatalogue().bySlug.get(slug)!.service));
      expect(paths.slice(0, 10), query).toEqual(expected);
    }
    await app.close();
  });

  it("shows a kind's flagships across the largest providers before a second service of any one provider", () => {
    for (const query of ["kubernetes", "object storage", "dns", "virtual machines", "cdn", "redis"]) {
      const providers = apiTop(query, 8).map((slug) => realCatalogue().bySlug.get(slug)!.service.providerId);
      expect(new Set(providers).size, query).toBe(providers.length);
      expect(providers.slice(0, 3), query).toEqual(["aws", "azure", "gcp"]);
    }
  });

  it("puts a named provider's matches first and keeps the others after them", () => {
    const slugs = apiTop("ovh kubernetes", 50);
    expect(slugs[0]).toBe("ovhcloud-managed-kubernetes");
    expect(slugs).toContain("aws-eks");
    expect(serviceSearch(realCatalogue()).search("ovh kubernetes").providers).toEqual(["ovhcloud"]);
  });

  it("breaks ties by prominence, not the alphabet: kubernetes does not start with Akamai, Alibaba, Aruba", () => {
    expect(apiTop("kubernetes", 3).filter((slug) => /^(akamai|alibaba|aruba)-/.test(slug))).toEqual([]);
  });

  it("answers a typo with results and a corrected spelling", () => {
    const outcome = serviceSearch(realCatalogue()).search("postgers");
    expect(outcome.slugs.length).toBeGreaterThan(0);
    // A whole word the catalogue reads (its shorthand for PostgreSQL), never a stem.
    expect(outcome.suggestion).toBe("postgres");
    // "postgress" is a form of that word (the Dutch stemmer's), read as it without a respelling.
    expect(serviceSearch(realCatalogue()).search("postgress").slugs).toEqual(
      serviceSearch(realCatalogue()).search("postgres").slugs,
    );
  });

  it("falls back to the closest matches when no service has every word", () => {
    const outcome = serviceSearch(realCatalogue()).search("kubernetes xyzzyqwerty");
    expect(outcome.closest).toBe(true);
    expect(outcome.slugs.slice(0, 3)).toEqual(["aws-eks", "azure-kubernetes-service", "gcp-gke"]);
  });

  it("reads a repeated word once and at most eight words, so a long query costs no more than a short one", () => {
    const search = serviceSearch(realCatalogue());
    expect(search.search("kubernetes ".repeat(100))).toEqual(search.search("kubernetes"));
    const eight = "amazon simple storage service s3 object buckets archive";
    // The one service with every word first; those with some of them after it.
    expect(search.search(eight)).toMatchObject({ closest: false });
    expect(search.search(eight).slugs[0]).toBe("aws-s3");
    expect(search.search(`${eight} kubernetes`)).toEqual(search.search(eight));
  });

  it("says which sub-service a service was found through, in the API's answer too", () => {
    expect(serviceSearch(realCatalogue()).search("glacier deep archive").subServices["aws-s3"]).toBe(
      "S3 Glacier Deep Archive",
    );
    const found = listServices(realCatalogue(), { q: "s3 express one zone", page: 1, limit: 5 });
    expect(found.search?.subServices).toEqual({ "aws-s3": "S3 Express One Zone" });
    // A word of the service's own name ("s3") says nothing of which sub-service was meant.
    expect(
      listServices(realCatalogue(), { q: "s3", page: 1, limit: 5 }).search?.subServices?.["aws-s3"],
    ).toBeUndefined();
  });

  it.each(NONSENSE_QUERIES)("returns nothing at all for nonsense: %s", (query) => {
    expect(serviceSearch(realCatalogue()).search(query).slugs).toEqual([]);
    expect(listServices(realCatalogue(), { q: query, page: 1, limit: 20 }).pagination.total).toBe(0);
  });
});

// Written with the table, kept aside while tuning: run at the end, reported apart.
describe("held-out queries (not tuned against)", () => {
  it.each(HELD_OUT_CASES.filter((c) => !HELD_OUT_MISSES[c.query]))(
    "API: $expect in the top $top for $query",
    (ranking) => {
      expectTop(apiTop(ranking.query, ranking.top), ranking);
    },
  );

  // A known miss: fails today; when it passes, take it out of HELD_OUT_MISSES.
  it.fails.each(HELD_OUT_CASES.filter((c) => HELD_OUT_MISSES[c.query]))(
    "known miss: $expect in the top $top for $query",
    (ranking) => {
      expectTop(apiTop(ranking.query, ranking.top), ranking);
    },
  );
});
