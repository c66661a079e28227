/**
 * Lifecycle notices read, not remembered (issue 124): every notice of the register
 * (catalogue/data/lifecycle-notices.yaml), transcribed from the vendors' newest stored copies with
 * the words that carry its dates, is in the catalogue or listed as a feature or as not a service;
 * and the three cases the issue named say what the vendors' pages say.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { realCatalogue } from "../helpers/catalogue.ts";
import {
  LifecycleNoticeFile,
  lifecycleNoticeProblems,
  type LifecycleNoticeT,
} from "../../catalogue/quality/lifecycle-notices.ts";
import { findVersion } from "../../catalogue/versions/versions.ts";

const catalogue = realCatalogue();
const { notices } = LifecycleNoticeFile.parse(
  parse(readFileSync(new URL("../../catalogue/data/lifecycle-notices.yaml", import.meta.url), "utf8")),
);

const notice = (overrides: Partial<LifecycleNoticeT>): LifecycleNoticeT => ({
  provider: "gcp",
  url: "https://docs.cloud.google.com/video-intelligence/docs/deprecations",
  retrieved: "2026-11-29",
  quote: "You can continue using Video Intelligence API until September 14, 2027, when it will be shut down.",
  dates: ["2027-09-14"],
  outcome: "service",
  slug: "gcp-video-intelligence",
  ...overrides,
});

describe("the lifecycle-notice register (issue 124)", () => {
  it("accounts for every notice: in the catalogue with each of its dates, a feature, or not a service", () => {
    expect(lifecycleNoticeProblems(catalogue, notices)).toEqual([]);
  });

  it("reads notices of Google Cloud, AWS, Azure and the European providers", () => {
    const providers = new Set(notices.map((each) => each.provider));
    for (const provider of ["gcp", "aws", "azure", "hetzner", "ovhcloud"]) expect(providers).toContain(provider);
  });

  it("refuses a date the quote does not state, and a service notice the catalogue shows active", () => {
    expect(lifecycleNoticeProblems(catalogue, [notice({ dates: ["2027-09-15"] })])).toEqual([
      expect.stringContaining("the quote does not state 2027-09-15"),
      expect.stringContaining("does not state 2027-09-15"),
    ]);
    expect(lifecycleNoticeProblems(catalogue, [notice({ slug: "gcp-vision-api" })])).toEqual([
      expect.stringContaining("gcp-vision-api is shown active"),
    ]);
    expect(lifecycleNoticeProblems(catalogue, [notice({ outcome: "feature" })])).toEqual([
      expect.stringContaining("a feature notice needs why"),
    ]);
    expect(lifecycleNoticeProblems(catalogue, [notice({ outcome: "not-a-service", why: "x" })])).toEqual([
      expect.stringContaining("names no slug"),
    ]);
    expect(lifecycleNoticeProblems(catalogue, [notice({ provider: "aws" })])).toEqual([
      expect.stringContaining("is not a aws service"),
    ]);
  });
});

describe("the cases issue 124 named", () => {
  it("shows Video Intelligence API sunsetting on 2027-09-14, deprecated since 2026-09-14", () => {
    const lifecycle = catalogue.bySlug.get("gcp-video-intelligence")!.service.lifecycle;
    expect(lifecycle).toMatchObject({ status: "sunset", sunsetDate: "2027-09-14" });
    expect(lifecycle?.note).toContain("2026-09-14");
  });

  it("shows Gemini Code Assist deprecated with its sale and renewal ends and no free tier", () => {
    const { service, subServices } = catalogue.bySlug.get("gcp-gemini-code-assist")!;
    expect(service.lifecycle?.status).toBe("deprecated");
    for (const date of ["2026-10-09", "2027-01-31", "2027-12-31", "2026-06-18"])
      expect(service.lifecycle?.note).toContain(date);
    expect(service.hasFreeTier).toBeUndefined();
    expect(subServices.map((each) => each.name)).not.toContain("Gemini Code Assist for individuals");
  });

  it("ends Azure Database for PostgreSQL 14's standard support on 2026-12-11, as the cited page says", () => {
    expect(findVersion(catalogue, "azure-database-for-postgresql", "14", "2026-11-29")).toMatchObject({
      standardEnd: "2026-12-11",
      extendedEnd: "2029-11-11",
      status: "supported",
    });
    expect(findVersion(catalogue, "azure-database-for-postgresql", "14", "2026-12-12")).toMatchObject({
      status: "extended",
    });
  });
});
