/**
 * What other gates offer, in `cloud-catalogue check` (issues 111 and 122, docs/ci-check.md
 * "Baseline"): the severity the gate fails on, --soft-fail, a baseline file of accepted findings —
 * one per resource instance — with reasons and expiry (written with --write-baseline), and the
 * pull-request mode that reports only new findings, each as the exit status, stderr and the SARIF
 * (baselineState, suppressions with their state, stale entries as notes) say it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DAY_MS } from "../../catalogue/base/limits.ts";
import { folderWith, packagedCli, runCli } from "../helpers/cli.ts";
import { sarifAjv, validSarif } from "../helpers/sarif.ts";
import { terraformPlan } from "../helpers/terraform-plan.ts";

/** A test runs the bin a few times, each a fraction of a CPU-second; on a loaded machine, seconds each. */
const RUN_MS = 60_000;
let bin: string;
beforeAll(async () => {
  bin = await packagedCli();
}, 120_000);
const run = (cwd: string, ...args: string[]) => runCli(bin, cwd, ["check", ...args]);

interface Result {
  ruleId: string;
  level: string;
  baselineState?: string;
  suppressions?: { kind: string; state: string; justification: string }[];
  message: { text: string };
  properties: { resource?: string };
}
interface Sarif {
  runs: {
    invocations: {
      exitCode: number;
      toolConfigurationNotifications?: { level: string; descriptor: { id: string }; message: { text: string } }[];
    }[];
    results: Result[];
  }[];
}
function sarifIn(dir: string): Sarif["runs"][number] {
  const log = JSON.parse(readFileSync(join(dir, "check.sarif"), "utf8")) as Sarif;
  expect(validSarif(log), sarifAjv.errorsText(validSarif.errors)).toBe(true);
  return log.runs[0]!;
}

const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
const plan = (...resources: [string, string][]) => JSON.stringify(terraformPlan(resources));
/** An SQS queue the list denies (an error) and a random_id no service holds (a warning). */
const PLAN = plan(["aws_s3_bucket", "logs"], ["aws_sqs_queue", "jobs"], ["random_id", "suffix"]);
const IDS = ["--ids", "aws-s3"];

describe("the severity the gate fails on", { timeout: RUN_MS }, () => {
  it("fails on errors by default, on warnings too at --fail-on-severity warning or --strict", async () => {
    const dir = folderWith({ "plan.json": PLAN });
    const denied = await run(dir, "plan.json", ...IDS);
    expect(denied.status).toBe(1);
    expect(denied.stderr).toContain("cloud-catalogue check: not allowed (1 error, 1 warning)");
    const warned = await run(dir, "plan.json", "--ids", "aws-s3,aws-sqs");
    expect(warned.status).toBe(0);
    expect(warned.stderr).toContain("cloud-catalogue check: allowed (0 errors, 1 warning)");
    expect(warned.stderr).toMatch(
      /\n {2}warning unplaced: random_id\.suffix \(random_id\): random_id is in no catalogue service.* \[plan\.json:1\]/,
    );
    for (const option of [["--fail-on-severity", "warning"], ["--strict"]]) {
      const strict = await run(dir, "plan.json", "--ids", "aws-s3,aws-sqs", ...option);
      expect(strict.status, option.join(" ")).toBe(1);
      expect(strict.stderr).toContain(
        "not allowed: --fail-on-severity warning fails on the warnings (0 errors, 1 warning)",
      );
    }
    const both = await run(dir, "plan.json", ...IDS, "--strict", "--fail-on-severity", "error");
    expect(both.status).toBe(2);
  });

  it("exits 0 with --soft-fail where the findings fail the check, reporting them all the same", async () => {
    const dir = folderWith({ "plan.json": PLAN });
    const soft = await run(dir, "plan.json", ...IDS, "--soft-fail", "--sarif", "check.sarif");
    expect(soft.status).toBe(0);
    expect(soft.stderr).toContain("not allowed (1 error, 1 warning); --soft-fail: exit 0");
    const sarif = sarifIn(dir);
    expect(sarif.invocations[0]!.exitCode).toBe(0);
    expect(sarif.results.map((result) => result.ruleId)).toEqual(["denied-action", "unplaced"]);
    // No verdict stays no verdict: --soft-fail never hides an input that could not be checked.
    expect((await run(dir, "absent.json", ...IDS, "--soft-fail")).status).toBe(2);
  });
});

describe("findings per resource instance (issue 122)", { timeout: RUN_MS }, () => {
  const queues = (count: number) =>
    plan(
      ["aws_s3_bucket", "logs"],
      ...Array.from({ length: count }, (_, at) => ["aws_sqs_queue", `q${at}`] as [string, string]),
    );

  it("fails on an eighth queue after a baseline of seven, naming it alone", async () => {
    const dir = folderWith({ "plan.json": queues(7) });
    const written = await run(dir, "plan.json", ...IDS, "--write-baseline", "baseline.json");
    expect(written.stderr).toContain("wrote 7 entries to the baseline baseline.json");
    const { suppressions } = JSON.parse(readFileSync(join(dir, "baseline.json"), "utf8")) as {
      suppressions: { resource: string }[];
    };
    expect(suppressions.map((entry) => entry.resource)).toEqual(
      Array.from({ length: 7 }, (_, at) => `aws_sqs_queue.q${at}`),
    );
    writeFileSync(join(dir, "plan.json"), queues(8));
    const eighth = await run(
      dir,
      "plan.json",
      ...IDS,
      "--baseline",
      "baseline.json",
      "--new-only",
      "--sarif",
      "check.sarif",
    );
    expect(eighth.status).toBe(1);
    expect(eighth.stderr).toContain("not allowed (1 error, 0 warnings; 7 accepted by the baseline)");
    const lines = eighth.stderr.split("\n").filter((line) => line.startsWith("  "));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ {2}error {3}denied-action: aws_sqs_queue\.q7 \(aws_sqs_queue\)/);
    expect(sarifIn(dir).results.map((result) => result.properties.resource)).toEqual(["aws_sqs_queue.q7"]);
  });

  it("keeps an accepted orders accepted when refunds appears beside it, and reports refunds alone as new", async () => {
    const dir = folderWith({ "plan.json": plan(["aws_s3_bucket", "logs"], ["aws_sqs_queue", "orders"]) });
    await run(dir, "plan.json", ...IDS, "--write-baseline", "baseline.json");
    writeFileSync(
      join(dir, "plan.json"),
      plan(["aws_s3_bucket", "logs"], ["aws_sqs_queue", "orders"], ["aws_sqs_queue", "refunds"]),
    );
    const grown = await run(dir, "plan.json", ...IDS, "--baseline", "baseline.json", "--sarif", "check.sarif");
    expect(grown.status).toBe(1);
    expect(grown.stderr).not.toContain("accepts no finding any more");
    expect(sarifIn(dir).results.map((result) => [result.properties.resource, result.baselineState])).toEqual([
      ["aws_sqs_queue.orders", "unchanged"],
      ["aws_sqs_queue.refunds", "new"],
    ]);
    const pr = await run(dir, "plan.json", ...IDS, "--baseline", "baseline.json", "--new-only");
    expect(pr.stderr.split("\n").filter((line) => line.startsWith("  "))).toEqual([
      expect.stringMatching(/^ {2}error {3}denied-action: aws_sqs_queue\.refunds /),
    ]);
  });
});

describe("the baseline", { timeout: RUN_MS }, () => {
  it("written with --write-baseline, accepts today's findings: the check passes, each result unchanged and suppressed", async () => {
    const dir = folderWith({ "plan.json": PLAN });
    const written = await run(dir, "plan.json", ...IDS, "--write-baseline", "baseline.json");
    expect(written.status).toBe(0);
    expect(written.stderr).toContain("wrote 2 entries to the baseline baseline.json; give each a reason");
    const { suppressions } = JSON.parse(readFileSync(join(dir, "baseline.json"), "utf8")) as {
      suppressions: Record<string, string>[];
    };
    expect(suppressions).toEqual([
      {
        rule: "denied-action",
        item: "aws_sqs_queue",
        resource: "aws_sqs_queue.jobs",
        file: "plan.json",
        reason: `in the baseline written ${day(0)}`,
      },
      {
        rule: "unplaced",
        item: "random_id",
        resource: "random_id.suffix",
        file: "plan.json",
        reason: `in the baseline written ${day(0)}`,
      },
    ]);
    const checked = await run(dir, "plan.json", ...IDS, "--baseline", "baseline.json", "--sarif", "check.sarif");
    expect(checked.status).toBe(0);
    expect(checked.stderr).toContain(
      "passes: not allowed, but the baseline accepts every error (0 errors, 0 warnings; 2 accepted by the baseline)",
    );
    expect(checked.stderr).toContain(`[accepted: in the baseline written ${day(0)} (the baseline baseline.json)]`);
    const accepted = [
      {
        kind: "external",
        state: "accepted",
        justification: `in the baseline written ${day(0)} [the baseline baseline.json]`,
      },
    ];
    expect(sarifIn(dir).results.map((result) => [result.ruleId, result.baselineState, result.suppressions])).toEqual([
      ["denied-action", "unchanged", accepted],
      ["unplaced", "unchanged", accepted],
    ]);
  });

  it("lets a new finding fail the check; --new-only reports only it, in stderr and the SARIF", async () => {
    const dir = folderWith({ "plan.json": PLAN });
    expect((await run(dir, "plan.json", ...IDS, "--write-baseline", "baseline.json")).status).toBe(0);
    writeFileSync(
      join(dir, "plan.json"),
      plan(["aws_sqs_queue", "jobs"], ["aws_sns_topic", "alerts"], ["random_id", "suffix"]),
    );
    const all = await run(dir, "plan.json", ...IDS, "--baseline", "baseline.json", "--sarif", "check.sarif");
    expect(all.status).toBe(1);
    expect(all.stderr).toContain("not allowed (1 error, 0 warnings; 2 accepted by the baseline)");
    expect(sarifIn(dir).results.map((result) => [result.ruleId, result.baselineState])).toEqual([
      ["denied-action", "new"],
      ["denied-action", "unchanged"],
      ["unplaced", "unchanged"],
    ]);
    const pr = await run(
      dir,
      "plan.json",
      ...IDS,
      "--baseline",
      "baseline.json",
      "--new-only",
      "--sarif",
      "check.sarif",
    );
    expect(pr.status).toBe(1);
    const findings = pr.stderr.split("\n").filter((line) => line.startsWith("  "));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatch(/^ {2}error {3}denied-action: aws_sns_topic/);
    expect(sarifIn(dir).results.map((result) => [result.ruleId, result.baselineState])).toEqual([
      ["denied-action", "new"],
    ]);
  });

  it("applies an entry until the end of its expiry day, then reports it and counts what it accepted", async () => {
    const dir = folderWith({ "plan.json": PLAN });
    const entry = { rule: "denied-action", item: "aws_sqs_queue", reason: "SQS by exception, CAB-1432" };
    writeFileSync(join(dir, "today.json"), JSON.stringify({ suppressions: [{ ...entry, expires: day(0) }] }));
    expect((await run(dir, "plan.json", ...IDS, "--baseline", "today.json")).status).toBe(0);
    writeFileSync(join(dir, "lapsed.json"), JSON.stringify({ suppressions: [{ ...entry, expires: day(-1) }] }));
    const lapsed = await run(dir, "plan.json", ...IDS, "--baseline", "lapsed.json", "--sarif", "check.sarif");
    expect(lapsed.status).toBe(1);
    expect(lapsed.stderr).toContain(
      `cloud-catalogue check: the suppression denied-action aws_sqs_queue in the baseline lapsed.json expired on ${day(-1)} (SQS by exception, CAB-1432): what it accepted counts again`,
    );
    // Said beside the finding it no longer accepts, too.
    expect(lapsed.stderr).toContain(
      `The suppression in the baseline lapsed.json (SQS by exception, CAB-1432) expired on ${day(-1)}: it no longer applies.`,
    );
    expect(sarifIn(dir).invocations[0]!.toolConfigurationNotifications).toEqual([
      expect.objectContaining({
        level: "warning",
        message: {
          text: `The suppression denied-action aws_sqs_queue in the baseline lapsed.json expired on ${day(-1)} (SQS by exception, CAB-1432): the findings it accepted count again.`,
        },
      }),
    ]);
  });

  it("reports an entry that accepts nothing any more by name, and the SARIF says it as a note, never an alert", async () => {
    const dir = folderWith({ "plan.json": PLAN });
    const gone = { rule: "service-missing", item: "upcloud-firewall", reason: "the firewall left with the migration" };
    writeFileSync(join(dir, "baseline.json"), JSON.stringify({ suppressions: [gone] }));
    const result = await run(dir, "plan.json", ...IDS, "--baseline", "baseline.json", "--sarif", "check.sarif");
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "the baseline's service-missing upcloud-firewall accepts no finding any more (the firewall left with the migration); remove it",
    );
    const sarif = sarifIn(dir);
    expect(sarif.results.map((result) => result.ruleId)).toEqual(["denied-action", "unplaced"]);
    expect(sarif.invocations[0]!.toolConfigurationNotifications).toEqual([
      {
        level: "note",
        descriptor: { id: "stale-baseline-entry" },
        message: {
          text: "The baseline's service-missing upcloud-firewall (the firewall left with the migration) accepts no finding any more: remove it.",
        },
      },
    ]);
  });

  it.each([
    ["not JSON", "{", /is not valid JSON/],
    [
      "an unknown key",
      '{"suppressions": [{"rule": "unplaced", "reason": "x", "expiry": "2027-01-01"}]}',
      /suppressions\.0: Unrecognized key: "expiry"/,
    ],
    ["an unknown rule", '{"suppressions": [{"rule": "ignored", "reason": "x"}]}', /suppressions\.0\.rule: /],
    [
      "no reason",
      '{"suppressions": [{"rule": "unplaced", "reason": " "}]}',
      /suppressions\.0\.reason: say why it is accepted/,
    ],
    [
      "a date that is none",
      '{"suppressions": [{"rule": "unplaced", "reason": "x", "expires": "2027-02-30"}]}',
      /suppressions\.0\.expires: /,
    ],
  ])("refuses a baseline with %s: exit 2 naming the entry", async (_what, text, message) => {
    const dir = folderWith({ "plan.json": PLAN, "baseline.json": text });
    const result = await run(dir, "plan.json", ...IDS, "--baseline", "baseline.json");
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
