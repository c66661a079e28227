/**
 * AWS per-service compliance against AWS's own scope tables (the copies of 2022-07-15 in
 * catalogue/reference/aws-compliance/, the ISO page's among them since issue 115): the flagships
 * list exactly what the tables tick for them,
 * each programme with the scope page that names it, dated; the generated file is what the
 * generator writes today; a service the copies cannot know stays "not known".
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  awsScopeFile,
  includedNames,
  nameKeys,
  unexplainedRows,
  servicesInScopeRows,
  hipaaEligibleRows,
  isoCertifiedRows,
  isoPageProgrammes,
  type ScopeEntry,
} from "../../catalogue/compliance/aws-scope.ts";
import { awsScopePages } from "../../catalogue/compliance/aws-scope-pages.ts";
import { loadCatalogue } from "../../catalogue/load/load.ts";
import { readProviderServices } from "../../catalogue/load/load-services.ts";

const file = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), "utf8");
const catalogue = loadCatalogue();
const inScope = servicesInScopeRows(file("catalogue/reference/aws-compliance/services-in-scope.html"));
const hipaa = hipaaEligibleRows(file("catalogue/reference/aws-compliance/hipaa-eligible-services-reference.html"));
const isoPage = file("catalogue/reference/aws-compliance/iso-certified.html");
const iso = isoCertifiedRows(isoPage);

/** How AWS's tables name each flagship (its current and former names), and its IAM prefix where a table gives one. */
const FLAGSHIPS: [slug: string, names: RegExp, prefix: string][] = [
  ["aws-s3", /^Amazon (Simple Storage Service|S3)(\s*[([]|$)/, "s3"],
  ["aws-ec2", /^Amazon (Elastic Compute Cloud|EC2)(\s*[([]|$)/, "ec2"],
  ["aws-lambda", /^AWS Lambda(\s*[([]|$)/, "lambda"],
  ["aws-rds-mysql", /^Amazon (Relational Database Service|RDS)(\s*[([]|$)/, "rds"],
  ["aws-rds-postgresql", /^Amazon (Relational Database Service|RDS)(\s*[([]|$)/, "rds"],
  ["aws-dynamodb", /^Amazon DynamoDB(\s*[([]|$)/, "dynamodb"],
  ["aws-eks", /^Amazon (Elastic Kubernetes Service|EKS|Elastic Container Service for Kubernetes)(\s*[([]|$)/, "eks"],
  ["aws-ecs", /^Amazon (Elastic Container Service|ECS)(\s*[([]|$)/, "ecs"],
  ["aws-sqs", /^Amazon (Simple Queue Service|SQS)(\s*[([]|$)/, "sqs"],
  ["aws-sns", /^Amazon (Simple Notification Service|SNS)(\s*[([]|$)/, "sns"],
  ["aws-kms", /^AWS (Key Management Servic(e)?|KMS)(\s*[([]|$)/, "kms"],
];

/** The per-prefix digest in the same folder (salesforce/aws-allowlister), as a second reading of the pages. */
function digest(prefix: string): Record<string, string> {
  const [header, ...lines] = file("catalogue/reference/aws-compliance/compliance_statuses.csv").trim().split("\n");
  const columns = header!.split(",");
  const cells = lines.map((line) => line.split(",")).find((row) => row[0] === prefix)!;
  return Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ""]));
}

/** Where the digest misread the page; the page is what the catalogue follows. */
const DIGEST_MISSES: Readonly<Record<string, string>> = {
  "aws-kms HITRUST":
    'the HITRUST table spells the row "AWS Key Management Servic (KMS)"; the digest has no tick for it',
};

describe("AWS per-service compliance, from AWS's scope tables", () => {
  it.each(FLAGSHIPS)("%s lists exactly the programmes the tables tick for it", (slug, names, prefix) => {
    const rows = [...inScope, ...hipaa, ...iso].filter((row) => names.test(row.name));
    expect(rows.length, "the tables name the flagship").toBeGreaterThan(5);
    for (const row of rows) if (row.prefix) expect(row.prefix, row.name).toBe(prefix);
    const expected = [...new Set(rows.flatMap((row) => row.programmes))].sort();
    const { service, sources } = catalogue.bySlug.get(slug)!;
    expect([...(service.compliance ?? [])].sort()).toEqual(expected);
    for (const programme of expected) {
      const backing = sources.filter((s) => s.backs.includes("compliance") && s.programmes?.includes(programme));
      expect(backing.length, `${slug} ${programme} has its scope page`).toBe(1);
      expect(backing[0]).toMatchObject({ via: expect.stringContaining("aws-allowlister") });
      expect(backing[0]!.asOf! < "2022-07-16").toBe(true);
    }
  });

  it.each(FLAGSHIPS)("%s agrees with the per-prefix digest of the same pages", (slug, _names, prefix) => {
    const row = digest(prefix);
    const compliance = catalogue.bySlug.get(slug)!.service.compliance ?? [];
    const pairs: [string, string][] = [
      ["SOC", "soc-2"],
      ["PCI", "pci-dss"],
      ["HIPAA", "hipaa"],
      ["HITRUST", "hitrust"],
      ["IRAP", "irap"],
      ["ISO", "iso-27001"],
    ];
    for (const [column, programme] of pairs)
      expect(compliance.includes(programme), `${slug} ${column}`).toBe(
        DIGEST_MISSES[`${slug} ${column}`] ? row[column] !== "true" : row[column] === "true",
      );
  });

  it("is what the generator writes from the vendored copies today", () => {
    const entries = readProviderServices(
      fileURLToPath(new URL("../../catalogue/data", import.meta.url)),
      "aws",
    ) as ScopeEntry[];
    expect(awsScopeFile(awsScopePages(), entries).text).toBe(file("catalogue/data/scope/aws.yaml"));
  });

  it("leaves a service the 2022 copies cannot know as not known, and a retired one without programmes", () => {
    // Amazon Bedrock became generally available in 2023: absent from the copies, so no programme.
    expect(catalogue.bySlug.get("aws-bedrock")!.service.compliance).toEqual([]);
    // Amazon Chime is in the 2022 tables but retired: retired services carry none.
    expect(inScope.some((row) => nameKeys(row.name).includes("chime") && row.programmes.length > 0)).toBe(true);
    expect(catalogue.bySlug.get("aws-chime")!.service.compliance).toEqual([]);
  });

  it("reads the HIPAA page's own date and every programme column it maps", () => {
    expect(awsScopePages().map((page) => page.id)).toEqual(["services-in-scope", "hipaa-eligible", "iso-certified"]);
    const programmes = new Set(inScope.flatMap((row) => row.programmes));
    for (const id of [
      "soc-1",
      "pci-dss",
      "ismap",
      "fedramp-moderate",
      "fedramp-high",
      "irap",
      "c5",
      "k-isms",
      "ens-high",
      "hitrust",
    ])
      expect(programmes.has(id), id).toBe(true);
    expect(hipaa.length).toBeGreaterThan(100);
  });

  // Issue 115: ?compliance=iso-27001&provider=aws answered nothing, as the services-in-scope copy
  // has no ISO tab; AWS lists ISO's scope on a page of its own, which the digest's ISO column reads.
  it("reads AWS's ISO and CSA STAR page: its certificates, its date and the services it names", () => {
    expect(isoPageProgrammes(isoPage)).toEqual([
      "iso-27001",
      "iso-27017",
      "iso-27018",
      "iso-27701",
      "iso-9001",
      "csa-star",
    ]);
    const page = awsScopePages().find((p) => p.id === "iso-certified")!;
    expect(page.url).toBe("https://aws.amazon.com/compliance/iso-certified/");
    expect(iso.length).toBeGreaterThan(140);
    for (const slug of ["aws-s3", "aws-ec2", "aws-lambda", "aws-dynamodb"]) {
      const { service, sources } = catalogue.bySlug.get(slug)!;
      expect(service.compliance, slug).toEqual(expect.arrayContaining(["iso-27001", "iso-27017", "csa-star"]));
      const backing = sources.find((s) => s.url === page.url)!;
      expect(backing, slug).toMatchObject({ backs: ["compliance"], asOf: "2021-09-04", retrieved: "2026-11-28" });
    }
  });

  it("names for ISO the prefixes the digest's ISO column ticks, but for the digest's own spellings", () => {
    const [header, ...lines] = file("catalogue/reference/aws-compliance/compliance_statuses.csv").trim().split("\n");
    const isoColumn = header!.split(",").indexOf("ISO");
    const ticked = new Set(
      lines
        .map((line) => line.split(","))
        .filter((row) => row[isoColumn] === "true")
        .map((row) => row[0]),
    );
    const prefixes = iso.flatMap((row) => (row.prefix ?? "").split(",").map((prefix) => prefix.trim())).filter(Boolean);
    // The page's namespaces the digest writes otherwise (IAM's spelling: forecast, kafka, cassandra,
    // lex, outposts, sdb, shield, iot, snowball) or drops (sdkmetrics): the same page read twice.
    const respelled = ["DDoSProtection", "amazonforecast", "iot-device", "keyspaces", "models.lex", "msk"];
    respelled.push("outpost", "runtime.lex", "sbd", "sdkmetrics", "snowballedge");
    expect([...new Set(prefixes.filter((prefix) => !ticked.has(prefix)))].sort()).toEqual(respelled.sort());
    expect(ticked.has("s3") && ticked.has("ec2")).toBe(true);
  });

  it("reads every [includes …] and (including …) form, so AWS Lake Formation is in scope through AWS Glue", () => {
    expect(includedNames("AWS Glue [includes AWS Lake Formation]")).toEqual(["AWS Lake Formation"]);
    expect(includedNames("AWS Glue (including AWS Lake Formation)")).toEqual(["AWS Lake Formation"]);
    expect(includedNames("AWS OpsWorks CM [Includes Chef Automate and Puppet Enterprise]")).toEqual([
      "Chef Automate",
      "Puppet Enterprise",
    ]);
    expect(
      includedNames(
        "Amazon CloudWatch [includes CloudWatch Alpine, CloudWatch Events and EventBridge, CloudWatch Logs]",
      ),
    ).toEqual(["CloudWatch Alpine", "CloudWatch Events", "EventBridge", "CloudWatch Logs"]);
    expect(includedNames("AWS Directory Service [excludes Simple AD]")).toEqual([]);
    expect(includedNames("AWS Fargate [feature of ECS]")).toEqual([]);
    // Before, only "[includes Amazon Aurora]" was read and Lake Formation listed no programme.
    const lakeFormation = catalogue.bySlug.get("aws-lake-formation")!.service.compliance ?? [];
    for (const programme of ["hipaa", "pci-dss", "ismap", "hitrust", "iso-27001", "csa-star"])
      expect(lakeFormation).toContain(programme);
  });

  it("lands every row of every stored table on a catalogue service, or lists it with why", () => {
    const entries = readProviderServices(
      fileURLToPath(new URL("../../catalogue/data", import.meta.url)),
      "aws",
    ) as ScopeEntry[];
    const { unmatched } = awsScopeFile(awsScopePages(), entries);
    const { rows, stale } = unexplainedRows(unmatched.map(({ row }) => row));
    expect(rows.map((row) => row.name)).toEqual([]);
    expect(stale).toEqual([]);
  });
});
