/**
 * Reading AWS's IAM changelog (aws-iam-data's changelog.json): a same-day removal and addition of a
 * related name is a rename, a name that comes back later is restored, the rest ended.
 */
import { describe, expect, it } from "vitest";
import { ended, iamRemovals, sameName } from "../../catalogue/inventory/aws-iam-changelog.ts";

const days = [
  {
    dateOfChange: "2023-07-27",
    removedServices: ["Amazon Omics", "Amazon HealthLake"],
    addedServices: ["AWS HealthOmics", "AWS HealthLake"],
  },
  { dateOfChange: "2023-10-28", removedServices: ["AWS Tag Editor", "Amazon GameSparks"], addedServices: [] },
  { dateOfChange: "2024-02-10", removedServices: [], addedServices: ["Tag Editor"] },
  { dateOfChange: "2025-02-04", removedServices: ["Amazon Elastic Inference"], addedServices: ["AWS Backup Search"] },
  { dateOfChange: "2022-12-31", removedServices: ["Before the window"], addedServices: [] },
];

describe("the IAM changelog's removals", () => {
  it("pairs renames, finds restorations and lists what ended, within the dates asked", () => {
    const removals = iamRemovals(days, "2023-01-01", "2026-12-31");
    expect(removals).toEqual([
      { date: "2023-07-27", name: "Amazon HealthLake", renamedTo: "AWS HealthLake" },
      { date: "2023-07-27", name: "Amazon Omics", renamedTo: "AWS HealthOmics" },
      { date: "2023-10-28", name: "AWS Tag Editor", restoredOn: "2024-02-10" },
      { date: "2023-10-28", name: "Amazon GameSparks" },
      { date: "2025-02-04", name: "Amazon Elastic Inference" },
    ]);
    expect(ended(removals).map((removal) => removal.name)).toEqual(["Amazon GameSparks", "Amazon Elastic Inference"]);
  });

  it("compares names without the vendor's prefixes and generic words", () => {
    expect(sameName("AWS Application Cost Profiler Service", "AWS Application Cost Profiler")).toBe(true);
    expect(sameName("AWS Tag Editor", "Tag Editor")).toBe(true);
    expect(sameName("AWS DeepLens", "AWS DeepRacer")).toBe(false);
  });
});
