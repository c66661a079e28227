/**
 * One evaluation's budgets (TEMPLATE_BUDGETS, ../../base/limits.ts; STYLE.md 31 "Check the bound,
 * then spend"): every evaluator step that makes instances, a collection or a string asks here first,
 * with the size it is about to make, and is refused before anything is allocated — a
 * TemplateBudgetError (422 Template too costly) naming where (the file and line, or the template's
 * path) and the bound. The budget of the evaluation running is the ambient one (withBudget): the
 * evaluators are synchronous, one evaluation at a time per thread, so the function tables
 * (hcl-functions.ts, arm-expressions.ts) and values.ts's walks charge it without a parameter in
 * every signature; a nested evaluation (a nested stack, a module) charges its caller's.
 */
import { TEMPLATE_BUDGET_WORDS, TEMPLATE_BUDGETS, type TemplateBudgetName } from "../../base/limits.ts";
import { TemplateBudgetError } from "../model/errors.ts";

/** Where the evaluator is: a file and line (Terraform), or a path in the template (JSON and YAML). */
export interface Place {
  readonly file?: string;
  readonly line?: number;
  readonly path?: string;
}

/** "main.tf, line 3" (a block's or an attribute's `where`) as the place a refusal names. */
export function placeOf(where: string): Place {
  const match = /^(.*), line (\d+)$/.exec(where);
  return match ? { file: match[1]!, line: Number(match[2]) } : { file: where };
}

const count = (value: number) => (Number.isFinite(value) ? Math.trunc(value).toLocaleString("en") : String(value));

export class EvaluationBudget {
  private instancesMade = 0;
  private steps = 0;
  private chars = 0;
  private regexWork = 0;
  private place: Place = {};

  /** What this evaluation has spent of each budget (the tests and RELIABILITY.md measure with it). */
  spent(): { instances: number; steps: number; totalChars: number; regexWork: number } {
    return { instances: this.instancesMade, steps: this.steps, totalChars: this.chars, regexWork: this.regexWork };
  }

  /** Runs `run` with the evaluator at `place` (what a refusal names); the place before is restored after. */
  at<T>(place: Place, run: () => T): T {
    const before = this.place;
    // Another file is a place of its own (its line, if any, with it); a line or a path alone is
    // within the file before.
    this.place =
      place.file !== undefined
        ? place
        : {
            ...before,
            ...(place.line !== undefined ? { line: place.line } : {}),
            ...(place.path ? { path: place.path } : {}),
          };
    try {
      return run();
    } finally {
      this.place = before;
    }
  }

  /** Where the evaluator is, as a refusal names it: "main.tf, line 3", "the template, Resources.Bucket". */
  where(): string {
    const { file, line, path } = this.place;
    const head = file ?? "the template";
    if (line !== undefined) return `${head}, line ${line}${path ? ` (${path})` : ""}`;
    return path ? `${head}, ${path}` : head;
  }

  private refuse(budget: TemplateBudgetName, what: string): never {
    throw new TemplateBudgetError(
      `${this.where()}: ${what}; an evaluation makes at most ${TEMPLATE_BUDGET_WORDS[budget]}. Check it in parts.`,
    );
  }

  /** One step of work (an expression evaluated, an item compared), or `n`. */
  step(n = 1): void {
    this.steps += n;
    if (this.steps > TEMPLATE_BUDGETS.steps) this.refuse("steps", "the evaluation takes more steps than its budget");
  }

  /** `n` resource or module instances about to be made by `what` ("count = 10,000,000"). */
  instances(n: number, what: string): void {
    if (!(n <= TEMPLATE_BUDGETS.instances - this.instancesMade))
      this.refuse("instances", `${what} makes ${count(n)} instances, ${count(this.instancesMade)} made already`);
    this.instancesMade += n;
  }

  /** One collection of `n` items about to be made by `what` ("range(10000000)"). */
  items(n: number, what: string): void {
    if (!(n <= TEMPLATE_BUDGETS.items)) this.refuse("items", `${what} makes ${count(n)} items`);
    this.step(n);
  }

  /** One string of `n` characters about to be made by `what` ("join()"). */
  string(n: number, what: string): void {
    if (!(n <= TEMPLATE_BUDGETS.stringChars))
      this.refuse("stringChars", `${what} makes a string of ${count(n)} characters`);
    this.chars += n;
    if (this.chars > TEMPLATE_BUDGETS.totalChars)
      this.refuse("totalChars", `${what} brings the strings made to ${count(this.chars)} characters`);
  }

  /** A regular expression of program size `program` about to read `length` characters, for `what`. */
  regex(program: number, length: number, what: string): void {
    const work = Math.max(1, program) * Math.max(1, length);
    this.regexWork += work;
    if (this.regexWork > TEMPLATE_BUDGETS.regexWork)
      this.refuse(
        "regexWork",
        `${what} (a pattern of size ${count(program)} over ${count(length)} characters) passes the budget`,
      );
  }
}

let active: EvaluationBudget | undefined;

/** Runs an evaluation under a budget: the one already running (a nested evaluation), else `fresh`. */
export function withBudget<T>(run: (budget: EvaluationBudget) => T, fresh = new EvaluationBudget()): T {
  if (active) return run(active);
  active = fresh;
  try {
    return run(active);
  } catch (error) {
    // A recursion past the stack (a shape no bound foresaw) ends this evaluation alone, as a budget.
    if (error instanceof RangeError && /call stack/i.test(error.message))
      throw new TemplateBudgetError(
        `${active.where()}: the evaluation nests deeper than its stack holds (values or references chained past what any real template writes). Check it in parts.`,
      );
    throw error;
  } finally {
    active = undefined;
  }
}

/** The running evaluation's budget; outside one (a function called alone), a budget of its own. */
export const budget = (): EvaluationBudget => active ?? new EvaluationBudget();
