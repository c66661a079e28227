/**
 * A Terraform plan (`terraform show -json`) as a deployment: each managed resource it creates or
 * updates (resource_changes; planned_values when there are none), its values as planned (a value
 * known only after apply is Unknown), and its provider configuration from the plan's
 * configuration: `provider_config` with its expressions (a constant, or a variable whose value the
 * plan's `variables` record), the configuration a resource uses by its `provider_config_key`.
 */
import { TEMPLATE_MAX_DEPTH } from "../../base/limits.ts";
import { TemplateError } from "../model/errors.ts";
import { budget, withBudget } from "./budget.ts";
import type { Deployment } from "../model/deployment.ts";
import { terraformInstance } from "./instances.ts";
import { fromJson } from "./hcl-functions.ts";
import type { EvaluatedProvider } from "./terraform.ts";
import { isValueObject, Unknown, valueObject, type Value } from "./values.ts";
import { resolvedDeployment } from "../resolved.ts";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

interface PlanResource {
  address?: unknown;
  type?: unknown;
  mode?: unknown;
  provider_name?: unknown;
  values?: unknown;
  change?: { actions?: unknown; after?: unknown; after_unknown?: unknown };
}

/** A plan value with what it marks as known only after apply made Unknown. */
function planned(after: unknown, unknown: unknown, depth = 0): Value {
  if (unknown === true) return new Unknown([], "known after apply");
  if (depth > TEMPLATE_MAX_DEPTH) return new Unknown([], "nested too deeply");
  budget().step();
  if (Array.isArray(after))
    return after.map((item, at) => planned(item, Array.isArray(unknown) ? unknown[at] : undefined, depth + 1));
  if (isObject(after)) {
    const keys = new Set([...Object.keys(after), ...(isObject(unknown) ? Object.keys(unknown) : [])]);
    return valueObject(
      [...keys].map((key) => [key, planned(after[key], isObject(unknown) ? unknown[key] : undefined, depth + 1)]),
    );
  }
  return fromJson(after);
}

/** Instance keys taken off an address: module.a["x"].aws_s3_bucket.b[0] → module.a.aws_s3_bucket.b. */
const configAddress = (address: string) => address.replace(/\[[^\]]*\]/g, "");

/** The plan's provider configurations, evaluated, and each configured resource's configuration key. */
function providerConfigs(plan: Record<string, unknown>) {
  const configuration = isObject(plan.configuration) ? plan.configuration : {};
  const variables = isObject(plan.variables) ? plan.variables : {};
  const providers = new Map<string, EvaluatedProvider>();
  const raw = isObject(configuration.provider_config) ? configuration.provider_config : {};
  for (const [key, config] of Object.entries(raw)) {
    if (!isObject(config)) continue;
    const expressions = isObject(config.expressions) ? config.expressions : {};
    const attributes: [string, Value][] = [];
    for (const [name, expression] of Object.entries(expressions)) {
      if (!isObject(expression)) continue;
      if ("constant_value" in expression) attributes.push([name, fromJson(expression.constant_value)]);
      else if (Array.isArray(expression.references)) {
        const reference = expression.references.find((item): item is string => typeof item === "string");
        const variable = reference?.startsWith("var.") ? variables[reference.slice(4)] : undefined;
        attributes.push([
          name,
          isObject(variable) && "value" in variable
            ? fromJson(variable.value)
            : new Unknown([], `${reference ?? "an expression"} in the configuration, which the plan does not record`),
        ]);
      }
    }
    providers.set(key, { key, attributes: valueObject(attributes) });
  }
  const keys = new Map<string, string>();
  const walk = (module: unknown, prefix: string) => {
    if (!isObject(module)) return;
    for (const resource of Array.isArray(module.resources) ? module.resources : [])
      if (
        isObject(resource) &&
        typeof resource.address === "string" &&
        typeof resource.provider_config_key === "string"
      )
        keys.set(`${prefix}${resource.address}`, resource.provider_config_key);
    const calls = isObject(module.module_calls) ? module.module_calls : {};
    for (const [name, call] of Object.entries(calls)) if (isObject(call)) walk(call.module, `${prefix}module.${name}.`);
  };
  walk(configuration.root_module, "");
  return { providers, keys };
}

/** A Terraform plan as a deployment, read within the evaluation's budgets. */
export function readTerraformPlan(plan: Record<string, unknown>, region: string | undefined): Deployment {
  return withBudget(() => readPlan(plan, region));
}

function readPlan(plan: Record<string, unknown>, region: string | undefined): Deployment {
  const { providers, keys } = providerConfigs(plan);
  const providerOf = (address: string, type: string): EvaluatedProvider => {
    const key = keys.get(configAddress(address)) ?? type.slice(0, Math.max(0, type.indexOf("_")));
    // A child module's inherited configuration is recorded under the parent's key.
    return (
      providers.get(key) ??
      providers.get(key.replace(/^.*:/, "")) ?? { key: key.replace(/^.*:/, ""), attributes: valueObject() }
    );
  };
  const resources: ReturnType<typeof terraformInstance>[] = [];
  const add = (resource: PlanResource, values: Value) => {
    if (resource.mode !== undefined && resource.mode !== "managed") return;
    if (typeof resource.type !== "string") throw new TemplateError("A Terraform plan resource has no type.");
    const address = typeof resource.address === "string" ? resource.address.slice(0, 120) : resource.type;
    budget().instances(1, address);
    resources.push(
      terraformInstance(
        {
          mode: "resource",
          type: resource.type,
          address,
          where: address,
          attributes: isValueObject(values) ? values : valueObject(),
          provider: providerOf(address, resource.type),
          deployed: { state: "yes" },
        },
        region,
      ),
    );
  };
  if (Array.isArray(plan.resource_changes)) {
    for (const change of plan.resource_changes as PlanResource[]) {
      const actions = Array.isArray(change.change?.actions) ? change.change.actions : [];
      // A resource the plan deletes or leaves alone asks nothing of the policy.
      if (actions.length > 0 && actions.every((action) => action === "delete" || action === "no-op")) continue;
      add(change, planned(change.change?.after, change.change?.after_unknown));
    }
    return resolvedDeployment("terraform-plan", resources);
  }
  const walk = (module: unknown) => {
    if (!isObject(module)) return;
    for (const resource of (Array.isArray(module.resources) ? module.resources : []) as PlanResource[])
      add(resource, fromJson(resource.values));
    for (const child of Array.isArray(module.child_modules) ? module.child_modules : []) walk(child);
  };
  walk(isObject(plan.planned_values) ? plan.planned_values.root_module : undefined);
  return resolvedDeployment("terraform-plan", resources);
}
