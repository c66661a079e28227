/**
 * The deployment check's readers (catalogue/templates/read.ts `readDeployment`: HCL `.tf` files and
 * text, YAML, JSON) under generated input (issue 109: one `\UFFFFFFFF` in a `.tf` was a 500 on every
 * face). Escapes (`\U`, `\u` with any number of digits, code points past U+10FFFF, surrogate halves,
 * octal-looking ones, YAML's and JSON's own), arbitrary code points and lone surrogates, deep nesting
 * and long lines: every input is read, or refused as a template error (400) or past a budget (422).
 * Any other error would escape as a 500.
 * Each run draws new cases (fast-check's seed is printed with a counterexample).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TemplateBudgetError, TemplateError } from "../../catalogue/templates/errors.ts";
import { readDeployment, TerraformFiles } from "../../catalogue/templates/read.ts";

/** Reads `template`: what it was, or the error it threw when that is not a refusal the faces answer 4xx. */
function outcome(template: unknown): "read" | "refused" | Error {
  try {
    readDeployment(template);
    return "read";
  } catch (error) {
    if (error instanceof TemplateError || error instanceof TemplateBudgetError) return "refused";
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Asserts the template is read or refused with a 4xx, naming the input when not. */
function readOrRefused(template: unknown) {
  const result = outcome(template);
  const shown = template instanceof TerraformFiles ? template.files : template;
  expect(result, `${result instanceof Error ? result.stack : ""}\n${JSON.stringify(shown).slice(0, 600)}`).toMatch(
    /^(read|refused)$/,
  );
}

const HEX = [..."0123456789abcdefABCDEF"];
const hex = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...HEX), minLength: min, maxLength: max });

/** Backslash escapes, well formed or not, as HCL, YAML and JSON each spell theirs. */
const escape = fc.oneof(
  fc.tuple(fc.constantFrom("\\u", "\\U", "\\x"), hex(0, 10)).map(([lead, digits]) => lead + digits),
  // Surrogate halves, alone or paired.
  fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => `\\u${code.toString(16)}`),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => `\\U${code.toString(16).padStart(8, "0")}`),
  // Past U+10FFFF.
  fc.integer({ min: 0x110000, max: 0xffffffff }).map((code) => `\\U${code.toString(16).padStart(8, "0")}`),
  // Octal-looking.
  fc.string({ unit: fc.constantFrom(..."01234567"), minLength: 1, maxLength: 4 }).map((digits) => `\\${digits}`),
  fc.constantFrom("\\n", "\\t", "\\r", '\\"', "\\\\", "\\/", "\\N", "\\_", "\\L", "\\P", "\\e", "\\a", "\\ ", "\\"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 2 }).map((any) => `\\${any}`),
);

/** Text: escapes, any code point, lone surrogates, and the characters that open or close things. */
const fragment = fc
  .array(
    fc.oneof(
      escape,
      fc.string({ unit: "binary", maxLength: 8 }),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
      fc.constantFrom(
        "${",
        "%{",
        "}",
        "{",
        '"',
        "'",
        "\n",
        "\r\n",
        "#",
        ": ",
        "- ",
        "&a",
        "*a",
        "!Ref ",
        "<<EOT\n",
        "\0",
      ),
    ),
    { maxLength: 10 },
  )
  .map((parts) => parts.join(""));

/** Cases per property (`TEMPLATE_FUZZ_RUNS`, for a longer hunt); nesting and long lines take a tenth as many. */
const RUNS = { numRuns: Number(process.env.TEMPLATE_FUZZ_RUNS ?? 300) };
const FEW = { numRuns: Math.ceil(RUNS.numRuns / 10) };

describe("the readers of the deployment check, under generated input", () => {
  it("read or refuse a .tf file with any string, escapes included, in an attribute, a heredoc or a block label", () => {
    fc.assert(
      fc.property(
        fragment,
        fragment,
        fc.constantFrom("attribute", "heredoc", "label", "bare"),
        (value, other, where) => {
          const text =
            where === "attribute"
              ? `resource "aws_s3_bucket" "logs" {\n  bucket = "${value}"\n  tags = { a = "${other}" }\n}\n`
              : where === "heredoc"
                ? `resource "aws_iam_policy" "p" {\n  policy = <<EOT\n${value}\nEOT\n  name = "${other}"\n}\n`
                : where === "label"
                  ? `resource "${value}" "${other}" {\n}\n`
                  : `${value}\n${other}`;
          readOrRefused(new TerraformFiles({ "main.tf": text }));
          readOrRefused(text);
        },
      ),
      RUNS,
    );
  });

  it("read or refuse YAML and JSON templates with any string, escapes included, in every kind of scalar", () => {
    fc.assert(
      fc.property(fragment, fc.constantFrom("double", "single", "plain", "json", "key"), (value, style) => {
        const yaml = (scalar: string) =>
          `Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: ${scalar}\n`;
        const text =
          style === "double"
            ? yaml(`"${value}"`)
            : style === "single"
              ? yaml(`'${value}'`)
              : style === "plain"
                ? yaml(value)
                : style === "json"
                  ? `{"Resources":{"B":{"Type":"AWS::S3::Bucket","Properties":{"BucketName":"${value}"}}}}`
                  : `Resources:\n  "${value}":\n    Type: AWS::S3::Bucket\n`;
        readOrRefused(text);
      }),
      RUNS,
    );
  });

  it("read or refuse any text at all, and any value parsed from JSON", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), fragment, (text, other) => {
        readOrRefused(text);
        readOrRefused(`${text}${other}`);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => readOrRefused(value)),
      RUNS,
    );
  });

  it("read or refuse nesting of any depth: HCL blocks, objects and lists, YAML flow and block collections, JSON", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.constantFrom(...NESTINGS), (depth, nest) =>
        readOrRefused(nest(depth)),
      ),
      FEW,
    );
  });

  it("read or refuse long lines: a value, a key or a comment of up to 600,000 characters", () => {
    fc.assert(
      fc.property(
        fragment,
        fc.integer({ min: 1, max: 600_000 }),
        fc.constantFrom(...LONG_LINES),
        (value, length, line) => {
          const filler = (value || "x").repeat(Math.ceil(length / Math.max(1, value.length))).slice(0, length);
          readOrRefused(line(filler));
        },
      ),
      FEW,
    );
  });
});

/** Templates nesting `depth` levels deep, each in one reader's syntax. */
const NESTINGS: readonly ((depth: number) => unknown)[] = [
  (depth) => new TerraformFiles({ "main.tf": `${"a {\n".repeat(depth)}${"}\n".repeat(depth)}` }),
  (depth) => new TerraformFiles({ "main.tf": `locals {\n  x = ${"{ a = ".repeat(depth)}1${" }".repeat(depth)}\n}\n` }),
  (depth) => new TerraformFiles({ "main.tf": `locals {\n  x = ${"[".repeat(depth)}${"]".repeat(depth)}\n}\n` }),
  // HCL's expressions: parentheses, interpolations, unary and binary operators, conditionals, calls, indexes.
  ...(
    [
      ["(", "1", ")"],
      ['"${', "1", '}"'],
      ["!", "true", ""],
      ["-", "1", ""],
      ["a ? b : ", "c", ""],
      ["f(", "1", ")"],
      ["", "1", " + 1"],
      ["", "a", "[0]"],
    ] as const
  ).map(
    ([open, middle, close]) =>
      (depth: number) =>
        new TerraformFiles({ "main.tf": `locals {\n  x = ${open.repeat(depth)}${middle}${close.repeat(depth)}\n}\n` }),
  ),
  (depth) => `Resources:\n  B: ${"[".repeat(depth)}${"]".repeat(depth)}\n`,
  (depth) => `Resources:\n  B: ${"{a: ".repeat(depth)}1${"}".repeat(depth)}\n`,
  (depth) => `Resources:\n${Array.from({ length: depth }, (_, i) => `${"  ".repeat(i + 1)}k${i}:`).join("\n")} 1\n`,
  (depth) => `Resources:\n${Array.from({ length: depth }, (_, i) => `${"  ".repeat(i + 1)}-`).join("\n")} 1\n`,
  (depth) => `{"Resources":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`,
  (depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`,
  (depth) => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = { a: value };
    return { Resources: value };
  },
];

/** Templates with one line of the given text, in each reader's syntax. */
const LONG_LINES: readonly ((text: string) => unknown)[] = [
  (text) => new TerraformFiles({ "main.tf": `resource "aws_s3_bucket" "b" {\n  bucket = "${text}"\n}\n` }),
  (text) => new TerraformFiles({ "main.tf": `# ${text}\nresource "aws_s3_bucket" "b" {}\n` }),
  (text) => `Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: "${text}"\n`,
  (text) => `Resources:\n  "${text}":\n    Type: AWS::S3::Bucket\n`,
  (text) => JSON.stringify({ Resources: { B: { Type: "AWS::S3::Bucket", Properties: { BucketName: text } } } }),
  (text) => `{"Resources":{"B":{"Type":"AWS::S3::Bucket","Properties":{"BucketName":"${text}"}}}}`,
];
