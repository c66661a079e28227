/**
 * Templates nest as deep as real plans go (issue 122, issue 120): an aws_wafv2_web_acl whose rule's
 * and → or → not statements sit two modules deep has a plan past 32 levels (the issue's: 35 in its
 * configuration; this one's not holds an and: 39), which the old bound of 32 refused. Templates are now bounded at
 * TEMPLATE_MAX_DEPTH (and by bytes and the evaluation's steps); every reader and evaluator holds
 * that depth in a quarter of a reading thread's stack (sidecar/threads/reader.ts gives it 4 MB),
 * and refuses one level more by name.
 */
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { TEMPLATE_MAX_DEPTH } from "../../catalogue/base/limits.ts";
import { nestsDeeperThan } from "../../catalogue/base/nesting.ts";
import { TemplateDepthError } from "../../catalogue/templates/model/errors.ts";
import { readDeployment, TerraformFiles } from "../../catalogue/templates/read.ts";

/** A WAF rule's statements as a plan writes them: and → or → not → and → byte match on a header. */
const statement = (inner: Record<string, unknown>) => [inner];
const byteMatch = {
  byte_match_statement: [
    {
      field_to_match: [{ single_header: [{ name: "x-bot" }] }],
      positional_constraint: "CONTAINS",
      search_string: "bad",
      text_transformation: [{ priority: 0, type: "NONE" }],
    },
  ],
};
const rule = {
  name: "block-bots",
  priority: 1,
  action: [{ block: [{}] }],
  statement: statement({
    and_statement: [
      {
        statement: [
          {
            or_statement: [
              {
                statement: [
                  {
                    not_statement: [
                      { statement: statement({ and_statement: [{ statement: [byteMatch, byteMatch] }] }) },
                    ],
                  },
                  byteMatch,
                ],
              },
            ],
          },
          byteMatch,
        ],
      },
    ],
  }),
  visibility_config: [{ cloudwatch_metrics_enabled: true, metric_name: "bots", sampled_requests_enabled: true }],
};
/** The same as configuration expressions: each leaf a {constant_value}. */
const asExpressions = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(asExpressions)
    : typeof value === "object" && value !== null
      ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, asExpressions(item)]))
      : { constant_value: value };

const WAF_PLAN = {
  format_version: "1.2",
  terraform_version: "1.9.8",
  resource_changes: [
    {
      address: "module.edge.module.waf.aws_wafv2_web_acl.main",
      module_address: "module.edge.module.waf",
      mode: "managed",
      type: "aws_wafv2_web_acl",
      name: "main",
      provider_name: "registry.terraform.io/hashicorp/aws",
      change: {
        actions: ["create"],
        before: null,
        after: { name: "edge", scope: "REGIONAL", default_action: [{ allow: [{}] }], rule: [rule] },
      },
    },
  ],
  configuration: {
    provider_config: { aws: { name: "aws", expressions: { region: { constant_value: "eu-west-1" } } } },
    root_module: {
      module_calls: {
        edge: {
          source: "./edge",
          module: {
            module_calls: {
              waf: {
                source: "./waf",
                module: {
                  resources: [
                    {
                      address: "aws_wafv2_web_acl.main",
                      mode: "managed",
                      type: "aws_wafv2_web_acl",
                      name: "main",
                      provider_config_key: "aws",
                      expressions: asExpressions({ name: "edge", scope: "REGIONAL", rule: [rule] }),
                    },
                  ],
                },
              },
            },
          },
        },
      },
    },
  },
};

/** `value` inside `depth` levels of one-key objects. */
const nested = (depth: number, value: unknown, key = "a"): unknown => {
  let here = value;
  for (let level = 0; level < depth; level++) here = { [key]: here };
  return here;
};

describe("templates nest as deep as real plans go", () => {
  it("reads a plan whose WAF rule's and → or → not statements sit two modules deep (39 levels)", () => {
    expect(nestsDeeperThan(WAF_PLAN, 38)).toBe(true);
    for (const template of [WAF_PLAN, JSON.stringify(WAF_PLAN, null, 2)]) {
      const deployment = readDeployment(template, { region: "eu-west-1" });
      expect(deployment.items.map((item) => item.item)).toEqual(["aws_wafv2_web_acl"]);
      expect(deployment.items[0]!.from).toEqual(["module.edge.module.waf.aws_wafv2_web_acl.main"]);
    }
  });

  it(`reads ${TEMPLATE_MAX_DEPTH} levels in every format, and refuses one more naming the bound`, () => {
    // The top object is a level: the deepest value sits TEMPLATE_MAX_DEPTH - 1 objects down.
    const arm = (depth: number) => ({
      $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
      contentVersion: "1.0.0.0",
      resources: [{ type: "Microsoft.Storage/storageAccounts", name: "st", properties: nested(depth - 3, 1) }],
    });
    const text = JSON.stringify(arm(TEMPLATE_MAX_DEPTH));
    expect(readDeployment(text).items).toHaveLength(1);
    expect(() => readDeployment(JSON.stringify(arm(TEMPLATE_MAX_DEPTH + 1)))).toThrow(
      new TemplateDepthError(
        `The template nests more than ${TEMPLATE_MAX_DEPTH} levels deep; no vendor template does.`,
      ),
    );
    const hclDepth = (depth: number) =>
      `resource "aws_s3_bucket" "b" {\n  tags = ${"{a = ".repeat(depth - 1)}1${"}".repeat(depth - 1)}\n}\n`;
    expect(readDeployment(new TerraformFiles({ "main.tf": hclDepth(TEMPLATE_MAX_DEPTH) })).items).toHaveLength(1);
    expect(() => readDeployment(new TerraformFiles({ "main.tf": hclDepth(TEMPLATE_MAX_DEPTH + 1) }))).toThrow(
      `nests more than ${TEMPLATE_MAX_DEPTH} levels deep`,
    );
  });

  it(`holds ${TEMPLATE_MAX_DEPTH} levels in every reader and evaluator with a quarter of a reading thread's stack`, async () => {
    const source = `
      import { workerData, parentPort } from "node:worker_threads";
      const { readDeployment, TerraformFiles } = await import(${JSON.stringify(new URL("../../catalogue/templates/read.ts", import.meta.url).href)});
      const answers = [];
      for (const input of workerData) {
        try {
          const deployment = readDeployment(input.files ? new TerraformFiles(input.files) : input.template);
          answers.push(deployment.items.length);
        } catch (error) {
          answers.push(error.constructor.name + ": " + error.message);
        }
      }
      parentPort.postMessage(answers);
    `;
    const depth = TEMPLATE_MAX_DEPTH;
    const deep = nested(depth - 8, "eu-west-1", "b");
    const inputs = [
      {
        template: JSON.stringify({
          ...WAF_PLAN,
          resource_changes: [
            { ...WAF_PLAN.resource_changes[0], change: { actions: ["create"], after: { rule: nested(depth - 5, 1) } } },
          ],
        }),
      },
      {
        template: JSON.stringify({
          Resources: {
            B: { Type: "AWS::S3::Bucket", Properties: nested(depth - 6, { "Fn::Join": ["", ["a", "b"]] }) },
          },
        }),
      },
      {
        template: `Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties: ${JSON.stringify(nested(depth - 3, 1))}\n`,
      },
      {
        template: JSON.stringify({
          $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
          contentVersion: "1.0.0.0",
          resources: [
            {
              type: "Microsoft.Storage/storageAccounts",
              name: "st",
              location: "[parameters('p')]",
              properties: nested(depth - 3, "[concat('a', 'b')]"),
            },
          ],
          parameters: { p: { type: "object", defaultValue: deep } },
        }),
      },
      {
        files: {
          "main.tf": `locals {\n  deep = ${"[".repeat(depth - 1)}"x"${"]".repeat(depth - 1)}\n}\nresource "aws_s3_bucket" "b" {\n  tags = jsonencode(local.deep)\n  region = jsonencode(local.deep)\n}\n`,
        },
      },
    ];
    const answers = await new Promise<unknown[]>((resolve, reject) => {
      const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), {
        workerData: inputs,
        resourceLimits: { stackSizeMb: 1, maxOldGenerationSizeMb: 256 },
      });
      worker.once("message", resolve).once("error", reject);
    });
    expect(answers, JSON.stringify(answers)).toEqual([1, 1, 1, 1, 1]);
  }, 60_000);
});
