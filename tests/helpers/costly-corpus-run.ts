/**
 * Evaluates the expensive-template corpus (./costly-templates.ts) in this process, one case at a
 * time, and prints one JSON line per case: its name, what became of it (read, refused by a budget,
 * refused as invalid, or anything else thrown) and how long it took. Run as a child process by
 * tests/catalogue/costly-templates.test.ts, under a heap limit, so a case that escaped the budgets
 * shows as this process's death rather than the test run's.
 *   node costly-corpus-run.ts <generated cases> <seed>
 */
import fc from "fast-check";
import { TemplateBudgetError, TemplateError } from "../../catalogue/templates/model/errors.ts";
import { readDeployment, TerraformFiles } from "../../catalogue/templates/read.ts";
import { costlyCase, ISSUE_120_CASES, type CostlyCase } from "./costly-templates.ts";

export interface CorpusOutcome {
  readonly name: string;
  readonly format: CostlyCase["format"];
  readonly bytes: number;
  readonly outcome: "read" | "budget" | "invalid" | "crash";
  readonly message?: string;
  readonly ms: number;
  readonly rssMb: number;
}

function run(one: CostlyCase): CorpusOutcome {
  const started = performance.now();
  const input = one.files ? new TerraformFiles(one.files) : one.template!;
  const bytes = one.files ? JSON.stringify(one.files).length : one.template!.length;
  let outcome: CorpusOutcome["outcome"] = "read";
  let message: string | undefined;
  try {
    readDeployment(input);
  } catch (error) {
    outcome = error instanceof TemplateBudgetError ? "budget" : error instanceof TemplateError ? "invalid" : "crash";
    message = error instanceof Error ? error.message.slice(0, 300) : String(error);
  }
  return {
    name: one.name,
    format: one.format,
    bytes,
    outcome,
    ...(message ? { message } : {}),
    ms: Math.round(performance.now() - started),
    rssMb: Math.round(process.memoryUsage().rss / 1e6),
  };
}

const [count = "100", seed = "1"] = process.argv.slice(2);
const cases = [...ISSUE_120_CASES, ...fc.sample(costlyCase, { numRuns: Number(count), seed: Number(seed) })];
for (const one of cases) process.stdout.write(`${JSON.stringify(run(one))}\n`);
