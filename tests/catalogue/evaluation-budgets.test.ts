/**
 * The evaluator's budgets at their edges (issue 120, catalogue/base/limits.ts TEMPLATE_BUDGETS): a
 * collection, a count, a copy loop or a string at the bound is made, one past it is refused before
 * it is made, naming where and the bound; and what moved to RE2 and to Go's widths answers as
 * Terraform does.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ARM_COPY_MAX, TEMPLATE_BUDGETS } from "../../catalogue/base/limits.ts";
import { EvaluationBudget, withBudget } from "../../catalogue/templates/evaluate/budget.ts";
import { callFunction } from "../../catalogue/templates/evaluate/hcl-functions.ts";
import { jsonLength } from "../../catalogue/templates/evaluate/values.ts";
import { TemplateBudgetError } from "../../catalogue/templates/model/errors.ts";
import { readDeployment, TerraformFiles } from "../../catalogue/templates/read.ts";

const tf = (text: string) => new TerraformFiles({ "main.tf": text });
const arm = (count: number) =>
  JSON.stringify({
    $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
    contentVersion: "1.0.0.0",
    resources: [
      {
        type: "Microsoft.Storage/storageAccounts",
        name: "[concat('st', copyIndex())]",
        location: "westeurope",
        copy: { name: "accounts", count },
      },
    ],
  });

describe("the evaluation's budgets at their edges", () => {
  it("makes a count at the instances budget's edge's worth and refuses one past it, naming the file and line", () => {
    // Past 2,000 resources the deployment is a 400 of its own; a module's instances count too.
    const modules = (count: number) =>
      new TerraformFiles({
        "main.tf": `module "m" {\n  source = "./m"\n  count  = ${count}\n}\n`,
        "m/main.tf": "locals {\n  x = 1\n}\n",
      });
    expect(readDeployment(modules(TEMPLATE_BUDGETS.instances - 1)).items).toEqual([]);
    expect(() => readDeployment(modules(TEMPLATE_BUDGETS.instances + 1))).toThrow(
      new TemplateBudgetError(
        "main.tf, line 1: module.m's count of 10,001 makes 10,001 instances, 0 made already; an evaluation makes at most 10,000 resource and module instances (count, for_each, modules, ARM copy loops, Fn::ForEach). Check it in parts.",
      ),
    );
  });

  it("makes range() at the items budget and refuses one more, at the line of the call", () => {
    const at = (n: number) =>
      tf(`provider "aws" {\n  region = length(\n    range(${n})\n  )\n}\nresource "aws_s3_bucket" "b" {}\n`);
    expect(readDeployment(at(TEMPLATE_BUDGETS.items)).items).toHaveLength(1);
    expect(() => readDeployment(at(TEMPLATE_BUDGETS.items + 1))).toThrow(
      /^main\.tf, line 3: range\(0, 10001, 1\) makes 10,001 items; an evaluation makes at most 10,000 items/,
    );
  });

  it(`reads an ARM copy loop of ${ARM_COPY_MAX} and refuses ${ARM_COPY_MAX + 1} in Azure's words`, () => {
    expect(readDeployment(arm(ARM_COPY_MAX)).items).toHaveLength(1);
    expect(() => readDeployment(arm(ARM_COPY_MAX + 1))).toThrow(
      new TemplateBudgetError(
        `the template, resources[0]: the copy loop accounts has a copy count of 801; Azure Resource Manager refuses it before deploying: "The count can't exceed 800." (https://learn.microsoft.com/azure/azure-resource-manager/templates/copy-resources#copy-limits).`,
      ),
    );
  });

  it("refuses a string past its budget before making it, whatever doubles it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("join", "format", "template", "replace"),
        fc.integer({ min: 1, max: 40 }),
        (kind, steps) => {
          const next = (last: string) =>
            kind === "join"
              ? `join("", [${last}, ${last}])`
              : kind === "format"
                ? `format("%s%s", ${last}, ${last})`
                : kind === "template"
                  ? `"\${${last}}\${${last}}"`
                  : `replace(${last}, "x", "xx")`;
          const locals = [
            '  a0 = "x"',
            ...Array.from({ length: steps }, (_, i) => `  a${i + 1} = ${next(`local.a${i}`)}`),
          ];
          const text = `locals {\n${locals.join("\n")}\n}\nprovider "aws" {\n  region = local.a${steps}\n}\nresource "aws_s3_bucket" "b" {}\n`;
          const budget = new EvaluationBudget();
          const length = 2 ** steps;
          try {
            withBudget(() => readDeployment(tf(text)), budget);
            expect(length).toBeLessThanOrEqual(TEMPLATE_BUDGETS.stringChars);
          } catch (error) {
            expect(error).toBeInstanceOf(TemplateBudgetError);
            expect(length).toBeGreaterThan(TEMPLATE_BUDGETS.stringChars / 2);
            expect((error as Error).message).toMatch(/^main\.tf, line \d+: .*characters/);
          }
          // Never more made than the budget: the refusal came before the string.
          expect(budget.spent().totalChars).toBeLessThanOrEqual(TEMPLATE_BUDGETS.totalChars);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("counts a value's JSON length as JSON.stringify writes it, stopping past the limit", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonLength(value, Infinity)).toBe(JSON.stringify(value).length);
      }),
      { numRuns: 300 },
    );
    // Past the limit it stops: a long list by its commas alone, a list of long strings after a few.
    const long = "y".repeat(1000);
    expect(
      jsonLength(
        Array.from({ length: 1_000_000 }, () => long),
        10_000,
      ),
    ).toBe(1_000_001);
    const counted = jsonLength(
      Array.from({ length: 100 }, () => long),
      10_000,
    );
    expect(counted).toBeGreaterThan(10_000);
    expect(counted).toBeLessThan(10_000 + 1002 + 101);
  });
});

describe("functions as Terraform answers them", () => {
  it("writes format()'s widths and flags as Go's fmt does", () => {
    expect(callFunction("format", ["web-%02d", 3])).toBe("web-03");
    expect(callFunction("format", ["%5s|%-5s|", "ab", "cd"])).toBe("   ab|cd   |");
    expect(callFunction("format", ["%04d", -7])).toBe("-007");
    expect(callFunction("formatlist", ["%03d", [1, 22]])).toEqual(["001", "022"]);
  });

  it("matches RE2's syntax: named groups, $1 and ${name} in replace, empty matches, refused backreferences", () => {
    expect(callFunction("regex", ["(?P<year>\\d{4})-(?P<month>\\d{2})", "on 2026-11"])).toEqual({
      year: "2026",
      month: "11",
    });
    expect(callFunction("regex", ["^(\\w+)-(\\d+)$", "web-12"])).toEqual(["web", "12"]);
    expect(callFunction("regexall", ["[a-z]+", "ab 12 cd"])).toEqual(["ab", "cd"]);
    expect(callFunction("replace", ["hello world", "/(\\w+) (?P<second>\\w+)/", "${second} $1"])).toBe("world hello");
    expect(callFunction("replace", ["abc", "/x*/", "-"])).toBe("-a-b-c-");
    // What RE2 refuses Terraform refuses: the call fails (the evaluator reads it as not known, with why).
    expect(() => callFunction("regex", ["(a)\\1", "aa"])).toThrow(
      /^a regular expression RE2 refuses .*as Terraform does$/,
    );
  });

  it("evaluates setproduct() and refuses a product past the items budget by its size", () => {
    expect(
      callFunction("setproduct", [
        ["a", "b"],
        [1, 2],
      ]),
    ).toEqual([
      ["a", 1],
      ["a", 2],
      ["b", 1],
      ["b", 2],
    ]);
    expect(() =>
      callFunction("setproduct", [Array.from({ length: 101 }, (_, i) => i), Array.from({ length: 100 }, (_, i) => i)]),
    ).toThrow(/setproduct\(\) makes 10,100 items/);
  });
});

describe("where a refusal says it happened", () => {
  it("names a module's own file and line for what its output evaluates, not its caller's", () => {
    const files = new TerraformFiles({
      "main.tf": `module "m" {\n  source = "./m"\n}\nprovider "aws" {\n  region = module.m.big\n}\nresource "aws_s3_bucket" "b" {}\n`,
      "m/main.tf": `locals {\n  x = "xx"\n}\n\noutput "big" {\n  value = length(range(20000))\n}\n`,
    });
    expect(() => readDeployment(files)).toThrow(/^m\/main\.tf, line 6: range\(0, 20000, 1\) makes 20,000 items/);
  });
});
