/**
 * The membership sweep and the twins check (issue 86; catalogue/quality/membership.ts): the real
 * data has none unresolved, and `check:data` fails (membershipProblems) on one finding left
 * without a record and on twins whose groups differ.
 */
import { describe, expect, it } from "vitest";
import type { Catalogue } from "../../catalogue/load/load.ts";
import { membershipProblems, twinPairs } from "../../catalogue/quality/membership.ts";
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
});
