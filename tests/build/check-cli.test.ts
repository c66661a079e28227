/**
 * `cloud-catalogue check` as CI runs it (issue 96, docs/ci-check.md): the bin in a child process,
 * offline against the catalogue in the package (catalogue/data here, dist/ when fresh), or through a
 * running API with --api and a saved list. Exit 0 allowed, 1 not allowed, 2 a usage error or a file
 * it cannot read; the SARIF it writes is valid against OASIS's schema (tests/fixtures/sarif/).
 */
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { build } from "../helpers/app.ts";
import { sarifAjv, validSarif } from "../helpers/sarif.ts";
import { terraformPlan } from "../helpers/terraform-plan.ts";
import { CheckUsageError, idsOfFile, listReference } from "../../scripts/check.ts";

const CLI = fileURLToPath(new URL("../../scripts/cli.ts", import.meta.url));
// Loading and indexing catalogue/data takes a few seconds of a shared core per run.
const RUN_MS = 60_000;

/** The bin run to its end, asynchronously: a server in this process answers it meanwhile. */
function run(cwd: string, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "check", ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", PUBLIC_API_URL: "" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_MS - 5_000);
    child.once("error", reject);
    child.once("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** A folder holding these files, removed after the test. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "csc-check-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
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

describe("cloud-catalogue check, offline", () => {
  it(
    "exits 0 for a template the list allows, printing the text host's answer",
    async () => {
      const dir = folder({ "template.yaml": TEMPLATE });
      const result = await run(dir, "template.yaml", "--ids", "aws-cloudformation,aws-s3,aws-sqs");
      expect(result.stderr).toContain("cloud-catalogue check: allowed (0 errors, 0 warnings)");
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/^Deployment check\n/);
      expect(result.stdout).toContain("from aws-cloudformation, aws-s3, aws-sqs: allowed");
      expect(result.stdout).toContain("Under the AWS document generated from [aws-cloudformation, aws-s3, aws-sqs]");
    },
    RUN_MS,
  );

  it(
    "exits 1 for a denied template and writes valid SARIF naming the denied item on its line",
    async () => {
      const dir = folder({ "template.yaml": TEMPLATE });
      const result = await run(dir, "template.yaml", "--ids", "aws-cloudformation,aws-s3", "--sarif", "out.sarif");
      expect(result.stderr).toContain("not allowed (1 error, 0 warnings)");
      expect(result.status).toBe(1);
      expect(result.stdout).toMatch(/denied\s+sqs:/);
      const log = JSON.parse(readFileSync(join(dir, "out.sarif"), "utf8")) as {
        runs: { tool: { driver: { name: string } }; results: Record<string, unknown>[] }[];
      };
      expect(validSarif(log), sarifAjv.errorsText(validSarif.errors)).toBe(true);
      expect(log.runs[0]!.tool.driver.name).toBe("cloud-catalogue");
      expect(log.runs[0]!.results).toEqual([
        expect.objectContaining({
          ruleId: "denied-action",
          level: "error",
          message: { text: expect.stringMatching(/^AWS::SQS::Queue \(Queue\) needs .*approve aws-sqs/) as string },
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
    },
    RUN_MS,
  );

  it(
    "reads a Terraform plan and the ids from --ids-file, answering the API's JSON with --format json",
    async () => {
      const dir = folder({ "plan.json": PLAN, "approved.txt": "# the platform's list\naws-s3\n" });
      const result = await run(dir, "plan.json", "--ids-file", "approved.txt", "--format", "json");
      expect(result.status).toBe(1);
      const answer = JSON.parse(result.stdout) as { format: string; missingServiceIds: string[] };
      expect(answer.format).toBe("terraform-plan");
      expect(answer.missingServiceIds).toEqual(["aws-sqs"]);
      writeFileSync(join(dir, "approved.json"), JSON.stringify({ approvedServiceIds: ["aws-s3", "aws-sqs"] }));
      const allowed = await run(dir, "plan.json", "--ids-file", "approved.json", "--format", "md");
      expect(allowed.status).toBe(0);
      expect(allowed.stdout).toMatch(/^# Deployment check\n/);
    },
    RUN_MS * 2,
  );

  it(
    "exits 2 for a file it cannot read or parse, a missing list and unknown options, before loading the catalogue",
    async () => {
      const dir = folder({ "broken.yaml": "Resources: [\n", "notes.json": '{"hello": 1}' });
      for (const args of [
        ["broken.yaml", "--ids", "aws-s3"],
        ["notes.json", "--ids", "aws-s3"],
        ["absent.yaml", "--ids", "aws-s3"],
        ["broken.yaml"],
        ["broken.yaml", "--ids", "aws-s3", "--list", "x"],
        ["broken.yaml", "--ids", "aws-s3", "--colour"],
        ["broken.yaml", "--ids", "aws-s3", "--format", "html"],
      ]) {
        const result = await run(dir, ...args);
        expect(result.status, args.join(" ")).toBe(2);
        expect(result.stdout).toBe("");
      }
      const unreadable = await run(dir, "broken.yaml", "--ids", "aws-s3");
      expect(unreadable.stderr).toMatch(
        /^cloud-catalogue check: the template cannot be checked: The template is neither JSON nor YAML/,
      );
      const noApi = await run(dir, "broken.yaml", "--list", "platform-baseline");
      expect(noApi.status).toBe(2);
      expect(noApi.stderr).toContain("a saved list is checked by the API that holds it");
    },
    RUN_MS,
  );

  it(
    "fails on the phase --fail-on names: a version in paid extended support by default, not with end (issue 113)",
    async () => {
      // Cloud SQL for PostgreSQL 12: in extended support since 2025-02-01, its end on 2028-01-31.
      const plan = JSON.stringify(
        terraformPlan([["google_sql_database_instance", "db", { database_version: "POSTGRES_12" }]]),
      );
      const dir = folder({ "plan.json": plan });
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
    },
    RUN_MS * 3,
  );

  it(
    "exits 2 for ids the catalogue does not hold",
    async () => {
      const dir = folder({ "template.yaml": TEMPLATE });
      const result = await run(dir, "template.yaml", "--ids", "aws-s3,aws-nothing");
      expect(result.status).toBe(2);
      expect(result.stderr).toContain("Unknown service ids: Not in the catalogue: aws-nothing");
    },
    RUN_MS,
  );
});

/** A fixture folder of .tf files (tests/fixtures/deployments/terraform/), copied into a folder of its own. */
function tfCopy(name: string): string {
  const dir = folder({});
  cpSync(fileURLToPath(new URL(`../fixtures/deployments/terraform/${name}/`, import.meta.url)), dir, {
    recursive: true,
  });
  return dir;
}

describe("cloud-catalogue check, a folder of .tf files", () => {
  it(
    "reads the folder's *.tf files and no sub-folder, saying so; exits 0 when the list allows them, 1 with a module, its SARIF on the module's line",
    async () => {
      const dir = tfCopy("example-aws");
      // A sub-folder's module is not read, nor its .tf files.
      mkdirSync(join(dir, "modules"));
      writeFileSync(join(dir, "modules", "extra.tf"), 'resource "aws_sns_topic" "t" {}\n');
      const allowed = await run(dir, ".", "--ids", "aws-cloudwatch-logs,aws-lambda,aws-s3,aws-sqs", "--format", "json");
      expect(allowed.stderr).toContain(
        "cloud-catalogue check: read 2 .tf files in . (iam.tf, main.tf); sub-folders are not read, so a module block is listed as not evaluated",
      );
      expect(allowed.stderr).toContain("cloud-catalogue check: allowed (0 errors");
      expect(allowed.status).toBe(0);
      const answer = JSON.parse(allowed.stdout) as { format: string; services: { id: string }[] };
      expect(answer.format).toBe("terraform-config");
      expect(answer.services.map((service) => service.id)).not.toContain("aws-sns");

      const modules = tfCopy("example-module");
      const result = await run(modules, ".", "--ids", "aws-s3,aws-sns,aws-sqs", "--sarif", "out.sarif");
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("not allowed (0 errors, 4 warnings)");
      const log = JSON.parse(readFileSync(join(modules, "out.sarif"), "utf8")) as {
        runs: { results: { ruleId: string; locations: unknown[] }[] }[];
      };
      expect(validSarif(log), sarifAjv.errorsText(validSarif.errors)).toBe(true);
      expect(log.runs[0]!.results.map((entry) => [entry.ruleId, entry.locations])).toContainEqual([
        "not-evaluated",
        [{ physicalLocation: { artifactLocation: { uri: "main.tf" }, region: { startLine: 2, startColumn: 1 } } }],
      ]);
      const empty = await run(folder({ "README.md": "x" }), ".", "--ids", "aws-s3");
      expect(empty.status).toBe(2);
      expect(empty.stderr).toContain("holds no .tf file");
    },
    RUN_MS * 2,
  );

  it(
    "a syntax error exits 2 naming the file and line",
    async () => {
      const result = await run(tfCopy("example-syntax-error"), ".", "--ids", "aws-s3");
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(
        "the template cannot be checked: main.tf, line 5: the attribute has no value: an expression must follow =.",
      );
    },
    RUN_MS,
  );
});

describe("cloud-catalogue check --api", () => {
  it(
    "checks through the API, a saved list by its API URL, and exits 2 on the API's 400 and 404",
    async () => {
      const app = await build();
      const api = await app.listen({ port: 0, host: "127.0.0.1" });
      const saved = await app.inject({
        method: "POST",
        url: "/v1/lists",
        payload: { name: "CI check", approvedServiceIds: ["aws-cloudformation", "aws-s3", "aws-sqs"], unlisted: true },
      });
      expect(saved.statusCode).toBe(200);
      const { id } = saved.json<{ id: string }>();
      const dir = folder({ "template.yaml": TEMPLATE, "broken.yaml": "Resources: [\n" });

      const byList = await run(dir, "template.yaml", "--list", `${api}/v1/lists/${id}`);
      expect(byList.stderr).toContain("allowed (0 errors");
      expect(byList.status).toBe(0);
      const denied = await run(dir, "template.yaml", "--api", api, "--ids", "aws-s3", "--sarif", "api.sarif");
      expect(denied.status).toBe(1);
      expect(readFileSync(join(dir, "api.sarif"), "utf8")).toContain("AWS::SQS::Queue (Queue) needs");
      const unreadable = await run(dir, "broken.yaml", "--api", api, "--ids", "aws-s3");
      expect(unreadable.status).toBe(2);
      expect(unreadable.stderr).toContain("answered 400: Invalid template");
      const tf = folder({ "main.tf": 'resource "aws_sqs_queue" "q" {}\n' });
      const tfDenied = await run(tf, ".", "--api", api, "--ids", "aws-s3", "--format", "json");
      expect(tfDenied.status).toBe(1);
      expect((JSON.parse(tfDenied.stdout) as { format: string }).format).toBe("terraform-config");
      const noList = await run(dir, "template.yaml", "--api", api, "--list", "no-such-list");
      expect(noList.status).toBe(2);
      expect(noList.stderr).toContain("answered 404: List not found");
      await app.close();
      const gone = await run(dir, "template.yaml", "--api", api, "--ids", "aws-s3");
      expect(gone.status).toBe(3);
      expect(gone.stderr).toContain("cannot reach");
    },
    RUN_MS,
  );
});
