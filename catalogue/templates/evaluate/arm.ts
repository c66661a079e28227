/**
 * An ARM template (what `bicep build` writes too) as a deployment: every resource evaluated
 * (./evaluate/arm.ts) — its condition, copy loop, name, location, kind and properties — in the
 * scope it deploys to: the request's parameter values (a parameters file's), else their defaults;
 * resourceGroup().location and a subscription deployment's location from the request's region; a
 * nested deployment (Bicep's modules) with the parameters it passes, in the resource group it
 * names. Nested resources get their full type (parent type / child name). A linked template
 * (properties.templateLink) lives elsewhere and is never fetched: it is listed in notRead.
 */
import { ARM_COPY_LIMITS_URL, ARM_COPY_MAX } from "../../base/limits.ts";
import { TemplateBudgetError, TemplateError } from "../model/errors.ts";
import { budget, withBudget } from "./budget.ts";
import type { Deployed, Deployment, InputUse, InstanceLocation, ResourceInstance } from "../model/deployment.ts";
import { resolveArm, type ArmContext } from "./arm-expressions.ts";
import { fromJson } from "./hcl-functions.ts";
import { locate, replicasOf, traitsOf, unknownVersions } from "./instances.ts";
import { asBoolean, dependsOn, isUnknown, jsonPreview, Unknown, valueObject, type Value } from "./values.ts";
import { resolvedDeployment } from "../resolved.ts";
import { versionedAttributes } from "../tables/versioned.ts";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** ARM resources: an array, or (languageVersion 2.0, Bicep with symbolic names) an object keyed by name. */
const armResources = (value: unknown): [string | undefined, unknown][] =>
  Array.isArray(value) ? value.map((item) => [undefined, item]) : isObject(value) ? Object.entries(value) : [];

/** The linked template's URI as written (an expression is kept as text), for the answer. */
const linkOf = (link: unknown): string => {
  const uri = isObject(link) ? (link.uri ?? link.id ?? link.relativePath) : undefined;
  return typeof uri === "string" ? uri.slice(0, 200) : "(no uri)";
};

const MAX_NESTING = 10;

/**
 * A copy loop's count past Azure's limit is refused as Azure refuses it (its deployment fails), with
 * Azure's words; within it, the copies are charged to the instances budget before any is made.
 */
function copyCount(total: number, what: string): void {
  if (total > ARM_COPY_MAX)
    throw new TemplateBudgetError(
      `${budget().where()}: ${what} has a copy count of ${total.toLocaleString("en")}; Azure Resource Manager refuses it before deploying: "The count can't exceed ${ARM_COPY_MAX}." (${ARM_COPY_LIMITS_URL}).`,
    );
}

/** Where a template's resources go when they do not say: its resource group's location, or its deployment's. */
interface Placement {
  readonly resourceGroupLocation: Value;
  readonly deploymentLocation: Value;
}

interface Frame {
  readonly template: Record<string, unknown>;
  /** The resource groups the deployment creates, by name, with their locations. */
  readonly groups: Map<string, Value>;
  readonly parameters: (name: string) => Value;
  readonly placement: Placement;
  readonly copies: ReadonlyMap<string, Value>;
  readonly innermostCopy: Value | undefined;
  readonly deployed: Deployed;
  readonly depth: number;
}

const YES: Deployed = { state: "yes" };

function both(parent: Deployed, child: Deployed): Deployed {
  if (parent.state === "no") return parent;
  if (child.state === "no") return child;
  if (parent.state === "depends" && child.state === "depends")
    return { state: "depends", on: [...new Set([...parent.on, ...child.on])].sort(), because: parent.because };
  return parent.state === "depends" ? parent : child;
}

/** An ARM template as a deployment, evaluated within the evaluation's budgets. */
export function readArm(
  template: Record<string, unknown>,
  given: Readonly<Record<string, unknown>> | undefined,
  region: string | undefined,
): Deployment {
  return withBudget(() => readArmTemplate(template, given, region));
}

function readArmTemplate(
  template: Record<string, unknown>,
  given: Readonly<Record<string, unknown>> | undefined,
  region: string | undefined,
): Deployment {
  const instances: ResourceInstance[] = [];
  const notRead: string[] = [];
  const inputs: InputUse[] = [];
  const regionValue = region ?? new Unknown(["resourceGroup().location"], "the resource group's location");
  const declared = isObject(template.parameters) ? template.parameters : {};
  const unknownNames = Object.keys(given ?? {}).filter((name) => !Object.hasOwn(declared, name));
  if (unknownNames.length > 0)
    throw new TemplateError(
      `inputs names parameters the template does not declare: ${unknownNames.slice(0, 8).join(", ")}.`,
    );
  const subscriptionScope =
    /subscriptionDeploymentTemplate|managementGroupDeploymentTemplate|tenantDeploymentTemplate/i.test(
      typeof template.$schema === "string" ? template.$schema : "",
    );
  const placement: Placement = {
    resourceGroupLocation: subscriptionScope
      ? new Unknown([], "resourceGroup() at subscription scope")
      : (region ?? new Unknown(["resourceGroup().location"], "the resource group's location")),
    deploymentLocation: subscriptionScope
      ? (region ?? new Unknown(["deployment().location"], "the deployment's location"))
      : regionValue,
  };
  const values = given
    ? Object.fromEntries(
        Object.entries(given).map(([name, value]) => [name, fromJson(armInput(name, declared[name], value))]),
      )
    : undefined;
  // The parameters' defaults are evaluated in the frame they belong to, once it is made.
  const frame: Frame = {
    template,
    groups: new Map(),
    parameters: parameterReader(
      template,
      values,
      () => frame,
      (use) => inputs.push(use),
    ),
    placement,
    copies: new Map(),
    innermostCopy: undefined,
    deployed: YES,
    depth: 0,
  };
  walkTemplate(frame, undefined, "resources", instances, notRead, template.resources);
  return resolvedDeployment("arm", instances, {
    notRead,
    ...(inputs.length > 0 ? { inputs } : {}),
  });
}

/**
 * A value given for a parameter, as its declared type takes it: as Azure Resource Manager refuses a
 * deployment whose value is not of the parameter's type, the check refuses it (a 400) rather than
 * read it as no value (issue 126: an int given "two" left its resources "depends on inputs"). An
 * int or bool written as text (`--var count=2`, as `az deployment … --parameters count=2` takes it)
 * is read as one. null is left to the parameter (a nullable one takes it).
 */
function armInput(name: string, parameter: unknown, value: unknown): unknown {
  const type = isObject(parameter) && typeof parameter.type === "string" ? parameter.type.toLowerCase() : undefined;
  if (value === null || type === undefined) return value;
  const refuse = (kind: string): never => {
    throw new TemplateError(
      `inputs.${name}: the template declares ${name} ${kind}; ${JSON.stringify(value).slice(0, 60)} is not one.`,
    );
  };
  switch (type) {
    case "int":
      if (typeof value === "number" && Number.isSafeInteger(value)) return value;
      if (typeof value === "string" && /^\s*-?\d{1,15}\s*$/.test(value)) return Number(value);
      return refuse("an int");
    case "bool":
      if (typeof value === "boolean") return value;
      if (typeof value === "string" && /^\s*(true|false)\s*$/i.test(value))
        return value.trim().toLowerCase() === "true";
      return refuse("a bool");
    case "string":
    case "securestring":
      return typeof value === "string" ? value : refuse("a string");
    case "array":
      return Array.isArray(value) ? value : refuse("an array");
    case "object":
    case "secureobject":
      return isObject(value) ? value : refuse("an object");
    default:
      return value;
  }
}

/** A template's parameter reader: given values first, else defaults (evaluated in the template's scope), each read once. */
function parameterReader(
  template: Record<string, unknown>,
  given: Readonly<Record<string, Value>> | undefined,
  frame: () => Frame,
  record?: (use: InputUse) => void,
): (name: string) => Value {
  const declared = isObject(template.parameters) ? template.parameters : {};
  const values = new Map<string, Value>();
  const reading = new Set<string>();
  return (name) => {
    const key = Object.keys(declared).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    if (key === undefined) return new Unknown([], `parameters('${name.slice(0, 60)}') is not declared`);
    const known = values.get(key);
    if (known !== undefined) return known;
    if (reading.has(key)) return new Unknown([], `parameters('${key}') refers to itself`);
    reading.add(key);
    const parameter = declared[key];
    let value: Value;
    let source: string;
    if (given && Object.hasOwn(given, key)) {
      value = given[key]!;
      source = "the request";
    } else if (isObject(parameter) && parameter.defaultValue !== undefined) {
      value = budget().at({ path: `parameters.${key}` }, () => resolveArm(parameter.defaultValue, context(frame())));
      source = "its default";
    } else if (isObject(parameter) && parameter.nullable === true) {
      // Bicep's optional parameters (type?) are nullable: given nothing, they are null.
      value = null;
      source = "its default";
    } else {
      value = new Unknown([`parameters('${key}')`]);
      source = "no value";
    }
    reading.delete(key);
    values.set(key, value);
    record?.({
      name: `parameters('${key}')`,
      source,
      ...(isUnknown(value) ? {} : { value: jsonPreview(value, 200) }),
    });
    return value;
  };
}

function context(frame: Frame): ArmContext {
  const variables = isObject(frame.template.variables) ? frame.template.variables : {};
  const cache = new Map<string, Value>();
  const self: ArmContext = {
    parameter: frame.parameters,
    variable: (name) => {
      const key = Object.keys(variables).find(
        (candidate) => candidate !== "copy" && candidate.toLowerCase() === name.toLowerCase(),
      );
      const loop = Array.isArray(variables.copy)
        ? (variables.copy as unknown[]).find(
            (entry) => isObject(entry) && String(entry.name).toLowerCase() === name.toLowerCase(),
          )
        : undefined;
      if (key === undefined && !isObject(loop))
        return new Unknown([], `variables('${name.slice(0, 60)}') is not declared`);
      const id = key ?? name.toLowerCase();
      if (!cache.has(id)) {
        cache.set(id, new Unknown([], `variables('${id}') refers to itself`));
        cache.set(
          id,
          budget().at({ path: `variables.${key ?? name}` }, () =>
            key !== undefined
              ? resolveArm(variables[key], self)
              : copiedVariable(loop as Record<string, unknown>, frame),
          ),
        );
      }
      return cache.get(id)!;
    },
    resourceGroup: () =>
      valueObject([
        ["location", frame.placement.resourceGroupLocation],
        ["name", new Unknown([], "the resource group's name")],
        ["id", new Unknown([], "the resource group's id")],
      ]),
    subscription: () =>
      valueObject([
        ["subscriptionId", new Unknown([], "the subscription's id")],
        ["id", new Unknown([], "the subscription's id")],
      ]),
    deployment: () =>
      valueObject([
        ["name", new Unknown([], "the deployment's name")],
        ["location", frame.placement.deploymentLocation],
      ]),
    copyIndex: (loop) =>
      loop === undefined
        ? (frame.innermostCopy ?? new Unknown([], "copyIndex() outside a copy loop"))
        : (frame.copies.get(loop) ?? new Unknown([], `copyIndex('${loop}') outside that loop`)),
  };
  return self;
}

/** A variable made by a copy loop (variables.copy: {name, count, input}): each input with its copyIndex(name). */
function copiedVariable(loop: Record<string, unknown>, frame: Frame): Value {
  const name = String(loop.name);
  const count = resolveArm(loop.count, context(frame));
  if (isUnknown(count)) return count;
  const total = Number(count);
  if (!Number.isInteger(total) || total < 0)
    return new Unknown([], `variables('${name}')'s copy count is not a whole number`);
  copyCount(total, `the variable copy loop ${name.slice(0, 60)}`);
  budget().items(total, `the variable copy loop ${name.slice(0, 60)}`);
  return Array.from({ length: total }, (_, index) =>
    resolveArm(
      loop.input,
      context({ ...frame, copies: new Map([...frame.copies, [name, index]]), innermostCopy: index }),
    ),
  );
}

/** A resource's condition: deployed, not, or depending on parameters. */
function conditionOf(value: unknown, frame: Frame): Deployed {
  if (value === undefined) return YES;
  const truth = asBoolean(resolveArm(value, context(frame)));
  if (isUnknown(truth))
    return { state: "depends", on: [...truth.inputs], because: `its condition ${dependsOn(truth)}` };
  return truth ? YES : { state: "no", because: "its condition is false" };
}

/** A copy loop's iterations: each index bound, or one iteration whose index is Unknown. */
function copiesOf(copy: unknown, frame: Frame): { frame: Frame; deployed: Deployed }[] {
  if (!isObject(copy)) return [{ frame, deployed: YES }];
  const name = typeof copy.name === "string" ? copy.name : "copy";
  const count = resolveArm(copy.count, context(frame));
  const bind = (index: Value): Frame => ({
    ...frame,
    copies: new Map([...frame.copies, [name, index]]),
    innermostCopy: index,
  });
  if (isUnknown(count))
    return [
      {
        frame: bind(count),
        deployed: { state: "depends", on: [...count.inputs], because: `its copy count ${dependsOn(count)}` },
      },
    ];
  const total = Number(count);
  if (!Number.isInteger(total) || total < 0)
    return [
      {
        frame: bind(new Unknown([])),
        deployed: { state: "depends", on: [], because: "its copy count is not a whole number" },
      },
    ];
  if (total === 0) return [{ frame, deployed: { state: "no", because: "its copy count is 0" } }];
  copyCount(total, `the copy loop ${name.slice(0, 60)}`);
  // One instance is charged as each is pushed; the rest of the loop is charged here, before it is made.
  budget().instances(total - 1, `the copy loop ${name.slice(0, 60)}`);
  return Array.from({ length: total }, (_, index) => ({ frame: bind(index), deployed: YES }));
}

function walkTemplate(
  frame: Frame,
  parentType: string | undefined,
  path: string,
  instances: ResourceInstance[],
  notRead: string[],
  resources: unknown,
): void {
  armResources(resources).forEach(([symbolic, resource], index) => {
    const at = `${path}[${symbolic ?? index}]`;
    budget().at({ path: at }, () => walkResource(frame, parentType, at, symbolic, resource, instances, notRead));
  });
}

function walkResource(
  frame: Frame,
  parentType: string | undefined,
  at: string,
  symbolic: string | undefined,
  resource: unknown,
  instances: ResourceInstance[],
  notRead: string[],
): void {
  if (!isObject(resource) || typeof resource.type !== "string")
    throw new TemplateError(`${at} has no type: every ARM resource needs one.`);
  // `existing` resources (Bicep's `existing` keyword) are read, not deployed: the policy never sees them.
  if (resource.existing === true) return;
  const type =
    parentType && !resource.type.includes("/") ? `${parentType}/${resource.type}` : resource.type.split("@")[0]!;
  const condition = conditionOf(resource.condition, frame);
  const copies = copiesOf(resource.copy, frame);
  for (const copy of copies) {
    if (copy === copies[0]) budget().instances(1, at);
    const deployed = both(frame.deployed, both(condition, copy.deployed));
    const here = { ...copy.frame, deployed };
    const scope = context(here);
    const evaluated = deployed.state === "no" ? valueObject() : resolveArm(resource, scope);
    const name =
      evaluated && !isUnknown(evaluated) && typeof (evaluated as Record<string, Value>).name === "string"
        ? ((evaluated as Record<string, Value>).name as string).slice(0, 80)
        : typeof resource.name === "string"
          ? (symbolic ?? resource.name).slice(0, 80)
          : at;
    const fallback = (): InstanceLocation => ({ kind: "none" });
    if (
      type.toLowerCase() === "microsoft.resources/resourcegroups" &&
      isObject(evaluated) &&
      typeof evaluated.name === "string"
    )
      here.groups.set(evaluated.name.toLowerCase(), (evaluated as Record<string, Value>).location ?? null);
    const traits = traitsOf("azure-type", type, evaluated);
    const versioned = versionedAttributes("azure-type", type, evaluated, name);
    const versionsUnknown = unknownVersions("azure-type", type, evaluated, name);
    const replicas = replicasOf(type, evaluated);
    instances.push({
      kind: "azure-type",
      item: type,
      from: name,
      providerId: "azure",
      deployed,
      location: locate(type, "azure", evaluated, ["location"], fallback),
      ...(replicas ? { replicas } : {}),
      ...(versioned.length > 0 ? { versioned } : {}),
      ...(versionsUnknown.length > 0 ? { versionsUnknown } : {}),
      ...(traits ? { traits } : {}),
    });
    walkTemplate(here, type, `${at}.resources`, instances, notRead, resource.resources);
    const properties = isObject(resource.properties) ? resource.properties : undefined;
    const inner = properties?.template;
    if (isObject(inner)) {
      if (here.depth >= MAX_NESTING) notRead.push(`${name}: nested deployments deeper than ${MAX_NESTING} (${at})`);
      else {
        const innerFrame = nested(here, inner, properties!, evaluated);
        walkTemplate(innerFrame, undefined, `${at}.properties.template.resources`, instances, notRead, inner.resources);
      }
    }
    const link = properties?.templateLink;
    if (link !== undefined && !isObject(inner))
      notRead.push(`${name}: linked template ${linkOf(link)} (${at}.properties.templateLink)`);
  }
}

/**
 * A nested deployment's frame: with expressionEvaluationOptions.scope inner (Bicep's modules), the
 * inner template's own parameters from what the deployment passes; else the outer template's. Its
 * resource group is the one it names (its location not known unless the request gives one) or the
 * outer's.
 */
function nested(
  outer: Frame,
  template: Record<string, unknown>,
  properties: Record<string, unknown>,
  evaluated: Value,
): Frame {
  const scopeInner =
    isObject(properties.expressionEvaluationOptions) &&
    String(properties.expressionEvaluationOptions.scope).toLowerCase() === "inner";
  const evaluatedProperties =
    evaluated && !isUnknown(evaluated) ? (evaluated as Record<string, Value>).properties : undefined;
  const passedRaw = isObject(evaluatedProperties)
    ? (evaluatedProperties as Record<string, Value>).parameters
    : undefined;
  const passed: Record<string, Value> = {};
  if (isObject(passedRaw))
    for (const [name, entry] of Object.entries(passedRaw as Record<string, Value>))
      if (isObject(entry) && Object.hasOwn(entry, "value")) passed[name] = (entry as Record<string, Value>).value!;
  const group = evaluated && !isUnknown(evaluated) ? (evaluated as Record<string, Value>).resourceGroup : undefined;
  const location = evaluated && !isUnknown(evaluated) ? (evaluated as Record<string, Value>).location : undefined;
  // The resource group it names: one this deployment creates has its location; another is not known.
  const groupLocation =
    group === undefined
      ? outer.placement.resourceGroupLocation
      : typeof group === "string" && outer.groups.has(group.toLowerCase())
        ? outer.groups.get(group.toLowerCase())!
        : new Unknown(["resourceGroup().location"], "the resource group's location");
  const placement: Placement = {
    resourceGroupLocation: groupLocation,
    deploymentLocation: location ?? outer.placement.deploymentLocation,
  };
  const frame: Frame = {
    ...outer,
    template: scopeInner ? template : { ...template, variables: outer.template.variables },
    parameters: scopeInner ? parameterReader(template, passed, () => frame) : outer.parameters,
    placement,
    depth: outer.depth + 1,
  };
  return frame;
}
