/**
 * Versions and tiers (issue 99): statuses computed from the dates on a fixed clock (a date that
 * passes changes the status with no edit), the one lookup of a version string (never the nearest),
 * the check:data gate on a catalogue whose day lags an end, and the loader's refusals.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { CatalogueError, loadCatalogue } from "../../catalogue/load/load.ts";
import { versionStatusProblems } from "../../catalogue/quality/version-gate.ts";
import {
  findVersion,
  phaseOn,
  serviceVersionsOf,
  versionPhases,
  versionStatus,
} from "../../catalogue/versions/versions.ts";
import type { VersionFamilyDataT } from "../../catalogue/schema/index.ts";
import { FIXTURE_DIR } from "../helpers/app.ts";
import { realCatalogue } from "../helpers/catalogue.ts";

const catalogue = realCatalogue();

const SOURCE = {
  url: "https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtimes.html",
  retrieved: "2026-11-28",
  backs: "runtimes and their dates",
};
const FAMILIES: VersionFamilyDataT[] = [
  {
    id: "nodejs",
    name: "Node.js",
    kind: "runtime",
    source: SOURCE,
    terms: { standardEnd: "Deprecation", blockCreate: "Block function create", blockUpdate: "Block function update" },
    phases: {
      deprecated: { consequence: "No more patches", source: SOURCE },
      "block-create": { consequence: "No new functions", source: SOURCE },
    },
    versions: [
      { id: "nodejs22.x", standardEnd: "2027-04-30", blockCreate: "2027-06-01", blockUpdate: "2027-07-01" },
      {
        id: "nodejs20.x",
        standardEnd: "2026-04-30",
        blockCreate: "2027-02-01",
        blockUpdate: "2027-03-03",
        successor: "nodejs22.x",
      },
    ],
  },
];
const lookup = { bySlug: new Map([["aws-lambda", { versions: FAMILIES }]]) };

describe("a version's status, computed from its dates", () => {
  const version = { standardEnd: "2026-04-30", extendedEnd: "2027-03-03" };

  it("is supported up to and including the standard end, extended to the extended end, then ended", () => {
    expect(versionStatus(version, "2026-04-30")).toBe("supported");
    expect(versionStatus(version, "2026-05-01")).toBe("extended");
    expect(versionStatus(version, "2027-03-03")).toBe("extended");
    expect(versionStatus(version, "2027-03-04")).toBe("ended");
    expect(versionStatus({ standardEnd: "2026-04-30" }, "2026-05-01")).toBe("ended");
    expect(versionStatus({}, "2099-01-01")).toBe("supported");
  });

  it("gives each phase its first day: past a last day of support, on a block's own day", () => {
    const rds = { standardEnd: "2024-02-29", extendedEnd: "2027-03-31" };
    expect(versionPhases(rds)).toEqual([
      { phase: "extended", starts: "2024-03-01", from: "standardEnd" },
      { phase: "ended", starts: "2027-04-01", from: "extendedEnd" },
    ]);
    const lambda = { standardEnd: "2024-10-14", blockCreate: "2027-02-01", blockUpdate: "2027-03-03" };
    expect(versionPhases(lambda).map((entry) => `${entry.phase} ${entry.starts}`)).toEqual([
      "deprecated 2024-10-15",
      "block-create 2027-02-01",
      "block-update 2027-03-03",
    ]);
    expect(phaseOn(versionPhases(lambda), "2024-10-14")).toBe("supported");
    expect(phaseOn(versionPhases(lambda), "2026-11-28")).toBe("deprecated");
    expect(phaseOn(versionPhases(lambda), "2027-02-01")).toBe("block-create");
    // A Lambda runtime has no extended support: deprecated and still usable is "extended" only in the
    // coarse status, and it has ended on the day updates are blocked.
    expect(versionStatus(lambda, "2027-03-02")).toBe("extended");
    expect(versionStatus(lambda, "2027-03-03")).toBe("ended");
    // A standard end with nothing after it: deprecated where the family says what that means, else ended.
    expect(versionPhases({ standardEnd: "2026-11-10" }, { phases: FAMILIES[0]!.phases })[0]!.phase).toBe("deprecated");
    expect(versionPhases({ standardEnd: "2026-11-10" })[0]!.phase).toBe("ended");
  });

  it("changes when a dated end passes, with the same data and no status written anywhere", () => {
    const before = serviceVersionsOf(FAMILIES, "2026-04-30")!;
    const after = serviceVersionsOf(FAMILIES, "2026-05-01")!;
    expect(before.asOf).toBe("2026-04-30");
    expect(before.families[0]!.versions.map((v) => v.status)).toEqual(["supported", "supported"]);
    expect(after.families[0]!.versions.map((v) => v.status)).toEqual(["supported", "extended"]);
    expect(FAMILIES[0]!.versions.some((v) => "status" in v)).toBe(false);
  });

  it("in the real data, no version is supported past its standard end on any day after it", () => {
    for (const record of catalogue.bySlug.values())
      for (const family of record.versions)
        for (const version of family.versions)
          if (version.standardEnd) {
            const dayAfter = new Date(Date.parse(`${version.standardEnd}T00:00:00Z`) + 86_400_000)
              .toISOString()
              .slice(0, 10);
            expect(versionStatus(version, dayAfter), `${record.service.slug} ${version.id}`).not.toBe("supported");
          }
  });
});

describe("findVersion", () => {
  it("finds a version by the vendor's own string, with its status, ends, successor and source", () => {
    expect(findVersion(lookup, "aws-lambda", "nodejs20.x", "2026-11-28")).toEqual({
      version: "nodejs20.x",
      family: "nodejs",
      status: "extended",
      phase: "deprecated",
      phases: [
        {
          phase: "deprecated",
          starts: "2026-05-01",
          from: "standardEnd",
          name: "Deprecation",
          consequence: "No more patches",
          source: SOURCE,
        },
        {
          phase: "block-create",
          starts: "2027-02-01",
          from: "blockCreate",
          name: "Block function create",
          consequence: "No new functions",
          source: SOURCE,
        },
        { phase: "block-update", starts: "2027-03-03", from: "blockUpdate", name: "Block function update" },
      ],
      ends: "2027-03-02",
      standardEnd: "2026-04-30",
      extendedEnd: undefined,
      blockCreate: "2027-02-01",
      blockUpdate: "2027-03-03",
      successor: "nodejs22.x",
      source: SOURCE,
    });
    expect(findVersion(lookup, "aws-lambda", " NodeJS20.X ", "2027-03-03")).toMatchObject({
      status: "ended",
      phase: "block-update",
    });
  });

  it("says unknown rather than match a nearest version, and for an unknown service", () => {
    expect(findVersion(lookup, "aws-lambda", "nodejs20", "2026-11-28")).toBe("unknown");
    expect(findVersion(lookup, "aws-lambda", "nodejs21.x", "2026-11-28")).toBe("unknown");
    expect(findVersion(lookup, "aws-lambda", "nodejs20.x.1", "2026-11-28")).toBe("unknown");
    expect(findVersion(lookup, "aws-lambda", "", "2026-11-28")).toBe("unknown");
    expect(findVersion(lookup, "aws-s3", "nodejs20.x", "2026-11-28")).toBe("unknown");
    expect(findVersion(lookup, "aws-lambda", "nodejs20.x", "2026-11-28", "python")).toBe("unknown");
  });

  it("reads a longer engine or Kubernetes version as its release line, never a prefix of another", () => {
    expect(findVersion(catalogue, "aws-rds-postgresql", "13.7", "2026-11-28")).toMatchObject({
      version: "13",
      status: "extended",
      standardEnd: "2026-02-28",
      extendedEnd: "2029-02-28",
    });
    expect(findVersion(catalogue, "aws-rds-mysql", "8.0.35", "2026-11-28")).toMatchObject({ version: "8.0" });
    expect(findVersion(catalogue, "aws-eks", "1.29", "2026-11-28")).toMatchObject({ status: "ended" });
    expect(findVersion(catalogue, "azure-kubernetes-service", "1.33.2", "2026-11-28")).toMatchObject({
      version: "1.33",
    });
    expect(findVersion(catalogue, "gcp-cloud-sql-mysql", "MYSQL_8_0_31", "2026-11-28")).toMatchObject({
      version: "MYSQL_8_0",
      status: "extended",
    });
    expect(findVersion(catalogue, "gcp-cloud-sql-mysql", "MYSQL_8", "2026-11-28")).toBe("unknown");
    expect(findVersion(catalogue, "aws-eks", "1.2", "2026-11-28")).toBe("unknown");
    expect(findVersion(catalogue, "aws-eks", "1.99", "2026-11-28")).toBe("unknown");
    // Valkey 7.2 on ElastiCache is no Redis OSS version: Redis OSS 7 is not recorded, so it is unknown.
    expect(findVersion(catalogue, "aws-elasticache", "7.2", "2026-11-28")).toBe("unknown");
    // A runtime is matched whole: python3.1 is not python3.12's line.
    expect(findVersion(catalogue, "aws-lambda", "python3.1", "2026-11-28")).toBe("unknown");
  });

  it("reads a stack string's family before its bar, and only that family", () => {
    // Azure Functions' language page: Node.js 22 is expected to end support on April 30, 2027.
    expect(findVersion(catalogue, "azure-functions", "Node|22", "2026-11-28")).toMatchObject({
      version: "22",
      family: "node",
      status: "supported",
      ends: "2027-04-30",
    });
    expect(findVersion(catalogue, "azure-functions", "DOTNET-ISOLATED|8.0", "2026-11-28")).toMatchObject({
      family: "dotnet-isolated",
      ends: "2026-11-10",
    });
    // No Python family is recorded: Python|22 is not Node.js 22, and a bar with nothing before it names no family.
    expect(findVersion(catalogue, "azure-functions", "Python|22", "2026-11-28")).toBe("unknown");
    expect(findVersion(catalogue, "azure-functions", "|22", "2026-11-28")).toBe("unknown");
    expect(findVersion(catalogue, "azure-functions", "Node|", "2026-11-28")).toBe("unknown");
    expect(findVersion(catalogue, "azure-functions", "Node|22", "2026-11-28", "powershell")).toBe("unknown");
  });

  it("names a tier's successor service", () => {
    expect(findVersion(catalogue, "azure-cache-for-redis", "Enterprise", "2026-11-28")).toMatchObject({
      status: "supported",
      ends: "2027-03-31",
      successor: "azure-managed-redis",
    });
    expect(findVersion(catalogue, "azure-cache-for-redis", "Enterprise", "2027-04-01")).toMatchObject({
      status: "ended",
    });
  });
});

describe("the check:data gate", () => {
  it("passes on the catalogue's own day and fails once an end passes while the catalogue's day lags", () => {
    const served = catalogue.lastUpdated.slice(0, 10);
    expect(versionStatusProblems(catalogue, served)).toEqual([]);
    // EKS 1.34's standard support ends 2026-12-02: served as supported, it is extended on 2026-12-03.
    const later = versionStatusProblems(catalogue, "2026-12-03");
    expect(
      later.some((line) => line.startsWith("VERSION_STATUS_STALE: aws-eks kubernetes 1.34 is served as supported")),
    ).toBe(true);
  });
});

describe("loading data/versions/", () => {
  /** A copy of the fixture data folder with one versions file for aws, removed after the test. */
  function fixtureWithVersions(yaml: string): string {
    const dir = mkdtempSync(join(tmpdir(), "csc-versions-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    cpSync(FIXTURE_DIR, dir, { recursive: true });
    mkdirSync(join(dir, "versions"));
    writeFileSync(join(dir, "versions", "aws.yaml"), yaml);
    return dir;
  }
  /** The load's problems with that versions file. */
  function problemsWith(yaml: string): readonly string[] {
    const dir = fixtureWithVersions(yaml);
    try {
      loadCatalogue(dir);
      return [];
    } catch (error) {
      if (!(error instanceof CatalogueError)) throw error;
      return error.problems;
    }
  }
  const file = (source: string, family: string) => `sources:
  runtimes:
${source}
services:
  aws-lambda:
${family}
`;
  const goodSource = `    url: https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtimes.html
    retrieved: 2026-11-26
    backs: runtimes and their dates`;
  const family = (versions: string) => `    - id: nodejs
      name: Node.js
      kind: runtime
      source: runtimes
      terms: { standardEnd: Deprecation, extendedEnd: Block function update }
      versions:
${versions}`;

  it("loads a good file and serves it on the service", () => {
    const dir = fixtureWithVersions(
      file(goodSource, family("        - { id: nodejs20.x, standardEnd: 2026-04-30, extendedEnd: 2027-03-03 }")),
    );
    const loaded = loadCatalogue(dir);
    expect(loaded.bySlug.get("aws-lambda")!.versions[0]!.versions[0]!.id).toBe("nodejs20.x");
  });

  it("refuses a status written by hand", () => {
    const problems = problemsWith(
      file(goodSource, family("        - { id: nodejs20.x, standardEnd: 2026-04-30, status: supported }")),
    );
    expect(problems.some((line) => line.includes("versions/aws.yaml") && line.includes("status"))).toBe(true);
  });

  it("refuses an unknown service, a successor outside the family, dates out of order and a page off the vendor's domains", () => {
    const problems = problemsWith(
      file(
        goodSource.replace("docs.aws.amazon.com", "example.com"),
        family("        - { id: nodejs20.x, standardEnd: 2026-04-30, extendedEnd: 2026-01-01, successor: nodejs99.x }"),
      ).replace("services:\n", "services:\n  aws-nothing:\n" + family("        - { id: x }") + "\n"),
    );
    const has = (text: string) => problems.some((line) => line.includes(text));
    expect(has('"aws-nothing" is not a service in the catalogue')).toBe(true);
    expect(has('"nodejs99.x" is not a version of this family')).toBe(true);
    expect(has("2026-01-01 is before standardEnd (2026-04-30)")).toBe(true);
    expect(has("host example.com is not one of the provider's officialDomains")).toBe(true);
  });
});
