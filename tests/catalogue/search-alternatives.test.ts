/**
 * Issue 101: "alternative to X" in the six languages the search reads ranks X's equivalents, not X
 * ("alternativa a AWS Lambda" answered AWS Lambda first in Spanish and Italian), and a misspelt word
 * beside a known one still answers ("kubernets administrado" found nothing). The held-out set of
 * tests/fixtures/search-alternatives.ts, measured by `scripts/maintenance/search-questions.ts --alternatives`.
 */
import { describe, expect, it } from "vitest";
import { listServices } from "../../catalogue/search/query.ts";
import { realCatalogue } from "../helpers/app.ts";
import { ALTERNATIVE_QUESTIONS } from "../fixtures/search-alternatives.ts";

const top = (query: string, n = 3) =>
  listServices(realCatalogue(), { q: query, page: 1, limit: n }).data.map((s) => s.slug);

describe("issue 101's held-out questions", () => {
  it("name only services of the catalogue", () => {
    for (const question of ALTERNATIVE_QUESTIONS) {
      if (question.avoid) expect(realCatalogue().bySlug.has(question.avoid), question.avoid).toBe(true);
      if (question.expect !== "equivalents")
        for (const slug of question.expect) expect(realCatalogue().bySlug.has(slug), slug).toBe(true);
    }
  });

  // Before: 20 of 28 (Spanish 0 of 3, Italian 1 of 3, typo+word 7 of 10). After: 26.
  it("answer at least 25 of 28 in the top 3, never with the service the question names", () => {
    const missed = ALTERNATIVE_QUESTIONS.filter((question) => {
      const slugs = top(question.query);
      const expected =
        question.expect === "equivalents"
          ? realCatalogue().bySlug.get(question.avoid!)!.equivalentSlugs
          : question.expect;
      return !slugs.some((slug) => expected.includes(slug)) || (question.avoid && slugs.includes(question.avoid));
    }).map((question) => question.query);
    expect(28 - missed.length, `missed: ${missed.join("; ")}`).toBeGreaterThanOrEqual(25);
  });
});

describe("alternatives asked in each language", () => {
  for (const query of [
    "alternative to aws lambda",
    "Alternative zu AWS Lambda",
    "alternative à AWS Lambda",
    "alternatief voor AWS Lambda",
    "alternativa a AWS Lambda",
    "alternativa a AWS Lambda, in italiano",
  ])
    it(`"${query}" answers Lambda's equivalents, not Lambda`, () => {
      const slugs = top(query, 5);
      expect(slugs).not.toContain("aws-lambda");
      expect(slugs.slice(0, 3)).toContain("azure-functions");
    });
});

describe("a misspelt word beside a known one", () => {
  it("respells the misspelt word alone: kubernets administrado → managed Kubernetes", () => {
    expect(top("kubernets administrado")).toEqual(["aws-eks", "azure-kubernetes-service", "gcp-gke"]);
    expect(top("postgrsql gestionado")).toContain("aws-rds-postgresql");
  });

  it("still leaves a known word as typed (password reset is no password rest)", () => {
    expect(top("password reset", 10)).not.toEqual([]);
  });
});
