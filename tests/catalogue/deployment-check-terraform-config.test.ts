/**
 * Terraform configuration in the deployment check (issue 96): a module's .tf files (files) or one
 * .tf text (template) read as a plan's types by their addresses, through the API (the sidecar's
 * reading thread) and the reader; what cannot be read without evaluating (a module, a count or
 * for_each that is not a literal) in notEvaluated with the verdicts it concerns not allowed; HCL that
 * does not parse a 400 naming the file and line. The folders are tests/fixtures/deployments/terraform/example-*.
 */
import { readdirSync, readFileSync } from "node:fs";
import { parse } from "@cdktf/hcl2json";
import { describe, expect, it } from "vitest";
import { TEMPLATE_MAX_DEPTH, TEMPLATE_VALUES_MAX } from "../../catalogue/base/limits.ts";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { TemplateBudgetError, TemplateDepthError, TemplateError } from "../../catalogue/templates/model/errors.ts";
import { readHcl } from "../../catalogue/templates/readers/hcl.ts";
import { readDeployment, TerraformFiles } from "../../catalogue/templates/read.ts";
import { looksLikeTerraform } from "../../catalogue/templates/evaluate/terraform-config.ts";
import { build, realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
const FOLDERS = new URL("../fixtures/deployments/terraform/", import.meta.url);

/** A fixture folder's .tf files, name to text. */
export const tfFolder = (name: string): Record<string, string> => {
  const folder = new URL(`${name}/`, FOLDERS);
  return Object.fromEntries(
    readdirSync(folder)
      .filter((file) => file.endsWith(".tf"))
      .map((file) => [file, readFileSync(new URL(file, folder), "utf8")]),
  );
};

type Answer = ReturnType<typeof checkTemplate>;
const serviceItems = (answer: Answer) =>
  answer.services.map((service) => [service.id, service.items.flatMap((item) => item.from)]);
const verdictsOf = (answer: Answer) =>
  answer.verdicts.map((verdict) => ({
    providerId: verdict.providerId,
    allowed: verdict.allowed,
    denied: verdict.denied.length,
    notEvaluated: verdict.notEvaluated ?? [],
  }));

const post = async (payload: object) => {
  const app = await build();
  return app.inject({ method: "POST", url: "/v1/deployments/check", payload });
};

describe("a .tf folder per cloud, through POST /v1/deployments/check (files)", () => {
  it("AWS: resources and data sources by address, a count of 0 no instance, a literal set read once; allowed once the suggested services are approved", async () => {
    const app = await build();
    const check = async (approvedServiceIds: string[]) => {
      const response = await app.inject({
        method: "POST",
        url: "/v1/deployments/check",
        payload: { files: tfFolder("example-aws"), approvedServiceIds },
      });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      return response.json<Answer>();
    };
    const answer = await check(["aws-s3"]);
    expect(answer.format).toBe("terraform-config");
    expect(serviceItems(answer)).toEqual([
      ["aws-cloudwatch-logs", ['aws_cloudwatch_log_group.logs["api"]', 'aws_cloudwatch_log_group.logs["worker"]']],
      ["aws-iam", ["aws_iam_role.worker"]],
      ["aws-lambda", ["aws_lambda_event_source_mapping.orders", "aws_lambda_function.worker"]],
      ["aws-s3", ["aws_s3_bucket.orders"]],
      ["aws-sqs", ["aws_sqs_queue.orders"]],
    ]);
    // count = 0: the DynamoDB table has no instance; it is named as not deployed, in no verdict.
    expect(answer.notDeployed).toEqual([
      { item: "aws_dynamodb_table", from: "aws_dynamodb_table.unused", because: "count is 0" },
    ]);
    expect(JSON.stringify(answer.verdicts)).not.toContain("dynamodb");
    // A data source no inventory maps is unplaced, saying it is one.
    expect(answer.unplaced).toMatchObject([
      { item: "aws_caller_identity", from: ["data.aws_caller_identity.current"], reason: /^A data source/ },
    ]);
    expect(answer.notEvaluated).toEqual([]);
    expect(verdictsOf(answer)).toEqual([
      { providerId: "aws", allowed: false, denied: 3, notEvaluated: [] },
      { providerId: "aws", allowed: true, denied: 0, notEvaluated: [] },
    ]);
    // The AWS document of any list already allows iam:*: aws-iam is used and allowed, not missing.
    expect(answer.services.find((service) => service.id === "aws-iam")).toMatchObject({ status: "allowed" });
    expect(answer.suggestedServiceIds).toEqual(["aws-cloudwatch-logs", "aws-lambda", "aws-s3", "aws-sqs"]);
    const approved = await check([...answer.suggestedServiceIds]);
    expect(verdictsOf(approved)).toEqual([{ providerId: "aws", allowed: true, denied: 0, notEvaluated: [] }]);
  });

  it("Azure: azurerm types by the ARM types they import, the data source not read (Azure Policy evaluates no read), a dynamic block nothing", async () => {
    const response = await post({ files: tfFolder("example-azure"), approvedServiceIds: ["azure-key-vault"] });
    expect(response.statusCode).toBe(200);
    const answer = response.json<Answer>();
    expect(serviceItems(answer)).toEqual([
      ["azure-app-service", ["azurerm_linux_web_app.app", "azurerm_service_plan.app"]],
      ["azure-blob-storage", ["azurerm_storage_account.app"]],
      ["azure-key-vault", ["azurerm_key_vault.app"]],
      ["azure-resource-manager", ["azurerm_resource_group.app"]],
    ]);
    expect(JSON.stringify(answer)).not.toContain("azurerm_client_config");
    expect(answer.notEvaluated).toEqual([]);
    const [first, suggested] = answer.verdicts;
    expect(first).toMatchObject({ providerId: "azure", allowed: false });
    expect(first!.denied.map((denied) => denied.identifier)).toContain("Microsoft.Web/sites");
    expect(suggested).toMatchObject({ providerId: "azure", allowed: true, denied: [] });
  });

  it("Google: google_* types by the APIs they call", async () => {
    const answer = checkTemplate(catalogue, new TerraformFiles(tfFolder("example-google")), ["gcp-cloud-storage"]);
    expect(serviceItems(answer)).toEqual([
      ["gcp-cloud-run", ["google_cloud_run_v2_service.api"]],
      ["gcp-cloud-storage", ["google_storage_bucket.uploads"]],
      ["gcp-pubsub", ["google_pubsub_topic.orders"]],
      ["gcp-resource-manager", ["google_service_account.api"]],
    ]);
    const [first, suggested] = answer.verdicts;
    expect(first!.denied.map((denied) => denied.identifier)).toEqual(
      expect.arrayContaining(["run.googleapis.com", "pubsub.googleapis.com"]),
    );
    expect(first!.denied.map((denied) => denied.identifier)).not.toContain("storage.googleapis.com");
    expect(suggested).toMatchObject({ providerId: "gcp", allowed: true });
  });

  it("tells a .tf text from JSON and YAML by its first block", () => {
    expect(looksLikeTerraform("# infra\n/* a\n   note */\n\nterraform {\n}\n")).toBe(true);
    expect(looksLikeTerraform('// x\nresource "aws_s3_bucket" "b" {}\n')).toBe(true);
    expect(looksLikeTerraform("locals {\n  a = 1\n}\n")).toBe(true);
    for (const text of [
      "resource: x\n",
      "Resources:\n  B:\n    Type: AWS::S3::Bucket\n",
      '{"resource": {}}',
      "run.googleapis.com\n",
      'resources "a" "b" {\n}\n',
      "# only a comment\n",
    ])
      expect(looksLikeTerraform(text), text).toBe(false);
    expect(readDeployment("Resources:\n  B:\n    Type: AWS::S3::Bucket\n").format).toBe("cloudformation");
    // A text starting with a comma was a TypeError (a 500) before it was any format's.
    expect(() => readDeployment(",2x${<5~oV")).toThrow(TemplateError);
  });

  it("one .tf text as template is read the same as the folder's single file", () => {
    const [text] = Object.values(tfFolder("example-google"));
    const answer = checkTemplate(catalogue, text, []);
    expect(answer.format).toBe("terraform-config");
    expect(answer.items).toBe(4);
  });
});

describe("what a .tf folder holds that the check cannot read", () => {
  it("modules whose files are not sent: notEvaluated with file and line, the AWS verdict not allowed even with every suggested service", async () => {
    const response = await post({ files: tfFolder("example-module"), approvedServiceIds: ["aws-s3"] });
    expect(response.statusCode).toBe(200);
    const answer = response.json<Answer>();
    const unread = [
      'module.vpc: module "terraform-aws-modules/vpc/aws" (main.tf, line 2): its files are not in the input (a registry module after terraform init: .terraform/modules)',
      'module.queue: module "./modules/queue" (main.tf, line 8): its files are not in the input (modules/queue)',
    ];
    expect(answer.notEvaluated).toEqual(unread);
    // A count or for_each on a variable that is not declared is not known: counted as deployed, and said.
    expect(answer.dependsOnInputs.map((entry) => entry.from)).toEqual([
      "aws_s3_bucket.logs[?]",
      "aws_sqs_queue.work[?]",
    ]);
    expect(serviceItems(answer).map(([id]) => id)).toEqual(["aws-s3", "aws-sns", "aws-sqs"]);
    expect(verdictsOf(answer)).toEqual([
      { providerId: "aws", allowed: false, denied: 2, notEvaluated: unread },
      { providerId: "aws", allowed: false, denied: 0, notEvaluated: unread },
    ]);
    const statement = answer.statements.find((entry) => entry.kind === "not-evaluated")!;
    expect(statement.text).toMatch(/^2 modules were not read/);
  });

  it("a module not read concerns its registry provider's verdict, else every vendor the files use, else all three", () => {
    const vendors = (text: string) =>
      [...new Set(checkTemplate(catalogue, text, []).verdicts.map((verdict) => verdict.providerId))].sort();
    expect(vendors('module "db" {\n  source = "Azure/avm-res-sql-server/azurerm"\n}\n')).toEqual(["azure"]);
    expect(vendors('module "net" {\n  source = "./net"\n}\nprovider "google" {}\n')).toEqual(["gcp"]);
    expect(vendors('module "net" {\n  source = "git::https://example.com/net.git"\n}\n')).toEqual([
      "aws",
      "azure",
      "gcp",
    ]);
  });

  it("count and for_each: known values decide; one that depends on an input without a value is counted, and said", () => {
    const read = (meta: string, inputs?: Record<string, unknown>) =>
      readDeployment(
        new TerraformFiles({
          "main.tf": `variable "n" {}\nvariable "m" {}\nresource "aws_sqs_queue" "q" {\n  ${meta}\n}\n`,
        }),
        inputs ? { inputs } : {},
      );
    const none = { items: [], notRead: [] };
    expect(read("count = 0")).toMatchObject(none);
    expect(read("for_each = {}")).toMatchObject(none);
    expect(read("for_each = toset([])")).toMatchObject(none);
    expect(read("count = var.n", { n: 0 })).toMatchObject(none);
    expect(read("count = 3").items).toEqual([
      {
        kind: "terraform-type",
        item: "aws_sqs_queue",
        from: ["aws_sqs_queue.q[0]", "aws_sqs_queue.q[1]", "aws_sqs_queue.q[2]"],
      },
    ]);
    expect(read('for_each = { a = "x", "b" = { c = 1 } }').items[0]!.from).toEqual([
      'aws_sqs_queue.q["a"]',
      'aws_sqs_queue.q["b"]',
    ]);
    expect(read("for_each = var.m", { m: ["x"] }).items[0]!.from).toEqual(['aws_sqs_queue.q["x"]']);
    for (const meta of [
      "count = var.n",
      "count = length(var.m)",
      'for_each = toset(["${var.n}"])',
      "for_each = var.m",
    ]) {
      const deployment = read(meta);
      expect(deployment.notRead, meta).toEqual([]);
      expect(deployment.dependsOnInputs, meta).toEqual([expect.objectContaining({ item: "aws_sqs_queue" })]);
    }
  });

  it("an azapi resource is its literal type's ARM type; with a type that is not a literal, the azapi type", () => {
    const read = (type: string) =>
      readDeployment(`resource "azapi_resource" "x" {\n  type = ${type}\n  name = "x"\n}\n`).items;
    expect(read('"Microsoft.App/containerApps@2024-03-01"')).toEqual([
      { kind: "azure-type", item: "Microsoft.App/containerApps", from: ["azapi_resource.x"] },
    ]);
    expect(read("var.type")).toEqual([{ kind: "terraform-type", item: "azapi_resource", from: ["azapi_resource.x"] }]);
  });
});

describe("HCL the check refuses", () => {
  it("a syntax error in one of the files: 400 Invalid template naming the file and line", async () => {
    const response = await post({ files: tfFolder("example-syntax-error"), approvedServiceIds: ["aws-s3"] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: "Invalid template",
      details: "main.tf, line 5: the attribute has no value: an expression must follow =.",
    });
  });

  it.each([
    ['resource "a" "b" {\n  x = "1"\n', "line 1: the block opened here is never closed"],
    ['resource "a" "b" {\n  x = "1\n}\n', "line 2: a string starting here is not closed on its line"],
    ['resource "a" "b" {\n  x = [1, 2\n}\n', 'line 3: "}" does not close the bracket'],
    ['resource "a" "b" {\n  x = <<EOT\nhello\n}\n', "line 2: the heredoc starting here never ends"],
    ['resource "a" "b" {\n  x = "${var.a"\n}\n', "line 2: a string starting here is not closed"],
    ['resource "a" "b" {\n  x = 1\n  x = 2\n}\n', 'line 3: the attribute "x" is set twice'],
    ['resource "a" "${b}" {\n}\n', 'line 1: "resource" is followed by a string'],
    ['resource "a" "b" {\n  x = 1\n} y\n', "line 3: a block's closing brace must end its line"],
    ['resource "a" "b" {\n  x = 1 ; \n}\n', 'line 2: ";" cannot stand here'],
    ['resource "a" {\n}\n', "line 1: a resource block takes two labels"],
    ['resources "a" "b" {\n}\n', 'line 1: "resources" is not a block Terraform reads'],
  ])("%j", (text, message) => {
    expect(() => readDeployment(new TerraformFiles({ "main.tf": text }))).toThrow(TemplateError);
    expect(() => readDeployment(new TerraformFiles({ "main.tf": text }))).toThrow(`main.tf, ${message}`);
  });

  it("the templates' budgets: nesting past the bound, values past the bound", () => {
    const deep = `locals {\n  x = ${"[".repeat(TEMPLATE_MAX_DEPTH + 1)}${"]".repeat(TEMPLATE_MAX_DEPTH + 1)}\n}\n`;
    expect(() => readHcl("main.tf", deep, () => false)).toThrow(TemplateDepthError);
    const many = `locals {\n  x = [${"1,".repeat(TEMPLATE_VALUES_MAX)}]\n}\n`;
    expect(() => readHcl("main.tf", many, () => false)).toThrow(TemplateBudgetError);
  });

  it("a request with both template and files, a path leaving the folder, or no file: 400 Invalid body", async () => {
    const app = await build();
    const check = (payload: object) => app.inject({ method: "POST", url: "/v1/deployments/check", payload });
    const text = 'resource "aws_s3_bucket" "b" {}\n';
    for (const payload of [
      { template: text, files: { "main.tf": text }, approvedServiceIds: ["aws-s3"] },
      { files: { "../main.tf": text }, approvedServiceIds: ["aws-s3"] },
      { files: { "/etc/main.tf": text }, approvedServiceIds: ["aws-s3"] },
      { files: { "main.exe": text }, approvedServiceIds: ["aws-s3"] },
      { files: { "main.tf": text }, root: "../envs", approvedServiceIds: ["aws-s3"] },
      { template: text, root: "envs/prod", approvedServiceIds: ["aws-s3"] },
      { files: {}, approvedServiceIds: ["aws-s3"] },
    ]) {
      const response = await check(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ error: "Invalid body" });
    }
  });
});

describe("the reader against HashiCorp's HCL parser (@cdktf/hcl2json)", () => {
  it("reads the same resource, data and module blocks from every fixture folder that parses", async () => {
    const folders = readdirSync(FOLDERS).filter((name) => name !== "example-syntax-error");
    expect(folders.length).toBeGreaterThanOrEqual(8);
    for (const name of folders)
      for (const [file, text] of Object.entries(tfFolder(name))) {
        const theirs = (await parse(file, text)) as Record<string, Record<string, Record<string, unknown>> | undefined>;
        const expected = ["resource", "data"]
          .flatMap((kind) =>
            Object.entries(theirs[kind] ?? {}).flatMap(([type, named]) =>
              Object.keys(named).map((label) => `${kind} ${type} ${label}`),
            ),
          )
          .concat(Object.keys(theirs.module ?? {}).map((label) => `module ${label}`))
          .sort();
        const ours = readHcl(file, text, () => false)
          .filter((block) => ["resource", "data", "module"].includes(block.type))
          .map((block) => [block.type, ...block.labels].join(" "))
          .sort();
        expect(ours, `${name}/${file}`).toEqual(expected);
      }
  }, 60_000);
});
