/**
 * Issue 121 on the CLI: `cloud-catalogue check` (the package's bin, as users install it) reads a
 * repository, not a folder. A root module reads its local modules anywhere under the repository's
 * top (the git root, or --root), never outside it; --recursive checks every root module, one verdict
 * each and one SARIF log; a template reads its nested templates by their local paths; what it did
 * not read fails the check with and without --strict; --region is checked like the policies' inputs;
 * a CloudFormation Mapping without the stack's region fails it; the text output names the file a
 * provider block was read from.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { folderWith, packagedCli, runCli } from "../helpers/cli.ts";
import { sarifAjv, validSarif } from "../helpers/sarif.ts";

const RUN_MS = 90_000;
let bin: string;
beforeAll(async () => {
  bin = await packagedCli();
}, 180_000);
const run = (cwd: string, ...args: string[]) => runCli(bin, cwd, ["check", ...args], { timeoutMs: 60_000 });

/** A repository: the files, and a .git folder at its top (as a clone has). */
function repository(files: Record<string, string>): string {
  const dir = folderWith(files);
  mkdirSync(join(dir, ".git"));
  return dir;
}

const MODULE = 'variable "name" {}\nresource "aws_sqs_queue" "q" {\n  name = var.name\n}\n';
const PROD =
  'provider "aws" {\n  region = "eu-west-1"\n}\nmodule "queue" {\n  source = "../../modules/queue"\n  name   = "orders"\n}\n';
const LAYOUT = {
  "envs/prod/main.tf": PROD,
  "envs/dev/main.tf": PROD.replace("eu-west-1", "us-east-1"),
  "modules/queue/main.tf": MODULE,
};

interface Sarif {
  runs: {
    invocations?: { exitCode: number }[];
    results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
  }[];
}
function sarifIn(path: string): Sarif {
  const log = JSON.parse(readFileSync(path, "utf8")) as Sarif;
  expect(validSarif(log), sarifAjv.errorsText(validSarif.errors)).toBe(true);
  return log;
}

describe("a root module inside a repository", () => {
  it(
    "reads ../../modules/queue from the git root's folders, and passes",
    async () => {
      const dir = repository(LAYOUT);
      const result = await run(dir, "envs/prod", "--ids", "aws-sqs", "--format", "json", "--locations", "EU");
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toMatch(
        /read 2 files in envs\/prod \(the repository .*\) \(envs\/prod\/main\.tf, modules\/queue\/main\.tf\)/,
      );
      const answer = JSON.parse(result.stdout) as {
        notEvaluated: string[];
        locations: { from: string; via: string }[];
      };
      expect(answer.notEvaluated).toEqual([]);
      expect(answer.locations).toEqual([
        expect.objectContaining({
          from: "module.queue.aws_sqs_queue.q",
          via: "the provider block aws (envs/prod/main.tf, line 1)",
        }),
      ]);
    },
    RUN_MS,
  );

  it(
    "without a git root, --root names the top; a --root that does not hold the path is a usage error",
    async () => {
      const dir = folderWith(LAYOUT);
      const alone = await run(join(dir, "envs", "prod"), ".", "--ids", "aws-sqs");
      // Without a top above it, the folder is the top: ../../modules is outside it, and not read.
      expect(alone.status).toBe(1);
      expect(alone.stderr).toMatch(
        /module\.queue: module "\.\.\/\.\.\/modules\/queue" \(main\.tf, line 4\): its source leaves the repository's top/,
      );
      const rooted = await run(join(dir, "envs", "prod"), ".", "--root", "../..", "--ids", "aws-sqs");
      expect(rooted.status, rooted.stderr).toBe(0);
      const outside = await run(dir, "envs/prod", "--root", "modules", "--ids", "aws-sqs");
      expect(outside.status).toBe(2);
      expect(outside.stderr).toMatch(/--root modules does not hold envs\/prod/);
    },
    RUN_MS,
  );

  it(
    "--recursive checks every root module, one verdict each, one valid SARIF log; the worst root's exit",
    async () => {
      const dir = repository({
        ...LAYOUT,
        "examples/complete/main.tf":
          'module "q" {\n  source = "../../modules/queue"\n  name = "x"\n}\nresource "aws_s3_bucket" "b" {}\n',
      });
      const result = await run(
        dir,
        ".",
        "--recursive",
        "--ids",
        "aws-sqs",
        "--locations",
        "EU",
        "--format",
        "json",
        "--sarif",
        "check.sarif",
      );
      expect(result.status, result.stderr).toBe(1);
      const { roots } = JSON.parse(result.stdout) as { roots: { root: string; answer: unknown }[] };
      // modules/queue is called by the others: a module, not a root.
      expect(roots.map(({ root }) => root)).toEqual(["envs/dev", "envs/prod", "examples/complete"]);
      expect(result.stderr).toMatch(/cloud-catalogue check: envs\/dev: not allowed/);
      expect(result.stderr).toMatch(/cloud-catalogue check: envs\/prod: allowed/);
      expect(result.stderr).toMatch(/cloud-catalogue check: examples\/complete: not allowed/);
      const log = sarifIn(join(dir, "check.sarif"));
      expect(log.runs).toHaveLength(1);
      expect(log.runs[0]!.invocations![0]!.exitCode).toBe(1);
      const where = log.runs[0]!.results.map(
        (entry) => `${entry.ruleId} ${entry.locations[0]!.physicalLocation.artifactLocation.uri}`,
      );
      expect(where).toEqual(
        expect.arrayContaining(["location-denied envs/dev/main.tf", "denied-action examples/complete/main.tf"]),
      );
    },
    RUN_MS,
  );
});

const SAM = "AWSTemplateFormatVersion: '2010-09-09'\nTransform: AWS::Serverless-2016-10-31\n";
const APP = `${SAM}Resources:\n  AuthStack:\n    Type: AWS::Serverless::Application\n    Properties:\n      Location: ./auth.yaml\n`;
const AUTH = "Resources:\n  UserPool:\n    Type: AWS::Cognito::UserPool\n";
const LIST = ["--ids", "aws-cloudformation,aws-api-gateway", "--region", "eu-west-1"];

describe("a template inside a repository", () => {
  it(
    "reads a nested application's local template: its Cognito pool is denied, and the suggestion names aws-cognito",
    async () => {
      const dir = repository({ "stacks/template.yaml": APP, "stacks/auth.yaml": AUTH });
      const result = await run(dir, "stacks/template.yaml", ...LIST, "--format", "json");
      expect(result.status, result.stderr).toBe(1);
      const answer = JSON.parse(result.stdout) as { notEvaluated: string[]; missingServiceIds: string[] };
      expect(answer.notEvaluated).toEqual([]);
      expect(answer.missingServiceIds).toContain("aws-cognito");
    },
    RUN_MS,
  );

  it.each([
    ["its template not there", APP, /AuthStack: nested application \.\/auth\.yaml/],
    [
      "a macro",
      "Transform: [MyCompanyMacro]\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n",
      /Transform MyCompanyMacro/,
    ],
  ])(
    "%s: not read, exit 1 with and without --strict",
    async (_, text, said) => {
      const dir = repository({ "template.yaml": text });
      for (const strict of [[], ["--strict"]]) {
        const result = await run(dir, "template.yaml", ...LIST, "--ids", "aws-cloudformation,aws-sqs", ...strict);
        expect(result.status, result.stderr).toBe(1);
        expect(result.stderr).toMatch(said);
        expect(result.stderr).toMatch(/error +not-read: /);
      }
    },
    RUN_MS,
  );
});

describe("inputs checked like the policies' inputs", () => {
  it(
    "an unknown --region, or an Azure region on a CloudFormation stack, is exit 2 naming the nearest",
    async () => {
      const dir = folderWith({
        "stack.yaml": "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n",
        "main.tf": 'resource "aws_sqs_queue" "q" {}\n',
      });
      const typo = await run(dir, "stack.yaml", "--ids", "aws-sqs", "--region", "eu-wset-3");
      expect(typo.status).toBe(2);
      expect(typo.stderr).toMatch(/Unknown region: region: "eu-wset-3" is no AWS region .*nearest: eu-west-3/);
      const azure = await run(dir, "stack.yaml", "--ids", "aws-sqs", "--region", "westeurope");
      expect(azure.status).toBe(2);
      expect(azure.stderr).toMatch(/"westeurope" is a region of Microsoft Azure, not of AWS/);
      const terraform = await run(dir, ".", "--ids", "aws-sqs", "--region", "eu-wset-3");
      expect(terraform.status).toBe(2);
      expect(terraform.stderr).toMatch(/nearest: eu-west-3/);
    },
    RUN_MS,
  );

  it(
    "a Mapping without the stack's region fails the check as a deployment error",
    async () => {
      const stack =
        "Mappings:\n  RegionMap:\n    eu-west-1: {AMI: ami-1}\nResources:\n  Vm:\n    Type: AWS::EC2::Instance\n    Properties:\n      ImageId: !FindInMap [RegionMap, !Ref 'AWS::Region', AMI]\n";
      const dir = folderWith({ "stack.yaml": stack });
      const ok = await run(dir, "stack.yaml", "--ids", "aws-ec2,aws-cloudformation", "--region", "eu-west-1");
      expect(ok.status, ok.stderr).toBe(0);
      const missing = await run(dir, "stack.yaml", "--ids", "aws-ec2,aws-cloudformation", "--region", "eu-north-1");
      expect(missing.status).toBe(1);
      expect(missing.stderr).toMatch(
        /error +deployment-error: Vm: Fn::FindInMap finds no RegionMap › eu-north-1 › AMI/,
      );
    },
    RUN_MS,
  );

  it(
    "the text and Markdown output name the file a provider block was read from",
    async () => {
      const dir = folderWith({
        "small.tf": 'provider "aws" {\n  region = "us-east-1"\n}\nresource "aws_s3_bucket" "b" {}\n',
      });
      for (const format of ["text", "md"]) {
        const result = await run(dir, "small.tf", "--ids", "aws-s3", "--locations", "EU", "--format", format);
        expect(result.status).toBe(1);
        expect(result.stdout.replace(/\s+/g, " ")).toContain("from the provider block aws (small.tf, line 1)");
        expect(result.stdout).not.toContain("main.tf");
      }
    },
    RUN_MS,
  );
});
