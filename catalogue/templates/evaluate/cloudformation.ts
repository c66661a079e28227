/**
 * A CloudFormation or SAM template as a deployment: each resource evaluated (./evaluate/cloudformation.ts:
 * its Condition, its Properties' intrinsic functions), Fn::ForEach loops expanded over their
 * collection when it is known, SAM's Globals given to each function and each AWS::Serverless
 * resource expanded to what the transform creates (./sam.ts). A stack's resources go to the stack's
 * region, which the template never states: the request's region (AWS::Region) when given.
 */
import { TemplateError } from "../model/errors.ts";
import type { Deployed, Deployment, InputUse, InstanceLocation, ResourceInstance } from "../model/deployment.ts";
import { budget, withBudget } from "./budget.ts";
import { CloudFormationEvaluator } from "./cloudformation-intrinsics.ts";
import { locate, replicasOf, traitsOf, unknownVersions } from "./instances.ts";
import { dependsOn, isUnknown, isValueObject, type Value } from "./values.ts";
import { IMPLICIT_NEEDS } from "../../dependencies/implicit-needs.ts";
import { resolvedDeployment } from "../resolved.ts";
import { expandServerless, SAM_TRANSFORM } from "./sam.ts";
import { versionedAttributes } from "../tables/versioned.ts";
import {
  includedResources,
  nestedTemplateFile,
  nestedTemplateOf,
  parametersOf,
  rootContext,
  transformsOf,
  withTopLevelTransforms,
  type StackContext,
} from "./cloudformation-nested.ts";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const FOR_EACH = "Fn::ForEach::";

export function readCloudFormation(
  template: Record<string, unknown>,
  inputs: Readonly<Record<string, unknown>> | undefined,
  region: string | undefined,
  files?: { readonly files: Readonly<Record<string, string>>; readonly path: string },
): Deployment {
  return withBudget(() => readTemplate(template, inputs, region, files));
}

/** The root stack's reading, nested stacks within it, under the evaluation's budgets. */
function readTemplate(
  template: Record<string, unknown>,
  inputs: Readonly<Record<string, unknown>> | undefined,
  region: string | undefined,
  files?: { readonly files: Readonly<Record<string, string>>; readonly path: string },
): Deployment {
  const parts = stackParts(template, inputs, region, rootContext(files?.files, files?.path));
  return resolvedDeployment("cloudformation", parts.instances, {
    parameterTypes: [...parts.parameterTypes].sort(),
    cdk: parts.cdk,
    sam: parts.sam,
    expanded: [...parts.expanded].sort(),
    ...(parts.loops.length > 0 ? { loops: parts.loops } : {}),
    ...(parts.shows.size > 0 ? { shows: [...parts.shows].sort() } : {}),
    ...(parts.inputs.length > 0 ? { inputs: parts.inputs } : {}),
    // What was not read (a nested stack held elsewhere, a macro) concerns AWS's verdict.
    notRead: parts.notRead,
    notReadVendors: Object.fromEntries(parts.notRead.map((entry) => [entry, ["aws"] as const])),
    ...(parts.failures.length > 0 ? { failures: parts.failures } : {}),
  });
}

/** What a template and the nested templates it reads make, before the views the rules read. */
interface StackParts {
  readonly instances: ResourceInstance[];
  readonly parameterTypes: Set<string>;
  cdk: boolean;
  sam: boolean;
  readonly expanded: Set<string>;
  readonly loops: string[];
  readonly shows: Set<string>;
  readonly inputs: InputUse[];
  readonly notRead: string[];
  readonly failures: string[];
}

function stackParts(
  raw: Record<string, unknown>,
  inputs: Readonly<Record<string, unknown>> | undefined,
  region: string | undefined,
  context: StackContext,
  parts: StackParts = emptyParts(),
): StackParts {
  const nested = context.chain.length > 1;
  const { template, resources, sam, evaluator } = stackSetup(raw, inputs, region, context, parts);
  const { instances, expanded, loops, shows } = parts;
  const functionGlobals =
    isObject(template.Globals) && isObject(template.Globals.Function) ? template.Globals.Function : {};
  const stackRegion = () => stackRegionOf(region);
  const read = (logicalId: string, resource: unknown, at: string) =>
    budget().at({ path: at.slice(0, 200) }, () => readResource(logicalId, resource, at));
  const readResource = (logicalId: string, resource: unknown, at: string) => {
    // A resource written as an AWS::Include (or another macro) is what the snippet holds.
    if (isObject(resource) && Object.keys(resource).length === 1 && "Fn::Transform" in resource) {
      for (const [id, snippet, where] of included(logicalId, resource["Fn::Transform"], at, false))
        read(id, snippet, where);
      return;
    }
    budget().instances(1, at.slice(0, 200));
    if (!isObject(resource) || typeof resource.Type !== "string")
      throw new TemplateError(
        `${nested ? `${context.path}: ` : ""}${at.slice(0, 120)} has no Type: every resource needs one.`,
      );
    const type = resource.Type.startsWith("Custom::") ? "AWS::CloudFormation::CustomResource" : resource.Type;
    // The CDK's metadata resource is read by the CDK, not deployed as a service's resource.
    if (type === "AWS::CDK::Metadata") return;
    const deployed = deployedOf(evaluator, resource.Condition);
    // SAM's Globals give every function what it does not set itself (its Runtime, most often).
    const globals = sam && type === "AWS::Serverless::Function" ? functionGlobals : {};
    const raw = { ...globals, ...(isObject(resource.Properties) ? resource.Properties : {}) };
    const missed = evaluator.misses.length;
    const properties = deployed.state === "no" ? {} : evaluator.resolve(raw);
    // A lookup that finds nothing fails the stack (a region-keyed Mapping without the stack's region).
    if (deployed.state === "yes")
      for (const miss of evaluator.misses.slice(missed))
        parts.failures.push(`${context.prefix}${logicalId}: ${miss}, and CloudFormation fails the stack`);
    const instance = instanceOf({ type, logicalId, properties, deployed, prefix: context.prefix, stackRegion });
    // A nested stack or application: its template read where it is here, else named as not read.
    if (deployed.state !== "no" && (type !== "AWS::Serverless::Application" || sam))
      readNested(logicalId, type, properties, deployed, `${at}.Properties`, { region, context, parts });
    if (sam && type.startsWith("AWS::Serverless::")) {
      const evaluated = { ...resource, Properties: isValueObject(properties) ? properties : {} };
      expandServerless(type, evaluated).forEach((generated, index) => {
        instances.push(instance(generated, `${logicalId} (${type})`, index === 0));
        expanded.add(`${type} → ${generated}`);
      });
      return;
    }
    instances.push(instance(type, logicalId, true));
    if (deployed.state !== "no") for (const id of propertyNeeds(type, properties)) shows.add(id);
  };
  const included = (logicalId: string, transform: unknown, at: string, section: boolean) =>
    includedResources(context, parts.notRead, (value) => evaluator.resolve(value), {
      logicalId,
      transform,
      at,
      section,
    });
  readEach(
    resources,
    read,
    (id, resource) =>
      budget().at({ path: `Resources.${id}`.slice(0, 200) }, () =>
        forEach(id, resource, `Resources.${id}`, read, loops, (value) => evaluator.resolve(value)),
      ),
    (resource) => included("Fn::Transform", resource, "Resources.Fn::Transform", true),
  );
  return parts;
}

/** A resource's instance as a type it makes (its own, or one SAM's expansion generates), with its place and versions. */
function instanceOf(resource: {
  type: string;
  logicalId: string;
  properties: Value;
  deployed: Deployed;
  prefix: string;
  stackRegion: () => InstanceLocation;
}) {
  const { type, logicalId, properties, deployed, prefix, stackRegion } = resource;
  const versioned = versionedAttributes("cloudformation-type", type, properties, logicalId);
  const versionsUnknown = unknownVersions("cloudformation-type", type, properties, logicalId);
  return (item: string, from: string, withVersions: boolean): ResourceInstance => {
    const traits = traitsOf("cloudformation-type", item, properties);
    return {
      kind: "cloudformation-type",
      item,
      from: `${prefix}${from}`,
      providerId: "aws",
      deployed,
      location: locate(item, "aws", properties, [], stackRegion),
      ...(withVersions && replicasOf(item, properties) ? { replicas: replicasOf(item, properties)! } : {}),
      ...(withVersions && versioned.length > 0 ? { versioned } : {}),
      ...(withVersions && versionsUnknown.length > 0 ? { versionsUnknown } : {}),
      ...(traits ? { traits } : {}),
    };
  };
}

/** Each entry of Resources read: a resource, an Fn::ForEach loop, or the section's own include. */
function readEach(
  resources: Record<string, unknown>,
  read: (logicalId: string, resource: unknown, at: string) => void,
  loop: (logicalId: string, resource: unknown) => void,
  include: (resource: unknown) => Iterable<[string, unknown, string]>,
): void {
  for (const [logicalId, resource] of Object.entries(resources))
    if (logicalId.startsWith(FOR_EACH)) loop(logicalId, resource);
    else if (logicalId === "Fn::Transform")
      for (const [id, snippet, where] of include(resource)) read(id, snippet, where);
    else read(logicalId, resource, `Resources.${logicalId}`);
}

/** What a template's reading starts with. */
const emptyParts = (): StackParts => ({
  instances: [],
  parameterTypes: new Set(),
  cdk: false,
  sam: false,
  expanded: new Set(),
  loops: [],
  shows: new Set(),
  inputs: [],
  notRead: [],
  failures: [],
});

/**
 * A nested stack's or application's template read into the deployment with the parameters it is
 * passed, in the same region, its resources made when the stack is; or named as not read.
 */
function readNested(
  logicalId: string,
  type: string,
  properties: Value,
  deployed: Deployed,
  at: string,
  stack: { region: string | undefined; context: StackContext; parts: StackParts },
): void {
  const use = nestedTemplateOf(type, properties);
  if (!use) return;
  const { context, parts } = stack;
  const file = nestedTemplateFile(context, parts.notRead, logicalId, use, `${at}.${use.attribute}`);
  if (!file) return;
  const from = parts.instances.length;
  stackParts(file.template, parametersOf(use.parameters), stack.region, file.context, parts);
  for (let index = from; index < parts.instances.length; index++)
    parts.instances[index] = { ...parts.instances[index]!, deployed: both(deployed, parts.instances[index]!.deployed) };
}

/** A template's sections read (its top-level includes merged), its evaluator made, what it says of the deployment noted. */
function stackSetup(
  raw: Record<string, unknown>,
  inputs: Readonly<Record<string, unknown>> | undefined,
  region: string | undefined,
  context: StackContext,
  parts: StackParts,
) {
  const nested = context.chain.length > 1;
  const template = withTopLevelTransforms(raw, context, parts.notRead);
  const resources = template.Resources;
  if (!isObject(resources))
    throw new TemplateError(`${nested ? `${context.path}: ` : ""}A CloudFormation template needs a Resources object.`);
  const sam = transformsOf(template.Transform).some((use) => use.name === SAM_TRANSFORM);
  const parameters = isObject(template.Parameters) ? template.Parameters : {};
  const cdk =
    "BootstrapVersion" in parameters ||
    Object.values(resources).some((resource) => isObject(resource) && resource.Type === "AWS::CDK::Metadata");
  const evaluator = new CloudFormationEvaluator(template, inputs, region, nested ? "the parent stack" : undefined);
  if (evaluator.unknownInputs.length > 0) {
    const names = evaluator.unknownInputs.slice(0, 8).join(", ");
    if (!nested) throw new TemplateError(`inputs names parameters the template does not declare: ${names}.`);
    parts.failures.push(
      `${context.prefix.slice(0, -1)}: its template ${context.path} does not declare the parameters it is passed (${names}), and CloudFormation refuses the stack`,
    );
  }
  parts.sam ||= sam;
  parts.cdk ||= cdk;
  for (const type of parameterTypesOf(parameters)) parts.parameterTypes.add(type);
  if (!nested) parts.inputs.push(...evaluator.inputs);
  return { template, resources, sam, evaluator };
}

/** A nested resource's deployed state within its stack's: never when the stack is not, depending as it does. */
function both(parent: Deployed, child: Deployed): Deployed {
  if (parent.state === "no" || child.state === "no") return parent.state === "no" ? parent : child;
  if (parent.state === "depends" && child.state === "depends")
    return { state: "depends", on: [...new Set([...parent.on, ...child.on])].sort(), because: parent.because };
  return parent.state === "depends" ? parent : child;
}

/** The parameters' types (an SSM parameter type needs ssm:GetParameters). */
const parameterTypesOf = (parameters: Record<string, unknown>): string[] =>
  [
    ...new Set(
      Object.values(parameters)
        .map((parameter) => (isObject(parameter) ? parameter.Type : undefined))
        .filter((type): type is string => typeof type === "string"),
    ),
  ].sort();

/** Where a stack's resources go: the request's region (AWS::Region), else not known. */
function stackRegionOf(region: string | undefined): InstanceLocation {
  return region
    ? { kind: "stated", attribute: "region", value: region, via: "the request's region (AWS::Region)" }
    : {
        kind: "unknown",
        why: "the stack's region, which a template never states: give it as the request's region (--region)",
      };
}

/** A resource's Condition: deployed, not, or depending on parameters. */
function deployedOf(evaluator: CloudFormationEvaluator, condition: unknown): Deployed {
  if (condition === undefined) return { state: "yes" };
  if (typeof condition !== "string")
    throw new TemplateError("A resource's Condition names a condition of the Conditions section.");
  const value = evaluator.condition(condition);
  if (isUnknown(value))
    return { state: "depends", on: [...value.inputs], because: `its Condition ${condition} ${dependsOn(value)}` };
  return value ? { state: "yes" } : { state: "no", because: `its Condition ${condition} is false` };
}

/** The implicit-needs rows whose property trigger a resource's Properties show. */
function propertyNeeds(type: string, properties: Value): string[] {
  return IMPLICIT_NEEDS.flatMap(({ id, trigger }) =>
    trigger.kind === "property" &&
    trigger.type === type &&
    valuesAt(properties, trigger.path.split(".")).some((value) => String(value).toLowerCase() === trigger.equals)
      ? [id]
      : [],
  );
}

/** The values at a dotted path (`*`: every item of a list). */
function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  if (path.length === 0) return [value];
  const [head, ...rest] = path as [string, ...string[]];
  if (head === "*") return Array.isArray(value) ? value.flatMap((item) => valuesAt(item, rest)) : [];
  return isObject(value) && Object.hasOwn(value, head) ? valuesAt(value[head], rest) : [];
}

/**
 * Fn::ForEach (the AWS::LanguageExtensions transform): `Fn::ForEach::Name: [Identifier, Collection,
 * {OutputKey: resource}]`, an output key being a resource or a nested loop. Each output resource is
 * read once per value of the collection (a literal list, or a parameter's or mapping's value), its
 * logical id and type with `${Identifier}` (or `&{Identifier}`) replaced; a collection not known
 * here is named in `loops`, each output resource's type read once
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-foreach.html).
 */
function forEach(
  key: string,
  loop: unknown,
  at: string,
  read: (logicalId: string, resource: unknown, at: string) => void,
  loops: string[],
  resolve: (value: unknown) => Value,
  outer: (text: string) => string = (text) => text,
): void {
  if (!Array.isArray(loop) || loop.length !== 3 || typeof loop[0] !== "string" || !isObject(loop[2]))
    throw new TemplateError(
      `${at.slice(0, 120)} is not a loop CloudFormation reads: Fn::ForEach takes [identifier, collection, {output key: resource}].`,
    );
  const [identifier, collection, outputs] = loop as [string, unknown, Record<string, unknown>];
  const evaluated = resolve(collection);
  const values =
    Array.isArray(evaluated) && evaluated.every((value) => typeof value === "string") ? evaluated : undefined;
  const why = isUnknown(evaluated) ? dependsOn(evaluated) : `given by ${describe(collection)}`;
  const note = `${key.slice(FOR_EACH.length)} (its collection ${why}: each resource's type read once)`;
  if (!values && !loops.includes(note)) loops.push(note);
  // The loop's resources, nested loops' included, are charged before any is read: a loop over a
  // huge list (or loops within loops) is refused here.
  if (values && values.length > 1) budget().items(values.length, `${key.slice(0, 100)}'s collection`);
  // Each value binds the identifier, inside the loops that enclose this one (outer) as well.
  const bind = (value: string | undefined) => (text: string) =>
    value === undefined
      ? outer(text)
      : outer(text)
          .replaceAll(`\${${identifier}}`, value)
          .replaceAll(`&{${identifier}}`, value.replace(/[^A-Za-z0-9]/g, ""));
  for (const [outputKey, output] of Object.entries(outputs))
    for (const value of (values ?? [undefined]) as (string | undefined)[]) {
      const substitute = bind(value);
      if (outputKey.startsWith(FOR_EACH)) {
        forEach(outputKey, output, `${at}.${outputKey}`, read, loops, resolve, substitute);
        continue;
      }
      const resource =
        isObject(output) && typeof output.Type === "string" ? { ...output, Type: substitute(output.Type) } : output;
      read(substitute(outputKey), resource, `${at}.${outputKey}`);
    }
}

const describe = (value: unknown): string =>
  isObject(value)
    ? (Object.keys(value)[0] ?? "an object")
    : Array.isArray(value)
      ? "a list of non-strings"
      : typeof value;
