/**
 * Issue 110: the check judges what a deployment deploys. Each case the issue names — a provider
 * block's region, a variable's default, a provider alias, a plan's provider_config, versions set by
 * parameters and variables, resources behind a false condition, subscription-scope ARM and
 * azurerm resource groups, local and installed modules, generic types, global resources — checked
 * through the API's check function, and a property: a deployment and the same deployment with its
 * inputs inlined get the same answer.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { TerraformFiles } from "../../catalogue/templates/read.ts";
import { checkOutcome } from "../../catalogue/templates/answer/findings.ts";
import { deploymentCheckDoc } from "../../catalogue/templates/answer/render.ts";
import { renderMarkdown } from "../../catalogue/format/markdown.ts";
import { realCatalogue } from "../helpers/app.ts";
import { terraformPlan } from "../helpers/terraform-plan.ts";

const catalogue = realCatalogue();
type Answer = ReturnType<typeof checkTemplate>;
const check = (
  template: unknown,
  ids: string[],
  allowedLocations?: string[],
  given: { inputs?: Record<string, unknown>; region?: string } = {},
): Answer => checkTemplate(catalogue, template, ids, undefined, allowedLocations, given);
const tf = (files: Record<string, string>) => new TerraformFiles(files);
const placeOf = (answer: Answer) =>
  answer.locations.map(({ from, location, allowed }) => ({ from, location, allowed }));

describe("EU-only means EU-only: where a resource goes is evaluated", () => {
  it("a provider block's region: us-east-1 is outside EU, and the gate fails", () => {
    const answer = check(
      tf({ "main.tf": 'provider "aws" {\n  region = "us-east-1"\n}\nresource "aws_s3_bucket" "b" {}\n' }),
      ["aws-s3"],
      ["EU"],
    );
    expect(answer.locations).toEqual([
      expect.objectContaining({
        from: "aws_s3_bucket.b",
        location: "us-east-1",
        allowed: false,
        via: "the provider block aws (main.tf, line 1)",
      }),
    ]);
    expect(checkOutcome(answer)).toMatchObject({ allowed: false, exitCode: 1 });
  });

  it("a variable's default, a tfvars file, and the request's value, in Terraform's order", () => {
    const files = {
      "main.tf":
        'variable "region" {\n  default = "us-east-1"\n}\nprovider "aws" {\n  region = var.region\n}\nresource "aws_sqs_queue" "q" {}\n',
    };
    expect(placeOf(check(tf(files), ["aws-sqs"], ["EU"]))[0]).toMatchObject({ location: "us-east-1", allowed: false });
    const tfvars = { ...files, "terraform.tfvars": 'region = "eu-west-1"\n' };
    expect(placeOf(check(tf(tfvars), ["aws-sqs"], ["EU"]))[0]).toMatchObject({ location: "eu-west-1", allowed: true });
    const auto = { ...tfvars, "z.auto.tfvars": 'region = "eu-north-1"\n' };
    expect(placeOf(check(tf(auto), ["aws-sqs"], ["EU"]))[0]).toMatchObject({ location: "eu-north-1" });
    const given = check(tf(auto), ["aws-sqs"], ["EU"], { inputs: { region: "ap-south-1" } });
    expect(placeOf(given)[0]).toMatchObject({ location: "ap-south-1", allowed: false });
    expect(given.inputs).toEqual([{ name: "var.region", source: "the request", value: '"ap-south-1"' }]);
  });

  it("a provider alias (provider = aws.us) and a module's providers map", () => {
    const answer = check(
      tf({
        "main.tf": [
          'provider "aws" {\n  region = "eu-central-1"\n}',
          'provider "aws" {\n  alias  = "us"\n  region = "us-west-2"\n}',
          'resource "aws_s3_bucket" "eu" {}',
          'resource "aws_s3_bucket" "us" {\n  provider = aws.us\n}',
          'module "logs" {\n  source    = "./modules/logs"\n  providers = { aws = aws.us }\n}',
        ].join("\n"),
        "modules/logs/main.tf": 'resource "aws_cloudwatch_log_group" "g" {\n  name = "x"\n}\n',
      }),
      ["aws-s3", "aws-cloudwatch-logs"],
      ["EU"],
    );
    expect(placeOf(answer)).toEqual([
      { from: "module.logs.aws_cloudwatch_log_group.g", location: "us-west-2", allowed: false },
      { from: "aws_s3_bucket.eu", location: "eu-central-1", allowed: true },
      { from: "aws_s3_bucket.us", location: "us-west-2", allowed: false },
    ]);
  });

  it("a plan whose region sits only in provider_config, constant or from a variable", () => {
    const plan = (expression: object) =>
      JSON.stringify({
        ...terraformPlan([["aws_s3_bucket", "b", { bucket: "x" }]]),
        variables: { region: { value: "us-east-2" } },
        configuration: {
          provider_config: { aws: { name: "aws", expressions: { region: expression } } },
          root_module: {
            resources: [{ address: "aws_s3_bucket.b", type: "aws_s3_bucket", provider_config_key: "aws" }],
          },
        },
      });
    expect(placeOf(check(plan({ constant_value: "us-east-1" }), ["aws-s3"], ["EU"]))).toEqual([
      { from: "aws_s3_bucket.b", location: "us-east-1", allowed: false },
    ]);
    expect(placeOf(check(plan({ references: ["var.region"] }), ["aws-s3"], ["EU"]))[0]).toMatchObject({
      location: "us-east-2",
      allowed: false,
    });
  });

  it("a Google multi-region or dual-region: allowed only when every region it covers is", () => {
    const bucket = (location: string) =>
      check(
        tf({ "main.tf": `resource "google_storage_bucket" "b" {\n  name = "b"\n  location = "${location}"\n}\n` }),
        ["gcp-cloud-storage"],
        ["EU"],
      );
    expect(bucket("US").locations[0]).toMatchObject({
      location: "US",
      allowed: false,
      multiRegion: expect.arrayContaining(["us-central1"]),
    });
    expect(checkOutcome(bucket("US")).findings[0]).toMatchObject({ rule: "location-denied" });
    expect(bucket("EU").locations[0]).toMatchObject({ location: "EU", allowed: true });
    expect(bucket("EUR4").locations[0]).toMatchObject({
      location: "EUR4",
      allowed: true,
      multiRegion: ["europe-north1", "europe-west4"],
    });
    expect(bucket("europe-west3").locations[0]).toMatchObject({ region: "europe-west3", allowed: true });
  });

  it("no region anywhere: unknown with why, a warning, and a failure under --strict", () => {
    const answer = check(tf({ "main.tf": 'resource "aws_s3_bucket" "b" {}\n' }), ["aws-s3"], ["EU"]);
    expect(answer.locations).toEqual([]);
    expect(answer.unknownLocations).toEqual([
      expect.objectContaining({ from: "aws_s3_bucket.b", why: expect.stringContaining("region is not set") }),
    ]);
    expect(checkOutcome(answer)).toMatchObject({ allowed: true, exitCode: 0 });
    expect(checkOutcome(answer, { strict: true }).exitCode).toBe(1);
    // The request's region stands for the environment's.
    const given = check(tf({ "main.tf": 'resource "aws_s3_bucket" "b" {}\n' }), ["aws-s3"], ["EU"], {
      region: "eu-west-3",
    });
    expect(given.locations[0]).toMatchObject({ location: "eu-west-3", allowed: true, via: "the request's region" });
  });

  it("a CloudFormation stack goes to the request's region; an ARM resource group's location likewise", () => {
    const stack = { Resources: { Q: { Type: "AWS::SQS::Queue" } } };
    expect(placeOf(check(stack, ["aws-sqs"], ["EU"], { region: "us-east-1" }))).toEqual([
      { from: "Q", location: "us-east-1", allowed: false },
    ]);
    const arm = {
      $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
      contentVersion: "1.0.0.0",
      parameters: { location: { type: "string", defaultValue: "[resourceGroup().location]" } },
      resources: [
        {
          type: "Microsoft.Storage/storageAccounts",
          apiVersion: "2023-01-01",
          name: "s",
          location: "[parameters('location')]",
        },
      ],
    };
    expect(check(arm, ["azure-blob-storage"], ["EU"]).unknownLocations[0]!.why).toContain("resourceGroup().location");
    expect(placeOf(check(arm, ["azure-blob-storage"], ["EU"], { region: "eastus" }))).toEqual([
      { from: "s", location: "eastus", allowed: false },
    ]);
    expect(
      placeOf(check(arm, ["azure-blob-storage"], ["EU"], { inputs: { location: "francecentral" } }))[0],
    ).toMatchObject({
      allowed: true,
    });
  });

  it("global resources are answered as global, exempt and said so, never as the stack's region", () => {
    const answer = check(
      { Resources: { Cdn: { Type: "AWS::CloudFront::Distribution" }, Role: { Type: "AWS::IAM::Role" } } },
      ["aws-cloudfront", "aws-iam"],
      ["EU"],
      { region: "eu-central-1" },
    );
    expect(
      answer.locations.map(({ from, location, allowed, global }) => [from, location, allowed, Boolean(global)]),
    ).toEqual([
      ["Cdn", "global", true, true],
      ["Role", "global", true, true],
    ]);
    const said = answer.statements.find((statement) => statement.kind === "locations")!.text;
    expect(said).toContain("2 resources are global");
    expect(said).toContain("data may leave the allowed locations");
    expect(said).not.toContain("the region of the stack");
    const frontDoor = check(tf({ "main.tf": 'resource "azurerm_cdn_frontdoor_profile" "fd" {\n  name = "x"\n}\n' }), [
      "azure-front-door",
    ]);
    expect(frontDoor.locations[0]).toMatchObject({ location: "global", global: expect.stringContaining("Front Door") });
    const lb = check(
      tf({ "main.tf": 'resource "google_compute_global_forwarding_rule" "f" {\n  name = "x"\n}\n' }),
      [],
    );
    expect(lb.locations[0]).toMatchObject({ location: "global" });
  });
});

describe("versions set through inputs are read", () => {
  it("a CloudFormation parameter's default: Lambda python3.8 and EKS 1.27", () => {
    const answer = check(
      {
        Parameters: { Runtime: { Type: "String", Default: "python3.8" }, Version: { Type: "String", Default: "1.27" } },
        Resources: {
          Fn: { Type: "AWS::Lambda::Function", Properties: { Runtime: { Ref: "Runtime" } } },
          Eks: { Type: "AWS::EKS::Cluster", Properties: { Version: { "Fn::Sub": "${Version}" } } },
        },
      },
      ["aws-lambda", "aws-eks"],
    );
    expect(answer.versions.map(({ from, value, retiring }) => [from, value, retiring])).toEqual([
      ["Fn", "python3.8", true],
      ["Eks", "1.27", true],
    ]);
  });

  it("an ARM defaultValue (AKS 1.26) and a Terraform variable's default or local", () => {
    const arm = {
      $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
      contentVersion: "1.0.0.0",
      parameters: { k8s: { type: "string", defaultValue: "1.26" } },
      resources: [
        {
          type: "Microsoft.ContainerService/managedClusters",
          apiVersion: "2024-01-01",
          name: "aks",
          location: "westeurope",
          properties: { kubernetesVersion: "[parameters('k8s')]" },
        },
      ],
    };
    expect(check(arm, ["azure-kubernetes-service"]).versions[0]).toMatchObject({ value: "1.26", retiring: true });
    const terraform = tf({
      "main.tf": [
        'variable "runtime" {\n  default = "nodejs16.x"\n}',
        'locals {\n  pg = "11"\n}',
        'resource "aws_lambda_function" "f" {\n  function_name = "f"\n  runtime = var.runtime\n}',
        'resource "aws_db_instance" "db" {\n  engine = "postgres"\n  engine_version = local.pg\n}',
      ].join("\n"),
    });
    expect(check(terraform, ["aws-lambda", "aws-rds-postgresql"]).versions.map(({ value }) => value)).toEqual([
      "nodejs16.x",
      "11",
    ]);
  });
});

describe("a version set through an input without a value is said, not passed over", () => {
  it.each([
    [
      "Terraform",
      tf({
        "main.tf":
          'variable "runtime" {}\nresource "aws_lambda_function" "f" {\n  function_name = "f"\n  runtime = var.runtime\n}\n',
      }),
      "aws_lambda_function.f (runtime: var.runtime)",
    ],
    [
      "CloudFormation",
      {
        Parameters: { Runtime: { Type: "String" } },
        Resources: { Fn: { Type: "AWS::Lambda::Function", Properties: { Runtime: { Ref: "Runtime" } } } },
      },
      "Fn (Runtime: parameter Runtime)",
    ],
  ])("%s: named with its input, and checked once the input is given", (_, template, named) => {
    const open = check(template, ["aws-lambda"]);
    expect(open.versions).toEqual([]);
    const said = open.statements.filter((statement) => statement.kind === "versions").map((s) => s.text);
    expect(said).toEqual([expect.stringContaining(`support is not checked: ${named}`)]);
    const given = check(template, ["aws-lambda"], undefined, {
      inputs: { [named.includes("var.") ? "runtime" : "Runtime"]: "python3.8" },
    });
    expect(given.versions.map(({ value, retiring }) => [value, retiring])).toEqual([["python3.8", true]]);
    expect(given.statements.map((statement) => statement.text).join(" ")).not.toContain("support is not checked");
  });
});

describe("resources that are never deployed are not judged", () => {
  it("an ARM condition false, literally or by a parameter's default; true when the input says so", () => {
    const arm = (condition: unknown) => ({
      $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
      contentVersion: "1.0.0.0",
      parameters: { deployRedis: { type: "bool", defaultValue: false } },
      resources: [
        { type: "Microsoft.Cache/redis", apiVersion: "2023-08-01", name: "cache", location: "westeurope", condition },
        { type: "Microsoft.Storage/storageAccounts", apiVersion: "2023-01-01", name: "s", location: "westeurope" },
      ],
    });
    for (const condition of [false, "[parameters('deployRedis')]", "[equals(parameters('deployRedis'), true())]"]) {
      const answer = check(arm(condition), ["azure-blob-storage"]);
      expect(answer.notDeployed, String(condition)).toEqual([
        { item: "Microsoft.Cache/redis", from: "cache", because: "its condition is false" },
      ]);
      expect(answer.verdicts[0]!.allowed).toBe(true);
      expect(answer.missingServiceIds).toEqual([]);
    }
    // Given true, it is deployed and denied.
    const deployed = check(arm("[parameters('deployRedis')]"), ["azure-blob-storage"], undefined, {
      inputs: { deployRedis: true },
    });
    expect(deployed.verdicts[0]!.allowed).toBe(false);
    expect(deployed.missingServiceIds).toContain("azure-cache-for-redis");
  });

  it("a CloudFormation Condition false by default; one depending on a parameter without a value is counted and said", () => {
    const template = (envDefault?: string) => ({
      Parameters: { Env: { Type: "String", ...(envDefault ? { Default: envDefault } : {}) } },
      Conditions: { IsProd: { "Fn::Equals": [{ Ref: "Env" }, "prod"] } },
      Resources: {
        Q: { Type: "AWS::SQS::Queue", Condition: "IsProd" },
        B: { Type: "AWS::S3::Bucket" },
      },
    });
    const off = check(template("dev"), ["aws-s3", "aws-cloudformation"]);
    expect(off.notDeployed).toEqual([{ item: "AWS::SQS::Queue", from: "Q", because: "its Condition IsProd is false" }]);
    expect(off.verdicts.every((verdict) => verdict.allowed)).toBe(true);
    const open = check(template(), ["aws-s3", "aws-cloudformation"]);
    expect(open.dependsOnInputs).toEqual([
      expect.objectContaining({ item: "AWS::SQS::Queue", from: "Q", on: ["parameter Env"] }),
    ]);
    expect(open.missingServiceIds).toContain("aws-sqs");
    expect(open.statements.find((statement) => statement.kind === "inputs")!.text).toContain(
      "without a value (parameter Env",
    );
  });
});

describe("resource groups and modules", () => {
  it("a subscription-scope ARM deployment's resource group is never denied, nor azurerm_resource_group", () => {
    const arm = {
      $schema: "https://schema.management.azure.com/schemas/2018-05-01/subscriptionDeploymentTemplate.json#",
      contentVersion: "1.0.0.0",
      resources: [
        { type: "Microsoft.Resources/resourceGroups", apiVersion: "2022-09-01", name: "rg", location: "westeurope" },
      ],
    };
    const answer = check(arm, ["azure-blob-storage"]);
    expect(answer.verdicts[0]).toMatchObject({ allowed: true, denied: [] });
    expect(answer.verdicts[0]!.notGoverned.map((entry) => entry.identifier)).toEqual([
      "Microsoft.Resources/resourceGroups",
    ]);
    const terraform = check(
      tf({
        "main.tf":
          'resource "azurerm_resource_group" "rg" {\n  name = "rg"\n  location = "westeurope"\n}\nresource "azurerm_storage_account" "s" {\n  name = "s"\n  location = azurerm_resource_group.rg.location\n}\n',
      }),
      ["azure-blob-storage"],
      ["EU"],
    );
    expect(terraform.missingServiceIds).toEqual([]);
    expect(checkOutcome(terraform)).toMatchObject({ allowed: true, exitCode: 0 });
    // The storage account's location is its resource group's, read through the reference.
    expect(placeOf(terraform)).toContainEqual({
      from: "azurerm_storage_account.s",
      location: "westeurope",
      allowed: true,
    });
  });

  it("a local module is read with its inputs; a registry module from .terraform/modules; one not sent is named", () => {
    const files = {
      "main.tf": [
        'module "queue" {\n  source = "./modules/queue"\n  name   = "orders"\n  region = "eu-west-1"\n}',
        'module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "5.8.1"\n}',
      ].join("\n"),
      "modules/queue/main.tf":
        'variable "name" {}\nvariable "region" {}\nprovider "aws" {\n  region = var.region\n}\nresource "aws_sqs_queue" "q" {\n  name = var.name\n}\n',
    };
    const partial = check(tf(files), ["aws-sqs", "aws-vpc"], ["EU"]);
    expect(placeOf(partial)).toEqual([{ from: "module.queue.aws_sqs_queue.q", location: "eu-west-1", allowed: true }]);
    expect(partial.notEvaluated).toEqual([
      expect.stringContaining('module.vpc: module "terraform-aws-modules/vpc/aws"'),
    ]);
    expect(partial.verdicts[0]!.allowed).toBe(false);
    // The page says why: a part not read, not a denial.
    const page = renderMarkdown(deploymentCheckDoc(partial));
    expect(page).toContain("Not allowed**: part of the deployment was not read");
    expect(page).not.toMatch(/documents? den(y|ies) it/);
    const installed = check(
      tf({
        ...files,
        ".terraform/modules/modules.json": JSON.stringify({
          Modules: [
            { Key: "", Source: "", Dir: "." },
            {
              Key: "vpc",
              Source: "registry.terraform.io/terraform-aws-modules/vpc/aws",
              Dir: ".terraform/modules/vpc",
            },
          ],
        }),
        ".terraform/modules/vpc/main.tf": 'resource "aws_vpc" "this" {\n  cidr_block = "10.0.0.0/16"\n}\n',
      }),
      ["aws-sqs", "aws-vpc"],
    );
    expect(installed.notEvaluated).toEqual([]);
    expect(installed.services.map((service) => service.id)).toContain("aws-vpc");
    expect(installed.verdicts.every((verdict) => verdict.allowed)).toBe(true);
  });
});

describe("generic types are placed by their attributes", () => {
  it("ovh_cloud_project_database by its engine, ionoscloud_datacenter as Compute Engine, azurerm_app_service(_plan) as App Service", () => {
    const ovh = check(
      tf({
        "main.tf":
          'resource "ovh_cloud_project_database" "db" {\n  engine = "postgresql"\n  nodes {\n    region = "GRA"\n  }\n}\n',
      }),
      ["ovhcloud-managed-mysql"],
    );
    expect(ovh.missingServiceIds).toEqual(["ovhcloud-managed-postgresql"]);
    expect(checkOutcome(ovh).allowed).toBe(false);
    const ionos = check(tf({ "main.tf": 'resource "ionoscloud_datacenter" "dc" {\n  location = "de/fra"\n}\n' }), [
      "ionos-object-storage",
    ]);
    expect(ionos.missingServiceIds).toEqual(["ionos-compute-engine"]);
    const azure = check(
      tf({
        "main.tf":
          'resource "azurerm_app_service_plan" "p" {\n  location = "westeurope"\n}\nresource "azurerm_app_service" "a" {\n  location = "westeurope"\n}\n',
      }),
      ["azure-blob-storage"],
    );
    expect(azure.unplaced).toEqual([]);
    expect(azure.missingServiceIds).toEqual(["azure-app-service"]);
    expect(azure.verdicts[0]!.denied.map((denied) => denied.identifier)).toEqual([
      "Microsoft.Web/serverfarms",
      "Microsoft.Web/sites",
    ]);
  });

  it("RDS instances of two engines are two services", () => {
    const answer = check(
      tf({
        "main.tf":
          'resource "aws_db_instance" "pg" {\n  engine = "postgres"\n}\nresource "aws_db_instance" "my" {\n  engine = "mysql"\n}\n',
      }),
      ["aws-rds-postgresql"],
    );
    expect(answer.services.map((service) => service.id)).toEqual(["aws-rds-mysql", "aws-rds-postgresql"]);
  });
});

/** What a check answers, without the words that name where a value came from. */
const judged = (answer: Answer) => ({
  services: answer.services.map(({ id, status }) => [id, status ?? "approved"]),
  verdicts: answer.verdicts.map(({ providerId, allowed, denied }) => [
    providerId,
    allowed,
    denied.map((d) => d.identifier),
  ]),
  locations: answer.locations.map(({ from, location, allowed }) => [from, location, allowed]),
  versions: answer.versions.map(({ from, value, status }) => [from, value, status]),
  notDeployed: answer.notDeployed.map(({ from }) => from),
  dependsOnInputs: answer.dependsOnInputs.map(({ from }) => from),
  unknownLocations: answer.unknownLocations.map(({ from }) => from),
});

describe("inputs decide as their values written in would", () => {
  const region = fc.constantFrom("eu-west-1", "us-east-1", "eu-central-1", "ap-south-1");
  const runtime = fc.constantFrom("python3.8", "python3.13", "nodejs16.x", "nodejs22.x");
  const count = fc.integer({ min: 0, max: 3 });
  const flag = fc.boolean();

  it("Terraform: variables given as inputs, or inlined", () => {
    fc.assert(
      fc.property(region, runtime, count, flag, (r, rt, n, on) => {
        const body = (v: (name: string) => string) =>
          [
            `provider "aws" {\n  region = ${v("region")}\n}`,
            `resource "aws_sqs_queue" "q" {\n  count = ${v("n")}\n}`,
            `resource "aws_lambda_function" "f" {\n  function_name = "f"\n  runtime = ${v("runtime")}\n}`,
            `resource "aws_sns_topic" "t" {\n  count = ${v("on")} ? 1 : 0\n}`,
          ].join("\n");
        const variables = ["region", "runtime", "n", "on"].map((name) => `variable "${name}" {}`).join("\n");
        const values: Record<string, unknown> = { region: r, runtime: rt, n, on };
        const withInputs = check(
          tf({ "main.tf": `${variables}\n${body((name) => `var.${name}`)}` }),
          ["aws-sqs"],
          ["EU"],
          {
            inputs: values,
          },
        );
        const inlined = check(tf({ "main.tf": body((name) => JSON.stringify(values[name])) }), ["aws-sqs"], ["EU"]);
        expect(judged(withInputs)).toEqual(judged(inlined));
      }),
      { numRuns: 25 },
    );
  });

  it("CloudFormation and ARM: parameters given as inputs, or inlined", () => {
    fc.assert(
      fc.property(region, runtime, flag, (r, rt, on) => {
        const cfn = (runtimeValue: unknown, condition: unknown) => ({
          Parameters: { Runtime: { Type: "String" }, On: { Type: "String" } },
          Conditions: { Make: condition },
          Resources: {
            F: { Type: "AWS::Lambda::Function", Properties: { Runtime: runtimeValue } },
            Q: { Type: "AWS::SQS::Queue", Condition: "Make" },
          },
        });
        const given = check(cfn({ Ref: "Runtime" }, { "Fn::Equals": [{ Ref: "On" }, "yes"] }), ["aws-lambda"], ["EU"], {
          inputs: { Runtime: rt, On: on ? "yes" : "no" },
          region: r,
        });
        const inlined = check(cfn(rt, { "Fn::Equals": [on ? "yes" : "no", "yes"] }), ["aws-lambda"], ["EU"], {
          region: r,
        });
        expect(judged(given)).toEqual(judged(inlined));
        const arm = (location: unknown, condition: unknown) => ({
          $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
          contentVersion: "1.0.0.0",
          parameters: { where: { type: "string" }, on: { type: "bool" } },
          resources: [
            { type: "Microsoft.Cache/redis", apiVersion: "2023-08-01", name: "r", location, condition },
            { type: "Microsoft.Storage/storageAccounts", apiVersion: "2023-01-01", name: "s", location },
          ],
        });
        const azureRegion = r.startsWith("eu-") ? "westeurope" : "eastus";
        const armGiven = check(arm("[parameters('where')]", "[parameters('on')]"), ["azure-blob-storage"], ["EU"], {
          inputs: { where: azureRegion, on },
        });
        expect(judged(armGiven)).toEqual(judged(check(arm(azureRegion, on), ["azure-blob-storage"], ["EU"])));
      }),
      { numRuns: 25 },
    );
  });
});
