/**
 * The check as a CI gate (catalogue/templates/answer/findings.ts, sarif.ts; `cloud-catalogue check`, issue
 * 96): which answers are allowed, each finding with what would allow it, and the SARIF log valid
 * against the SARIF 2.1.0 schema of OASIS (tests/fixtures/sarif/), each result on the line of the
 * logical id, resource name or plan address it came from.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { checkOutcome } from "../../catalogue/templates/answer/findings.ts";
import { sarifLog } from "../../catalogue/templates/answer/sarif.ts";
import { TextIndex } from "../../catalogue/templates/answer/places.ts";
import { realCatalogue } from "../helpers/catalogue.ts";
import { sarifAjv, validSarif } from "../helpers/sarif.ts";
import { terraformPlan } from "../helpers/terraform-plan.ts";
import { GOOGLE_PLAN_FIXTURES, TEMPLATE_FIXTURES } from "../fixtures/templates/templates.ts";

const catalogue = realCatalogue();

/** The SARIF of a check, with the schema's verdict on it. */
function sarifOf(text: string, ids: string[], path = "infra/template.yaml") {
  const outcome = checkOutcome(checkTemplate(catalogue, text, ids));
  const log = sarifLog(outcome.findings, { path, text, version: "0.1.0" });
  const valid = validSarif(log);
  return { outcome, log, valid, errors: sarifAjv.errorsText(validSarif.errors) };
}

const CLOUDFORMATION = `AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Bucket:
    Type: AWS::S3::Bucket
  Queue:
    Type: AWS::SQS::Queue
`;
const ALLOWING = ["aws-cloudformation", "aws-s3", "aws-sqs"];

/** A plan as `terraform show -json` writes it: one line. */
const PLAN = JSON.stringify(
  terraformPlan([
    ["aws_s3_bucket", "logs"],
    ["aws_sqs_queue", "jobs"],
    ["random_id", "suffix"],
  ]),
);

describe("the outcome of a check", () => {
  it("is allowed, exit 0 and no finding, when every verdict from the list allows the template", () => {
    const outcome = checkOutcome(checkTemplate(catalogue, CLOUDFORMATION, ALLOWING));
    expect(outcome).toEqual({ allowed: true, findings: [], retiring: 0, exitCode: 0 });
  });

  it("is not allowed, exit 1, with an error per denied item naming what would allow it", () => {
    const outcome = checkOutcome(checkTemplate(catalogue, CLOUDFORMATION, ["aws-s3", "aws-cloudformation"]));
    expect(outcome.allowed).toBe(false);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.findings).toHaveLength(1);
    const [queue] = outcome.findings;
    expect(queue).toMatchObject({ rule: "denied-action", level: "error", item: "AWS::SQS::Queue", resource: "Queue" });
    expect(queue!.message).toMatch(/^Queue \(AWS::SQS::Queue\) needs \d+ actions that the AWS SCP .* denies: sqs:/);
    expect(queue!.message).toContain("approve aws-sqs to allow them.");
  });

  it("names an implicit need's denial by the need, with the service that allows it", () => {
    const outcome = checkOutcome(checkTemplate(catalogue, CLOUDFORMATION, ["aws-s3", "aws-sqs"]));
    expect(outcome.exitCode).toBe(1);
    const need = outcome.findings.find((finding) => finding.item === "cloudformation-stack-operations")!;
    expect(need.level).toBe("error");
    expect(need.resource).toBeUndefined();
    expect(need.message).toContain("approve aws-cloudformation");
  });

  it("gives an unplaced Terraform type as a warning that does not fail the check, unless strict", () => {
    const answer = checkTemplate(catalogue, PLAN, ["aws-s3", "aws-sqs"]);
    const outcome = checkOutcome(answer);
    expect(outcome.allowed).toBe(true);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.findings.map((finding) => [finding.rule, finding.level, finding.item])).toEqual([
      ["unplaced", "warning", "random_id"],
    ]);
    expect(checkOutcome(answer, { strict: true }).exitCode).toBe(1);
  });

  it("warns of a type no verdict could check, whether a verdict of its vendor is given or not", () => {
    const plan = (...types: string[]) =>
      JSON.stringify({
        format_version: "1.2",
        resource_changes: types.map((type) => ({
          address: `${type}.main`,
          mode: "managed",
          type,
          change: { actions: ["create"] },
        })),
      });
    const beside = checkOutcome(checkTemplate(catalogue, plan("aws_s3_bucket", "aws_made_up_thing"), ["aws-s3"]));
    expect(beside.exitCode).toBe(0);
    expect(beside.findings.map((finding) => [finding.rule, finding.item, finding.resource])).toEqual([
      ["unplaced", "aws_made_up_thing", "aws_made_up_thing.main"],
      ["not-evaluated", "aws_made_up_thing", "aws_made_up_thing.main"],
    ]);
    expect(beside.findings[1]!.message).toMatch(
      /^aws_made_up_thing.main \(aws_made_up_thing\): aws_made_up_thing is evaluated by no policy verdict, which neither allows nor denies it: 1 resource type has no IAM prefix .* not checked \(aws_made_up_thing\)\.$/,
    );
    const alone = checkOutcome(checkTemplate(catalogue, plan("aws_made_up_thing"), ["aws-s3"]));
    expect(alone.findings.map((finding) => [finding.rule, finding.item])).toEqual([
      ["unplaced", "aws_made_up_thing"],
      ["not-evaluated", "aws_made_up_thing"],
    ]);
    expect(alone.exitCode).toBe(0);
  });

  it("fails on a service of a provider no policy governs, when the list lacks it", () => {
    const plan = JSON.stringify({
      format_version: "1.2",
      resource_changes: [
        {
          address: "upcloud_firewall_rules.web",
          mode: "managed",
          type: "upcloud_firewall_rules",
          change: { actions: ["create"] },
        },
      ],
    });
    const denied = checkOutcome(checkTemplate(catalogue, plan, ["aws-s3"]));
    expect(denied.exitCode).toBe(1);
    expect(denied.findings).toEqual([
      expect.objectContaining({ rule: "service-missing", level: "error", item: "upcloud-firewall" }),
    ]);
    expect(denied.findings[0]!.message).toContain("add upcloud-firewall to the list");
    expect(checkOutcome(checkTemplate(catalogue, plan, ["upcloud-firewall"])).exitCode).toBe(0);
  });

  it("warns of the Azure types Indexed mode never evaluates, without failing", () => {
    const arm = JSON.stringify(
      {
        $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
        contentVersion: "1.0.0.0",
        resources: [
          { type: "Microsoft.Network/privateDnsZones", apiVersion: "2020-06-01", name: "zone.example" },
          { type: "Microsoft.Network/privateDnsZones/A", apiVersion: "2020-06-01", name: "zone.example/www" },
        ],
      },
      null,
      2,
    );
    const suggested = checkTemplate(catalogue, arm, ["aws-s3"]).suggestedServiceIds.filter((id) => id !== "aws-s3");
    const { outcome, log, valid, errors } = sarifOf(arm, suggested, "azure/main.json");
    expect(outcome.exitCode).toBe(0);
    expect(outcome.findings).toEqual([
      expect.objectContaining({ rule: "not-evaluated", level: "warning", item: "Microsoft.Network/privateDnsZones/A" }),
    ]);
    expect(valid, errors).toBe(true);
    expect(log.runs[0]!.results[0]!.locations[0]!.physicalLocation).toEqual({
      artifactLocation: { uri: "azure/main.json" },
      region: { startLine: 13, startColumn: 15 },
    });
  });
});

describe("the SARIF log", () => {
  it("is valid SARIF 2.1.0 with the denied item on its logical id's line", () => {
    const { log, valid, errors } = sarifOf(CLOUDFORMATION, ["aws-s3", "aws-cloudformation"]);
    expect(valid, errors).toBe(true);
    const [run] = log.runs;
    expect(run!.tool.driver.name).toBe("cloud-catalogue");
    expect(run!.tool.driver.rules.map((rule) => rule.id)).toEqual([
      "denied-action",
      "denied-type",
      "denied-api",
      "service-missing",
      "unplaced",
      "not-evaluated",
      "not-read",
      "deployment-error",
      "version-retiring",
      "service-retiring",
      "version-unknown",
      "location-denied",
      "location-unknown",
    ]);
    expect(run!.results).toEqual([
      {
        ruleId: "denied-action",
        ruleIndex: 0,
        level: "error",
        message: { text: expect.stringContaining("Queue (AWS::SQS::Queue) needs") as string },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: "infra/template.yaml" },
              region: { startLine: 5, startColumn: 3 },
            },
          },
        ],
        partialFingerprints: {
          "cloudCatalogueFinding/v1": expect.stringMatching(/^[0-9a-f]{32}$/) as string,
          primaryLocationLineHash: expect.stringMatching(/^[0-9a-f]{16}:1$/) as string,
        },
        properties: { item: "AWS::SQS::Queue", resource: "Queue" },
      },
    ]);
  });

  it("is valid with no result at all for an allowed template", () => {
    const { log, valid, errors } = sarifOf(CLOUDFORMATION, ALLOWING);
    expect(valid, errors).toBe(true);
    expect(log.runs[0]!.results).toEqual([]);
  });

  it("places a plan's results at their addresses on its one line, warnings as warnings", () => {
    const { log, valid, errors } = sarifOf(PLAN, ["aws-s3"], "plan.json");
    expect(valid, errors).toBe(true);
    const results = log.runs[0]!.results;
    expect(results.map((result) => [result.ruleId, result.level])).toEqual([
      ["denied-action", "error"],
      ["unplaced", "warning"],
    ]);
    for (const [result, address] of [
      [results[0]!, "aws_sqs_queue.jobs"],
      [results[1]!, "random_id.suffix"],
    ] as const)
      expect(result.locations[0]!.physicalLocation.region).toEqual({
        startLine: 1,
        startColumn: PLAN.indexOf(JSON.stringify(address)) + 1,
      });
  });

  it("percent-encodes the path as a URI reference and leaves out a region it cannot find", () => {
    const { log, valid, errors } = sarifOf(CLOUDFORMATION, ["aws-s3", "aws-sqs"], "infra/my stack.yaml");
    expect(valid, errors).toBe(true);
    const need = log.runs[0]!.results.find((result) => result.message.text.includes("implicit need"))!;
    expect(need.locations[0]!.physicalLocation).toEqual({ artifactLocation: { uri: "infra/my%20stack.yaml" } });
  });
});

describe("the SARIF of every vendor sample (tests/fixtures/templates/)", () => {
  it.each([...TEMPLATE_FIXTURES, ...GOOGLE_PLAN_FIXTURES].map((fixture) => [fixture.id, fixture] as const))(
    "%s: valid, each result located on a line naming its place",
    (_id, fixture) => {
      const bytes = readFileSync(new URL(`../fixtures/templates/${fixture.file}`, import.meta.url));
      const text = (fixture.file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
      const { outcome, log, valid, errors } = sarifOf(text, [...fixture.approved], fixture.file);
      expect(valid, errors).toBe(true);
      const lines = text.split("\n");
      log.runs[0]!.results.forEach((result, at) => {
        const finding = outcome.findings[at]!;
        const region = result.locations[0]!.physicalLocation.region;
        if (finding.resource === undefined) return;
        expect(region, `${finding.item} from ${finding.resource}`).toBeDefined();
        const line = lines[region!.startLine - 1]!.slice(region!.startColumn - 1);
        const places = [finding.resource.replace(/ \([^)]*\)$/, ""), finding.item];
        expect(
          places.some((place) => line.startsWith(place) || line.startsWith(JSON.stringify(place))),
          `${finding.item} at line ${region!.startLine}: ${line.slice(0, 80)}`,
        ).toBe(true);
      });
    },
  );
});

describe("TextIndex", () => {
  it("finds YAML and JSON keys, JSON strings and list lines, SAM's logical id before its note", () => {
    const index = new TextIndex('Resources:\n  "Api":\n    Type: x\n- run.googleapis.com\n{"name": "a\\"b"}\n');
    expect(index.find("Resources")).toEqual({ startLine: 1, startColumn: 1 });
    expect(index.find("Api")).toEqual({ startLine: 2, startColumn: 3 });
    expect(index.find("run.googleapis.com")).toEqual({ startLine: 4, startColumn: 1 });
    expect(index.find('a"b')).toEqual({ startLine: 5, startColumn: 10 });
    expect(index.find("Missing")).toBeUndefined();
  });
});

describe("versions in the gate (issue 99)", () => {
  const SAM = `AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::Serverless-2016-10-31
Globals:
  Function:
    Runtime: nodejs16.x
Resources:
  Old:
    Type: AWS::Serverless::Function
    Properties:
      Handler: index.handler
      CodeUri: src/
  Odd:
    Type: AWS::Serverless::Function
    Properties:
      Handler: index.handler
      CodeUri: src/
      Runtime: nodejs99.x
`;
  const answer = () =>
    checkTemplate(catalogue, SAM, ["aws-cloudformation", "aws-lambda", "aws-s3", "aws-iam", "aws-cloudwatch-logs"], {
      asOf: "2026-11-28",
      withinDays: 180,
    });

  it("fails the gate on a deprecated runtime, its blocks to come named, with an error on its resource", () => {
    const outcome = checkOutcome(answer());
    expect(outcome.retiring).toBe(1);
    expect(outcome.exitCode).toBe(1);
    const retiring = outcome.findings.find((finding) => finding.rule === "version-retiring")!;
    expect(retiring).toMatchObject({ level: "error", item: "nodejs16.x", resource: "Old" });
    // A Lambda runtime has no extended support: deprecated, then creating and updating blocked (issue 113).
    expect(retiring.message).toContain(
      "deprecated (no extended support) since 2024-06-13; creating blocked from 2027-02-01 (Block function create); updating blocked from 2027-03-03 (Block function update)",
    );
    expect(retiring.message).toContain("https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtimes.html");
    // Not known is said, never matched to a nearest runtime, and only warns.
    expect(outcome.findings.find((finding) => finding.rule === "version-unknown")).toMatchObject({
      level: "warning",
      item: "nodejs99.x",
      resource: "Odd",
    });
  });

  it("writes both as SARIF 2.1.0 results on the resources' lines", () => {
    const outcome = checkOutcome(answer());
    const log = sarifLog(outcome.findings, { path: "template.yaml", text: SAM, version: "0.1.0" });
    expect(validSarif(log), sarifAjv.errorsText(validSarif.errors)).toBe(true);
    const lines = Object.fromEntries(
      log.runs[0]!.results.map((result) => [result.ruleId, result.locations?.[0]?.physicalLocation.region?.startLine]),
    );
    expect(lines).toMatchObject({ "version-retiring": 7, "version-unknown": 12 });
  });
});
