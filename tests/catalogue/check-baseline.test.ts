/**
 * The gate's weighing of findings (catalogue/templates/answer/judge.ts, issues 111 and 122): one
 * finding per resource instance, a baseline's entries accepting each on its own, expiring, and
 * reported by name when they accept nothing; the severity threshold; what the check did not read
 * is an error of its own; and the SARIF of it all (baselineState, suppressions with their state,
 * partialFingerprints, stale entries as notes, the log of a run with no verdict), valid against
 * OASIS's schema.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { checkOutcome, type Finding } from "../../catalogue/templates/answer/findings.ts";
import { accepts, baselineOf, judge, type Suppression } from "../../catalogue/templates/answer/judge.ts";
import fc from "fast-check";
import { TerraformFiles } from "../../catalogue/templates/read.ts";
import { failedSarifLog, sarifLog } from "../../catalogue/templates/answer/sarif.ts";
import { realCatalogue } from "../helpers/catalogue.ts";
import { sarifAjv, validSarif } from "../helpers/sarif.ts";

const TODAY = "2026-11-28";

const queueOf = (resource: string): Finding => ({
  rule: "denied-action",
  level: "error",
  item: "AWS::SQS::Queue",
  resource,
  message: `${resource} (AWS::SQS::Queue) needs 4 actions that the AWS SCP denies.`,
});
const orders = queueOf("Orders");
const invoices = queueOf("Invoices");
const need: Finding = {
  rule: "denied-action",
  level: "error",
  item: "cloudformation-stack-operations",
  message: "Deploying any CloudFormation template needs 8 actions that the AWS SCP denies.",
};
const random: Finding = {
  rule: "unplaced",
  level: "warning",
  item: "random_id",
  resource: "random_id.suffix",
  message: "random_id.suffix (random_id): random_id is in no catalogue service.",
};
const entry = (fields: Partial<Suppression>): Suppression => ({
  rule: "denied-action",
  reason: "approved by exception",
  ...fields,
});

describe("judging findings against a baseline", () => {
  it("counts every finding when there is no baseline, failing on errors only by default", () => {
    const judged = judge([orders, random], { today: TODAY });
    expect(judged.counted).toEqual([orders, random]);
    expect(judged.failing).toEqual([orders]);
    expect(judged.exitCode).toBe(1);
    expect(judge([random], { today: TODAY }).exitCode).toBe(0);
    expect(judge([random], { today: TODAY, failOn: "warning" })).toMatchObject({ failing: [random], exitCode: 1 });
  });

  it("accepts each resource's finding on its own: a new resource beside an accepted one is new, the accepted one stays so", () => {
    const accepted = entry({ item: "AWS::SQS::Queue", resource: "Orders" });
    const partly = judge([orders, invoices], { today: TODAY, suppressions: [accepted] });
    expect(partly.counted).toEqual([invoices]);
    expect(partly.findings.map((judged) => judged.acceptedBy)).toEqual([[accepted], []]);
    // The entry still accepts what it names: it is not stale because a neighbour appeared.
    expect(partly.unmatched).toEqual([]);
    const both = entry({ resource: "Invoices", reason: "moving to SNS" });
    const wholly = judge([orders, invoices], { today: TODAY, suppressions: [accepted, both] });
    expect(wholly.counted).toEqual([]);
    expect(wholly.exitCode).toBe(0);
  });

  it("fails on an eighth resource after a baseline of seven, naming only it", () => {
    const seven = Array.from({ length: 7 }, (_, at) => queueOf(`aws_sqs_queue.q[${at}]`));
    const baseline = baselineOf(seven, "infra", TODAY);
    expect(baseline).toHaveLength(7);
    const eighth = queueOf("aws_sqs_queue.q[7]");
    const judged = judge([...seven, eighth], { today: TODAY, file: "infra", suppressions: baseline });
    expect(judged.counted).toEqual([eighth]);
    expect(judged.exitCode).toBe(1);
    expect(judged.unmatched).toEqual([]);
  });

  it("accepts each finding by exactly the entries that accept it, in their order, however many there are", () => {
    const rule = fc.constantFrom("denied-action" as const, "unplaced" as const);
    const resource = fc.option(fc.constantFrom("a", "b", "c"), { nil: undefined });
    const item = fc.option(fc.constantFrom("x", "y"), { nil: undefined });
    fc.assert(
      fc.property(
        fc.array(fc.record({ rule, resource, item: fc.constantFrom("x", "y") }), { maxLength: 12 }),
        fc.array(
          fc.record({
            rule,
            resource,
            item,
            expires: fc.option(fc.constantFrom("2026-01-01", "2027-01-01"), { nil: undefined }),
          }),
          { maxLength: 12 },
        ),
        (found, written) => {
          const findings = found.map(({ resource: at, ...rest }) => ({
            ...rest,
            level: "error" as const,
            message: "m",
            ...(at === undefined ? {} : { resource: at }),
          }));
          const suppressions = written.map((fields) => {
            const kept = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
            return { ...kept, reason: "r" } as Suppression;
          });
          const judged = judge(findings, { today: TODAY, suppressions });
          judged.findings.forEach(({ finding, acceptedBy, expiredBy }) => {
            const matching = suppressions.filter((entry) => accepts(entry, finding, undefined));
            expect(acceptedBy).toEqual(matching.filter((entry) => !(entry.expires && entry.expires < TODAY)));
            expect(expiredBy).toEqual(matching.filter((entry) => entry.expires && entry.expires < TODAY));
          });
        },
      ),
    );
  });

  it("names exactly the entries that no longer match, and only baseline entries", () => {
    const gone = entry({ resource: "Refunds", reason: "moved" });
    const inline = entry({
      resource: "Nowhere",
      source: { kind: "inline", file: "template.yaml", line: 3, block: 4 },
    });
    const judged = judge([orders], { today: TODAY, suppressions: [entry({ resource: "Orders" }), gone, inline] });
    expect(judged.unmatched).toEqual([gone]);
  });

  it("accepts by the checked path, or by the file (or folder) holding the resource", () => {
    const placed = { ...orders, place: { file: "infra/queues/main.tf", line: 3, block: 3 } };
    for (const file of ["infra", "infra/queues/main.tf", "infra/queues", "."])
      expect(judge([placed], { today: TODAY, file: "infra", suppressions: [entry({ file })] }).counted, file).toEqual(
        [],
      );
    for (const file of ["infra/other.tf", "infr", "infra/queues/main"])
      expect(judge([placed], { today: TODAY, file: "infra", suppressions: [entry({ file })] }).counted, file).toEqual([
        placed,
      ]);
  });

  it("attaches an inline suppression to its block only, and says an expired one beside what it would accept", () => {
    const placed = { ...orders, place: { file: "t.yaml", line: 3, column: 3, block: 3 } };
    const other = { ...invoices, place: { file: "t.yaml", line: 6, column: 3, block: 6 } };
    const inline = entry({ reason: "by the CAB", source: { kind: "inline", file: "t.yaml", line: 2, block: 3 } });
    expect(judge([placed, other], { today: TODAY, suppressions: [inline] }).counted).toEqual([other]);
    const lapsed = { ...inline, expires: "2026-01-01" };
    const judged = judge([placed, other], { today: TODAY, suppressions: [lapsed] });
    expect(judged.counted).toEqual([placed, other]);
    expect(judged.findings[0]!.expiredBy).toEqual([lapsed]);
    expect(judged.findings[1]!.expiredBy).toEqual([]);
    expect(judged.expired).toEqual([lapsed]);
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
    const judged = judge([orders, random], { today: TODAY, suppressions: [lapsed, lastDay, gone] });
    expect(judged.expired).toEqual([lapsed]);
    expect(judged.counted).toEqual([orders]);
    expect(judged.unmatched).toEqual([gone]);
    expect(judged.exitCode).toBe(1);
  });

  it("writes a baseline that accepts every finding, one entry per resource, and nothing else", () => {
    const entries = baselineOf([orders, invoices, need, random], "infra", TODAY);
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
    const judged = judge([orders, invoices, need, random], {
      today: TODAY,
      file: "infra",
      suppressions: entries,
      failOn: "warning",
    });
    expect(judged).toMatchObject({ counted: [], unmatched: [], exitCode: 0 });
    // A resource added since is new; the others stay accepted.
    const refunds = queueOf("Refunds");
    const grown = judge([orders, invoices, refunds], { today: TODAY, file: "infra", suppressions: entries });
    expect(grown.counted).toEqual([refunds]);
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
    entry({ resource: "Orders", expires: "2027-01-31", source: { kind: "baseline", path: "baseline.json" } }),
    entry({ rule: "location-denied", item: "eu-west-1", reason: "moved last year" }),
  ];
  const log = (judged: ReturnType<typeof judge>, newOnly = false) =>
    sarifLog([orders, invoices, random], {
      path: "template.yaml",
      text,
      version: "0.1.0",
      judged,
      baseline: true,
      newOnly,
      exitCode: 1,
      catalogue: { release: "2026-11-26", dataDate: TODAY, from: "the package's snapshot" },
    });

  it("marks each result new or unchanged, suppresses the accepted ones with state accepted, and says a stale entry as a note", () => {
    const sarif = log(judge([orders, invoices, random], { today: TODAY, suppressions: accepted }));
    expect(validSarif(sarif), sarifAjv.errorsText(validSarif.errors)).toBe(true);
    const [run] = sarif.runs;
    expect(run!.results.map((result) => [result.ruleId, result.properties.resource, result.baselineState])).toEqual([
      ["denied-action", "Orders", "unchanged"],
      ["denied-action", "Invoices", "new"],
      ["unplaced", "random_id.suffix", "new"],
    ]);
    expect(run!.results[0]).toMatchObject({
      suppressions: [
        {
          kind: "external",
          state: "accepted",
          justification: "approved by exception (until 2027-01-31) [the baseline baseline.json]",
        },
      ],
      locations: [{ physicalLocation: { region: { startLine: 2 } } }],
    });
    expect(run!.results[1]!.locations[0]!.physicalLocation.region).toEqual({ startLine: 4, startColumn: 3 });
    // No result is ever at level note or absent: a stale entry is the invocation's note, not an alert.
    expect(run!.results.every((result) => result.level !== ("note" as string))).toBe(true);
    expect(run!.invocations).toEqual([
      {
        executionSuccessful: true,
        exitCode: 1,
        toolConfigurationNotifications: [
          {
            level: "note",
            descriptor: { id: "stale-baseline-entry" },
            message: {
              text: "The baseline's location-denied eu-west-1 (moved last year) accepts no finding any more: remove it.",
            },
          },
        ],
      },
    ]);
    expect(run!.properties).toEqual({
      catalogue: { release: "2026-11-26", dataDate: TODAY, from: "the package's snapshot" },
    });
  });

  it("gives each result fingerprints from its identity: stable across runs and places, distinct per resource", () => {
    const first = log(judge([orders, invoices, random], { today: TODAY })).runs[0]!.results;
    const moved = sarifLog([orders, invoices, random], {
      path: "template.yaml",
      text: `# a comment moves every line\n${text}`,
      version: "0.1.0",
    }).runs[0]!.results;
    expect(moved.map((result) => result.partialFingerprints)).toEqual(
      first.map((result) => result.partialFingerprints),
    );
    const prints = first.map((result) => result.partialFingerprints["cloudCatalogueFinding/v1"]);
    expect(new Set(prints).size).toBe(3);
    for (const result of first) expect(result.partialFingerprints.primaryLocationLineHash).toMatch(/^[0-9a-f]{16}:1$/);
  });

  it("in pull-request mode holds only the results no suppression accepts, and says an expired entry", () => {
    const expired = entry({ rule: "unplaced", expires: "2026-01-31", reason: "until the migration" });
    const sarif = log(judge([orders, invoices, random], { today: TODAY, suppressions: [...accepted, expired] }), true);
    expect(validSarif(sarif), sarifAjv.errorsText(validSarif.errors)).toBe(true);
    const [run] = sarif.runs;
    expect(run!.results.map((result) => [result.ruleId, result.baselineState])).toEqual([
      ["denied-action", "new"],
      ["unplaced", "new"],
    ]);
    expect(run!.results[1]!.message.text).toContain(
      "The suppression in the baseline (until the migration) expired on 2026-01-31: it no longer applies.",
    );
    expect(run!.invocations![0]!.toolConfigurationNotifications).toEqual([
      {
        level: "warning",
        descriptor: { id: "expired-suppression" },
        message: {
          text: "The suppression unplaced in the baseline expired on 2026-01-31 (until the migration): the findings it accepted count again.",
        },
      },
      expect.objectContaining({ level: "note", descriptor: { id: "stale-baseline-entry" } }),
    ]);
  });

  it("keeps an inline suppression in source, at its comment", () => {
    const placed = { ...orders, place: { file: "template.yaml", line: 2, column: 3, block: 2 } };
    const inline = entry({
      reason: "by the CAB",
      source: { kind: "inline", file: "template.yaml", line: 1, block: 2 },
    });
    const judged = judge([placed], { today: TODAY, suppressions: [inline] });
    const sarif = sarifLog([placed], { path: "template.yaml", text, version: "0.1.0", judged, exitCode: 0 });
    expect(validSarif(sarif), sarifAjv.errorsText(validSarif.errors)).toBe(true);
    expect(sarif.runs[0]!.results[0]!.suppressions).toEqual([
      {
        kind: "inSource",
        state: "accepted",
        justification: "by the CAB [template.yaml:1]",
        location: {
          physicalLocation: { artifactLocation: { uri: "template.yaml" }, region: { startLine: 1, startColumn: 1 } },
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
