import { describe, expect, it } from "vitest";
import { listServices } from "../../catalogue/query.ts";
import { realCatalogue } from "../helpers/app.ts";
import { RANKING_CASES } from "../fixtures/ranking-queries.ts";

describe("the API's q ranking", () => {
  it.each(RANKING_CASES)("puts $expect in the top $top for $query", ({ query, expect: expected, top }) => {
    const slugs = listServices(realCatalogue(), { q: query, page: 1, limit: top }).data.map((s) => s.slug);
    for (const slug of expected) expect(slugs, query).toContain(slug);
  });

  it("breaks ties by prominence, not the alphabet: kubernetes does not start with Akamai, Alibaba, Aruba", () => {
    const slugs = listServices(realCatalogue(), { q: "kubernetes", page: 1, limit: 3 }).data.map((s) => s.slug);
    expect(slugs.filter((slug) => /^(akamai|alibaba|aruba)-/.test(slug))).toEqual([]);
  });
});
