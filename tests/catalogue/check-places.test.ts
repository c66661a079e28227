/**
 * Where each finding stands (catalogue/templates/answer/places.ts, issue 122): a Terraform
 * instance's address followed through its module calls to its block, whatever its index; a
 * CloudFormation or ARM resource found in its template, inside its block; what comes from no
 * resource at the file alone.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Finding } from "../../catalogue/templates/answer/findings.ts";
import { addressParts, blockAt, SourcePlaces, type SourceText } from "../../catalogue/templates/answer/places.ts";

const finding = (resource: string | undefined, item = "aws_sqs_queue"): Finding => ({
  rule: "denied-action",
  level: "error",
  item,
  ...(resource === undefined ? {} : { resource }),
  message: "m",
});
const tf = (files: Record<string, string>, root = "infra"): SourceText[] =>
  Object.entries(files).map(([name, text]) => ({ name, path: `${root}/${name}`, text }));

describe("a Terraform instance's place", () => {
  const files = tf({
    "main.tf": `provider "aws" {}\n\nresource "aws_sqs_queue" "q" {\n  count = 8\n}\n\nmodule "orders" {\n  for_each = toset(["a", "b"])\n  source   = "./modules/orders"\n}\n\nmodule "vpc" {\n  source = "terraform-aws-modules/vpc/aws"\n}\n`,
    "modules/orders/main.tf": `# orders\nresource "aws_sqs_queue" "q" {}\n\nmodule "dlq" {\n  source = "../dlq"\n}\n`,
    "modules/dlq/queues.tf": `\n\n  resource "aws_sqs_queue" "dead" {\n}\n`,
    ".terraform/modules/modules.json": JSON.stringify({
      Modules: [{ Key: "vpc", Source: "registry", Dir: ".terraform/modules/vpc" }],
    }),
    ".terraform/modules/vpc/main.tf": `data "aws_region" "here" {}\nresource "aws_vpc" "this" {}\n`,
  });
  const places = new SourcePlaces(files, true);

  it.each([
    ["aws_sqs_queue.q[7]", { file: "infra/main.tf", line: 3, column: 1, block: 3 }],
    ['module.orders["b"].aws_sqs_queue.q', { file: "infra/modules/orders/main.tf", line: 2, column: 1, block: 2 }],
    [
      'module.orders["a"].module.dlq.aws_sqs_queue.dead',
      { file: "infra/modules/dlq/queues.tf", line: 3, column: 3, block: 3 },
    ],
    ["module.vpc.aws_vpc.this", { file: "infra/.terraform/modules/vpc/main.tf", line: 2, column: 1, block: 2 }],
    ["module.vpc.data.aws_region.here", { file: "infra/.terraform/modules/vpc/main.tf", line: 1, column: 1, block: 1 }],
  ])("%s is at its block, through its modules' sources", (address, place) => {
    expect(places.place(finding(address))).toEqual(place);
  });

  it("places a module not read where the answer says its block is, and a need of no resource at the root's first file", () => {
    expect(
      places.place({
        ...finding(undefined, "module.vpc"),
        message: 'module.vpc: module "x" (main.tf, line 12): not read',
      }),
    ).toMatchObject({ file: "infra/main.tf", line: 12, block: 12 });
    expect(places.place(finding(undefined, "cloudformation-stack-operations"))).toEqual({ file: "infra/main.tf" });
  });

  it("reads any address Terraform writes, index keys holding dots, quotes and brackets", () => {
    expect(addressParts('module.a["x.y"].module.b[0].data.aws_x.y["k]\\"."]')).toEqual({
      modules: ["a", "b"],
      resource: "data.aws_x.y",
    });
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/), { maxLength: 3 }),
        fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/),
        fc.string(),
        (modules, name, key) => {
          const address = `${modules.map((module) => `module.${module}[${JSON.stringify(key)}].`).join("")}aws_sqs_queue.${name}[${JSON.stringify(key)}]`;
          expect(addressParts(address)).toEqual({ modules, resource: `aws_sqs_queue.${name}` });
        },
      ),
    );
  });
});

describe("a template resource's place and block", () => {
  it("finds a CloudFormation YAML resource inside its block, SAM's note left out", () => {
    const text = `Resources:\n  # the orders\n  Orders:\n    Type: AWS::SQS::Queue\n\n  Fn:\n    Type: AWS::Serverless::Function\nOutputs: {}\n`;
    const places = new SourcePlaces([{ name: "t.yaml", path: "t.yaml", text }], false);
    expect(places.files[0]!.blocks).toEqual([
      { start: 3, end: 4 },
      { start: 6, end: 7 },
    ]);
    expect(places.place(finding("Orders", "AWS::SQS::Queue"))).toEqual({
      file: "t.yaml",
      line: 3,
      column: 3,
      block: 3,
    });
    expect(places.place(finding("Fn (AWS::Serverless::Function)", "AWS::Lambda::Function"))).toMatchObject({
      line: 6,
      block: 6,
    });
  });

  it("finds ARM resources, nested ones in their own block, and CloudFormation JSON's entries", () => {
    const arm = `{\n  "$schema": "x",\n  // the server\n  "resources": [\n    {\n      "type": "Microsoft.Sql/servers",\n      "name": "srv",\n      "resources": [\n        {\n          "type": "databases",\n          "name": "db"\n        }\n      ]\n    }\n  ]\n}\n`;
    const places = new SourcePlaces([{ name: "a.json", path: "a.json", text: arm }], false);
    expect(places.files[0]!.blocks).toEqual([
      { start: 5, end: 14 },
      { start: 9, end: 12 },
    ]);
    expect(places.place(finding("db", "Microsoft.Sql/servers/databases"))).toMatchObject({ line: 11, block: 9 });
    expect(places.place(finding("srv", "Microsoft.Sql/servers"))).toMatchObject({ line: 7, block: 5 });
    const cfn = `{\n  "Resources": {\n    "Orders": {\n      "Type": "AWS::SQS::Queue"\n    }\n  }\n}\n`;
    expect(new SourcePlaces([{ name: "c.json", path: "c.json", text: cfn }], false).files[0]!.blocks).toEqual([
      { start: 3, end: 5 },
    ]);
  });

  it("takes the innermost block holding a line", () => {
    const blocks = [
      { start: 1, end: 10 },
      { start: 3, end: 5 },
    ];
    expect(blockAt(blocks, 4)).toEqual({ start: 3, end: 5 });
    expect(blockAt(blocks, 7)).toEqual({ start: 1, end: 10 });
    expect(blockAt(blocks, 11)).toBeUndefined();
  });
});
