/**
 * The gate's weighing of findings (catalogue/templates/findings.ts's judge(), issue 111): a
 * baseline's entries accept findings resource by resource, expire, and are reported when they
 * accept nothing; the severity threshold; what the check did not read is an error of its own; and
 * the SARIF of it all (baselineState, suppressions, the invocation, the log of a run with no
 * verdict), valid against OASIS's schema.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { baselineOf, checkOutcome, judge, type Finding, type Suppression } from "../../catalogue/templates/findings.ts";
import { TerraformFiles } from "../../catalogue/templates/read.ts";
import { failedSarifLog, sarifLog } from "../../catalogue/templates/sarif.ts";
import { realCatalogue } from "../helpers/catalogue.ts";
import { sarifAjv, validSarif } from "../helpers/sarif.ts";

const TODAY = "2026-11-28";

const queue: Finding = {
  rule: "denied-action",
  level: "error",
  item: "AWS::SQS::Queue",
  from: ["Orders", "Invoices"],
  message: "AWS::SQS::Queue (Orders, Invoices) needs 4 actions that the AWS SCP denies.",
};
const need: Finding = {
  rule: "denied-action",
  level: "error",
  item: "cloudformation-stack-operations",
  from: [],
  message: "Deploying any CloudFormation template needs 8 actions that the AWS SCP denies.",
};
const random: Finding = {
  rule: "unplaced",
  level: "warning",
  item: "random_id",
  from: ["random_id.suffix"],
  message: "random_id is in no catalogue service.",
};
const entry = (fields: Partial<Suppression>): Suppression => ({
  rule: "denied-action",
  reason: "approved by exception",
  ...fields,
});

describe("judging findings against a baseline", () => {
  it("counts every finding when there is no baseline, failing on errors only by default", () => {
    const judged = judge([queue, random], { today: TODAY });
    expect(judged.counted).toEqual([queue, random]);
    expect(judged.failing).toEqual([queue]);
    expect(judged.exitCode).toBe(1);
    expect(judge([random], { today: TODAY }).exitCode).toBe(0);
    expect(judge([random], { today: TODAY, failOn: "warning" })).toMatchObject({ failing: [random], exitCode: 1 });
  });

  it("accepts a finding only when an entry accepts each resource it came from", () => {
    const orders = entry({ item: "AWS::SQS::Queue", resource: "Orders" });
    const partly = judge([queue], { today: TODAY, suppressions: [orders] });
    expect(partly.counted).toEqual([queue]);
    expect(partly.findings[0]!.acceptedBy).toEqual([]);
    const invoices = entry({ resource: "Invoices", reason: "moving to SNS" });
    const wholly = judge([queue], { today: TODAY, suppressions: [orders, invoices] });
    expect(wholly.counted).toEqual([]);
    expect(wholly.exitCode).toBe(0);
    expect(wholly.findings[0]!.acceptedBy).toEqual([orders, invoices]);
  });

  it("narrows an entry by rule, item and file, and accepts a finding with no resource by an entry naming none", () => {
    const file = "infra/template.yaml";
    expect(judge([need], { today: TODAY, file, suppressions: [entry({ item: need.item })] }).counted).toEqual([]);
    expect(judge([need], { today: TODAY, file, suppressions: [entry({ item: "other" })] }).counted).toEqual([need]);
    expect(judge([need], { today: TODAY, file, suppressions: [entry({ file: "other.yaml" })] }).counted).toEqual([
      need,
    ]);
    expect(judge([need], { today: TODAY, file, suppressions: [entry({ rule: "denied-api" })] }).counted).toEqual([
      need,
    ]);
    // An entry naming a resource accepts only findings from it.
    expect(judge([need], { today: TODAY, file, suppressions: [entry({ resource: "Orders" })] }).counted).toEqual([
      need,
    ]);
  });

  it("applies an expired entry to nothing and reports it; an entry accepting nothing is reported as unmatched", () => {
    const lapsed = entry({ expires: "2026-11-27" });
    const lastDay = entry({ rule: "unplaced", expires: TODAY });
    const gone = entry({ rule: "service-missing", item: "upcloud-firewall" });
    const judged = judge([queue, random], { today: TODAY, suppressions: [lapsed, lastDay, gone] });
    expect(judged.expired).toEqual([lapsed]);
    expect(judged.counted).toEqual([queue]);
    expect(judged.unmatched).toEqual([gone]);
    expect(judged.exitCode).toBe(1);
  });

  it("writes a baseline that accepts every finding, one entry per resource, and nothing else", () => {
    const entries = baselineOf([queue, need, random], "infra", TODAY);
    expect(entries).toEqual([
      {
        rule: "denied-action",
        item: "AWS::SQS::Queue",
        resource: "Orders",
        file: "infra",
        reason: `in the baseline written ${TODAY}`,
      },
      {
        rule: "denied-action",
        item: "AWS::SQS::Queue",
        resource: "Invoices",
        file: "infra",
        reason: `in the baseline written ${TODAY}`,
      },
      {
        rule: "denied-action",
        item: "cloudformation-stack-operations",
        file: "infra",
        reason: `in the baseline written ${TODAY}`,
      },
      {
        rule: "unplaced",
        item: "random_id",
        resource: "random_id.suffix",
        file: "infra",
        reason: `in the baseline written ${TODAY}`,
      },
    ]);
    const judged = judge([queue, need, random], {
      today: TODAY,
      file: "infra",
      suppressions: entries,
      failOn: "warning",
    });
    expect(judged).toMatchObject({ counted: [], unmatched: [], exitCode: 0 });
    // A resource added since is new: the finding counts again.
    const grown = { ...queue, from: [...queue.from, "Refunds"] };
    expect(judge([grown], { today: TODAY, file: "infra", suppressions: entries }).counted).toEqual([grown]);
  });
});

describe("what the check did not read", () => {
  const folder = new URL("../fixtures/deployments/terraform/example-module/", import.meta.url).pathname;
  const files = Object.fromEntries(
    readdirSync(folder)
      .filter((name) => name.endsWith(".tf"))
      .map((name) => [name, readFileSync(join(folder, name), "utf8")]),
  );

  it("is an error of rule not-read for each part the list's verdict did not read, so not allowed always has an error", () => {
    const answer = checkTemplate(realCatalogue(), new TerraformFiles(files), ["aws-s3", "aws-sns", "aws-sqs"]);
    const outcome = checkOutcome(answer);
    expect(outcome.allowed).toBe(false);
    const unread = outcome.findings.filter((finding) => finding.rule === "not-read");
    expect(unread.map((finding) => [finding.level, finding.item])).toEqual(
      answer.verdicts[0]!.notEvaluated!.map((entry) => ["error", entry.slice(0, entry.indexOf(": "))]),
    );
    expect(unread[0]!.message).toContain("so the AWS verdict it concerns is not given as allowed");
    // Accepting them in a baseline passes the gate: every reason the deployment is not allowed was a finding.
    const judged = judge(outcome.findings, { today: TODAY, file: ".", suppressions: baselineOf(unread, ".", TODAY) });
    expect(judged.exitCode).toBe(0);
  });
});

describe("the SARIF log with a baseline", () => {
  const text = "Resources:\n  Orders:\n    Type: AWS::SQS::Queue\n  Invoices:\n    Type: AWS::SQS::Queue\n";
  const accepted = [
    entry({ resource: "Orders", expires: "2027-01-31" }),
    entry({ resource: "Invoices" }),
    entry({ rule: "location-denied", item: "eu-west-1", reason: "moved last year" }),
  ];

  it("marks each result new or unchanged, suppresses the accepted ones with the reasons, and lists what is gone as absent", () => {
    const judged = judge([queue, random], { today: TODAY, suppressions: accepted });
    const log = sarifLog([queue, random], {
      path: "template.yaml",
      text,
      version: "0.1.0",
      baseline: judged,
      exitCode: 0,
      catalogue: { release: "2026-11-26", dataDate: TODAY, from: "the package's snapshot" },
    });
    expect(validSarif(log), sarifAjv.errorsText(validSarif.errors)).toBe(true);
    const [run] = log.runs;
    expect(run!.results.map((result) => [result.ruleId, result.baselineState])).toEqual([
      ["denied-action", "unchanged"],
      ["unplaced", "new"],
      ["location-denied", "absent"],
    ]);
    expect(run!.results[0]).toMatchObject({
      suppressions: [
        { kind: "external", justification: "approved by exception (until 2027-01-31)" },
        { kind: "external", justification: "approved by exception" },
      ],
      locations: [{ physicalLocation: { region: { startLine: 2 } } }],
    });
    expect(run!.invocations).toEqual([{ executionSuccessful: true, exitCode: 0 }]);
    expect(run!.properties).toEqual({
      catalogue: { release: "2026-11-26", dataDate: TODAY, from: "the package's snapshot" },
    });
  });

  it("in pull-request mode holds only the new results and the absent ones, and says an expired entry", () => {
    const expired = entry({ rule: "unplaced", expires: "2026-01-31", reason: "until the migration" });
    const judged = judge([queue, random], { today: TODAY, suppressions: [...accepted, expired] });
    const log = sarifLog([queue, random], {
      path: "template.yaml",
      text,
      version: "0.1.0",
      baseline: { ...judged, newOnly: true },
      exitCode: 0,
    });
    expect(validSarif(log), sarifAjv.errorsText(validSarif.errors)).toBe(true);
    const [run] = log.runs;
    expect(run!.results.map((result) => [result.ruleId, result.baselineState])).toEqual([
      ["unplaced", "new"],
      ["location-denied", "absent"],
    ]);
    expect(run!.invocations![0]!.toolConfigurationNotifications).toEqual([
      {
        level: "warning",
        descriptor: { id: "expired-baseline-entry" },
        message: {
          text: "The baseline's unplaced expired on 2026-01-31 (until the migration): the findings it accepted count again.",
        },
      },
    ]);
  });
});

describe("the SARIF log of a run with no verdict", () => {
  it.each([
    [2, "no-check", "the template template.yaml is a named pipe (fifo): the check reads regular files only"],
    [3, "api-unreachable", "cannot reach https://catalogue.example.org/v1/deployments/check: ECONNREFUSED"],
  ])("exit %i: no result, the reason as the tool's execution notification (%s)", (exitCode, id, reason) => {
    const log = failedSarifLog({ version: "0.1.0", exitCode, reason });
    expect(validSarif(log), sarifAjv.errorsText(validSarif.errors)).toBe(true);
    expect(log.runs[0]!.results).toEqual([]);
    expect(log.runs[0]!.invocations).toEqual([
      {
        executionSuccessful: false,
        exitCode,
        toolExecutionNotifications: [{ level: "error", descriptor: { id }, message: { text: reason } }],
      },
    ]);
  });
});
