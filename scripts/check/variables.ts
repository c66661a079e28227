/**
 * `cloud-catalogue check`'s deployment inputs, as the deployment tools take them: `--var name=value` (as
 * `terraform plan -var`: a list or object written in HCL, anything else a string) and `--var-file
 * FILE` — a Terraform variable file (.tfvars, HCL or JSON), a CloudFormation parameters file (the
 * `aws cloudformation` CLI's [{ParameterKey, ParameterValue}]) or an ARM parameters file
 * ({parameters: {name: {value}}}). Later ones win, as `terraform plan` applies them in order.
 */
import { parseExpression } from "../../catalogue/templates/readers/hcl-expression.ts";
import { evaluate } from "../../catalogue/templates/evaluate/hcl-evaluate.ts";
import { readVariableFile } from "../../catalogue/templates/readers/terraform-modules.ts";
import { isUnknown, unknownInside, type Value } from "../../catalogue/templates/evaluate/values.ts";
import { TemplateError } from "../../catalogue/templates/model/errors.ts";
import { readHclBody } from "../../catalogue/templates/readers/hcl.ts";

import { CheckUsageError } from "./errors.ts";

const NO_SCOPE = {
  reference: (root: string): never => {
    throw new CheckUsageError(`${root} cannot be read in an input's value`);
  },
};

/** A Value evaluated from a literal as plain JSON (an input holds no unknown). */
function plain(value: Value, name: string): unknown {
  if (isUnknown(value) || unknownInside(value)) throw new CheckUsageError(`the value of ${name} is not a literal`);
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** One `--var name=value`. */
function variable(option: string): [string, unknown] {
  const at = option.indexOf("=");
  if (at < 1) throw new CheckUsageError(`--var takes name=value, not ${option}`);
  const name = option.slice(0, at).trim();
  const text = option.slice(at + 1);
  if (!/^\s*[[{]/.test(text)) return [name, text];
  try {
    const [block] = [readHclBody("--var", `value = ${text}\n`)];
    const tokens = block.attributes.get("value") ?? [];
    return [name, plain(evaluate(parseExpression(tokens, "--var"), NO_SCOPE), name)];
  } catch (error) {
    if (error instanceof TemplateError) throw new CheckUsageError(`--var ${name}: ${error.message}`);
    throw error;
  }
}

/** One `--var-file`'s values (its text already read within the bounds). */
function variableFile(path: string, text: string): [string, unknown][] {
  if (/^\s*[[{]/.test(text)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new CheckUsageError(`${path} starts as JSON but is not valid JSON`);
    }
    if (Array.isArray(value))
      return value.map((entry: { ParameterKey?: unknown; ParameterValue?: unknown }) => {
        if (typeof entry?.ParameterKey !== "string")
          throw new CheckUsageError(`${path}: a CloudFormation parameters file lists {ParameterKey, ParameterValue}`);
        return [entry.ParameterKey, entry.ParameterValue];
      });
    const parameters = (value as { parameters?: unknown }).parameters;
    if (typeof parameters === "object" && parameters !== null && (value as { $schema?: unknown }).$schema !== undefined)
      return Object.entries(parameters).flatMap(([name, entry]) =>
        typeof entry === "object" && entry !== null && "value" in entry
          ? [[name, (entry as { value: unknown }).value]]
          : [],
      );
    return Object.entries(value as Record<string, unknown>);
  }
  try {
    return [...readVariableFile(path, text)].map(([name, expression]) => [
      name,
      plain(evaluate(expression, NO_SCOPE), name),
    ]);
  } catch (error) {
    if (error instanceof TemplateError) throw new CheckUsageError(error.message);
    throw error;
  }
}

/** The request's inputs from the command's options, files first, in order; none given is undefined. */
export function checkInputs(
  files: readonly (readonly [string, string])[],
  variables: readonly string[],
): Record<string, unknown> | undefined {
  const entries = [...files.flatMap(([path, text]) => variableFile(path, text)), ...variables.map(variable)];
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}
