/**
 * Gaps named as gaps (issue 89): a product customers buy that the catalogue lacks is excluded as
 * `not-in-catalogue`, with the page found or what was searched, never as `internal` (the vendor's
 * own identifiers) or `sdk-or-tooling`.
 */
import { describe, expect, it } from "vitest";
import { ExclusionsFile, misfiledGapProblems } from "../../catalogue/inventory/inventory.ts";
import { readInventories } from "../../catalogue/inventory/load.node.ts";

/** Items of products customers buy that an earlier round excluded as internal or tooling. */
const PRODUCTS_CUSTOMERS_BUY: Readonly<Record<string, readonly string[]>> = {
  "gcp/apis": ["firebasedatabase.googleapis.com", "testing.googleapis.com", "firebaseappdistribution.googleapis.com"],
  "azure/resource-providers": ["Microsoft.NetworkCloud", "Microsoft.ManagedNetworkFabric", "Microsoft.HybridNetwork"],
};

describe("exclusions of products the catalogue lacks", () => {
  const inventories = readInventories();

  it("never carry internal or sdk-or-tooling, in any inventory", () => {
    for (const inventory of inventories) expect(misfiledGapProblems(inventory.id, inventory.exclusions)).toEqual([]);
    for (const [id, items] of Object.entries(PRODUCTS_CUSTOMERS_BUY)) {
      const inventory = inventories.find((candidate) => candidate.id === id)!;
      for (const item of items) {
        const exclusion = inventory.exclusions.find((entry) => entry.item === item);
        // Either a service now claims it (no exclusion) or it is named as a gap.
        if (exclusion) expect({ item, reason: exclusion.reason }).toEqual({ item, reason: "not-in-catalogue" });
      }
    }
  });

  it("flags a gap filed as internal or tooling, and lets the same words pass under not-in-catalogue", () => {
    const exclusions = ExclusionsFile.parse([
      { item: "a_*", reason: "internal", note: "Product A: not in the catalogue yet" },
      { item: "b_*", reason: "sdk-or-tooling", note: "sold to telecom operators only" },
      { item: "c_*", reason: "internal", note: "a preview provider that never became a product" },
      { item: "d_*", reason: "not-in-catalogue", note: "Product D: the catalogue lacks it; searched x" },
    ]);
    const problems = misfiledGapProblems("p/terraform", exclusions);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/a_\*: .*use reason not-in-catalogue .*not internal/);
    expect(problems[1]).toMatch(/b_\*: .*not sdk-or-tooling/);
  });

  it("need a note saying what was found or searched", () => {
    expect(ExclusionsFile.safeParse([{ item: "x", reason: "not-in-catalogue" }]).success).toBe(false);
    expect(ExclusionsFile.safeParse([{ item: "x", reason: "not-in-catalogue", note: "searched y" }]).success).toBe(
      true,
    );
  });

  it("are used: every note of the earlier 'not in the catalogue yet' now carries the reason", () => {
    const gaps = inventories.flatMap((inventory) =>
      inventory.exclusions.filter((entry) => entry.reason === "not-in-catalogue").map((entry) => entry.item),
    );
    expect(gaps).toEqual(expect.arrayContaining(["alicloud_imp_*", "oci_gdp_*", "Microsoft.NetworkCloud"]));
  });
});
