/**
 * `cloud-catalogue check` applies the API's evaluation budgets (issue 120): each of the issue's
 * costly inputs — count = 1e8, a join over range() joined again, string and ARM concat doubling,
 * copy.count 1e9, Fn::ForEach over 200,000 names, nested for, a module tree — ends with exit 2
 * within 15 s, the whole CLI (its reading child included) under 400 MB, the bound named on stderr
 * and as the SARIF's notification: the repository's CLI for each, the package's bundle for three
 * (tests/build/cli-package.test.ts runs one through the packed tarball installed). What would
 * escape the budgets ends the reading child at its heap or its time (bounded-read.ts), said so.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { readBounded } from "../../scripts/check/bounded-read.ts";
import { folderWith, packagedCli, REPOSITORY_CLI, ROOT } from "../helpers/cli.ts";
import { hclDoubling, ISSUE_120_CASES } from "../helpers/costly-templates.ts";
import { runWatched } from "../helpers/process-tree.ts";

const CLI_SECONDS = 15;
const CLI_MEMORY_MB = 400;

const issueCase = (name: string) => ISSUE_120_CASES.find((one) => one.name === name)!;

/** Each input as a file (or a folder) and what the refusal must name. */
const INPUTS: { what: string; files: Record<string, string>; path: string; says: RegExp }[] = [
  {
    what: "count = 1e8",
    files: { "main.tf": 'resource "aws_s3_bucket" "big" {\n  count = 100000000\n}\n' },
    path: "main.tf",
    says: /main\.tf, line 1: aws_s3_bucket\.big's count of 100,000,000 .*at most 10,000 resource and module instances/,
  },
  {
    what: "a join over range() joined 10,000 times",
    files: { "main.tf": issueCase("join of range(10000) formats, joined 10,000 times").template! },
    path: "main.tf",
    says: /line 3: join\(\) makes a string of 10,000,000,000 characters; .*1,048,576 characters/,
  },
  {
    what: "a string template doubling",
    files: { "main.tf": hclDoubling("template", 40).template! },
    path: "main.tf",
    says: /a string template makes a string of 1,\d{3},\d{3} characters|2,097,152 characters/,
  },
  {
    what: "an ARM concat doubling",
    files: { "azuredeploy.json": issueCase("ARM concat doubling ×40").template! },
    path: "azuredeploy.json",
    says: /variables\.v\d+: concat\(\) makes a string/,
  },
  {
    what: "an ARM copy.count of 1e9",
    files: { "azuredeploy.json": issueCase("ARM copy.count 1e9").template! },
    path: "azuredeploy.json",
    says: /copy count of 1,000,000,000; Azure Resource Manager refuses it before deploying: "The count can't exceed 800\."/,
  },
  {
    what: "Fn::ForEach over 200,000 names",
    files: { "template.json": issueCase("CloudFormation Fn::ForEach over 200,000 names").template! },
    path: "template.json",
    says: /Parameters\.Names: .*200,000 items/,
  },
  {
    what: "nested for expressions",
    files: { "main.tf": issueCase("HCL 2 nested for over 10000").template! },
    path: "main.tf",
    says: /5,000,000 steps/,
  },
  {
    what: "a module tree 12 deep",
    files: issueCase("HCL module tree 12 deep, 2 calls of count 1").files!,
    path: ".",
    says: /resource and module instances/,
  },
];

async function refusedWithin(bin: string, input: (typeof INPUTS)[number]): Promise<void> {
  const dir = folderWith(input.files);
  const run = await runWatched([bin, "check", input.path, "--ids", "aws-s3", "--sarif", "bound.sarif"], {
    cwd: dir,
    timeoutMs: 60_000,
  });
  expect(run.signal, run.stderr).toBeNull();
  expect(run.status, run.stderr).toBe(2);
  // The last line is the reason (a folder's first says what was read).
  const reason = run.stderr
    .trim()
    .split("\n")
    .at(-1)!
    .replace(/^cloud-catalogue check: /, "");
  expect(reason).toMatch(/^the template cannot be checked: /);
  expect(reason).toMatch(input.says);
  const log = JSON.parse(readFileSync(join(dir, "bound.sarif"), "utf8")) as {
    runs: { invocations: { exitCode: number; toolExecutionNotifications: { message: { text: string } }[] }[] }[];
  };
  expect(log.runs[0]!.invocations[0]!.toolExecutionNotifications[0]!.message.text).toBe(reason);
  expect(log.runs[0]!.invocations[0]!.exitCode).toBe(2);
  expect(run.seconds, "seconds").toBeLessThanOrEqual(CLI_SECONDS);
  expect(run.peakMb, "MB").toBeLessThanOrEqual(CLI_MEMORY_MB);
}

describe("the repository's CLI stops each costly input at a bound", { timeout: 120_000 }, () => {
  it.each(INPUTS)("$what: exit 2 within 15 s and 400 MB, the bound named", (input) =>
    refusedWithin(REPOSITORY_CLI, input),
  );
});

describe("the package's CLI stops each costly input at a bound", { timeout: 120_000 }, () => {
  let bin: string;
  beforeAll(async () => {
    bin = await packagedCli();
  }, 120_000);
  it.each(INPUTS.filter((input) => /count = 1e8|copy\.count|module tree/.test(input.what)))(
    "$what: exit 2 within 15 s and 400 MB, the bound named",
    (input) => refusedWithin(bin, input),
  );
});

describe("the reading child's own bounds, past the evaluator's", () => {
  const template = { template: 'resource "aws_s3_bucket" "b" {}\n' };
  it("ends a reading past its heap, saying the bound", async () => {
    const big = gunzipSync(
      readFileSync(join(ROOT, "tests/fixtures/templates/azure/chat-with-your-data-main.json.gz")),
    ).toString();
    await expect(readBounded({ template: big }, {}, { heapMb: 8 })).rejects.toThrow(
      /^the template cannot be checked: reading and evaluating it needed more than 8 MB of heap, the reading budget/,
    );
  });
  it("ends a reading past its time, saying the bound", async () => {
    await expect(readBounded(template, {}, { seconds: 0.01 })).rejects.toThrow(
      "the template cannot be checked: reading and evaluating it took more than 0.01 s, the reading budget (the API's); it was stopped",
    );
  });
  it("answers the deployment of what it read within both", async () => {
    const deployment = await readBounded(template, {});
    expect(deployment.items.map((item) => item.item)).toEqual(["aws_s3_bucket"]);
  });
});
