/**
 * The "Verified" dates the faces show: a source's asOf (the copy's own date) where it gives one,
 * never the day the catalogue read it, so AWS compliance read in 2026 from 2022 scope tables shows
 * 2022. The text host's service page carries the same row.
 */
import { describe, expect, it } from "vitest";
import { servicePage } from "../../catalogue/render/service-page.ts";
import { ageAt, shownVerified, shownVerifiedText } from "../../catalogue/quality/verified.ts";
import { realCatalogue } from "../helpers/app.ts";

describe("the Verified row", () => {
  it("shows the copy's date of the newest copy per kind, and the reading day only without one", () => {
    const sources = [
      { backs: ["compliance" as const], retrieved: "2026-11-26", asOf: "2022-07-15" },
      { backs: ["identity" as const, "identifiers" as const], retrieved: "2026-11-26" },
      { backs: ["identifiers" as const], retrieved: "2026-11-26", asOf: "2026-03-07" },
    ];
    expect(shownVerified(sources)).toEqual([
      { kind: "identity", date: "2026-11-26", asOf: false },
      { kind: "compliance", date: "2022-07-15", asOf: true },
      { kind: "identifiers", date: "2026-11-26", asOf: false },
    ]);
    expect(shownVerifiedText(sources)).toBe(
      "identity 2026-11-26; compliance 2022-07-15 (copy's date); identifiers 2026-11-26",
    );
    expect(shownVerifiedText([])).toBeUndefined();
    // With the catalogue's last update as reference, a date a year or more older says its age.
    expect(shownVerifiedText(sources, "2026-11-26")).toBe(
      "identity 2026-11-26; compliance 2022-07-15 (copy's date, 4 years old on 2026-11-26); identifiers 2026-11-26",
    );
    expect(ageAt("2025-11-27", "2026-11-26")).toBeUndefined();
    expect(ageAt("2025-11-26", "2026-11-26")).toBe("1 year old");
  });

  it("dates an AWS service's compliance by AWS's scope tables, not by the day they were read", () => {
    const catalogue = realCatalogue();
    const record = catalogue.bySlug.get("aws-s3")!;
    const compliance = record.sources.filter((source) => source.backs.includes("compliance"));
    expect(compliance.length).toBeGreaterThan(0);
    const asOf = compliance
      .map((source) => source.asOf!)
      .sort()
      .at(-1)!;
    expect(asOf < "2026-01-01").toBe(true);
    const row = shownVerified(record.sources).find((entry) => entry.kind === "compliance")!;
    expect(row).toEqual({ kind: "compliance", date: asOf, asOf: true });
    const updated = catalogue.lastUpdated.slice(0, 10);
    const years = Number(updated.slice(0, 4)) - Number(asOf.slice(0, 4)) - (updated.slice(5) < asOf.slice(5) ? 1 : 0);
    expect(years).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(servicePage(catalogue, "aws-s3"))).toContain(
      `compliance ${asOf} (copy's date, ${years} year${years === 1 ? "" : "s"} old on ${updated})`,
    );
  });
});
