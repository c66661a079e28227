/**
 * A CloudFormation or SAM template as a deployment: each resource evaluated (./evaluate/cloudformation.ts:
 * its Condition, its Properties' intrinsic functions), Fn::ForEach loops expanded over their
 * collection when it is known, SAM's Globals given to each function and each AWS::Serverless
 * resource expanded to what the transform creates (./sam.ts). A stack's resources go to the stack's
 * region, which the template never states: the request's region (AWS::Region) when given.
 */
import { TemplateError } from "../model/errors.ts";
import type { Deployed, Deployment, InstanceLocation, ResourceInstance } from "../model/deployment.ts";
import { budget, withBudget } from "./budget.ts";
import { CloudFormationEvaluator } from "./cloudformation-intrinsics.ts";
import { locate, replicasOf, traitsOf, unknownVersions } from "./instances.ts";
import { dependsOn, isUnknown, isValueObject, type Value } from "./values.ts";
import { IMPLICIT_NEEDS } from "../../dependencies/implicit-needs.ts";
import { resolvedDeployment } from "../resolved.ts";
import { expandServerless, SAM_TRANSFORM } from "./sam.ts";
import { versionedAttributes } from "../tables/versioned.ts";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function transforms(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((entry): entry is string => typeof entry === "string");
  return [];
}

const FOR_EACH = "Fn::ForEach::";

/** A CloudFormation or SAM template as a deployment, evaluated within the evaluation's budgets. */
export function readCloudFormation(
  template: Record<string, unknown>,
  inputs: Readonly<Record<string, unknown>> | undefined,
  region: string | undefined,
): Deployment {
  return withBudget(() => readTemplate(template, inputs, region));
}

function readTemplate(
  template: Record<string, unknown>,
  inputs: Readonly<Record<string, unknown>> | undefined,
  region: string | undefined,
): Deployment {
  const resources = template.Resources;
  if (!isObject(resources)) throw new TemplateError("A CloudFormation template needs a Resources object.");
  const sam = transforms(template.Transform).includes(SAM_TRANSFORM);
  const parameters = isObject(template.Parameters) ? template.Parameters : {};
  const cdk =
    "BootstrapVersion" in parameters ||
    Object.values(resources).some((resource) => isObject(resource) && resource.Type === "AWS::CDK::Metadata");
  const evaluator = new CloudFormationEvaluator(template, inputs, region);
  if (evaluator.unknownInputs.length > 0)
    throw new TemplateError(
      `inputs names parameters the template does not declare: ${evaluator.unknownInputs.slice(0, 8).join(", ")}.`,
    );
  const functionGlobals =
    isObject(template.Globals) && isObject(template.Globals.Function) ? template.Globals.Function : {};
  const instances: ResourceInstance[] = [];
  const expanded = new Set<string>();
  const loops: string[] = [];
  const shows = new Set<string>();
  const stackRegion = () => stackRegionOf(region);
  const read = (logicalId: string, resource: unknown, at: string) =>
    budget().at({ path: at.slice(0, 200) }, () => readResource(logicalId, resource, at));
  const readResource = (logicalId: string, resource: unknown, at: string) => {
    budget().instances(1, at.slice(0, 200));
    if (!isObject(resource) || typeof resource.Type !== "string")
      throw new TemplateError(`${at.slice(0, 120)} has no Type: every resource needs one.`);
    const type = resource.Type.startsWith("Custom::") ? "AWS::CloudFormation::CustomResource" : resource.Type;
    // The CDK's metadata resource is read by the CDK, not deployed as a service's resource.
    if (type === "AWS::CDK::Metadata") return;
    const deployed = deployedOf(evaluator, resource.Condition);
    // SAM's Globals give every function what it does not set itself (its Runtime, most often).
    const globals = sam && type === "AWS::Serverless::Function" ? functionGlobals : {};
    const raw = { ...globals, ...(isObject(resource.Properties) ? resource.Properties : {}) };
    const properties = deployed.state === "no" ? {} : evaluator.resolve(raw);
    const versioned = versionedAttributes("cloudformation-type", type, properties, logicalId);
    const versionsUnknown = unknownVersions("cloudformation-type", type, properties, logicalId);
    const instance = (item: string, from: string, withVersions: boolean): ResourceInstance => {
      const traits = traitsOf("cloudformation-type", item, properties);
      return {
        kind: "cloudformation-type",
        item,
        from,
        providerId: "aws",
        deployed,
        location: locate(item, "aws", properties, [], stackRegion),
        ...(withVersions && replicasOf(item, properties) ? { replicas: replicasOf(item, properties)! } : {}),
        ...(withVersions && versioned.length > 0 ? { versioned } : {}),
        ...(withVersions && versionsUnknown.length > 0 ? { versionsUnknown } : {}),
        ...(traits ? { traits } : {}),
      };
    };
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
  for (const [logicalId, resource] of Object.entries(resources))
    if (logicalId.startsWith(FOR_EACH))
      budget().at({ path: `Resources.${logicalId}`.slice(0, 200) }, () =>
        forEach(logicalId, resource, `Resources.${logicalId}`, read, loops, (value) => evaluator.resolve(value)),
      );
    else read(logicalId, resource, `Resources.${logicalId}`);
  return resolvedDeployment("cloudformation", instances, {
    parameterTypes: parameterTypesOf(parameters),
    cdk,
    sam,
    expanded: [...expanded].sort(),
    ...(loops.length > 0 ? { loops } : {}),
    ...(shows.size > 0 ? { shows: [...shows].sort() } : {}),
    ...(evaluator.inputs.length > 0 ? { inputs: evaluator.inputs } : {}),
  });
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
