/** Release snapshots and the changes between them. */
import { describe, expect, it } from "vitest";
import { diffServices, releaseHistory, serializeSnapshot, Snapshot } from "../../catalogue/load/changes.ts";

const before = {
  "aws-a": { name: "A", providerId: "aws" },
  "aws-b": { name: "B", providerId: "aws", status: "deprecated" as const },
  "aws-c": { name: "C", providerId: "aws" },
};
const after = {
  "aws-a": { name: "A2", providerId: "aws" },
  "aws-b": { name: "B", providerId: "aws", status: "sunset" as const, sunsetDate: "2027-01-31" },
  "aws-d": { name: "D", providerId: "aws" },
};

describe("release changes", () => {
  it("finds what was added, removed, renamed and moved in lifecycle", () => {
    expect(diffServices(before, after)).toEqual({
      added: [{ slug: "aws-d", name: "D", providerId: "aws" }],
      removed: [{ slug: "aws-c", name: "C", providerId: "aws" }],
      renamed: [{ slug: "aws-a", providerId: "aws", from: "A", to: "A2" }],
      lifecycle: [
        {
          slug: "aws-b",
          name: "B",
          providerId: "aws",
          from: { status: "deprecated" },
          to: { status: "sunset", sunsetDate: "2027-01-31" },
        },
      ],
    });
  });

  it("lists released pairs and the unreleased changes, newest first, and nothing unreleased when the data matches", () => {
    const snapshots = [
      { release: "2026-01-01", services: before },
      { release: "2026-02-01", services: after },
    ];
    const history = releaseHistory(snapshots, { ...after, "aws-e": { name: "E", providerId: "aws" } }, "2026-03-01");
    expect(history.map((r) => [r.release, r.previousRelease, r.released])).toEqual([
      ["2026-03-01", "2026-02-01", false],
      ["2026-02-01", "2026-01-01", true],
    ]);
    expect(releaseHistory(snapshots, after, "2026-03-01")).toHaveLength(1);
  });

  it("writes a snapshot that reads back as the same snapshot, one service per line", () => {
    const snapshot = { release: "2026-02-01", services: after };
    const text = serializeSnapshot(snapshot);
    expect(Snapshot.parse(JSON.parse(text))).toEqual(snapshot);
    expect(text.split("\n").filter((line) => line.includes('"providerId"'))).toHaveLength(3);
  });
});
