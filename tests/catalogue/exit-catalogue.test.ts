import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactExitCatalogue, expandExitCatalogue } from "../../catalogue/exit/catalogue.ts";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import type { ExitTargetT } from "../../catalogue/schema/index.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
const browser = expandExitCatalogue(JSON.parse(JSON.stringify(compactExitCatalogue(catalogue))));
const slugs = catalogue.services.map((service) => service.slug);
const providerIds = catalogue.providers.map((provider) => provider.id);

describe("the site's compact exit catalogue", () => {
  it("plans exactly as the full catalogue does, exposure included", () => {
    fc.assert(
      fc.property(
        fc.subarray(slugs, { minLength: 1, maxLength: 30 }),
        fc.oneof<fc.Arbitrary<ExitTargetT>[]>(
          fc.constant({ sovereignOption: true }),
          fc.constant({ euResidentOnly: true }),
          fc.constant({ jurisdictions: ["EU", "CH"] }),
          fc.subarray(providerIds, { minLength: 1, maxLength: 4 }).map((providers) => ({ providers })),
        ),
        (ids, to) => {
          let full;
          try {
            full = exitPlan(catalogue, ids, to);
          } catch (error) {
            expect(() => exitPlan(browser, ids, to)).toThrow((error as Error).message);
            return;
          }
          expect(exitPlan(browser, ids, to)).toEqual(full);
        },
      ),
      { numRuns: 80 },
    );
  });

  it("is small enough to fetch with the page", () => {
    expect(JSON.stringify(compactExitCatalogue(catalogue)).length).toBeLessThan(400_000);
  });
});
