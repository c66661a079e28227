/**
 * The child process `cloud-catalogue check` reads and evaluates its input in (./bounded-read.ts): one
 * request by IPC (a file's text or a folder's files, and the inputs), one answer back — the
 * deployment, or the refusal of a template the check cannot read (400's) or that passes a budget
 * (422's) — then it exits. Whatever escapes the evaluator's budgets (its heap, its time) ends this
 * process alone; the parent says which bound it passed.
 */
import { TemplateBudgetError, TemplateError } from "../../catalogue/templates/model/errors.ts";
import {
  readDeployment,
  TerraformFiles,
  type Deployment,
  type DeploymentInputs,
} from "../../catalogue/templates/read.ts";
import type { CheckInput } from "./api.ts";

/** What the parent sends. */
export interface ReadChildRequest {
  readonly input: CheckInput;
  readonly given: DeploymentInputs;
}

/** What the child answers. */
export type ReadChildAnswer =
  | { readonly deployment: Deployment }
  | { readonly refusal: string; readonly budget: boolean }
  | { readonly crash: string };

function answerOf({ input, given }: ReadChildRequest): ReadChildAnswer {
  try {
    return {
      deployment: readDeployment(
        "template" in input ? input.template : new TerraformFiles({ ...input.files }, input.root),
        given,
      ),
    };
  } catch (error) {
    if (error instanceof TemplateBudgetError) return { refusal: error.message, budget: true };
    if (error instanceof TemplateError) return { refusal: error.message, budget: false };
    return { crash: error instanceof Error ? error.message : String(error) };
  }
}

process.once("message", (request: ReadChildRequest) => {
  process.send!(answerOf(request), () => process.disconnect());
});
