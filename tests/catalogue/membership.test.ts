/**
 * The membership sweep and the twins check (issue 86; catalogue/quality/membership.ts): the real
 * data has none unresolved, and `check:data` fails (membershipProblems) on one finding left
 * without a record and on twins whose groups differ.
 */
import { describe, expect, it } from "vitest";
import type { Catalogue } from "../../catalogue/load/load.ts";
import { membershipProblems, twinPairs, twinsInNoGroup } from "../../catalogue/quality/membership.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();

describe("membership sweep and twins", () => {
  it("leaves nothing unresolved in the data", () => {
    expect(membershipProblems(catalogue)).toEqual([]);
  });

  it("fails on a finding whose not-doing record is taken away", () => {
    const group = catalogue.groups.find((g) => g.id === "hpc")!;
    expect(group.notDoing?.some((record) => record.service === "aws-batch")).toBe(true);
    const without: Catalogue = {
      ...catalogue,
      groups: catalogue.groups.map((g) =>
        g.id === "hpc" ? { ...g, notDoing: g.notDoing!.filter((record) => record.service !== "aws-batch") } : g,
      ),
    };
    const problems = membershipProblems(without);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^MEMBERSHIP_UNRESOLVED: aws-batch names the job of hpc \(tag "hpc"\)/);
  });

  it("fails on twins in different groups", () => {
    // OTC's Simple Message Notification is Huawei Cloud's SMN under another operator.
    expect(twinPairs(catalogue)).toContainEqual(["otc-simple-message-notification", "huawei-smn"]);
    const record = catalogue.bySlug.get("otc-simple-message-notification")!;
    const bySlug = new Map(catalogue.bySlug);
    bySlug.set("otc-simple-message-notification", {
      ...record,
      groupIds: record.groupIds.filter((id) => id !== "pub-sub"),
    });
    const problems = membershipProblems({ ...catalogue, bySlug });
    expect(problems).toEqual([
      expect.stringMatching(/^TWINS_APART: otc-simple-message-notification \[\] and huawei-smn \[pub-sub\]/),
    ]);
  });

  // Issue 100: OTC's and Huawei Cloud's DDM sat in no group, which passed as "the same groups".
  it("counts twins in no group, each recorded, and fails on one without a record", () => {
    const ungrouped = twinsInNoGroup(catalogue);
    expect(ungrouped).toContainEqual({ a: "otc-distributed-database-middleware", b: "huawei-ddm", unrecorded: [] });
    for (const twins of ungrouped) expect(twins.unrecorded, `${twins.a} = ${twins.b}`).toEqual([]);
    const without: Catalogue = {
      ...catalogue,
      groups: catalogue.groups.map((g) =>
        g.id === "distributed-sql" ? { ...g, notDoing: g.notDoing!.filter((r) => r.service !== "huawei-ddm") } : g,
      ),
    };
    expect(membershipProblems(without)).toEqual([
      expect.stringMatching(
        /^TWINS_UNGROUPED: otc-distributed-database-middleware and huawei-ddm are in no group; huawei-ddm records no/,
      ),
    ]);
  });
});
