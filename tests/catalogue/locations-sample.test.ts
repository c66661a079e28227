/**
 * Issue 112's sample procedure (catalogue/quality/locations-sample.ts, printed by
 * scripts/maintenance/locations-sample.ts): the same seed draws the same 40 services, 10 of each of the big three
 * and 10 European, none retired, and every one says its kind of place, source and date.
 */
import { describe, expect, it } from "vitest";
import { locationsSample, seeded } from "../../catalogue/quality/locations-sample.ts";
import { realCatalogue } from "../helpers/catalogue.ts";

const catalogue = realCatalogue();

describe("the locations sample", () => {
  it("draws the same services for the same seed, and others for another", () => {
    const slugs = (seed: number) => locationsSample(catalogue, seed).map(({ slug }) => slug);
    expect(slugs(112)).toEqual(slugs(112));
    expect(slugs(112)).not.toEqual(slugs(113));
    const next = seeded(7);
    const values = [next(), next(), next()];
    expect(new Set(values).size).toBe(3);
    for (const value of values) expect(value >= 0 && value < 1).toBe(true);
  });

  it("takes 10 of each of AWS, Azure and Google Cloud and 10 of EU or Swiss providers, each once and placed", () => {
    const sample = locationsSample(catalogue, 20261128);
    expect(new Set(sample.map(({ slug }) => slug)).size).toBe(40);
    for (const provider of ["aws", "azure", "gcp"])
      expect(sample.filter(({ slug }) => catalogue.bySlug.get(slug)!.service.providerId === provider)).toHaveLength(10);
    const european = sample.filter(({ group }) => group === "European");
    expect(european).toHaveLength(10);
    for (const { slug, placement } of sample) {
      const record = catalogue.bySlug.get(slug)!;
      expect(record.service.lifecycle?.status, slug).not.toBe("retired");
      expect(placement.source.length, slug).toBeGreaterThan(0);
      expect(placement.asOf, slug).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    for (const { slug } of european)
      expect(["EU", "CH"]).toContain(
        catalogue.providerById.get(catalogue.bySlug.get(slug)!.service.providerId)!.provider.jurisdiction,
      );
  });
});
