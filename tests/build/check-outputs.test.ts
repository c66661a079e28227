/**
 * The outputs CI systems read (issue 122, docs/ci-check.md "Outputs"), from the package's bin over a
 * Terraform folder with findings that count, findings accepted inline and by the baseline, an
 * expired suppression, a stale baseline entry and names that need escaping — each validated as its
 * consumer reads it (helpers/ci-formats.ts): SARIF against OASIS's schema, JUnit XML against the
 * xUnit plugin's schema with xmllint, GitLab's code-quality report against GitLab's schema, GitHub's
 * workflow commands against what @actions/core writes, the pull request's comment as GitHub Flavored
 * Markdown renders it, within GitHub's 65,536 characters.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeQualityErrors, gfmHtmlOf, junitErrors, readWorkflowCommand, toolkitLine } from "../helpers/ci-formats.ts";
import { folderWith, packagedCli, runCli } from "../helpers/cli.ts";
import { sarifAjv, validSarif } from "../helpers/sarif.ts";
import { terraformPlan } from "../helpers/terraform-plan.ts";

const RUN_MS = 90_000;
let bin: string;
beforeAll(async () => {
  bin = await packagedCli();
}, 120_000);

/** Keys that need escaping in every format: a table's pipe, HTML, a workflow command's % , and :. */
const KEYS = ["a|b", "<img src=x>", "50%,c:d"];
const MAIN = `provider "aws" {
  region = "eu-central-1"
}

resource "aws_s3_bucket" "logs" {}

resource "aws_sqs_queue" "q" {
  for_each = toset(${JSON.stringify(KEYS)})
  name     = "q"
}

# cloud-catalogue:ignore denied-action refunds move to SNS (CAB-7)
resource "aws_sqs_queue" "refunds" {}

# cloud-catalogue:ignore denied-action expires=2026-01-31 the old exception
resource "aws_sqs_queue" "lapsed" {}

resource "aws_sqs_queue" "orders" {}

resource "random_id" "suffix" {
  byte_length = 4
}
`;
const BASELINE = JSON.stringify({
  suppressions: [
    { rule: "denied-action", resource: "aws_sqs_queue.orders", file: "infra", reason: "orders accepted (CAB-1)" },
    { rule: "denied-action", resource: "aws_sqs_queue.gone", file: "infra", reason: "the gone queue" },
  ],
});
const OUTPUTS = [
  "--sarif",
  "check.sarif",
  "--junit",
  "check.xml",
  "--gitlab",
  "gl-code-quality.json",
  "--markdown",
  "comment.md",
  "--github-annotations",
];

describe("every output of one run", { timeout: RUN_MS }, () => {
  let dir: string;
  let status: number | null;
  let stdout: string;
  beforeAll(async () => {
    // One run for every test of this block: its folder outlives each test.
    dir = mkdtempSync(join(tmpdir(), "csc-outputs-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, "infra"));
    writeFileSync(join(dir, "infra", "main.tf"), MAIN);
    writeFileSync(join(dir, "baseline.json"), BASELINE);
    const result = await runCli(bin, dir, [
      "check",
      "infra",
      "--ids",
      "aws-s3",
      "--baseline",
      "baseline.json",
      ...OUTPUTS,
    ]);
    ({ status, stdout } = result);
    expect(result.stderr).toContain("not allowed (4 errors, 1 warning; 1 accepted by the baseline, 1 suppressed)");
  }, RUN_MS);
  const read = (name: string) => readFileSync(join(dir, name), "utf8");

  it("exits 1: the queues of each key, the lapsed one and the warning count", () => {
    expect(status).toBe(1);
  });

  it("SARIF: valid, a result per instance at its block with fingerprints, suppressions accepted, notes for the stale entry", () => {
    const log = JSON.parse(read("check.sarif")) as {
      runs: {
        results: {
          level: string;
          properties: { resource?: string };
          locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }[];
          partialFingerprints: Record<string, string>;
          suppressions?: { kind: string; state: string }[];
        }[];
        invocations: { toolConfigurationNotifications: { level: string; descriptor: { id: string } }[] }[];
      }[];
    };
    expect(validSarif(log), sarifAjv.errorsText(validSarif.errors)).toBe(true);
    const [run] = log.runs;
    const byResource = new Map(run!.results.map((result) => [result.properties.resource, result]));
    for (const key of KEYS) {
      const result = byResource.get(`aws_sqs_queue.q[${JSON.stringify(key)}]`)!;
      expect(result.locations[0]!.physicalLocation).toEqual({
        artifactLocation: { uri: "infra/main.tf" },
        region: { startLine: 7, startColumn: 1 },
      });
    }
    expect(new Set(run!.results.map((result) => result.partialFingerprints["cloudCatalogueFinding/v1"])).size).toBe(
      run!.results.length,
    );
    expect(byResource.get("aws_sqs_queue.refunds")!.suppressions).toEqual([
      expect.objectContaining({ kind: "inSource", state: "accepted" }),
    ]);
    expect(byResource.get("aws_sqs_queue.orders")!.suppressions).toEqual([
      expect.objectContaining({ kind: "external", state: "accepted" }),
    ]);
    expect(byResource.get("aws_sqs_queue.lapsed")!.suppressions).toBeUndefined();
    expect(run!.results.every((result) => result.level === "error" || result.level === "warning")).toBe(true);
    expect(run!.invocations[0]!.toolConfigurationNotifications.map((note) => [note.level, note.descriptor.id])).toEqual(
      [
        ["warning", "expired-suppression"],
        ["note", "stale-baseline-entry"],
      ],
    );
  });

  it("JUnit XML: valid against junit-10.xsd, a failure per finding that fails, skipped ones with their reasons", async () => {
    const xml = read("check.xml");
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toMatch(/<testsuite name="infra" tests="7" failures="4" errors="0" skipped="2">/);
    expect(xml).toContain('<skipped message="accepted: refunds move to SNS (CAB-7) (infra/main.tf:12)"/>');
    expect(xml).toContain("aws_sqs_queue.q[&quot;&lt;img src=x&gt;&quot;]: denied-action (infra/main.tf:7)");
    expect(xml).toContain(
      "The baseline&apos;s denied-action aws_sqs_queue.gone infra (the gone queue) accepts no finding any more",
    );
    // A report that is not JUnit is refused by the same check.
    expect(await junitErrors(xml.replace("<testsuite ", '<testsuite bogus="1" '))).not.toEqual([]);
  });

  it("GitLab code quality: each issue valid against GitLab's schema, fingerprints unique, severities GitLab's", () => {
    const report = JSON.parse(read("gl-code-quality.json")) as {
      severity: string;
      description: string;
      location: { path: string; lines: { begin: number } };
    }[];
    expect(codeQualityErrors(report)).toEqual([]);
    expect(report.map((issue) => issue.severity).sort()).toEqual([
      "critical",
      "critical",
      "critical",
      "critical",
      "info",
      "info",
      "minor",
    ]);
    expect(
      report.find((issue) => issue.severity === "info" && issue.description.includes("refunds"))!.description,
    ).toMatch(/^\[accepted: refunds move to SNS \(CAB-7\) \(infra\/main\.tf:12\)\] /);
    expect(report.every((issue) => issue.location.path.startsWith("infra/") && issue.location.lines.begin > 0)).toBe(
      true,
    );
    expect(codeQualityErrors([{ description: "x", fingerprint: "f", severity: "fatal", location: {} }])).not.toEqual(
      [],
    );
  });

  it("GitHub annotations: each line as @actions/core writes the same annotation, after the answer", () => {
    const lines = stdout.split("\n").filter((line) => line.startsWith("::"));
    expect(stdout.indexOf("::")).toBeGreaterThan(stdout.indexOf("Checked against the"));
    const commands = lines.map((line) => readWorkflowCommand(line)!);
    expect(commands.map((command) => command.level).sort()).toEqual([
      "error",
      "error",
      "error",
      "error",
      "notice",
      "notice",
      "notice",
      "warning",
      "warning",
    ]);
    lines.forEach((line, at) => expect(line).toBe(toolkitLine(commands[at]!)));
    const weird = commands.find((command) => command.message.startsWith(`aws_sqs_queue.q["50%,c:d"]`))!;
    expect(weird.properties).toEqual({
      title: "cloud-catalogue denied-action",
      file: "infra/main.tf",
      line: "7",
      col: "1",
    });
  });

  it("the pull request's comment: GFM tables, names escaped, the accepted ones collapsed with their reasons", () => {
    const markdown = read("comment.md");
    const html = gfmHtmlOf(markdown);
    expect(markdown.length).toBeLessThanOrEqual(65_536);
    expect(html.match(/<table>/g)).toHaveLength(2);
    // Four failing queues and the warning, one row each; two accepted rows in the collapsed table.
    expect(html.match(/<tr>/g)).toHaveLength(2 + 5 + 2);
    expect(html).toContain("aws_sqs_queue.q[&quot;a|b&quot;]");
    expect(html).toContain("aws_sqs_queue.q[&quot;&lt;img src=x&gt;&quot;]");
    expect(html).not.toMatch(/<img/);
    expect(html).toMatch(/<details><summary>2 accepted .*<\/summary>/);
    expect(html).toContain("refunds move to SNS (CAB-7) (infra/main.tf:12)");
    expect(html).toContain(
      "The baseline's denied-action aws_sqs_queue.gone infra (the gone queue) accepts no finding any more: remove it.",
    );
  });
});

describe("the pull request's comment of a large deployment", { timeout: RUN_MS }, () => {
  it("stays within 65,536 characters and counts the findings it leaves out", async () => {
    const queues = Array.from({ length: 1500 }, (_, at) => ["aws_sqs_queue", `queue_${at}`] as [string, string]);
    const dir = folderWith({ "plan.json": JSON.stringify(terraformPlan(queues)) });
    const result = await runCli(bin, dir, ["check", "plan.json", "--ids", "aws-s3", "--markdown", "comment.md"]);
    expect(result.status).toBe(1);
    const markdown = readFileSync(join(dir, "comment.md"), "utf8");
    expect(markdown.length).toBeLessThanOrEqual(65_536);
    const rows = gfmHtmlOf(markdown).match(/<tr>/g)!.length - 1;
    const left = Number(/… and (\d+) more findings that count, left out of this comment/.exec(markdown)![1]);
    expect(rows + left).toBe(1500);
  });
});
