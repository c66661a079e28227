/**
 * The words gate (issue 89): per provider, services with a source backing identity and one backing
 * description; under the threshold a provider fails unless listed, a listed provider fails when a
 * count drops below its floor or once it reaches the threshold, and today's data passes.
 */
import { describe, expect, it } from "vitest";
import {
  WORDS_SHORTFALL,
  WORDS_THRESHOLD,
  wordsCoverage,
  wordsLines,
  wordsProblems,
  type WordsCoverage,
} from "../../catalogue/quality/words-sources.ts";
import { fixtureCatalogue, realCatalogue } from "../helpers/app.ts";

const row = (providerId: string, services: number, identity: number, description: number): WordsCoverage => ({
  providerId,
  services,
  identity,
  description,
});

describe("the words gate", () => {
  it("counts, per provider, services with a source backing identity and description", () => {
    const aws = wordsCoverage(fixtureCatalogue()).find((r) => r.providerId === "aws")!;
    // The fixture's aws-s3 has a source backing identity and description; its other services none.
    expect(aws.identity).toBe(1);
    expect(aws.description).toBe(1);
    expect(aws.services).toBeGreaterThan(1);
  });

  it("fails a provider under the threshold that is not listed, naming the word", () => {
    const problems = wordsProblems([row("p", 100, 100, 90)], {});
    expect(problems).toEqual([expect.stringMatching(/^WORDS_SOURCES: p: 90 of 100 .*description, under 95 %/)]);
    expect(wordsProblems([row("p", 100, 95, 95)], {})).toEqual([]);
  });

  it("holds a listed provider to its floors and asks to unlist it once it reaches the threshold", () => {
    const listed = { p: { identity: 50, description: 40 } };
    expect(wordsProblems([row("p", 100, 50, 40)], listed)).toEqual([]);
    expect(wordsProblems([row("p", 100, 60, 41)], listed)).toEqual([]);
    expect(wordsProblems([row("p", 100, 49, 40)], listed)).toEqual([expect.stringMatching(/below the 50 listed/)]);
    expect(wordsProblems([row("p", 100, 96, 95)], listed)).toEqual([
      expect.stringMatching(/take it out of WORDS_SHORTFALL/),
    ]);
    expect(wordsProblems([], listed)).toEqual([expect.stringMatching(/p is not a provider/)]);
  });

  it("prints each provider's counts and what is left of a listed one", () => {
    const [line] = wordsLines([row("p", 10, 9, 4)], { p: { identity: 9, description: 4 } });
    expect(line).toBe(
      "p: identity 9/10 (90.0 %), description 4/10 (40.0 %); listed shortfall: 1 without identity, 6 without description",
    );
  });

  it("passes on today's data, and lists only providers under the threshold", () => {
    const rows = wordsCoverage(realCatalogue());
    expect(wordsProblems(rows)).toEqual([]);
    for (const providerId of Object.keys(WORDS_SHORTFALL)) {
      const r = rows.find((x) => x.providerId === providerId)!;
      expect(Math.min(r.identity, r.description) / r.services).toBeLessThan(WORDS_THRESHOLD);
    }
  });
});
