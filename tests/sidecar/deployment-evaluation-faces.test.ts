/**
 * Issue 110 on every face: each case of the evaluator (a provider block's region, an input's value,
 * a version set by a parameter, a resource behind a false condition, a subscription-scope resource
 * group, a local module, a generic type placed by its engine, a global resource) sent to the API
 * (POST /v1/deployments/check), the text host (POST /deployments/check), MCP (check_deployment) and
 * the CLI (the package's `cloud-catalogue check`, in a child process), and answered alike: the same verdict, the same
 * services missing, the same places. tests/catalogue/deployment-evaluation.test.ts holds each case's
 * detail through the check function.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { DeploymentCheckAnswer } from "../../catalogue/templates/check.ts";
import { checkOutcome } from "../../catalogue/templates/answer/findings.ts";
import { build, postJson } from "../helpers/app.ts";
import { folderWith, packagedCli, runCli } from "../helpers/cli.ts";
import { buildText } from "../helpers/text-app.ts";

interface Case {
  readonly name: string;
  /** One file, as MCP and the text host take a template; the CLI and the API's `files` take several. */
  readonly file: string;
  readonly template: string;
  readonly ids: readonly string[];
  readonly locations?: readonly string[];
  readonly inputs?: Readonly<Record<string, string>>;
  readonly region?: string;
  readonly allowed: boolean;
  readonly missing: readonly string[];
  /** [from, location] of every resource placed. */
  readonly places?: readonly (readonly [string, string])[];
  /** [from, value] of every version read. */
  readonly versions?: readonly (readonly [string, string])[];
  /** What the text host's plain answer must say. */
  readonly says: RegExp;
}

const arm = (schema: string, resources: unknown[], parameters: Record<string, unknown> = {}) =>
  JSON.stringify({
    $schema: `https://schema.management.azure.com/schemas/${schema}#`,
    contentVersion: "1.0.0.0",
    parameters,
    resources,
  });

const CASES: readonly Case[] = [
  {
    name: "a provider block's region outside EU",
    file: "main.tf",
    template: 'provider "aws" {\n  region = "us-east-1"\n}\nresource "aws_s3_bucket" "b" {}\n',
    ids: ["aws-s3"],
    locations: ["EU"],
    allowed: false,
    missing: [],
    places: [["aws_s3_bucket.b", "us-east-1"]],
    says: /us-east-1/,
  },
  {
    name: "a variable's value given as an input",
    file: "main.tf",
    template:
      'variable "region" {\n  default = "eu-west-1"\n}\nprovider "aws" {\n  region = var.region\n}\nresource "aws_sqs_queue" "q" {}\n',
    ids: ["aws-sqs"],
    locations: ["EU"],
    inputs: { region: "ap-south-1" },
    allowed: false,
    missing: [],
    places: [["aws_sqs_queue.q", "ap-south-1"]],
    says: /ap-south-1/,
  },
  {
    name: "a version set by a CloudFormation parameter's default, in the request's region",
    file: "stack.json",
    template: JSON.stringify({
      Parameters: { Runtime: { Type: "String", Default: "python3.8" } },
      Resources: { Fn: { Type: "AWS::Lambda::Function", Properties: { Runtime: { Ref: "Runtime" } } } },
    }),
    ids: ["aws-lambda", "aws-cloudformation"],
    locations: ["EU"],
    region: "eu-central-1",
    allowed: true,
    missing: [],
    places: [["Fn", "eu-central-1"]],
    versions: [["Fn", "python3.8"]],
    says: /python3\.8/,
  },
  {
    name: "a resource behind a parameter's false condition",
    file: "azuredeploy.json",
    template: arm(
      "2019-04-01/deploymentTemplate.json",
      [
        {
          type: "Microsoft.Cache/redis",
          apiVersion: "2023-08-01",
          name: "cache",
          location: "westeurope",
          condition: "[parameters('deployRedis')]",
        },
        { type: "Microsoft.Storage/storageAccounts", apiVersion: "2023-01-01", name: "s", location: "westeurope" },
      ],
      { deployRedis: { type: "bool", defaultValue: false } },
    ),
    ids: ["azure-blob-storage"],
    allowed: true,
    missing: [],
    says: /condition is false/,
  },
  {
    name: "a subscription-scope deployment's resource group",
    file: "main.json",
    template: arm("2018-05-01/subscriptionDeploymentTemplate.json", [
      { type: "Microsoft.Resources/resourceGroups", apiVersion: "2022-09-01", name: "rg", location: "westeurope" },
    ]),
    ids: ["azure-blob-storage"],
    locations: ["EU"],
    allowed: true,
    missing: [],
    says: /Microsoft\.Resources\/resourceGroups/,
  },
  {
    name: "a generic type placed by its engine",
    file: "main.tf",
    template:
      'resource "ovh_cloud_project_database" "db" {\n  engine = "postgresql"\n  nodes {\n    region = "GRA"\n  }\n}\n',
    ids: ["ovhcloud-managed-mysql"],
    allowed: false,
    missing: ["ovhcloud-managed-postgresql"],
    says: /ovhcloud-managed-postgresql/,
  },
  {
    name: "a global resource",
    file: "stack.json",
    template: JSON.stringify({ Resources: { Cdn: { Type: "AWS::CloudFront::Distribution" } } }),
    ids: ["aws-cloudfront", "aws-cloudformation"],
    locations: ["EU"],
    region: "eu-central-1",
    allowed: true,
    missing: [],
    places: [["Cdn", "global"]],
    says: /global/,
  },
];

interface Answer {
  verdicts: { allowed: boolean }[];
  missingServiceIds: string[];
  locations: { from: string; location: string; allowed: boolean | null }[];
  versions: { from: string; value: string }[];
  notDeployed: { from: string }[];
}

/** What every face must agree on, from the API's JSON answer. */
function judged(c: Case, answer: Answer) {
  const outcome = checkOutcome(answer as unknown as DeploymentCheckAnswer);
  expect(outcome.allowed, c.name).toBe(c.allowed);
  expect(answer.missingServiceIds, c.name).toEqual(c.missing);
  if (c.places)
    expect(
      answer.locations.map(({ from, location }) => [from, location]),
      c.name,
    ).toEqual(c.places);
  if (c.versions)
    expect(
      answer.versions.map(({ from, value }) => [from, value]),
      c.name,
    ).toEqual(c.versions);
  return outcome;
}

const request = (c: Case) => ({
  approvedServiceIds: c.ids,
  ...(c.locations ? { allowedLocations: c.locations } : {}),
  ...(c.inputs ? { inputs: c.inputs } : {}),
  ...(c.region ? { region: c.region } : {}),
});

/** The package's bin, as users install it (built once per run, helpers/cli.ts). */
let bin: string;
beforeAll(async () => {
  bin = await packagedCli();
}, 120_000);

describe("each evaluated case is answered alike on every face", () => {
  it.each(CASES)("$name: the API, as a template (and as files when Terraform)", async (c) => {
    const app = await build();
    const asTemplate = await app.inject(postJson("/v1/deployments/check", { ...request(c), template: c.template }));
    expect(asTemplate.statusCode, asTemplate.body.slice(0, 300)).toBe(200);
    judged(c, asTemplate.json() as Answer);
    // `files` is a Terraform folder's: .tf, .tfvars and a module manifest.
    if (!c.file.endsWith(".tf")) return;
    const asFiles = await app.inject(
      postJson("/v1/deployments/check", { ...request(c), files: { [c.file]: c.template } }),
    );
    expect(asFiles.statusCode, asFiles.body.slice(0, 300)).toBe(200);
    judged(c, asFiles.json() as Answer);
  });

  it.each(CASES)("$name: MCP's check_deployment", async (c) => {
    const app = await build();
    const answer = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      payload: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "check_deployment", arguments: { ...request(c), template: c.template } },
      },
    });
    const { result } = answer.json() as { result: { isError?: boolean; structuredContent: Answer } };
    expect(result.isError ?? false, JSON.stringify(result).slice(0, 300)).toBe(false);
    judged(c, result.structuredContent);
  });

  it.each(CASES)("$name: the text host, with locations=, region= and input.<name>=", async (c) => {
    const text = await buildText();
    const query = new URLSearchParams({ ids: c.ids.join(","), color: "never" });
    if (c.locations) query.set("locations", c.locations.join(","));
    if (c.region) query.set("region", c.region);
    for (const [name, value] of Object.entries(c.inputs ?? {})) query.set(`input.${name}`, value);
    const answer = await text.inject({
      method: "POST",
      url: `/deployments/check?${query}`,
      headers: { "content-type": "text/plain", accept: "text/plain" },
      payload: c.template,
    });
    expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
    const said = answer.body.replace(/\s+/g, " ");
    expect(said, c.name).toMatch(c.says);
    expect(said, c.name).toMatch(c.allowed ? /Verdict Allowed: /i : /Verdict Not allowed: /i);
    for (const id of c.missing) expect(said).toContain(id);
  });

  it.each(CASES)(
    "$name: the CLI, its exit code the outcome's",
    async (c) => {
      const dir = folderWith({ [c.file]: c.template });
      const args = ["check", c.file, "--ids", c.ids.join(","), "--format", "json"];
      if (c.locations) args.push("--locations", c.locations.join(","));
      if (c.region) args.push("--region", c.region);
      for (const [name, value] of Object.entries(c.inputs ?? {})) args.push("--var", `${name}=${value}`);
      const run = await runCli(bin, dir, args);
      // Exit 1 when not allowed, or when a version is retiring (python3.8 here): the outcome's exit code.
      expect(run.status, run.stderr.slice(0, 500)).toBe(judged(c, JSON.parse(run.stdout) as Answer).exitCode);
    },
    60_000,
  );

  it("a local module: the API's files and the CLI's folder read it with its inputs", async () => {
    const app = await build();
    const files = {
      "main.tf": 'module "queue" {\n  source = "./modules/queue"\n  region = "us-east-1"\n}\n',
      "modules/queue/main.tf":
        'variable "region" {}\nprovider "aws" {\n  region = var.region\n}\nresource "aws_sqs_queue" "q" {}\n',
    };
    const c: Case = {
      name: "a local module",
      file: "main.tf",
      template: "",
      ids: ["aws-sqs"],
      locations: ["EU"],
      allowed: false,
      missing: [],
      places: [["module.queue.aws_sqs_queue.q", "us-east-1"]],
      says: /us-east-1/,
    };
    const api = await app.inject(postJson("/v1/deployments/check", { ...request(c), files }));
    expect(api.statusCode, api.body.slice(0, 300)).toBe(200);
    judged(c, api.json() as Answer);
    const dir = folderWith(files);
    const run = await runCli(bin, dir, ["check", ".", "--ids", "aws-sqs", "--locations", "EU", "--format", "json"]);
    expect(run.status, run.stderr.slice(0, 500)).toBe(1);
    judged(c, JSON.parse(run.stdout) as Answer);
  }, 60_000);
});
