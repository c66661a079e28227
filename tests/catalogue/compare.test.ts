import { describe, expect, it } from "vitest";
import { COMPARE_GROUPS, compareServices } from "../../catalogue/equivalence/compare.ts";
import { loadCatalogue } from "../../catalogue/load/load.ts";

describe("compareServices", () => {
  it("answers each attribute of the compare groups exactly once, so the site's grouping shows every row", () => {
    const { attributes } = compareServices(loadCatalogue(), ["aws-s3", "gcp-cloud-storage"]);
    const grouped = COMPARE_GROUPS.flatMap((group) => group.attributes);
    expect(new Set(grouped).size).toBe(grouped.length);
    expect(attributes.map((a) => a.attribute).sort()).toEqual([...grouped].sort());
  });
});
