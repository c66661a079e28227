/**
 * Issue 120's hostile templates: each a few hundred bytes that cost far more to evaluate than to
 * send (an instance count, strings joined into strings, doubling chains, a backtracking regex).
 * tests/reliability/hostile-templates.test.ts sends each to a running server on every face; a
 * generated corpus (the evaluator's budgets' own builders) joins this list.
 */
import fc from "fast-check";
import { costlyCase } from "./costly-templates.ts";

/** One hostile template: its text, and whether it is a Terraform module's `.tf` file. */
export interface HostileTemplate {
  readonly name: string;
  /** The template's text (a `.tf` file's, or a JSON document's). */
  readonly text: string;
  /** A Terraform `.tf` file: the API gets it as `files` (`main.tf`), the other faces as text. */
  readonly terraform: boolean;
  /** The approved list it is checked against. */
  readonly approved: readonly string[];
  /**
   * What a right answer is besides a refusal: "answer", the check's own answer only (the
   * backtracking regex, cheap since RE2 runs it in linear time); "either", a refusal or the
   * check's answer (a generated case within the budgets, or past one). Absent: a refusal.
   */
  readonly outcome?: "answer" | "either";
}

/**
 * The evaluator's generated corpus (./costly-templates.ts), a fixed sample of the cases one text
 * carries: each within the budgets or past one, so a refusal or an answer, within the deadline.
 */
export const GENERATED_TEMPLATES: readonly HostileTemplate[] = fc
  .sample(costlyCase, { seed: 120, numRuns: 24 })
  .filter((generated) => generated.template !== undefined)
  .map((generated) => ({
    name: `generated ${generated.name}`,
    text: generated.template!,
    terraform: generated.format === "hcl",
    approved: generated.format === "arm" ? ["azure-blob-storage"] : ["aws-s3"],
    outcome: "either" as const,
  }));

const tf = (name: string, text: string): HostileTemplate => ({ name, text, terraform: true, approved: ["aws-s3"] });

/** `locals` s0…s`n`, each the previous one twice over (`join`), the last one's length deciding a count. */
function joinDoubling(n: number): string {
  const locals = [`  s0 = "aaaaaaaaaa"`];
  for (let i = 1; i <= n; i++) locals.push(`  s${i} = join("", [local.s${i - 1}, local.s${i - 1}])`);
  return `locals {\n${locals.join("\n")}\n}\nresource "aws_s3_bucket" "b" {\n  count = length(local.s${n}) > 0 ? 1 : 0\n}\n`;
}

/** An ARM template whose variables v0…v`n` are each the previous one twice over (`concat`). */
function armConcatDoubling(n: number): string {
  const variables: Record<string, string> = { v0: "aaaaaaaaaa" };
  for (let i = 1; i <= n; i++) variables[`v${i}`] = `[concat(variables('v${i - 1}'), variables('v${i - 1}'))]`;
  return JSON.stringify({
    $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
    contentVersion: "1.0.0.0",
    variables,
    resources: [
      {
        type: "Microsoft.Storage/storageAccounts",
        apiVersion: "2023-01-01",
        name: "data",
        location: `[substring(variables('v${n}'), 0, 6)]`,
        copy: { name: "copies", count: `[length(variables('v${n}'))]` },
      },
    ],
  });
}

/** The issue's cases, as it reported them. */
export const ISSUE_120_TEMPLATES: readonly HostileTemplate[] = [
  tf("count = 10000000 on one bucket", `resource "aws_s3_bucket" "b" {\n  count = 10000000\n}\n`),
  tf(
    "a join of 10,000 joins of 10,000 formatted numbers",
    `locals {\n  big  = join("", [for i in range(10000) : format("%0100d", i)])\n  huge = join("", [for i in range(10000) : local.big])\n}\nresource "aws_s3_bucket" "b" {\n  count = length(local.huge) > 0 ? 1 : 0\n}\n`,
  ),
  tf("a join doubling chain, 40 steps", joinDoubling(40)),
  {
    name: "an ARM concat doubling chain, 40 steps",
    text: armConcatDoubling(40),
    terraform: false,
    approved: ["azure-blob-storage"],
  },
  {
    ...tf(
      'regex("^(a+)+$") over 54 a\'s and a "!"',
      `resource "aws_s3_bucket" "b" {\n  count = length(regex("^(a+)+$", "${"a".repeat(54)}!"))\n}\n`,
    ),
    outcome: "answer",
  },
];
