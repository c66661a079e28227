/**
 * `cloud-catalogue check` as CI runs it (issues 96 and 111, docs/ci-check.md): the package's bin in
 * a child process (helpers/cli.ts), offline against the catalogue it holds, or through a running
 * API with --api and a saved list. Exit 0 allowed, 1 not allowed, 2 no check, 3 no answer; the
 * SARIF it writes, on every exit, is valid against OASIS's schema (tests/fixtures/sarif/).
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { build } from "../helpers/app.ts";
import { builtCatalogue, folderWith, packagedCli, runCli } from "../helpers/cli.ts";
import { sarifAjv, validSarif } from "../helpers/sarif.ts";
import { terraformPlan } from "../helpers/terraform-plan.ts";
import { CheckUsageError, idsOfFile, listReference } from "../../scripts/check.ts";

/** A test runs the bin a few times, each a fraction of a CPU-second; on a loaded machine, seconds each. */
const RUN_MS = 60_000;
let bin: string;
beforeAll(async () => {
  bin = await packagedCli();
}, 120_000);
const run = (cwd: string, ...args: string[]) => runCli(bin, cwd, ["check", ...args]);

interface Sarif {
  runs: {
    tool: { driver: { name: string; version: string } };
    invocations?: { executionSuccessful: boolean; exitCode: number; toolExecutionNotifications?: unknown[] }[];
    results: Record<string, unknown>[];
    properties?: { catalogue?: { release?: string; from: string } };
  }[];
}
/** The SARIF file a run wrote, checked against the schema. */
function sarifIn(dir: string, name: string): Sarif {
  const log = JSON.parse(readFileSync(join(dir, name), "utf8")) as Sarif;
  expect(validSarif(log), sarifAjv.errorsText(validSarif.errors)).toBe(true);
  return log;
}

const TEMPLATE = `AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Bucket:
    Type: AWS::S3::Bucket
  Queue:
    Type: AWS::SQS::Queue
`;
const PLAN = JSON.stringify(
  terraformPlan(
    [
      ["aws_s3_bucket", "logs"],
      ["aws_sqs_queue", "jobs"],
    ],
    { terraform_version: "1.9.8" },
  ),
);

describe("the approved list's arguments", () => {
  it("reads an ids file as text (commas, spaces, lines, # comments), a JSON list or a saved list's JSON", () => {
    expect(idsOfFile("# platform\naws-s3, aws-sqs\n\naws-lambda # functions\n")).toEqual([
      "aws-s3",
      "aws-sqs",
      "aws-lambda",
    ]);
    expect(idsOfFile('["aws-s3", "aws-sqs"]')).toEqual(["aws-s3", "aws-sqs"]);
    expect(idsOfFile('{"id": "x", "approvedServiceIds": ["aws-s3"], "services": []}')).toEqual(["aws-s3"]);
    expect(() => idsOfFile('{"services": []}')).toThrow(CheckUsageError);
    expect(() => idsOfFile("[aws-s3]")).toThrow(/not valid JSON/);
  });

  it("takes a saved list's id, its text-host URL (the id) or its API URL (the id and the API)", () => {
    expect(listReference("platform-baseline")).toEqual({ listId: "platform-baseline" });
    expect(listReference("https://catalogue.example.org/lists/platform-baseline")).toEqual({
      listId: "platform-baseline",
    });
    expect(listReference("https://example.org/catalogue/v1/lists/a%20b/")).toEqual({
      listId: "a b",
      api: "https://example.org/catalogue",
    });
    expect(() => listReference("https://example.org/compare/aws-s3")).toThrow(/not a saved list's URL/);
  });
});

describe("cloud-catalogue check, offline", { timeout: RUN_MS }, () => {
  it("exits 0 for a template the list allows, printing the text host's answer and the catalogue's release", async () => {
    const dir = folderWith({ "template.yaml": TEMPLATE });
    const result = await run(dir, "template.yaml", "--ids", "aws-cloudformation,aws-s3,aws-sqs");
    expect(result.stderr).toContain("cloud-catalogue check: allowed (0 errors, 0 warnings)");
    expect(result.stderr).toMatch(
      /cloud-catalogue check: checked against the catalogue release \d{4}-\d{2}-\d{2}.*, from the package's snapshot/,
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Deployment check\n/);
    expect(result.stdout).toContain("from aws-cloudformation, aws-s3, aws-sqs: allowed");
    expect(result.stdout).toContain("Under the AWS document generated from [aws-cloudformation, aws-s3, aws-sqs]");
    expect(result.stdout).toMatch(/Checked against the catalogue release \d{4}-\d{2}-\d{2}/);
  });

  it("exits 1 for a denied template, listing the finding, and writes valid SARIF naming the denied item on its line", async () => {
    const dir = folderWith({ "template.yaml": TEMPLATE });
    const result = await run(dir, "template.yaml", "--ids", "aws-cloudformation,aws-s3", "--sarif", "out.sarif");
    expect(result.stderr).toContain("not allowed (1 error, 0 warnings)");
    expect(result.stderr).toMatch(
      /\n {2}error {3}denied-action: Queue \(AWS::SQS::Queue\) needs .* \[template\.yaml:5\]\n/,
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/denied\s+sqs:/);
    const log = sarifIn(dir, "out.sarif");
    const [sarifRun] = log.runs;
    expect(sarifRun!.tool.driver.name).toBe("cloud-catalogue");
    expect(sarifRun!.invocations).toEqual([{ executionSuccessful: true, exitCode: 1 }]);
    expect(sarifRun!.properties!.catalogue).toMatchObject({ from: "the package's snapshot" });
    expect(sarifRun!.results).toEqual([
      expect.objectContaining({
        ruleId: "denied-action",
        level: "error",
        message: { text: expect.stringMatching(/^Queue \(AWS::SQS::Queue\) needs .*approve aws-sqs/) as string },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: "template.yaml" },
              region: { startLine: 5, startColumn: 3 },
            },
          },
        ],
      }),
    ]);
  });

  it("reads a Terraform plan and the ids from --ids-file, answering the API's JSON with --format json", async () => {
    const dir = folderWith({ "plan.json": PLAN, "approved.txt": "# the platform's list\naws-s3\n" });
    const result = await run(dir, "plan.json", "--ids-file", "approved.txt", "--format", "json");
    expect(result.status).toBe(1);
    const answer = JSON.parse(result.stdout) as { format: string; missingServiceIds: string[] };
    expect(answer.format).toBe("terraform-plan");
    expect(answer.missingServiceIds).toEqual(["aws-sqs"]);
    writeFileSync(join(dir, "approved.json"), JSON.stringify({ approvedServiceIds: ["aws-s3", "aws-sqs"] }));
    const allowed = await run(dir, "plan.json", "--ids-file", "approved.json", "--format", "md");
    expect(allowed.status).toBe(0);
    expect(allowed.stdout).toMatch(/^# Deployment check\n/);
  });

  it("exits 2 for a file it cannot read or parse, a missing list and unknown options, writing SARIF with the reason", async () => {
    const dir = folderWith({ "broken.yaml": "Resources: [\n", "notes.json": '{"hello": 1}' });
    for (const args of [
      ["broken.yaml", "--ids", "aws-s3"],
      ["notes.json", "--ids", "aws-s3"],
      ["absent.yaml", "--ids", "aws-s3"],
      ["broken.yaml"],
      ["broken.yaml", "--ids", "aws-s3", "--list", "x"],
      ["broken.yaml", "--ids", "aws-s3", "--colour"],
      ["broken.yaml", "--ids", "aws-s3", "--format", "html"],
      ["broken.yaml", "--ids", "aws-s3", "--new-only"],
      ["broken.yaml", "--ids", "aws-s3", "--fail-on-severity", "note"],
      ["broken.yaml", "--ids", "aws-s3", "--api", "http://127.0.0.1:9", "--catalogue", "."],
    ]) {
      const result = await run(dir, ...args, "--sarif", "no-check.sarif");
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      const [sarifRun] = sarifIn(dir, "no-check.sarif").runs;
      expect(sarifRun!.results).toEqual([]);
      expect(sarifRun!.invocations).toEqual([
        {
          executionSuccessful: false,
          exitCode: 2,
          toolExecutionNotifications: [
            {
              level: "error",
              descriptor: { id: "no-check" },
              message: { text: result.stderr.split("\n")[0]!.replace("cloud-catalogue check: ", "") },
            },
          ],
        },
      ]);
    }
    const unreadable = await run(dir, "broken.yaml", "--ids", "aws-s3");
    expect(unreadable.stderr).toMatch(
      /^cloud-catalogue check: the template cannot be checked: The template is neither JSON nor YAML/,
    );
    const absent = await run(dir, "absent.yaml", "--ids", "aws-s3");
    expect(absent.stderr).toBe("cloud-catalogue check: the template absent.yaml does not exist (ENOENT)\n");
    const noApi = await run(dir, "broken.yaml", "--list", "platform-baseline");
    expect(noApi.status).toBe(2);
    expect(noApi.stderr).toContain("a saved list is checked by the API that holds it");
  });

  it("exits 2 for ids the catalogue does not hold, naming the nearest", async () => {
    const dir = folderWith({ "template.yaml": TEMPLATE });
    const result = await run(dir, "template.yaml", "--ids", "aws-s3,aws-nothing");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Unknown service ids: Not in the catalogue: aws-nothing");
  });

  it.each(["\\UFFFFFFFF", "\\U00110000"])(
    "exits 2, never 1, when a .tf holds %s: a short message, the stack only with --debug, SARIF written",
    async (escape) => {
      // issue 109: a \U escape past Unicode reached String.fromCodePoint unchecked.
      const dir = folderWith({ "main.tf": `resource "aws_s3_bucket" "b" {\n  bucket = "${escape}"\n}\n` });
      const plain = await run(dir, "main.tf", "--ids", "aws-s3", "--sarif", "crash.sarif");
      expect(plain.status).toBe(2);
      expect(plain.stderr).not.toMatch(/\n\s+at /);
      expect(plain.stderr.split("\n").filter(Boolean)).toHaveLength(1);
      expect(sarifIn(dir, "crash.sarif").runs[0]!.invocations![0]!.executionSuccessful).toBe(false);
      const debug = await run(dir, "main.tf", "--ids", "aws-s3", "--debug");
      expect(debug.status).toBe(2);
      // A reader that refuses the escape (issue 109's fix) says so instead of crashing: no stack to show then.
      if (debug.stderr.includes("failed unexpectedly")) expect(debug.stderr).toMatch(/\n\s+at /);
    },
  );
});

describe("cloud-catalogue check --catalogue, and the package's other commands", { timeout: RUN_MS }, () => {
  it("checks against a mirror's or a build's catalogue, naming it; a folder holding none is exit 2", async () => {
    const built = builtCatalogue();
    if (!built) throw new Error("the run has no validated catalogue (helpers/catalogue-setup.ts): the data is invalid");
    const dir = folderWith({ "template.yaml": TEMPLATE });
    // A mirror as `cloud-catalogue mirror` leaves it: current → versions/<copy>.
    mkdirSync(join(dir, "mirror", "versions"), { recursive: true });
    cpSync(built, join(dir, "mirror", "versions", "a1"), { recursive: true });
    symlinkSync(join("versions", "a1"), join(dir, "mirror", "current"));
    const mirrored = await run(
      dir,
      "template.yaml",
      "--ids",
      "aws-cloudformation,aws-s3,aws-sqs",
      "--catalogue",
      "mirror",
    );
    expect(mirrored.status).toBe(0);
    expect(mirrored.stderr).toMatch(
      /checked against the catalogue release \d{4}-\d{2}-\d{2}.*, from the mirror mirror\n/,
    );
    const build = await run(dir, "template.yaml", "--ids", "aws-cloudformation,aws-s3", "--catalogue", built);
    expect(build.status).toBe(1);
    expect(build.stderr).toContain(`, from the build ${built}`);
    const none = await run(dir, "template.yaml", "--ids", "aws-s3", "--catalogue", ".");
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("cloud-catalogue check: . holds no catalogue: neither a mirror");
  });

  it("mirrors from the package (an origin that cannot be reached is exit 1), and sends serve to a clone (exit 2)", async () => {
    const dir = folderWith({});
    const mirror = await runCli(bin, dir, ["mirror", "http://127.0.0.1:9", "copy"]);
    expect(mirror.status).toBe(1);
    expect(mirror.stderr).toMatch(/^cloud-catalogue: cannot reach http:\/\/127\.0\.0\.1:9\/manifest\.json/);
    const serve = await runCli(bin, dir, ["serve", "copy"]);
    expect(serve.status).toBe(2);
    expect(serve.stderr).toContain("serve runs from a clone of the repository");
  });
});

/** A fixture folder of .tf files (tests/fixtures/deployments/terraform/), copied into a folder of its own. */
function tfCopy(name: string): string {
  const dir = folderWith({});
  cpSync(fileURLToPath(new URL(`../fixtures/deployments/terraform/${name}/`, import.meta.url)), dir, {
    recursive: true,
  });
  return dir;
}

describe("cloud-catalogue check --fail-on (issue 113)", { timeout: RUN_MS * 3 }, () => {
  it("fails on the phase --fail-on names: a version in paid extended support by default, not with end", async () => {
    // Cloud SQL for PostgreSQL 12: in extended support since 2025-02-01, its end on 2028-01-31.
    const plan = JSON.stringify(
      terraformPlan([["google_sql_database_instance", "db", { database_version: "POSTGRES_12" }]]),
    );
    const dir = folderWith({ "plan.json": plan });
    const args = ["plan.json", "--ids", "gcp-cloud-sql-postgresql", "--retiring-within", "0d", "--format", "json"];
    const byDefault = await run(dir, ...args);
    expect(JSON.parse(byDefault.stdout).versions[0]).toMatchObject({
      value: "POSTGRES_12",
      phase: "extended",
      retiring: true,
      failOn: "deprecated",
    });
    expect(byDefault.status).toBe(1);
    const onEnd = await run(dir, ...args, "--fail-on", "end");
    expect(JSON.parse(onEnd.stdout).versions[0]).toMatchObject({ retiring: false, failOn: "end" });
    const bad = await run(dir, ...args, "--fail-on", "soon");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--fail-on is deprecated, extended, end, not soon");
  });
});

describe("cloud-catalogue check, a folder of .tf files", { timeout: RUN_MS }, () => {
  it("reads the folder as terraform plan does, saying what; exits 0 when the list allows it, 1 with a module not sent, a not-read error on its line", async () => {
    const dir = tfCopy("example-aws");
    // A sub-folder no module block names is not part of the configuration.
    mkdirSync(join(dir, "modules"));
    writeFileSync(join(dir, "modules", "extra.tf"), 'resource "aws_sns_topic" "t" {}\n');
    const allowed = await run(dir, ".", "--ids", "aws-cloudwatch-logs,aws-lambda,aws-s3,aws-sqs", "--format", "json");
    expect(allowed.stderr).toContain("cloud-catalogue check: read 2 files in . (iam.tf, main.tf)");
    expect(allowed.stderr).toContain("cloud-catalogue check: allowed (0 errors");
    expect(allowed.status).toBe(0);
    const answer = JSON.parse(allowed.stdout) as { format: string; services: { id: string }[] };
    expect(answer.format).toBe("terraform-config");
    expect(answer.services.map((service) => service.id)).not.toContain("aws-sns");

    const modules = tfCopy("example-module");
    const result = await run(modules, ".", "--ids", "aws-s3,aws-sns,aws-sqs", "--sarif", "out.sarif");
    expect(result.status).toBe(1);
    // The registry module and the local one, neither sent: two not-read errors.
    expect(result.stderr).toContain("not allowed (2 errors, 0 warnings)");
    const log = sarifIn(modules, "out.sarif");
    expect(log.runs[0]!.results.map((entry) => [entry.ruleId, entry.locations])).toContainEqual([
      "not-read",
      [{ physicalLocation: { artifactLocation: { uri: "main.tf" }, region: { startLine: 2, startColumn: 1 } } }],
    ]);
    const empty = await run(folderWith({ "README.md": "x" }), ".", "--ids", "aws-s3");
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain("holds no .tf file");
  });

  it("reads a local module's folder and the variable files, takes --var, --var-file and --region, and fails EU-only on a US provider block", async () => {
    const dir = folderWith({
      "main.tf": [
        'variable "region" {\n  default = "eu-west-1"\n}',
        'provider "aws" {\n  region = var.region\n}',
        'module "queue" {\n  source = "./modules/queue"\n}',
        'resource "aws_s3_bucket" "b" {}',
      ].join("\n"),
      "modules/queue/main.tf": 'resource "aws_sqs_queue" "q" {}\n',
      "modules/unused/main.tf": 'resource "aws_sns_topic" "t" {}\n',
      "prod.tfvars": 'region = "us-east-1"\n',
    });
    const eu = await run(dir, ".", "--ids", "aws-s3,aws-sqs", "--locations", "EU", "--format", "json");
    expect(eu.stderr).toContain("read 2 files in . (main.tf, modules/queue/main.tf)");
    expect(eu.status).toBe(0);
    const us = await run(dir, ".", "--ids", "aws-s3,aws-sqs", "--locations", "EU", "--var-file", "prod.tfvars");
    expect(us.status).toBe(1);
    expect(us.stderr).toContain("location-denied");
    const flag = await run(
      dir,
      ".",
      "--ids",
      "aws-s3,aws-sqs",
      "--locations",
      "EU",
      "--var",
      "region=ap-south-1",
      "--format",
      "json",
    );
    expect(flag.status).toBe(1);
    expect((JSON.parse(flag.stdout) as { inputs: unknown[] }).inputs).toEqual([
      { name: "var.region", source: "the request", value: '"ap-south-1"' },
    ]);
    const stack = folderWith({ "stack.yaml": "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n" });
    const region = await run(
      stack,
      "stack.yaml",
      "--ids",
      "aws-sqs,aws-cloudformation",
      "--locations",
      "EU",
      "--region",
      "us-east-1",
    );
    expect(region.status).toBe(1);
    const bad = await run(stack, "stack.yaml", "--ids", "aws-sqs", "--region", "not a region!");
    expect(bad.status).toBe(2);
  });

  it("a syntax error exits 2 naming the file and line", async () => {
    const result = await run(tfCopy("example-syntax-error"), ".", "--ids", "aws-s3");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      "the template cannot be checked: main.tf, line 5: the attribute has no value: an expression must follow =.",
    );
  });
});

describe("cloud-catalogue check --api", { timeout: 120_000 }, () => {
  it("checks through the API, a saved list by its API URL, exits 2 on the API's 400 and 404, and 3 with SARIF when it is gone", async () => {
    const app = await build();
    const api = await app.listen({ port: 0, host: "127.0.0.1" });
    const saved = await app.inject({
      method: "POST",
      url: "/v1/lists",
      payload: { name: "CI check", approvedServiceIds: ["aws-cloudformation", "aws-s3", "aws-sqs"], unlisted: true },
    });
    expect(saved.statusCode).toBe(200);
    const { id } = saved.json<{ id: string }>();
    const dir = folderWith({ "template.yaml": TEMPLATE, "broken.yaml": "Resources: [\n" });

    const byList = await run(dir, "template.yaml", "--list", `${api}/v1/lists/${id}`);
    expect(byList.stderr).toContain("allowed (0 errors");
    expect(byList.stderr).toMatch(
      new RegExp(`checked against the catalogue release \\d{4}-\\d{2}-\\d{2}.*, from ${api}`),
    );
    expect(byList.status).toBe(0);
    const denied = await run(dir, "template.yaml", "--api", api, "--ids", "aws-s3", "--sarif", "api.sarif");
    expect(denied.status).toBe(1);
    expect(readFileSync(join(dir, "api.sarif"), "utf8")).toContain("Queue (AWS::SQS::Queue) needs");
    const unreadable = await run(dir, "broken.yaml", "--api", api, "--ids", "aws-s3");
    expect(unreadable.status).toBe(2);
    expect(unreadable.stderr).toContain("answered 400: Invalid template");
    const tf = folderWith({ "main.tf": 'resource "aws_sqs_queue" "q" {}\n' });
    const tfDenied = await run(tf, ".", "--api", api, "--ids", "aws-s3", "--format", "json");
    expect(tfDenied.status).toBe(1);
    expect((JSON.parse(tfDenied.stdout) as { format: string }).format).toBe("terraform-config");
    const noList = await run(dir, "template.yaml", "--api", api, "--list", "no-such-list");
    expect(noList.status).toBe(2);
    expect(noList.stderr).toContain("answered 404: List not found");
    await app.close();
    const gone = await run(dir, "template.yaml", "--api", api, "--ids", "aws-s3", "--sarif", "gone.sarif");
    expect(gone.status).toBe(3);
    expect(gone.stderr).toContain("cannot reach");
    const [goneRun] = sarifIn(dir, "gone.sarif").runs;
    expect(goneRun!.results).toEqual([]);
    expect(goneRun!.invocations![0]).toMatchObject({
      executionSuccessful: false,
      exitCode: 3,
      toolExecutionNotifications: [{ level: "error", descriptor: { id: "api-unreachable" } }],
    });
  });
});
