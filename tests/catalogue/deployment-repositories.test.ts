/**
 * Issue 121: the check reads real repositories. Through the API's check function: what brings in
 * resources the check did not read (a nested stack or application held elsewhere, a Serverless
 * Application Repository application, a macro, an AWS::Include of a file not sent) is named and
 * keeps the AWS verdict from "allowed"; a nested stack, application or include whose file is sent is
 * read with its parameters, bounded; a Mapping without the stack's region is a deployment error; a
 * Terraform root module inside a repository reads modules anywhere under the top and never outside
 * it, applies optional() defaults, and needs no file of a module with count 0.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { checkOutcome } from "../../catalogue/templates/answer/findings.ts";
import { judge } from "../../catalogue/templates/answer/judge.ts";
import { TemplateBudgetError } from "../../catalogue/templates/model/errors.ts";
import { readDeployment, TerraformFiles } from "../../catalogue/templates/read.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
type Answer = ReturnType<typeof checkTemplate>;
const check = (
  template: unknown,
  ids: readonly string[],
  given: { region?: string; inputs?: Record<string, unknown> } = {},
) => checkTemplate(catalogue, template, ids, undefined, undefined, given);
const files = (all: Record<string, string>, root?: string) => new TerraformFiles(all, root);
const aws = (answer: Answer) => answer.verdicts.find((verdict) => verdict.providerId === "aws")!;
const itemsOf = (answer: Answer) => answer.services.flatMap((service) => service.items.map((item) => item.item));
/** What the CLI's exit code says with --strict (every finding counts) and without. */
const gate = (answer: Answer, strict = false) =>
  judge(checkOutcome(answer).findings, { failOn: strict ? "warning" : "error", today: "2026-11-29" }).exitCode;

const SAM = "AWSTemplateFormatVersion: '2010-09-09'\nTransform: AWS::Serverless-2016-10-31\n";
/** serverless-patterns cognito-httpapi's shape: an HTTP API whose authoriser's user pool an application creates. */
const COGNITO_APP = `${SAM}Resources:
  AuthStack:
    Type: AWS::Serverless::Application
    Properties:
      Location: ./auth.yaml
      Parameters:
        AppName: shop
  Api:
    Type: AWS::Serverless::HttpApi
`;
const AUTH = `${SAM}Parameters:
  AppName:
    Type: String
Resources:
  UserPool:
    Type: AWS::Cognito::UserPool
    Properties:
      UserPoolName: !Sub "\${AppName}-users"
  Client:
    Type: AWS::Cognito::UserPoolClient
    Properties:
      UserPoolId: !Ref UserPool
  Domain:
    Type: AWS::Cognito::UserPoolDomain
    Properties:
      UserPoolId: !Ref UserPool
      Domain: !Ref AppName
`;
const LIST = ["aws-api-gateway", "aws-cloudformation", "aws-lambda"];

describe("never allowed for what was not read", () => {
  it.each([
    [
      "a nested application whose template is not sent",
      { "template.yaml": COGNITO_APP },
      /AuthStack: nested application \.\/auth\.yaml .*its file auth\.yaml is not in the input/,
    ],
    [
      "a nested stack held in S3",
      {
        "template.yaml":
          "Resources:\n  Net:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: https://s3.amazonaws.com/bucket/net.yaml\n",
      },
      /Net: nested stack https:\/\/s3\.amazonaws\.com\/bucket\/net\.yaml .*the stack fetches it when it is made/,
    ],
    [
      "a Serverless Application Repository application",
      {
        "template.yaml": `${SAM}Resources:\n  Rotation:\n    Type: AWS::Serverless::Application\n    Properties:\n      Location:\n        ApplicationId: arn:aws:serverlessrepo:us-east-1:297356227824:applications/SecretsManagerRDSPostgreSQLRotationSingleUser\n        SemanticVersion: 1.1.367\n`,
      },
      /Rotation: nested application from the Serverless Application Repository, arn:aws:serverlessrepo:.* version 1\.1\.367/,
    ],
    [
      "a macro other than SAM's",
      { "template.yaml": "Transform: [MyCompanyMacro]\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n" },
      /Transform MyCompanyMacro: a macro rewrites the template .*--template-stage Processed/,
    ],
    [
      "an AWS::Include of a snippet in S3, inside Resources",
      {
        "template.yaml":
          "Resources:\n  Fn::Transform:\n    Name: AWS::Include\n    Parameters:\n      Location: s3://bucket/snippet.yaml\n",
      },
      /Resources: Fn::Transform AWS::Include of s3:\/\/bucket\/snippet\.yaml/,
    ],
    [
      "a resource written as a macro's output",
      { "template.yaml": "Resources:\n  Made:\n    Fn::Transform:\n      Name: MyMacro\n" },
      /Made: Fn::Transform MyMacro \(Resources\.Made\)/,
    ],
  ])(
    "%s: named as not read, the AWS verdict not allowed, the gate failing with and without --strict",
    (_, all, said) => {
      const answer = check(files(all, "template.yaml"), [...LIST, "aws-sqs"], { region: "eu-west-1" });
      expect(
        answer.notEvaluated.some((entry) => said.test(entry)),
        answer.notEvaluated.join("\n"),
      ).toBe(true);
      expect(aws(answer)).toMatchObject({ allowed: false });
      expect(aws(answer).notEvaluated!.some((entry) => said.test(entry))).toBe(true);
      expect(checkOutcome(answer).allowed).toBe(false);
      expect(gate(answer)).toBe(1);
      expect(gate(answer, true)).toBe(1);
      // The suggested list cannot allow it either: what was not read is never allowed.
      expect(answer.verdicts.filter((verdict) => verdict.providerId === "aws").every((v) => !v.allowed)).toBe(true);
      // The statement says what to do.
      expect(answer.statements.map((statement) => statement.text).join(" ")).toMatch(
        /send the nested templates and snippets with the template/,
      );
    },
  );

  it("a template sent alone names its nested application's local file as not sent", () => {
    const answer = check(COGNITO_APP, LIST, { region: "eu-west-1" });
    expect(answer.notEvaluated).toEqual([
      expect.stringMatching(
        /^AuthStack: nested application \.\/auth\.yaml \(Resources\.AuthStack\.Properties\.Location\): its file auth\.yaml is not in the input/,
      ),
    ]);
  });

  it("Fn::Transform inside Resources is a transform, not a resource without a Type", () => {
    const text =
      "Resources:\n  Fn::Transform:\n    Name: AWS::Include\n    Parameters:\n      Location: s3://b/x.yaml\n  Q:\n    Type: AWS::SQS::Queue\n";
    const answer = check(text, ["aws-sqs", "aws-cloudformation"], { region: "eu-west-1" });
    expect(itemsOf(answer)).toContain("AWS::SQS::Queue");
    expect(aws(answer).allowed).toBe(false);
  });
});

describe("read where the files are there", () => {
  it("a nested application's template read with its parameters: its Cognito pool needs aws-cognito", () => {
    const answer = check(files({ "template.yaml": COGNITO_APP, "auth.yaml": AUTH }, "template.yaml"), LIST, {
      region: "eu-west-1",
    });
    expect(answer.notEvaluated).toEqual([]);
    expect(itemsOf(answer)).toEqual(
      expect.arrayContaining([
        "AWS::Cognito::UserPool",
        "AWS::Cognito::UserPoolClient",
        "AWS::Cognito::UserPoolDomain",
      ]),
    );
    const pool = answer.services
      .flatMap((service) => service.items)
      .find((item) => item.item === "AWS::Cognito::UserPool");
    expect(pool!.from).toEqual(["AuthStack/UserPool"]);
    expect(answer.missingServiceIds).toContain("aws-cognito");
    expect(aws(answer).denied.map((denied) => denied.identifier)).toContain("cognito-idp:CreateUserPool");
    expect(aws(answer).allowed).toBe(false);
    // With the suggestion, everything read is allowed, and nothing is left unread.
    const suggested = check(
      files({ "template.yaml": COGNITO_APP, "auth.yaml": AUTH }, "template.yaml"),
      answer.suggestedServiceIds,
      {
        region: "eu-west-1",
      },
    );
    expect(aws(suggested).allowed).toBe(true);
  });

  it("a nested stack's parameter decides its resources: a false condition deploys nothing", () => {
    const parent =
      "Parameters:\n  WithQueue: {Type: String, Default: 'no'}\nResources:\n  Child:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: stacks/child.yaml\n      Parameters:\n        WithQueue: !Ref WithQueue\n";
    const child =
      "Parameters:\n  WithQueue: {Type: String}\nConditions:\n  Make: !Equals [!Ref WithQueue, 'yes']\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n    Condition: Make\n  T:\n    Type: AWS::SNS::Topic\n";
    const all = { "infra/main.yaml": parent, "infra/stacks/child.yaml": child };
    const without = check(files(all, "infra/main.yaml"), ["aws-sns", "aws-cloudformation"], { region: "eu-west-1" });
    expect(without.notDeployed).toEqual([expect.objectContaining({ from: "Child/Q", item: "AWS::SQS::Queue" })]);
    expect(aws(without).allowed).toBe(true);
    const withQueue = check(files(all, "infra/main.yaml"), ["aws-sns", "aws-cloudformation"], {
      region: "eu-west-1",
      inputs: { WithQueue: "yes" },
    });
    expect(withQueue.missingServiceIds).toEqual(["aws-sqs"]);
  });

  it("a nested stack goes to its parent's region, and a parent's condition keeps it from being made", () => {
    const parent =
      "Conditions:\n  Never: !Equals [a, b]\nResources:\n  Child:\n    Type: AWS::CloudFormation::Stack\n    Condition: Never\n    Properties:\n      TemplateURL: ./child.yaml\n  Other:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: ./child.yaml\n";
    const child = "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n";
    const answer = checkTemplate(
      catalogue,
      files({ "main.yaml": parent, "child.yaml": child }, "main.yaml"),
      ["aws-sqs", "aws-cloudformation"],
      undefined,
      ["EU"],
      { region: "eu-central-1" },
    );
    expect(answer.locations.find((place) => place.from === "Other/Q")).toMatchObject({
      location: "eu-central-1",
      allowed: true,
    });
    expect(answer.locations.some((place) => place.from === "Child/Q")).toBe(false);
  });

  it("an AWS::Include of a local snippet: in Resources, as a resource, and as a Transform of the template", () => {
    const snippet = "Queue:\n  Type: AWS::SQS::Queue\n";
    const topic = "Type: AWS::SNS::Topic\n";
    const sections = "Resources:\n  Table:\n    Type: AWS::DynamoDB::Table\n";
    const template = [
      "Transform:",
      "  - Name: AWS::Include",
      "    Parameters:",
      "      Location: snippets/sections.yaml",
      "Resources:",
      "  Fn::Transform:",
      "    Name: AWS::Include",
      "    Parameters:",
      "      Location: ./snippets/queue.yaml",
      "  Topic:",
      "    Fn::Transform:",
      "      Name: AWS::Include",
      "      Parameters:",
      "        Location: snippets/topic.yaml",
      "",
    ].join("\n");
    const answer = check(
      files(
        {
          "stack/template.yaml": template,
          "stack/snippets/queue.yaml": snippet,
          "stack/snippets/topic.yaml": topic,
          "stack/snippets/sections.yaml": sections,
        },
        "stack/template.yaml",
      ),
      ["aws-sqs", "aws-sns", "aws-dynamodb", "aws-cloudformation"],
      { region: "eu-west-1" },
    );
    expect(answer.notEvaluated).toEqual([]);
    expect(itemsOf(answer).sort()).toEqual(["AWS::DynamoDB::Table", "AWS::SNS::Topic", "AWS::SQS::Queue"]);
    expect(aws(answer).allowed).toBe(true);
  });

  it("a template that nests itself, or nests past the bound, is named as not read", () => {
    const loop =
      "Resources:\n  Again:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: ./a.yaml\n";
    const answer = check(files({ "a.yaml": loop }, "a.yaml"), ["aws-cloudformation"], { region: "eu-west-1" });
    expect(answer.notEvaluated).toEqual([expect.stringMatching(/^Again: nested stack \.\/a\.yaml .*nests itself/)]);
    const chain: Record<string, string> = {};
    for (let at = 0; at < 15; at++)
      chain[`s${at}.yaml`] =
        `Resources:\n  Q:\n    Type: AWS::SQS::Queue\n  N:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: ./s${at + 1}.yaml\n`;
    chain["s15.yaml"] = "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n";
    const deep = check(files(chain, "s0.yaml"), ["aws-sqs", "aws-cloudformation"], { region: "eu-west-1" });
    expect(deep.notEvaluated).toEqual([expect.stringMatching(/stacks nest more than 12 deep/)]);
    expect(aws(deep).allowed).toBe(false);
  });

  it("nested stacks that multiply past the instance bound are refused as too costly, before the work", () => {
    const fan = (next: string) =>
      `Resources:\n${Array.from({ length: 12 }, (_, at) => `  N${at}:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: ./${next}\n`).join("")}`;
    const all = { "a.yaml": fan("b.yaml"), "b.yaml": fan("c.yaml"), "c.yaml": fan("d.yaml"), "d.yaml": fan("e.yaml") };
    all["e.yaml" as "a.yaml"] = "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n";
    expect(() => readDeployment(files(all, "a.yaml"), { region: "eu-west-1" })).toThrow(TemplateBudgetError);
  });

  it("the same nested template named as ./x, x or a/../x is read alike (property)", () => {
    const child = "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n";
    fc.assert(
      fc.property(
        fc.constantFrom("./child.yaml", "child.yaml", "other/../child.yaml", "./other/./../child.yaml"),
        fc.array(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { maxLength: 3 }),
        (location, folders) => {
          const dir = folders.length > 0 ? `${folders.join("/")}/` : "";
          const parent = `Resources:\n  N:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: ${location}\n`;
          const deployment = readDeployment(
            files({ [`${dir}main.yaml`]: parent, [`${dir}child.yaml`]: child }, `${dir}main.yaml`),
            { region: "eu-west-1" },
          );
          expect(deployment.notRead).toEqual([]);
          expect(deployment.items.find((item) => item.item === "AWS::SQS::Queue")?.from).toEqual(["N/Q"]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a nested template outside the repository's top, or named by an absolute path, is never read", () => {
    for (const location of ["../outside.yaml", "/etc/stack.yaml"]) {
      const parent = `Resources:\n  N:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: ${location}\n`;
      const deployment = readDeployment(files({ "main.yaml": parent }, "main.yaml"), { region: "eu-west-1" });
      expect(deployment.notRead).toEqual([expect.stringMatching(/outside the repository's top/)]);
    }
  });
});

describe("what CloudFormation would refuse", () => {
  const STACK = [
    "Mappings:",
    "  RegionMap:",
    "    eu-west-1: {AMI: ami-1}",
    "    us-east-1: {AMI: ami-2}",
    "Resources:",
    "  Vm:",
    "    Type: AWS::EC2::Instance",
    "    Properties:",
    "      ImageId: !FindInMap [RegionMap, !Ref 'AWS::Region', AMI]",
    "",
  ].join("\n");

  it("a region-keyed Mapping without the stack's region is a deployment error, failing the gate", () => {
    const answer = check(STACK, ["aws-ec2", "aws-cloudformation"], { region: "eu-north-1" });
    expect(answer.deploymentErrors).toEqual([
      "Vm: Fn::FindInMap finds no RegionMap › eu-north-1 › AMI in Mappings, and CloudFormation fails the stack",
    ]);
    expect(checkOutcome(answer).findings.map((finding) => finding.rule)).toContain("deployment-error");
    expect(checkOutcome(answer).exitCode).toBe(1);
    expect(gate(answer)).toBe(1);
    expect(answer.statements.map((statement) => statement.text).join(" ")).toMatch(/CloudFormation would refuse this/);
  });

  it("with the region the Mapping holds, or without a region, there is none", () => {
    expect(check(STACK, ["aws-ec2", "aws-cloudformation"], { region: "eu-west-1" }).deploymentErrors).toEqual([]);
    expect(check(STACK, ["aws-ec2", "aws-cloudformation"]).deploymentErrors).toEqual([]);
  });

  it("a lookup under a condition not known, or with a DefaultValue, is no error", () => {
    const text = `${STACK.replace("      ImageId: !FindInMap [RegionMap, !Ref 'AWS::Region', AMI]", "      ImageId: !If [Big, !FindInMap [RegionMap, !Ref 'AWS::Region', AMI], ami-0]")}Parameters:\n  Size: {Type: String}\nConditions:\n  Big: !Equals [!Ref Size, big]\n`;
    expect(check(text, ["aws-ec2", "aws-cloudformation"], { region: "eu-north-1" }).deploymentErrors).toEqual([]);
  });

  it("a nested stack passed a parameter its template does not declare", () => {
    const parent =
      "Resources:\n  N:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: ./child.yaml\n      Parameters:\n        Stage: prod\n";
    const answer = check(
      files({ "main.yaml": parent, "child.yaml": "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n" }, "main.yaml"),
      ["aws-sqs", "aws-cloudformation"],
      { region: "eu-west-1" },
    );
    expect(answer.deploymentErrors).toEqual([
      "N: its template child.yaml does not declare the parameters it is passed (Stage), and CloudFormation refuses the stack",
    ]);
  });
});

describe("a repository, not a folder: Terraform", () => {
  const MODULE = 'variable "name" {}\nresource "aws_sqs_queue" "q" {\n  name = var.name\n}\n';

  it("a root module in envs/prod reads ../../modules/queue, anywhere under the repository's top", () => {
    const answer = check(
      files(
        {
          "envs/prod/main.tf":
            'provider "aws" {\n  region = "eu-west-1"\n}\nmodule "queue" {\n  source = "../../modules/queue"\n  name   = "orders"\n}\n',
          "modules/queue/main.tf": MODULE,
        },
        "envs/prod",
      ),
      ["aws-sqs"],
    );
    expect(answer.notEvaluated).toEqual([]);
    expect(aws(answer).allowed).toBe(true);
    expect(answer.locations).toEqual([
      expect.objectContaining({
        from: "module.queue.aws_sqs_queue.q",
        location: "eu-west-1",
        via: "the provider block aws (envs/prod/main.tf, line 1)",
      }),
    ]);
  });

  it("a terraform-aws-modules example's source = \"../../\" reads the module at the repository's top", () => {
    const answer = check(
      files(
        { "main.tf": MODULE, "examples/complete/main.tf": 'module "q" {\n  source = "../../"\n  name = "x"\n}\n' },
        "examples/complete",
      ),
      ["aws-sqs"],
    );
    expect(answer.notEvaluated).toEqual([]);
    expect(itemsOf(answer)).toEqual(["aws_sqs_queue"]);
  });

  it("a source leaving the repository's top is not read, and says so", () => {
    const answer = check(
      files({ "envs/prod/main.tf": 'module "x" {\n  source = "../../../shared"\n}\n' }, "envs/prod"),
      ["aws-sqs"],
    );
    expect(answer.notEvaluated).toEqual([
      'module.x: module "../../../shared" (envs/prod/main.tf, line 1): its source leaves the repository\'s top, and the check never reads outside it',
    ]);
    expect(checkOutcome(answer).allowed).toBe(false);
  });

  it("the root module's terraform.tfvars and terraform init's manifest are read from its own folder", () => {
    const answer = check(
      files(
        {
          "envs/prod/main.tf":
            'variable "region" {}\nprovider "aws" {\n  region = var.region\n}\nmodule "kms" {\n  source = "terraform-aws-modules/kms/aws"\n}\n',
          "envs/prod/terraform.tfvars": 'region = "eu-west-3"\n',
          "terraform.tfvars": 'region = "us-east-1"\n',
          "envs/prod/.terraform/modules/modules.json": JSON.stringify({
            Modules: [
              {
                Key: "kms",
                Source: "registry.terraform.io/terraform-aws-modules/kms/aws",
                Dir: ".terraform/modules/kms",
              },
            ],
          }),
          "envs/prod/.terraform/modules/kms/main.tf": 'resource "aws_kms_key" "this" {}\n',
        },
        "envs/prod",
      ),
      ["aws-kms"],
    );
    expect(answer.notEvaluated).toEqual([]);
    expect(answer.locations).toEqual([
      expect.objectContaining({ from: "module.kms.aws_kms_key.this", location: "eu-west-3" }),
    ]);
  });

  it("a module with count = 0 needs no file, and one for_each over nothing neither", () => {
    const answer = check(
      files({
        "main.tf":
          'module "off" {\n  source = "./modules/absent"\n  count  = 0\n}\nmodule "none" {\n  source   = "../outside"\n  for_each = {}\n}\nresource "aws_sqs_queue" "q" {}\n',
      }),
      ["aws-sqs"],
    );
    expect(answer.notEvaluated).toEqual([]);
    expect(aws(answer).allowed).toBe(true);
  });

  it("optional(type, default) fills an attribute the value leaves out, or sets null", () => {
    const module = [
      'variable "settings" {',
      "  type = object({",
      "    create_key = optional(bool, false)",
      '    name       = optional(string, "data")',
      "    tags       = optional(map(string))",
      "    rules      = optional(list(object({ enabled = optional(bool, true) })), [{}])",
      "  })",
      "}",
      'resource "aws_kms_key" "k" {\n  count = var.settings.create_key ? 1 : 0\n}',
      'resource "aws_s3_bucket" "b" {\n  bucket = var.settings.name\n  count  = var.settings.tags == null && var.settings.rules[0].enabled ? 1 : 0\n}',
      "",
    ].join("\n");
    const answer = check(
      files({ "main.tf": 'module "m" {\n  source   = "./m"\n  settings = {}\n}\n', "m/main.tf": module }),
      ["aws-s3"],
    );
    expect(answer.notDeployed.map((entry) => entry.from)).toEqual(["module.m.aws_kms_key.k"]);
    expect(itemsOf(answer)).toEqual(["aws_s3_bucket"]);
    const keyed = check(
      files({
        "main.tf": 'module "m" {\n  source   = "./m"\n  settings = { create_key = true }\n}\n',
        "m/main.tf": module,
      }),
      ["aws-s3"],
    );
    expect(keyed.missingServiceIds).toEqual(["aws-kms"]);
  });

  it("a root module and the same module moved under any folder of a repository get the same answer (property)", () => {
    const root = {
      "main.tf":
        'module "q" {\n  source = "./modules/q"\n  name = "x"\n}\nprovider "aws" {\n  region = "eu-west-1"\n}\n',
      "modules/q/main.tf": MODULE,
    };
    const strip = (answer: Answer) => ({
      services: answer.services,
      verdicts: answer.verdicts,
      locations: answer.locations.map(({ via: _via, ...rest }) => rest),
    });
    const alone = strip(check(files(root), ["aws-sqs"]));
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/), { minLength: 1, maxLength: 4 }), (folders) => {
        const dir = folders.join("/");
        const moved = Object.fromEntries(Object.entries(root).map(([path, text]) => [`${dir}/${path}`, text]));
        expect(strip(check(files(moved, dir), ["aws-sqs"]))).toEqual(alone);
      }),
      { numRuns: 25 },
    );
  });
});

describe("versions for every provider, said to be not known where the catalogue has no dates", () => {
  const versionsOf = (text: string, ids: string[]) =>
    checkTemplate(catalogue, files({ "main.tf": text }), ids, { asOf: "2026-11-29", withinDays: 180 }).versions.map(
      ({ type, value, serviceId, status, retiring }) => ({ type, value, serviceId, status, retiring }),
    );

  it.each([
    [
      'resource "ovh_cloud_project_kube" "k" {\n  service_name = "p"\n  name = "k"\n  region = "GRA7"\n  version = "1.31"\n}\n',
      { type: "ovh_cloud_project_kube", value: "1.31", serviceId: "ovhcloud-managed-kubernetes" },
    ],
    [
      'resource "scaleway_function" "f" {\n  namespace_id = "n"\n  runtime = "python311"\n  privacy = "private"\n  handler = "h"\n}\n',
      { type: "scaleway_function", value: "python311", serviceId: "scaleway-serverless-functions" },
    ],
    [
      'resource "scaleway_redis_cluster" "r" {\n  name = "r"\n  version = "7.0.5"\n  node_type = "RED1-MICRO"\n}\n',
      { type: "scaleway_redis_cluster", value: "7.0.5", serviceId: "scaleway-managed-database-redis" },
    ],
    [
      'resource "exoscale_dbaas" "pg" {\n  zone = "ch-gva-2"\n  name = "db"\n  type = "pg"\n  plan = "hobbyist-2"\n  pg {\n    version = "16"\n  }\n}\n',
      { type: "exoscale_dbaas", value: "16", serviceId: "exoscale-dbaas-postgresql" },
    ],
  ])("%s: a version entry, not known to the catalogue", (text, expected) => {
    expect(versionsOf(text, [expected.serviceId])).toEqual([{ ...expected, status: "unknown", retiring: false }]);
    const answer = checkTemplate(catalogue, files({ "main.tf": text }), [expected.serviceId]);
    expect(answer.statements.map((statement) => statement.text).join(" ")).toMatch(
      /1 version is not known to the catalogue, so nothing is said of its support/,
    );
  });

  it("Azure Functions' Python 3.9 ended on 2025-10-31; 3.11 is supported", () => {
    const app = (python: string) =>
      `resource "azurerm_linux_function_app" "f" {\n  name = "f"\n  location = "westeurope"\n  site_config {\n    application_stack {\n      python_version = "${python}"\n    }\n  }\n}\n`;
    const [old] = checkTemplate(catalogue, files({ "main.tf": app("3.9") }), ["azure-functions"], {
      asOf: "2026-11-29",
      withinDays: 180,
    }).versions;
    expect(old).toMatchObject({ value: "3.9", family: "python", status: "ended", ends: "2025-10-31", retiring: true });
    const [current] = checkTemplate(catalogue, files({ "main.tf": app("3.11") }), ["azure-functions"], {
      asOf: "2026-11-29",
      withinDays: 180,
    }).versions;
    expect(current).toMatchObject({ value: "3.11", status: "supported", ends: "2027-10-31", retiring: false });
  });
});
