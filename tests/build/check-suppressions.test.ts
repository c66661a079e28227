/**
 * Suppressions kept where users keep them (scripts/check/suppressions.ts, issue 122): inline
 * `cloud-catalogue:ignore` comments in .tf, YAML and JSON with comments, each attached to the
 * resource block it sits in or just above; refused with the file and line when they name an
 * unknown rule, give no reason or a date that is not one, or sit in no resource; and rules
 * skipped or selected as suppressions with their reasons.
 */
import { describe, expect, it } from "vitest";
import { SourcePlaces, type SourceText } from "../../catalogue/templates/answer/places.ts";
import { CheckUsageError } from "../../scripts/check/errors.ts";
import { inlineSuppressions, ruleSuppressions } from "../../scripts/check/suppressions.ts";

const inline = (files: SourceText[], terraform: boolean) =>
  inlineSuppressions(new SourcePlaces(files, terraform).files, terraform).map((entry) => ({
    rule: entry.rule,
    reason: entry.reason,
    expires: entry.expires,
    at: entry.source?.kind === "inline" ? [entry.source.line, entry.source.block] : undefined,
  }));
const tf = (text: string) => [{ name: "main.tf", path: "infra/main.tf", text }];

describe("inline suppressions in .tf files", () => {
  it("attach to the block just below, or the block they sit in, in every comment style", () => {
    const text = [
      "# cloud-catalogue:ignore denied-action the CAB approved it (CAB-1)", // 1
      "// and a second comment line", // 2
      'resource "aws_sqs_queue" "a" {', // 3
      '  name = "a" # cloud-catalogue:ignore unplaced,not-evaluated expires=2027-03-31 until the move', // 4
      "}", // 5
      "", // 6
      "/* cloud-catalogue:ignore location-denied in a block comment */", // 7
      'resource "aws_sqs_queue" "b" { // cloud-catalogue:ignore service-missing on its opening line', // 8
      "  policy = <<-EOT", // 9
      "    # cloud-catalogue:ignore denied-action not a comment: the heredoc's text", // 10
      "  EOT", // 11
      '  tags = { note = "# cloud-catalogue:ignore denied-action inside a string" }', // 12
      "}", // 13
    ].join("\n");
    expect(inline(tf(text), true)).toEqual([
      { rule: "denied-action", reason: "the CAB approved it (CAB-1)", expires: undefined, at: [1, 3] },
      { rule: "unplaced", reason: "until the move", expires: "2027-03-31", at: [4, 3] },
      { rule: "not-evaluated", reason: "until the move", expires: "2027-03-31", at: [4, 3] },
      { rule: "location-denied", reason: "in a block comment", expires: undefined, at: [7, 8] },
      { rule: "service-missing", reason: "on its opening line", expires: undefined, at: [8, 8] },
    ]);
  });

  it.each([
    ["# cloud-catalogue:ignore", "cloud-catalogue:ignore names no rule"],
    [
      "# cloud-catalogue:ignore denied-actoin the CAB",
      "denied-actoin is not a rule of the check (did you mean denied-action?)",
    ],
    ["# cloud-catalogue:ignore denied-action", "say why it is accepted"],
    ["# cloud-catalogue:ignore denied-action expires=2027-02-30x because", "expires=2027-02-30x is not a day"],
  ])("refuses %j with the file and line: %s", (comment, why) => {
    const run = () => inline(tf(`\n${comment}\nresource "aws_sqs_queue" "a" {}\n`), true);
    expect(run).toThrow(CheckUsageError);
    expect(run).toThrow(`infra/main.tf:2: ${why}`);
  });

  it("refuses a comment that sits in no resource and above none", () => {
    const run = () =>
      inline(tf('resource "aws_sqs_queue" "a" {}\n\n# cloud-catalogue:ignore denied-action stray\n'), true);
    expect(run).toThrow("infra/main.tf:3: a cloud-catalogue:ignore comment applies to the resource it sits in");
  });
});

describe("inline suppressions in templates", () => {
  it("read YAML comments above or inside a CloudFormation resource, never a # inside a value", () => {
    const text = [
      "Resources:", // 1
      "  # cloud-catalogue:ignore denied-action orders approved", // 2
      "  Orders:", // 3
      "    Type: AWS::SQS::Queue", // 4
      "  Refunds:", // 5
      "    Type: AWS::SQS::Queue # cloud-catalogue:ignore denied-action refunds too", // 6
      "    Properties:", // 7
      "      QueueName: 'a # cloud-catalogue:ignore denied-action quoted'", // 8
    ].join("\n");
    expect(inline([{ name: "t.yaml", path: "t.yaml", text }], false)).toEqual([
      { rule: "denied-action", reason: "orders approved", expires: undefined, at: [2, 3] },
      { rule: "denied-action", reason: "refunds too", expires: undefined, at: [6, 5] },
    ]);
  });

  it("read JSON comments as jsonc-parser scans them, in an ARM resource or above it", () => {
    const text = [
      "{", // 1
      '  "resources": [', // 2
      "    // cloud-catalogue:ignore denied-type the server is approved", // 3
      "    {", // 4
      '      "type": "Microsoft.Sql/servers", "name": "// cloud-catalogue:ignore denied-type no",', // 5
      "      /* cloud-catalogue:ignore not-evaluated inside it */", // 6
      '      "location": "westeurope"', // 7
      "    }", // 8
      "  ]", // 9
      "}", // 10
    ].join("\n");
    expect(inline([{ name: "a.json", path: "a.json", text }], false)).toEqual([
      { rule: "denied-type", reason: "the server is approved", expires: undefined, at: [3, 4] },
      { rule: "not-evaluated", reason: "inside it", expires: undefined, at: [6, 4] },
    ]);
  });
});

describe("rules skipped or selected", () => {
  it("are suppressions of every finding of those rules, with the option or file that said so", () => {
    expect(
      ruleSuppressions({ skipped: ["unplaced"], selected: [], skippedBy: "--skip-rule", selectedBy: "--rule" }),
    ).toEqual([
      {
        rule: "unplaced",
        reason: "the rule is skipped",
        source: { kind: "option", option: "--skip-rule" },
      },
    ]);
    const selected = ruleSuppressions({
      skipped: [],
      selected: ["denied-action", "location-denied"],
      skippedBy: ".cloud-catalogue.yaml",
      selectedBy: ".cloud-catalogue.yaml",
    });
    expect(selected.map((entry) => entry.rule)).not.toContain("denied-action");
    expect(selected).toContainEqual({
      rule: "unplaced",
      reason: "only denied-action, location-denied are checked",
      source: { kind: "config", path: ".cloud-catalogue.yaml" },
    });
  });
});
