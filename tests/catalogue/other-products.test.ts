/**
 * Search dead ends (issue 101): a product the catalogue does not list is read as the kind it is
 * (data/other-products.yaml), in every language the search reads, and said so in the API's answer;
 * a name the catalogue knows nothing of still says which words no service has.
 */
import { describe, expect, it } from "vitest";
import { otherProductsProblems } from "../../catalogue/load/other-products.ts";
import { listServices } from "../../catalogue/search/query.ts";
import { serviceSearch } from "../../catalogue/search/search.ts";
import { realCatalogue } from "../helpers/app.ts";

const all = { page: 1, limit: 50 };
const groupOf = (id: string) => new Set(realCatalogue().groups.find((group) => group.id === id)!.services);

describe("a product the catalogue does not list", () => {
  it.each([
    "alternative to Snowflake",
    "alternatief voor Snowflake",
    "Alternative zu Snowflake",
    "alternativa a Snowflake",
    "snowflake",
  ])("%s: the data warehouses, the answer saying Snowflake was read as one", (q) => {
    const outcome = serviceSearch(realCatalogue()).search(q);
    const warehouses = groupOf("data-warehouse");
    expect(outcome.slugs.length).toBeGreaterThanOrEqual(5);
    expect(outcome.slugs.slice(0, 5).every((slug) => warehouses.has(slug))).toBe(true);
    expect(outcome.otherProduct).toMatchObject({ name: "Snowflake", kinds: [{ id: "data-warehouse" }] });
    expect(outcome.unmatched).toBeUndefined();
  });

  it("alternative to Vercel: static site hosting first, then edge functions", () => {
    const outcome = serviceSearch(realCatalogue()).search("alternative to Vercel");
    expect(outcome.otherProduct?.kinds.map(({ id }) => id)).toEqual(["static-site-hosting", "edge-functions"]);
    expect(groupOf("static-site-hosting").has(outcome.slugs[0]!)).toBe(true);
    const edge = groupOf("edge-functions");
    expect(outcome.slugs.some((slug) => edge.has(slug))).toBe(true);
  });

  it("alternative to Heroku: other app platforms, not Heroku's own nor Postgres databases", () => {
    const outcome = serviceSearch(realCatalogue()).search("alternative to Heroku");
    const platforms = groupOf("paas-web-apps");
    expect(outcome.slugs.slice(0, 5).every((slug) => platforms.has(slug))).toBe(true);
    expect(outcome.slugs.some((slug) => slug.startsWith("heroku-"))).toBe(false);
    expect(outcome.slugs.some((slug) => groupOf("managed-postgresql").has(slug))).toBe(false);
    expect(outcome.otherProduct?.name).toBe("Heroku");
  });

  it("Heroku named alone still lists Heroku's services; a longer query naming a product is searched as written", () => {
    const search = serviceSearch(realCatalogue());
    const heroku = search.search("heroku");
    expect(heroku.otherProduct).toBeUndefined();
    expect(heroku.slugs.every((slug) => slug.startsWith("heroku-"))).toBe(true);
    expect(search.search("snowflake connector glue").otherProduct).toBeUndefined();
  });

  it("keeps a place the query names: snowflake in europe answers European data warehouses", () => {
    const outcome = serviceSearch(realCatalogue()).search("snowflake in europe");
    const warehouses = groupOf("data-warehouse");
    expect(outcome.slugs.length).toBeGreaterThanOrEqual(3);
    expect(outcome.slugs.slice(0, 3).every((slug) => warehouses.has(slug))).toBe(true);
    expect(outcome.slugs.some((slug) => slug.startsWith("aws-"))).toBe(false);
  });

  it("the API answers search.otherProduct with the kinds and why; nothing known answers unmatchedWords", () => {
    const found = listServices(realCatalogue(), { ...all, q: "alternative to Snowflake" });
    expect(found.pagination.total).toBeGreaterThan(0);
    expect(found.search?.otherProduct).toEqual({
      name: "Snowflake",
      kinds: [{ id: "data-warehouse", name: "Data warehouses" }],
      why: expect.stringContaining("data warehouse"),
    });
    const none = listServices(realCatalogue(), { ...all, q: "alternative to xyzzyqwerty" });
    expect(none.pagination.total).toBe(0);
    expect(none.search).toMatchObject({ unmatchedWords: ["xyzzyqwerty"] });
    expect(none.search?.otherProduct).toBeUndefined();
  });
});

describe("data/other-products.yaml's checks", () => {
  const known = {
    groups: new Set(["data-warehouse"]),
    categories: new Set(["analytics"]),
    providers: new Set(["heroku"]),
    serviceNames: new Set(["amazon redshift"]),
  };
  const entry = {
    name: "Snowflake",
    kinds: ["data-warehouse"],
    why: "A warehouse.",
    site: "https://www.snowflake.com/",
  };

  it("takes groups and categories as kinds and a provider of the catalogue", () => {
    expect(otherProductsProblems([entry, { ...entry, name: "X", kinds: ["analytics"] }], "f", known)).toEqual([]);
  });

  it("refuses an unknown kind or provider, a service's name and a name written twice", () => {
    const problems = otherProductsProblems(
      [
        { ...entry, kinds: ["warehouses"] },
        { ...entry, name: "Amazon Redshift" },
        { ...entry, name: "Y", provider: "nobody" },
        { ...entry, name: "Z", words: ["snowflake"] },
      ],
      "f",
      known,
    );
    expect(problems).toEqual([
      'f: entry 1 (Snowflake): field kinds.0: "warehouses" is neither an equivalence group nor a category',
      'f: entry 2 (Amazon Redshift): "amazon redshift" is a service\'s name: the search finds that service, not a kind',
      'f: entry 3 (Y): field provider: "nobody" is not a provider of the catalogue',
      'f: entry 4 (Z): "snowflake" is written twice in the file',
    ]);
  });
});
