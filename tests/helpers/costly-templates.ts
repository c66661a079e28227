/**
 * Expensive templates (issue 120): a few hundred bytes each that ask the evaluator for much — counts,
 * strings that double, nested loops, module trees, patterns that backtrack elsewhere — in HCL, ARM
 * and CloudFormation. ISSUE_120_CASES are the issue's own; `costlyCase` generates more of each kind
 * with fast-check. Each case is what a request carries (a template's text, or .tf files), so a
 * server-level test can send the same cases to a running server; tests/catalogue/costly-templates.test.ts
 * evaluates every one in a child process bounded to 400 MB.
 */
import fc from "fast-check";

export interface CostlyCase {
  readonly name: string;
  readonly format: "hcl" | "arm" | "cloudformation";
  /** A template's text (JSON, YAML or one .tf file), as the API's `template` takes it. */
  readonly template?: string;
  /** A configuration's files (name → text), as the API's `files` takes them. */
  readonly files?: Readonly<Record<string, string>>;
}

const ARM_SCHEMA = "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#";

/** A .tf file whose kept attribute (a provider's region) reads `expression` after `locals`. */
const hclReading = (locals: string, expression: string) =>
  `locals {\n${locals}\n}\nprovider "aws" {\n  region = ${expression}\n}\nresource "aws_s3_bucket" "b" {}\n`;

const hcl = (name: string, template: string): CostlyCase => ({ name, format: "hcl", template });
const arm = (name: string, template: object): CostlyCase => ({
  name,
  format: "arm",
  template: JSON.stringify(template),
});
const cfn = (name: string, template: string | object): CostlyCase => ({
  name,
  format: "cloudformation",
  template: typeof template === "string" ? template : JSON.stringify(template),
});

/** An ARM template of one storage account with these variables and this name, location and copy. */
const armAccount = (variables: Record<string, unknown>, resource: Record<string, unknown>) => ({
  $schema: ARM_SCHEMA,
  contentVersion: "1.0.0.0",
  variables,
  resources: [
    {
      type: "Microsoft.Storage/storageAccounts",
      apiVersion: "2023-01-01",
      name: "st",
      location: "westeurope",
      ...resource,
    },
  ],
});

/** `steps` locals each joining the one before with itself: a string 2^steps times the seed. */
export function hclDoubling(kind: "join" | "template" | "format" | "concat", steps: number, seed = 16): CostlyCase {
  const next = (i: number) => {
    const last = `local.a${i}`;
    if (kind === "join") return `join("", [${last}, ${last}])`;
    if (kind === "template") return `"\${${last}}\${${last}}"`;
    if (kind === "format") return `format("%s%s", ${last}, ${last})`;
    return `concat(${last}, ${last})`;
  };
  const first =
    kind === "concat" ? `[${Array.from({ length: seed }, (_, i) => `"${i}"`).join(", ")}]` : `"${"x".repeat(seed)}"`;
  const locals = [`  a0 = ${first}`, ...Array.from({ length: steps }, (_, i) => `  a${i + 1} = ${next(i)}`)].join("\n");
  return hcl(
    `HCL ${kind} doubling ×${steps}`,
    hclReading(locals, kind === "concat" ? `length(local.a${steps})` : `local.a${steps}`),
  );
}

/** `depth` nested for expressions over range(n) each: n^depth items asked for. */
export function hclNestedFor(depth: number, n: number): CostlyCase {
  let body = "i0";
  for (let level = depth - 1; level >= 0; level--)
    body = `[for i${level} in range(${n}): ${level === depth - 1 ? `i${level}` : body}]`;
  return hcl(`HCL ${depth} nested for over ${n}`, hclReading(`  p = ${body}`, "length(local.p)"));
}

/** A tree of local modules `depth` deep, each calling the next `fanout` times (`count` each), a bucket in each. */
export function hclModuleTree(depth: number, fanout: number, count = 1): CostlyCase {
  const calls = (next: string) =>
    Array.from(
      { length: fanout },
      (_, i) => `module "m${i}" {\n  source = "${next}"\n${count > 1 ? `  count = ${count}\n` : ""}}\n`,
    ).join("");
  const files: Record<string, string> = { "main.tf": calls("./l1") };
  for (let level = 1; level <= depth; level++)
    files[`l${level}/main.tf`] = `${level < depth ? calls(`../l${level + 1}`) : ""}resource "aws_s3_bucket" "b" {}\n`;
  return { name: `HCL module tree ${depth} deep, ${fanout} calls of count ${count}`, format: "hcl", files };
}

/** Patterns that backtrack exponentially in a backtracking engine, over a text that almost matches. */
export const EVIL_PATTERNS = ["^(a+)+$", "^(a|a)*$", "^(a|aa)+$", "^(a*)*b$", "^([a-zA-Z]+)*$", "(x+x+)+y"] as const;

export function hclRegex(pattern: string, length: number, fn: "regex" | "regexall" | "replace" = "regex"): CostlyCase {
  const text = `${"a".repeat(length)}!`;
  const call =
    fn === "replace"
      ? `replace("${text}", "/${pattern}/", "b")`
      : `${fn}("${pattern.replaceAll("\\", "\\\\")}", "${text}")`;
  return hcl(`HCL ${fn}(${pattern}) over ${length + 1} characters`, hclReading("  x = 1", call));
}

/** The issue's cases, each as it was sent. */
export const ISSUE_120_CASES: readonly CostlyCase[] = [
  hcl("count = 10000000 on one aws_s3_bucket", `resource "aws_s3_bucket" "big" {\n  count = 10000000\n}\n`),
  hcl(
    "join of range(10000) formats, joined 10,000 times",
    hclReading(
      `  big = join("", [for i in range(10000): format("%0100d", i)])\n  huge = join("", [for i in range(10000): local.big])`,
      "local.huge",
    ),
  ),
  hclDoubling("join", 40),
  arm(
    "ARM concat doubling ×40",
    armAccount(
      Object.fromEntries([
        ["v0", "xxxxxxxxxxxxxxxx"],
        ...Array.from({ length: 40 }, (_, i) => [`v${i + 1}`, `[concat(variables('v${i}'), variables('v${i}'))]`]),
      ]),
      { name: "[variables('v40')]" },
    ),
  ),
  arm("ARM copy.count 1e9", armAccount({}, { name: "[concat('st', copyIndex())]", copy: { name: "c", count: 1e9 } })),
  hclRegex("^(a+)+$", 54),
  cfn("CloudFormation Fn::ForEach over 200,000 names", {
    AWSTemplateFormatVersion: "2010-09-09",
    Transform: "AWS::LanguageExtensions",
    Parameters: {
      Names: { Type: "CommaDelimitedList", Default: Array.from({ length: 200_000 }, (_, i) => `q${i}`).join(",") },
    },
    Resources: { "Fn::ForEach::Queues": ["Name", { Ref: "Names" }, { "Queue${Name}": { Type: "AWS::SQS::Queue" } }] },
  }),
  hclNestedFor(2, 10_000),
  hclModuleTree(12, 2),
];

const hclCase: fc.Arbitrary<CostlyCase> = fc.oneof(
  fc
    .integer({ min: 2, max: 1e9 })
    .map((n) => hcl(`HCL count = ${n}`, `resource "aws_sqs_queue" "q" {\n  count = ${n}\n}\n`)),
  fc
    .integer({ min: 2, max: 1e7 })
    .map((n) =>
      hcl(
        `HCL for_each over range(${n})`,
        `resource "aws_sqs_queue" "q" {\n  for_each = toset([for i in range(${n}): tostring(i)])\n}\n`,
      ),
    ),
  fc
    .tuple(
      fc.constantFrom("join", "template", "format", "concat") as fc.Arbitrary<
        "join" | "template" | "format" | "concat"
      >,
      fc.integer({ min: 1, max: 45 }),
      fc.integer({ min: 1, max: 64 }),
    )
    .map(([kind, steps, seed]) => hclDoubling(kind, steps, seed)),
  fc
    .tuple(fc.integer({ min: 2, max: 4 }), fc.integer({ min: 2, max: 20_000 }))
    .map(([depth, n]) => hclNestedFor(depth, n)),
  fc
    .tuple(fc.integer({ min: 1, max: 14 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 30 }))
    .map(([depth, fanout, count]) => hclModuleTree(depth, fanout, count)),
  fc
    .tuple(
      fc.constantFrom(...EVIL_PATTERNS),
      fc.integer({ min: 10, max: 100_000 }),
      fc.constantFrom("regex", "regexall", "replace") as fc.Arbitrary<"regex" | "regexall" | "replace">,
    )
    .map(([pattern, length, fn]) => hclRegex(pattern, length, fn)),
  fc
    .tuple(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 5000 }))
    .map(([a, b]) =>
      hcl(`HCL setproduct of ${a} × ${b}`, hclReading(`  p = setproduct(range(${a}), range(${b}))`, "length(local.p)")),
    ),
  fc
    .tuple(fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 1, max: 10_000 }))
    .map(([copies, width]) =>
      hcl(
        `HCL jsonencode of ${copies} copies of a ${width}-character string`,
        hclReading(
          `  s = "${"y".repeat(Math.min(width, 2000))}"\n  l = [for i in range(${copies}): local.s]`,
          "jsonencode(local.l)",
        ),
      ),
    ),
  fc
    .tuple(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: 2000 }))
    .map(([outer, inner]) =>
      hcl(
        `HCL flatten of ${outer} lists of ${inner}`,
        hclReading(`  l = range(${inner})\n  ll = [for i in range(${outer}): local.l]`, "length(flatten(local.ll))"),
      ),
    ),
  fc
    .integer({ min: 1, max: 100_000 })
    .map((n) =>
      hcl(
        `HCL dynamic block over range(${n})`,
        `resource "aws_dynamodb_table" "t" {\n  dynamic "replica" {\n    for_each = range(${n})\n    content {\n      region_name = "eu-west-1"\n    }\n  }\n}\n`,
      ),
    ),
  fc
    .integer({ min: 1, max: 9 })
    .map((width) => hcl(`HCL format width of 10^${width}`, hclReading("  x = 1", `format("%0${10 ** width}d", 7)`))),
);

const armCase: fc.Arbitrary<CostlyCase> = fc.oneof(
  fc
    .integer({ min: 2, max: 1e9 })
    .map((n) =>
      arm(
        `ARM copy.count ${n}`,
        armAccount({}, { name: "[concat('st', copyIndex())]", copy: { name: "c", count: n } }),
      ),
    ),
  fc
    .tuple(fc.integer({ min: 1, max: 45 }), fc.constantFrom("concat", "format", "replace", "string"))
    .map(([steps, fn]) => {
      const step = (last: string) =>
        fn === "concat"
          ? `[concat(${last}, ${last})]`
          : fn === "format"
            ? `[format('{0}{0}', ${last})]`
            : fn === "replace"
              ? `[replace(${last}, 'x', 'xx')]`
              : `[string(createArray(${last}, ${last}))]`;
      return arm(
        `ARM ${fn} doubling ×${steps}`,
        armAccount(
          Object.fromEntries([
            ["v0", "xxxxxxxxxxxxxxxx"],
            ...Array.from({ length: steps }, (_, i) => [`v${i + 1}`, step(`variables('v${i}')`)]),
          ]),
          { location: `[substring(variables('v${steps}'), 0, 10)]` },
        ),
      );
    }),
  fc
    .integer({ min: 1, max: 1e8 })
    .map((n) =>
      arm(
        `ARM range(0, ${n})`,
        armAccount({ r: `[range(0, ${n})]` }, { location: "[string(length(variables('r')))]" }),
      ),
    ),
  fc.tuple(fc.integer({ min: 1, max: 800 }), fc.integer({ min: 1, max: 800 })).map(([outer, inner]) =>
    arm(`ARM ${outer} nested deployments of ${inner} copies`, {
      $schema: ARM_SCHEMA,
      contentVersion: "1.0.0.0",
      resources: [
        {
          type: "Microsoft.Resources/deployments",
          apiVersion: "2022-09-01",
          name: "[concat('d', copyIndex())]",
          copy: { name: "outer", count: outer },
          properties: {
            mode: "Incremental",
            template: armAccount({}, { name: "[concat('st', copyIndex())]", copy: { name: "inner", count: inner } }),
          },
        },
      ],
    }),
  ),
  fc
    .integer({ min: 1, max: 1e6 })
    .map((n) =>
      arm(
        `ARM variable copy of ${n}`,
        armAccount(
          { copy: [{ name: "many", count: n, input: "[copyIndex('many')]" }] },
          { location: "[string(length(variables('many')))]" },
        ),
      ),
    ),
);

const cfnCase: fc.Arbitrary<CostlyCase> = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 300_000 }), fc.integer({ min: 0, max: 2 })).map(([n, nesting]) => {
    const names = Array.from({ length: Math.min(n, 300_000) }, (_, i) => `q${i}`).join(",");
    let output: Record<string, unknown> = { "Queue${A}${B}${C}": { Type: "AWS::SQS::Queue" } };
    for (const [at, id] of ["C", "B"].slice(0, nesting).entries())
      output = { [`Fn::ForEach::L${at}`]: [id, { Ref: "Names" }, output] };
    return cfn(`CloudFormation Fn::ForEach over ${n} names, ${nesting + 1} deep`, {
      AWSTemplateFormatVersion: "2010-09-09",
      Transform: "AWS::LanguageExtensions",
      Parameters: { Names: { Type: "CommaDelimitedList", Default: names } },
      Resources: { "Fn::ForEach::Top": ["A", { Ref: "Names" }, output] },
    });
  }),
  fc
    .tuple(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 20_000 }))
    .map(([uses, width]) =>
      cfn(
        `CloudFormation Fn::Join of ${uses} aliases of a ${width}-character string`,
        `Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: !Join\n        - ""\n        - [${["&s " + "z".repeat(width), ...Array.from({ length: uses - 1 }, () => "*s")].join(", ")}]\n`,
      ),
    ),
  fc.integer({ min: 1, max: 1_000_000 }).map((n) =>
    cfn(`CloudFormation Fn::Split into ${n} parts`, {
      Parameters: { P: { Type: "String", Default: ",".repeat(Math.min(n, 1_000_000)) } },
      Resources: { B: { Type: "AWS::S3::Bucket", Properties: { Tags: { "Fn::Split": [",", { Ref: "P" }] } } } },
    }),
  ),
);

/** One generated expensive template, of any format and kind. */
export const costlyCase: fc.Arbitrary<CostlyCase> = fc.oneof(hclCase, armCase, cfnCase);
