import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CatalogueError, loadCatalogue } from "../../catalogue/load/load.ts";
import { serviceDetail } from "../../catalogue/search/query.ts";
import { FIXTURE_DIR } from "../helpers/app.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the fixture catalogue with one file edited. */
function brokenFixture(file: string, edit: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), "csc-fixture-"));
  dirs.push(dir);
  cpSync(FIXTURE_DIR, dir, { recursive: true });
  writeFileSync(join(dir, file), edit(readFileSync(join(dir, file), "utf8")));
  return dir;
}

function problemsOf(dir: string): string[] {
  try {
    loadCatalogue(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogueError);
    return [...(error as CatalogueError).problems];
  }
  throw new Error("the broken fixture loaded");
}

/** What is broken, the file edited, the edit, and the problem the load must name. */
type BrokenFixtureCase = [what: string, file: string, edit: (text: string) => string, expected: RegExp];

/** One test per case: the fixture with the case's edit is refused with a problem that matches. */
function itRejectsEach(cases: readonly BrokenFixtureCase[]): void {
  for (const [what, file, edit, expected] of cases) {
    it(`rejects ${what}, naming file, entry and field`, () => {
      const problems = problemsOf(brokenFixture(file, edit));
      expect(
        problems.some((problem) => expected.test(problem)),
        problems.join("\n"),
      ).toBe(true);
    });
  }
}

describe("loadCatalogue", () => {
  it("loads the fixture with ids equal to slugs, the entry's own compliance and derived flags", () => {
    const catalogue = loadCatalogue(FIXTURE_DIR);
    expect(catalogue.services).toHaveLength(7);
    const s3 = catalogue.bySlug.get("aws-s3")!;
    expect(s3.service.id).toBe("aws-s3");
    // The entry's own list only: the provider's defaultCompliance (iso-27001, soc-2, pci-dss) stays on the provider.
    expect(s3.service.compliance).toEqual(["pci-dss"]);
    expect(catalogue.bySlug.get("aws-lambda")!.service.compliance).toEqual([]);
    expect(catalogue.providerById.get("aws")!.provider.defaultCompliance).toEqual(["iso-27001", "soc-2", "pci-dss"]);
    expect(s3.equivalentSlugs).toEqual(["ovhcloud-object-storage", "stackit-object-storage"]);
    expect(catalogue.bySlug.get("ovhcloud-managed-kubernetes")!.service.compliance).toEqual([]);
    expect(catalogue.providerById.get("stackit")).toMatchObject({ sovereignOption: true, euResidentOnly: true });
    expect(catalogue.providerById.get("ovhcloud")).toMatchObject({ sovereignOption: true, euResidentOnly: false });
    expect(catalogue.providerById.get("aws")).toMatchObject({ sovereignOption: false, euResidentOnly: false });
    expect(Object.isFrozen(catalogue.services)).toBe(true);
  });

  const cases: BrokenFixtureCase[] = [
    [
      "a slug of another provider",
      "services/stackit/object-storage.yaml",
      (t) => t.replace("stackit-object-storage", "aws-s3"),
      /services\/stackit\/object-storage\.yaml: field slug: is "aws-s3" but the file makes it "stackit-object-storage"/,
    ],
    [
      "a slug other than <provider>-<file name>",
      "services/stackit/object-storage.yaml",
      (t) => t.replace("stackit-object-storage", "stackit-objects"),
      /services\/stackit\/object-storage\.yaml: field slug: is "stackit-objects" but the file makes it "stackit-object-storage"/,
    ],
    [
      "a service file that is a list",
      "services/aws/lambda.yaml",
      (t) => `- ${t.replaceAll("\n", "\n  ")}`,
      /services\/aws\/lambda\.yaml: must be one YAML mapping, a service/,
    ],
    [
      "an unknown category",
      "services/aws/lambda.yaml",
      (t) => t.replace("category: serverless", "category: nonsense"),
      /services\/aws\/lambda\.yaml: field category: unknown category "nonsense"/,
    ],
    [
      "a successor that does not exist",
      "services/aws/old-thing.yaml",
      (t) => t.replace("successorSlug: aws-s3", "successorSlug: aws-s4"),
      /services\/aws\/old-thing\.yaml: field lifecycle\.successorSlug: "aws-s4" is not a service/,
    ],
    [
      "a retired service without sunsetDate",
      "services/aws/old-thing.yaml",
      (t) => t.replace("sunsetDate: 2024-01-31, ", ""),
      /services\/aws\/old-thing\.yaml: field lifecycle\.sunsetDate: is required when status is retired/,
    ],
    [
      "an http URL",
      "services/aws/s3.yaml",
      (t) => t.replace("https://docs.aws.amazon.com/s3/", "http://docs.aws.amazon.com/s3/"),
      /services\/aws\/s3\.yaml: field documentationUrl: must be an https:\/\/ URL/,
    ],
    [
      "a URL off the provider's domains",
      "services/aws/s3.yaml",
      (t) => t.replace("https://aws.amazon.com/s3/pricing/", "https://example.org/s3/"),
      /services\/aws\/s3\.yaml: field pricingUrl: host example\.org is not one of aws's officialDomains/,
    ],
    [
      "equivalents on one provider only",
      "equivalents.yaml",
      (t) =>
        t.replace(
          "services: [aws-s3, ovhcloud-object-storage, stackit-object-storage]",
          "services: [aws-s3, aws-old-thing]",
        ),
      /equivalents\.yaml: entry 1 \(object-storage\): field services: every service is on one provider/,
    ],
    [
      "an unknown service in equivalents",
      "equivalents.yaml",
      (t) => t.replace("stackit-object-storage]", "stackit-nothing]"),
      /equivalents\.yaml: entry 1 \(object-storage\): field services\.2: "stackit-nothing" is not a service/,
    ],
    [
      "a jurisdiction that contradicts the head office",
      "providers/stackit.yaml",
      (t) => t.replace("jurisdiction: EU", "jurisdiction: DE"),
      /providers\/stackit\.yaml: field jurisdiction: is "DE" but a head office in DE means "EU"/,
    ],
    [
      "an unknown field",
      "services/aws/s3.yaml",
      (t) => t.replace("hasFreeTier: true", "hasFreeTier: true\nfreeTier: true"),
      /services\/aws\/s3\.yaml: field \(file\): Unrecognized key: "freeTier"/,
    ],
    [
      "an unknown compliance id",
      "providers/aws.yaml",
      (t) => t.replace("pci-dss", "pci"),
      /providers\/aws\.yaml: field defaultCompliance\.2: unknown compliance id "pci"/,
    ],
    [
      "a market on some regions of a provider but not all",
      "providers/aws.yaml",
      (t) => t.replace("country: US }", "country: US, market: global }"),
      /providers\/aws\.yaml: field regions\.1\.market: missing, but other regions of this provider have one/,
    ],
    [
      "a mainland-china market outside China",
      "providers/aws.yaml",
      (t) =>
        t.replace("country: US }", "country: US, market: mainland-china }").replace("DE }", "DE, market: global }"),
      /providers\/aws\.yaml: field regions\.0\.market: is "mainland-china" for a region in US/,
    ],
    [
      "an unknown market",
      "providers/aws.yaml",
      (t) => t.replace("country: US }", "country: US, market: international }"),
      /providers\/aws\.yaml: field regions\.0\.market: /,
    ],
    [
      "broken YAML",
      "services/ovhcloud/object-storage.yaml",
      (t) => `${t}\n  : [`,
      /services\/ovhcloud\/object-storage\.yaml: /,
    ],
  ];
  itRejectsEach(cases);

  it("derives lastVerified from the newest source and lists sources newest first", () => {
    const catalogue = loadCatalogue(FIXTURE_DIR);
    const s3 = catalogue.bySlug.get("aws-s3")!;
    expect(s3.service.lastVerified).toBe("2026-11-25");
    expect(s3.sources.map((source) => source.retrieved)).toEqual(["2026-11-25", "2026-11-20"]);
    // retrieved is the data's; checked repeats it for 1.7 clients.
    expect(s3.sources[0]).toEqual({
      url: "https://docs.aws.amazon.com/s3/",
      retrieved: "2026-11-25",
      checked: "2026-11-25",
      backs: ["identity", "description"],
    });
    // No source, no date: the provider file's lastVerified (2026-01-15) is never stamped onto a service.
    const lambda = catalogue.bySlug.get("aws-lambda")!;
    expect(lambda.service).not.toHaveProperty("lastVerified");
    expect(lambda.sources).toEqual([]);
  });

  const sourceCases: BrokenFixtureCase[] = [
    [
      "a hand-written lastVerified",
      "services/aws/s3.yaml",
      (t) => t.replace("hasFreeTier: true", "hasFreeTier: true\nlastVerified: 2026-11-23"),
      /services\/aws\/s3\.yaml: field lastVerified: is no longer written by hand: list the vendor pages you checked under sources/,
    ],
    [
      "a source off the provider's domains",
      "services/aws/s3.yaml",
      (t) => t.replace("https://docs.aws.amazon.com/s3/\n    retrieved", "https://example.org/s3/\n    retrieved"),
      /services\/aws\/s3\.yaml: field sources\.1\.url: host example\.org is not one of the provider's officialDomains/,
    ],
    [
      "a source read in the future",
      "services/aws/s3.yaml",
      (t) => t.replace("retrieved: 2026-11-25", "retrieved: 2999-01-01"),
      /services\/aws\/s3\.yaml: field sources\.1\.retrieved: 2999-01-01 is in the future/,
    ],
    [
      "a source that backs nothing",
      "services/aws/s3.yaml",
      (t) => t.replace("backs: [compliance]", "backs: []"),
      /services\/aws\/s3\.yaml: field sources\.0\.backs: /,
    ],
    [
      "a source that backs an unknown fact",
      "services/aws/s3.yaml",
      (t) => t.replace("backs: [compliance]", "backs: [pricing]"),
      /services\/aws\/s3\.yaml: field sources\.0\.backs\.0: /,
    ],
    [
      "a source with a date that is not a date",
      "services/aws/s3.yaml",
      (t) => t.replace("retrieved: 2026-11-20", "retrieved: last week"),
      /services\/aws\/s3\.yaml: field sources\.0\.retrieved: must be a date in YYYY-MM-DD form/,
    ],
    [
      "the same source twice",
      "services/aws/s3.yaml",
      (t) =>
        t.replace(
          "https://docs.aws.amazon.com/s3/\n    retrieved",
          "https://aws.amazon.com/compliance/services-in-scope/PCI/\n    retrieved",
        ),
      /services\/aws\/s3\.yaml: field sources\.1\.url: listed twice/,
    ],
    [
      "compliance on a retired service",
      "services/aws/old-thing.yaml",
      (t) => t.replace("lifecycle: { status: retired", "compliance: [soc-2]\nlifecycle: { status: retired"),
      /services\/aws\/old-thing\.yaml: field compliance: a retired service carries no compliance programme/,
    ],
    [
      "compliance on a preview service",
      "services/aws/cloud9.yaml",
      (t) =>
        t.replace(
          "lifecycle: { status: deprecated, note: Closed to new customers. }",
          "compliance: [soc-2]\nlifecycle: { status: preview }",
        ),
      /services\/aws\/cloud9\.yaml: field compliance: a preview service carries no compliance programme/,
    ],
  ];
  itRejectsEach(sourceCases);

  it("rejects a services file whose provider has no file", () => {
    const dir = brokenFixture("services/stackit/object-storage.yaml", (t) => t);
    rmSync(join(dir, "providers/stackit.yaml"));
    expect(problemsOf(dir).join("\n")).toMatch(
      /services\/stackit\/object-storage\.yaml: no provider file providers\/stackit\.yaml/,
    );
  });

  it("refuses an old services/<provider>.yaml list and a service file not named in kebab-case", () => {
    const dir = brokenFixture("services/aws/s3.yaml", (t) => t);
    writeFileSync(join(dir, "services", "vultr.yaml"), "- slug: vultr-cloud-compute\n");
    writeFileSync(join(dir, "services", "aws", "Lambda2.yaml"), "slug: aws-Lambda2\n");
    const problems = problemsOf(dir).join("\n");
    expect(problems).toMatch(/services\/vultr\.yaml: services are one file each, services\/<provider>\/<name>\.yaml/);
    expect(problems).toMatch(
      /services\/aws\/Lambda2\.yaml: a service file is named <name>\.yaml, lowercase kebab-case/,
    );
  });

  it("reads a service file's comments as comments and needs no README beside it", () => {
    const dir = brokenFixture("services/aws/lambda.yaml", (t) => `# Why this entry says what it says.\n${t}`);
    rmSync(join(dir, "services", "aws", "README.md"));
    expect(loadCatalogue(dir).bySlug.get("aws-lambda")!.service.name).toBe("AWS Lambda");
  });

  it("reads compatibility claims and lineage, and answers them on service detail with the term's name", () => {
    const dir = brokenFixture("services/stackit/object-storage.yaml", (t) => `${t}${LINEAGE("aws-s3")}`);
    const catalogue = loadCatalogue(dir);
    expect(catalogue.compatibilityById.get("s3-api")?.name).toBe("Amazon S3 API");
    const ovh = catalogue.bySlug.get("ovhcloud-object-storage")!;
    expect(ovh.compatibility).toEqual([
      {
        id: "s3-api",
        source: { url: "https://help.ovhcloud.com/csm/en-public-cloud-storage-s3", retrieved: "2026-11-25" },
      },
    ]);
    expect(serviceDetail(catalogue, "ovhcloud-object-storage")?.compatibility).toEqual([
      {
        id: "s3-api",
        name: "Amazon S3 API",
        source: { url: "https://help.ovhcloud.com/csm/en-public-cloud-storage-s3", retrieved: "2026-11-25" },
      },
    ]);
    expect(serviceDetail(catalogue, "stackit-object-storage")?.lineage).toEqual({
      origin: "aws-s3",
      source: { url: "https://docs.stackit.cloud/lineage", retrieved: "2026-11-20", asOf: "2026-11-01" },
    });
    // Absent, not empty, where nothing is recorded.
    expect(serviceDetail(catalogue, "aws-lambda")).not.toHaveProperty("compatibility");
    expect(serviceDetail(catalogue, "aws-lambda")).not.toHaveProperty("lineage");
  });

  const compatibilityCases: BrokenFixtureCase[] = [
    [
      "an unknown compatibility id",
      "services/ovhcloud/object-storage.yaml",
      (t) => t.replace("- id: s3-api", "- id: s4-api"),
      /services\/ovhcloud\/object-storage\.yaml: field compatibility\.0\.id: unknown compatibility id "s4-api" \(see compatibility\.yaml\)/,
    ],
    [
      "a term claimed twice",
      "services/ovhcloud/object-storage.yaml",
      (t) => t.replace(/( {2}- id: s3-api\n.*\n)/, "$1$1"),
      /services\/ovhcloud\/object-storage\.yaml: field compatibility\.1\.id: "s3-api" is claimed twice/,
    ],
    [
      "a compatibility source off the provider's domains",
      "services/ovhcloud/object-storage.yaml",
      (t) =>
        t.replace(
          'url: "https://help.ovhcloud.com/csm/en-public-cloud-storage-s3", retrieved',
          'url: "https://example.org/s3", retrieved',
        ),
      /services\/ovhcloud\/object-storage\.yaml: field compatibility\.0\.source\.url: host example\.org is not one of the provider's officialDomains/,
    ],
    [
      "a compatibility source retrieved in the future",
      "services/ovhcloud/object-storage.yaml",
      (t) => t.replace("retrieved: 2026-11-25", "retrieved: 2999-01-01"),
      /services\/ovhcloud\/object-storage\.yaml: field compatibility\.0\.source\.retrieved: 2999-01-01 is in the future/,
    ],
    [
      "a compatibility source without retrieved",
      "services/ovhcloud/object-storage.yaml",
      (t) => t.replace(", retrieved: 2026-11-25", ""),
      /services\/ovhcloud\/object-storage\.yaml: field compatibility\.0\.source\.retrieved: /,
    ],
    [
      "an asOf after retrieved",
      "services/ovhcloud/object-storage.yaml",
      (t) => t.replace("retrieved: 2026-11-25", "retrieved: 2026-11-25, asOf: 2026-11-26"),
      /field compatibility\.0\.source\.asOf: 2026-11-26 is after retrieved \(2026-11-25\)/,
    ],
    [
      "a compatibility source read through a copy not pinned to a commit",
      "services/ovhcloud/object-storage.yaml",
      (t) =>
        t.replace(
          "retrieved: 2026-11-25",
          'retrieved: 2026-11-25, via: "https://github.com/ovh/docs/blob/main/pages/s3.md"',
        ),
      /field compatibility\.0\.source\.via: name the copy read as a repository file pinned to its commit/,
    ],
    [
      "a duplicate vocabulary id",
      "compatibility.yaml",
      (t) => t.replace("- id: kubernetes", "- id: s3-api"),
      /compatibility\.yaml: entry 2 \(s3-api\): field id: duplicate id/,
    ],
    [
      "a lineage whose origin is not in the catalogue",
      "services/stackit/object-storage.yaml",
      (t) => `${t}${LINEAGE("aws-s4")}`,
      /services\/stackit\/object-storage\.yaml: field lineage\.origin: "aws-s4" is not a service in the catalogue/,
    ],
    [
      "a lineage whose origin is on the same provider",
      "services/ovhcloud/managed-kubernetes.yaml",
      (t) =>
        t.replace(
          "tags: [kubernetes]",
          `tags: [kubernetes]${LINEAGE("ovhcloud-object-storage").replace("stackit.cloud", "ovhcloud.com")}`,
        ),
      /services\/ovhcloud\/managed-kubernetes\.yaml: field lineage\.origin: "ovhcloud-object-storage" is on the same provider/,
    ],
    [
      "a lineage whose origin is retired",
      "services/stackit/object-storage.yaml",
      (t) => `${t}${LINEAGE("aws-old-thing")}`,
      /services\/stackit\/object-storage\.yaml: field lineage\.origin: "aws-old-thing" is retired/,
    ],
    [
      "a lineage source off the provider's domains",
      "services/stackit/object-storage.yaml",
      (t) => `${t}${LINEAGE("aws-s3").replace("docs.stackit.cloud", "example.org")}`,
      /services\/stackit\/object-storage\.yaml: field lineage\.source\.url: host example\.org is not one of the provider's officialDomains/,
    ],
  ];
  it("keeps a compatibility source's via when it is a repository file pinned to its commit (1.9.0)", () => {
    const via = `https://github.com/ovh/docs/blob/${"a".repeat(40)}/pages/s3.md`;
    const dir = brokenFixture("services/ovhcloud/object-storage.yaml", (t) =>
      t.replace("retrieved: 2026-11-25", `retrieved: 2026-11-25, via: "${via}"`),
    );
    const claim = serviceDetail(loadCatalogue(dir), "ovhcloud-object-storage")?.compatibility?.[0];
    expect(claim?.source).toEqual({
      url: "https://help.ovhcloud.com/csm/en-public-cloud-storage-s3",
      retrieved: "2026-11-25",
      via,
    });
  });

  itRejectsEach(compatibilityCases);
});

/** A lineage block appended to a fixture service file. */
function LINEAGE(origin: string): string {
  return `\nlineage:\n  origin: ${origin}\n  source: { url: "https://docs.stackit.cloud/lineage", retrieved: 2026-11-20, asOf: 2026-11-01 }\n`;
}
