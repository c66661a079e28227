/**
 * Issue 121 on every face: each bullet of the issue sent to the API (POST /v1/deployments/check, a
 * template or files with root), MCP (check_deployment), the text host (POST /deployments/check: a
 * template as the body, a repository as multipart parts named files) and the CLI (the package's
 * `cloud-catalogue check`, in a child process, on a folder holding .git), and answered alike: the
 * same outcome, the same services missing, the same refusal. tests/catalogue/deployment-repositories.test.ts
 * holds each case's detail through the check function.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { DeploymentCheckAnswer } from "../../catalogue/templates/check.ts";
import { checkOutcome } from "../../catalogue/templates/answer/findings.ts";
import { build, postJson } from "../helpers/app.ts";
import { folderWith, packagedCli, runCli } from "../helpers/cli.ts";
import { buildText } from "../helpers/text-app.ts";

interface Case {
  readonly name: string;
  /** The repository's files, and what to check among them (a file or a folder; absent: the top). */
  readonly files: Readonly<Record<string, string>>;
  readonly root?: string;
  readonly ids: readonly string[];
  readonly region?: string;
  readonly locations?: readonly string[];
  /** The outcome (checkOutcome's allowed) and the exit code of the gate; or the refusal's status. */
  readonly allowed?: boolean;
  readonly exitCode?: 0 | 1;
  readonly missing?: readonly string[];
  readonly refused?: { readonly status: 400; readonly error: string; readonly says: RegExp };
  /** What the text host's plain answer (or refusal) must say. */
  readonly says: RegExp;
}

const SAM = "AWSTemplateFormatVersion: '2010-09-09'\nTransform: AWS::Serverless-2016-10-31\n";
const APP = `${SAM}Resources:\n  AuthStack:\n    Type: AWS::Serverless::Application\n    Properties:\n      Location: ./auth.yaml\n  Api:\n    Type: AWS::Serverless::HttpApi\n`;
const AUTH =
  "Resources:\n  UserPool:\n    Type: AWS::Cognito::UserPool\n  Client:\n    Type: AWS::Cognito::UserPoolClient\n";
const QUEUE_MODULE = 'variable "name" {}\nresource "aws_sqs_queue" "q" {\n  name = var.name\n}\n';

const CASES: readonly Case[] = [
  {
    name: "never allowed for what was not read: a nested application whose template is not sent",
    files: { "template.yaml": APP },
    root: "template.yaml",
    ids: ["aws-api-gateway", "aws-cloudformation"],
    region: "eu-west-1",
    allowed: false,
    exitCode: 1,
    // SAM's deployment bucket is an implicit need of the transform.
    missing: ["aws-s3"],
    says: /AuthStack: nested application \.\/auth\.yaml/,
  },
  {
    name: "never allowed for what was not read: a macro",
    files: { "template.yaml": "Transform: [MyCompanyMacro]\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n" },
    root: "template.yaml",
    ids: ["aws-sqs", "aws-cloudformation"],
    region: "eu-west-1",
    allowed: false,
    exitCode: 1,
    missing: [],
    says: /Transform MyCompanyMacro/,
  },
  {
    name: "read where the files are there: the nested application's Cognito pool",
    files: { "template.yaml": APP, "auth.yaml": AUTH },
    root: "template.yaml",
    ids: ["aws-api-gateway", "aws-cloudformation"],
    region: "eu-west-1",
    allowed: false,
    exitCode: 1,
    missing: ["aws-cognito", "aws-s3"],
    says: /aws-cognito/,
  },
  {
    name: "a repository, not a folder: envs/prod reads ../../modules/queue",
    files: {
      "envs/prod/main.tf":
        'provider "aws" {\n  region = "eu-west-1"\n}\nmodule "queue" {\n  source = "../../modules/queue"\n  name   = "orders"\n}\n',
      "modules/queue/main.tf": QUEUE_MODULE,
    },
    root: "envs/prod",
    ids: ["aws-sqs"],
    locations: ["EU"],
    allowed: true,
    exitCode: 0,
    missing: [],
    says: /module\.queue\.aws_sqs_queue\.q: eu-west-1/,
  },
  {
    name: "Terraform as Terraform evaluates it: optional(bool, false) creates no key",
    files: {
      "main.tf": 'module "bucket" {\n  source = "./bucket"\n  config = {}\n}\n',
      "bucket/main.tf":
        'variable "config" {\n  type = object({ create_key = optional(bool, false) })\n}\nresource "aws_kms_key" "k" {\n  count = var.config.create_key ? 1 : 0\n}\nresource "aws_s3_bucket" "b" {}\n',
    },
    ids: ["aws-s3"],
    allowed: true,
    exitCode: 0,
    missing: [],
    says: /module\.bucket\.aws_kms_key\.k: not deployed/,
  },
  {
    name: "Terraform as Terraform evaluates it: OVHcloud's S3 endpoint is OVHcloud's object storage",
    files: {
      "main.tf":
        'provider "aws" {\n  region = "gra"\n  endpoints {\n    s3 = "https://s3.gra.io.cloud.ovh.net"\n  }\n}\nresource "aws_s3_bucket" "b" {}\n',
    },
    ids: ["aws-s3"],
    allowed: false,
    exitCode: 1,
    missing: ["ovhcloud-object-storage"],
    says: /ovhcloud-object-storage/,
  },
  {
    name: "Terraform as Terraform evaluates it: exoscale_dbaas of type pg is Exoscale PostgreSQL",
    files: {
      "main.tf":
        'resource "exoscale_dbaas" "db" {\n  zone = "ch-gva-2"\n  name = "db"\n  type = "pg"\n  plan = "hobbyist-2"\n}\n',
    },
    ids: ["exoscale-dbaas-mysql"],
    allowed: false,
    exitCode: 1,
    missing: ["exoscale-dbaas-postgresql"],
    says: /exoscale-dbaas-postgresql/,
  },
  {
    name: "versions: Azure Functions' Python 3.9 has ended, OVHcloud's Kubernetes 1.31 is not known to the catalogue",
    files: {
      "main.tf":
        'resource "azurerm_linux_function_app" "f" {\n  name = "f"\n  location = "westeurope"\n  site_config {\n    application_stack {\n      python_version = "3.9"\n    }\n  }\n}\nresource "ovh_cloud_project_kube" "k" {\n  name = "k"\n  region = "GRA7"\n  version = "1.31"\n}\n',
    },
    ids: ["azure-functions", "ovhcloud-managed-kubernetes"],
    allowed: true,
    exitCode: 1,
    missing: [],
    says: /version 1\.31 — not known to the catalogue/,
  },
  {
    name: "inputs checked: an unknown region",
    files: { "template.yaml": "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n" },
    root: "template.yaml",
    ids: ["aws-sqs"],
    region: "eu-wset-3",
    refused: { status: 400, error: "Unknown region", says: /nearest: eu-west-3/ },
    says: /nearest: eu-west-3/,
  },
  {
    name: "inputs checked: an Azure region on a CloudFormation stack",
    files: { "template.yaml": "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n" },
    root: "template.yaml",
    ids: ["aws-sqs"],
    region: "westeurope",
    refused: { status: 400, error: "Unknown region", says: /a region of Microsoft Azure, not of AWS/ },
    says: /not of AWS/,
  },
];

/** What every face must agree on, from an answer in the API's JSON. */
function judged(c: Case, answer: DeploymentCheckAnswer) {
  const outcome = checkOutcome(answer);
  expect(outcome.allowed, c.name).toBe(c.allowed);
  expect(outcome.exitCode, c.name).toBe(c.exitCode);
  expect(answer.missingServiceIds, c.name).toEqual(c.missing);
}

const asked = (c: Case) => ({
  approvedServiceIds: c.ids,
  ...(c.locations ? { allowedLocations: c.locations } : {}),
  ...(c.region ? { region: c.region } : {}),
});
const sendFiles = (c: Case) => ({ files: c.files, ...(c.root ? { root: c.root } : {}) });

/** A multipart body of the repository's files, each part named files with its path as filename. */
function multipart(files: Readonly<Record<string, string>>, fields: Record<string, string>) {
  const boundary = "csc-boundary-121";
  const parts = [
    ...Object.entries(fields).map(
      ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    ),
    ...Object.entries(files).map(
      ([path, text]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${path}"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n`,
    ),
  ];
  return { payload: `${parts.join("")}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

let bin: string;
beforeAll(async () => {
  bin = await packagedCli();
}, 180_000);

describe("each case of issue 121 is answered alike on every face", () => {
  it.each(CASES)("$name: the API, with files and root", async (c) => {
    const app = await build();
    const response = await app.inject(postJson("/v1/deployments/check", { ...asked(c), ...sendFiles(c) }));
    if (c.refused) {
      expect(response.statusCode).toBe(c.refused.status);
      expect(response.json()).toMatchObject({ error: c.refused.error, details: expect.stringMatching(c.refused.says) });
      return;
    }
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    judged(c, response.json() as DeploymentCheckAnswer);
  });

  it.each(CASES)("$name: MCP's check_deployment, with files and root", async (c) => {
    const app = await build();
    const response = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      payload: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "check_deployment", arguments: { ...asked(c), ...sendFiles(c) } },
      },
    });
    const { result } = response.json() as {
      result: { isError?: boolean; structuredContent: DeploymentCheckAnswer; content: { text: string }[] };
    };
    if (c.refused) {
      expect(result.isError).toBe(true);
      expect(result.content.map((part) => part.text).join(" ")).toMatch(c.refused.says);
      return;
    }
    expect(result.isError ?? false, JSON.stringify(result).slice(0, 300)).toBe(false);
    judged(c, result.structuredContent);
  });

  it.each(CASES)("$name: the text host, the repository as multipart files", async (c) => {
    const text = await buildText();
    const query = new URLSearchParams({ ids: c.ids.join(","), color: "never" });
    if (c.locations) query.set("locations", c.locations.join(","));
    if (c.region) query.set("region", c.region);
    const { payload, contentType } = multipart(c.files, c.root ? { root: c.root } : {});
    const answer = await text.inject({
      method: "POST",
      url: `/deployments/check?${query}`,
      headers: { "content-type": contentType, accept: "text/plain" },
      payload,
    });
    const said = answer.body.replace(/\s+/g, " ");
    if (c.refused) {
      expect(answer.statusCode).toBe(c.refused.status);
      expect(said).toMatch(c.says);
      return;
    }
    expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
    expect(said, c.name).toMatch(c.says);
    expect(said, c.name).toMatch(c.allowed ? /Verdict Allowed: /i : /Verdict Not allowed: /i);
    for (const id of c.missing ?? []) expect(said).toContain(id);
  });

  it.each(CASES)(
    "$name: the CLI in a repository, its exit code the gate's",
    async (c) => {
      const dir = folderWith(c.files);
      mkdirSync(join(dir, ".git"));
      const args = ["check", c.root ?? ".", "--ids", c.ids.join(","), "--format", "json"];
      if (c.locations) args.push("--locations", c.locations.join(","));
      if (c.region) args.push("--region", c.region);
      const run = await runCli(bin, dir, args);
      if (c.refused) {
        expect(run.status, run.stderr).toBe(2);
        expect(run.stderr).toMatch(c.refused.says);
        return;
      }
      expect(run.status, run.stderr.slice(0, 500)).toBe(c.exitCode);
      judged(c, JSON.parse(run.stdout) as DeploymentCheckAnswer);
    },
    60_000,
  );

  it("a template sent alone (the API's template, the text host's body) names its nested application as not read", async () => {
    const c = CASES[0]!;
    const app = await build();
    const api = await app.inject(postJson("/v1/deployments/check", { ...asked(c), template: APP }));
    expect(api.statusCode).toBe(200);
    judged(c, api.json() as DeploymentCheckAnswer);
    const text = await buildText();
    const answer = await text.inject({
      method: "POST",
      url: `/deployments/check?ids=${c.ids.join(",")}&region=eu-west-1&color=never`,
      headers: { "content-type": "text/plain", accept: "text/plain" },
      payload: APP,
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.body.replace(/\s+/g, " ")).toMatch(/Verdict Not allowed: part of the deployment was not read/i);
  });
});
