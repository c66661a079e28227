/**
 * CloudFormation's intrinsic functions evaluated as a stack's creation would
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html):
 * Parameters (the request's values, else their defaults), pseudo parameters (AWS::Region from the
 * request), Mappings with Fn::FindInMap, Conditions with Fn::Equals, And, Or, Not and Fn::If,
 * Ref, Fn::Sub, Join, Select, Split, Length and ToJsonString. What only the deployment knows (a
 * resource's Ref or attribute, a value from SSM Parameter Store or another stack) is Unknown naming
 * why; a parameter without a value is Unknown naming it.
 */
import { TEMPLATE_MAX_DEPTH } from "../../base/limits.ts";
import { budget } from "./budget.ts";
import { fromJson } from "./hcl-functions.ts";
import {
  asText,
  isUnknown,
  isValueObject,
  jsonPreview,
  jsonText,
  own,
  textOf,
  Unknown,
  unknownOf,
  valueObject,
  valuesEqual,
  type Value,
  type ValueObject,
} from "./values.ts";
import type { InputUse } from "../model/deployment.ts";

/** AWS::NoValue: a property given it is removed. */
const NO_VALUE = Symbol("AWS::NoValue");
type Evaluated = Value | typeof NO_VALUE;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The partition of a region (https://docs.aws.amazon.com/whitepapers/latest/aws-fault-isolation-boundaries/partitions.html). */
function partitionOf(region: string): string {
  if (region.startsWith("cn-")) return "aws-cn";
  if (region.startsWith("us-gov-")) return "aws-us-gov";
  if (region.startsWith("eusc-")) return "aws-eusc";
  return "aws";
}

export class CloudFormationEvaluator {
  private readonly parameters = new Map<string, Value>();
  private readonly conditionValues = new Map<string, boolean | Unknown>();
  private readonly evaluating = new Set<string>();
  readonly inputs: InputUse[] = [];
  private readonly template: Record<string, unknown>;
  private readonly region: string | undefined;
  private readonly resources: ReadonlySet<string>;

  /** Fn::FindInMap lookups that found nothing where every key was known: CloudFormation fails the stack on one. */
  readonly misses: string[] = [];
  /** Inside an Fn::If whose condition is not known: a branch evaluated may never be taken. */
  private speculative = 0;

  /** `givenBy` names where the given values come from: the request, or a parent stack's Parameters. */
  constructor(
    template: Record<string, unknown>,
    given: Readonly<Record<string, unknown>> | undefined,
    region: string | undefined,
    givenBy = "the request",
  ) {
    this.template = template;
    this.region = region;
    this.resources = new Set(isObject(template.Resources) ? Object.keys(template.Resources) : []);
    const declared = isObject(template.Parameters) ? template.Parameters : {};
    for (const [name, parameter] of Object.entries(declared)) {
      const type = isObject(parameter) && typeof parameter.Type === "string" ? parameter.Type : "String";
      const value = given && Object.hasOwn(given, name) ? given[name] : undefined;
      const fallback = isObject(parameter) ? parameter.Default : undefined;
      let resolved: Value;
      let source: string;
      if (type.startsWith("AWS::SSM::Parameter::Value")) {
        // The value is the SSM parameter's, read when the stack is made; the default names the parameter.
        resolved = new Unknown(
          [],
          `read from SSM Parameter Store (${(typeof (value ?? fallback) === "string" ? ((value ?? fallback) as string) : name).slice(0, 80)}) when the stack is made`,
        );
        source = "SSM Parameter Store";
      } else if (value !== undefined) {
        // A parent stack may pass what is known only when it is made.
        resolved = isUnknown(value)
          ? value
          : budget().at({ path: `Parameters.${name}` }, () => listOf(type, fromJson(value)));
        source = givenBy;
      } else if (fallback !== undefined) {
        resolved = budget().at({ path: `Parameters.${name}` }, () => listOf(type, fromJson(fallback)));
        source = "its default";
      } else {
        resolved = new Unknown([`parameter ${name}`]);
        source = "no value";
      }
      this.parameters.set(name, resolved);
      this.inputs.push({
        name: `parameter ${name}`,
        source,
        ...(isUnknown(resolved) ? {} : { value: jsonPreview(resolved, 200) }),
      });
    }
    const unknownNames = Object.keys(given ?? {}).filter((name) => !this.parameters.has(name));
    if (unknownNames.length > 0) this.unknownInputs = unknownNames;
  }

  /** Names the request gave that the template does not declare as parameters. */
  unknownInputs: readonly string[] = [];

  /** A condition's value by name (Conditions section). */
  condition(name: string): boolean | Unknown {
    const known = this.conditionValues.get(name);
    if (known !== undefined) return known;
    const conditions = isObject(this.template.Conditions) ? this.template.Conditions : {};
    if (!Object.hasOwn(conditions, name)) return new Unknown([], `the condition ${name} is not declared`);
    if (this.evaluating.has(name)) return new Unknown([], `the condition ${name} refers to itself`);
    this.evaluating.add(name);
    const value = this.truth(this.evaluate(conditions[name]));
    this.evaluating.delete(name);
    this.conditionValues.set(name, value);
    return value;
  }

  private truth(value: Evaluated): boolean | Unknown {
    if (value === NO_VALUE) return new Unknown([], "AWS::NoValue as a condition");
    if (isUnknown(value)) return value;
    if (typeof value === "boolean") return value;
    if (value === "true" || value === "false") return value === "true";
    return new Unknown([], "a condition that is not true or false");
  }

  /** A template value with its intrinsic functions evaluated (AWS::NoValue drops the property). */
  resolve(value: unknown): Value {
    const result = this.evaluate(value);
    return result === NO_VALUE ? null : result;
  }

  private evaluate(value: unknown, depth = 0): Evaluated {
    if (depth > TEMPLATE_MAX_DEPTH) return new Unknown([], "nested too deeply");
    budget().step();
    if (Array.isArray(value)) {
      const items = value.map((item) => this.evaluate(item, depth + 1));
      return items.filter((item): item is Value => item !== NO_VALUE);
    }
    if (!isObject(value)) return (value ?? null) as Value;
    const keys = Object.keys(value);
    if (keys.length === 1) {
      const key = keys[0]!;
      const argument = value[key];
      const intrinsic = this.intrinsic(key, argument, depth);
      if (intrinsic !== undefined) return intrinsic;
    }
    const entries: [string, Value][] = [];
    for (const key of keys) {
      const item = this.evaluate(value[key], depth + 1);
      if (item !== NO_VALUE) entries.push([key, item]);
    }
    return valueObject(entries);
  }

  private intrinsic(key: string, argument: unknown, depth: number): Evaluated | undefined {
    const inner = (item: unknown) => this.evaluate(item, depth + 1);
    const args = Array.isArray(argument) ? argument : [argument];
    const logical = this.logical(key, args, inner);
    if (logical !== undefined) return logical;
    switch (key) {
      case "Ref":
        return typeof argument === "string" ? this.ref(argument) : new Unknown([], "a Ref that names nothing");
      case "Condition":
        return typeof argument === "string"
          ? this.condition(argument)
          : new Unknown([], "a Condition that names nothing");
      case "Fn::FindInMap":
        return this.findInMap(args.map(inner));
      case "Fn::Sub":
        return this.sub(args, inner);
      case "Fn::Join": {
        const [separator, items] = [inner(args[0]), inner(args[1])];
        if (isUnknown(separator) || isUnknown(items)) return unknownOf([separator as Value, items as Value]);
        if (!Array.isArray(items)) return new Unknown([], "an Fn::Join of something other than a list");
        const parts = (items as Value[]).map(asText);
        const unknown = parts.filter(isUnknown);
        if (unknown.length > 0) return unknownOf(unknown);
        const joiner = textOf(separator as Value);
        // A YAML alias of a long string joined many times: the length is checked before the string is made.
        budget().string(
          (parts as string[]).reduce((sum, part) => sum + part.length, 0) +
            joiner.length * Math.max(0, parts.length - 1),
          "Fn::Join",
        );
        return (parts as string[]).join(joiner);
      }
      case "Fn::Select": {
        const [index, items] = [inner(args[0]), inner(args[1])];
        if (isUnknown(index) || isUnknown(items)) return unknownOf([index as Value, items as Value]);
        const list = Array.isArray(items) ? (items as Value[]) : undefined;
        const at = Number(index);
        return list && Number.isInteger(at) && at >= 0 && at < list.length
          ? list[at]!
          : new Unknown([], "an Fn::Select outside its list");
      }
      case "Fn::Split": {
        const [separator, text] = [inner(args[0]), inner(args[1])];
        if (isUnknown(separator) || isUnknown(text)) return unknownOf([separator as Value, text as Value]);
        return splitChecked(textOf(text as Value), textOf(separator as Value), "Fn::Split");
      }
      case "Fn::Length": {
        const items = inner(argument);
        return isUnknown(items)
          ? items
          : Array.isArray(items)
            ? items.length
            : new Unknown([], "an Fn::Length of something other than a list");
      }
      case "Fn::ToJsonString": {
        const item = inner(argument);
        return isUnknown(item) ? item : jsonText(item === NO_VALUE ? null : item, "Fn::ToJsonString");
      }
      case "Fn::Base64":
        return inner(argument);
      case "Fn::GetAtt":
        return new Unknown([], "a resource's attribute, known when it is created");
      case "Fn::GetAZs":
        return new Unknown([], "the region's Availability Zones, known when the stack is made");
      case "Fn::ImportValue":
        return new Unknown([], "exported by another stack");
      case "Fn::Cidr":
        return new Unknown([], "computed address ranges");
      case "Fn::Transform":
        return new Unknown([], "a macro's output, known when the stack is made");
    }
    return undefined;
  }

  /** The condition functions: Fn::If, Equals, Not, And, Or. */
  private logical(key: string, args: readonly unknown[], inner: (item: unknown) => Evaluated): Evaluated | undefined {
    switch (key) {
      case "Fn::If": {
        if (args.length !== 3 || typeof args[0] !== "string")
          return new Unknown([], "an Fn::If that is not [condition, then, else]");
        const test = this.condition(args[0]);
        if (!isUnknown(test)) return inner(test ? args[1] : args[2]);
        this.speculative++;
        const then = inner(args[1]);
        const otherwise = inner(args[2]);
        this.speculative--;
        if (then !== NO_VALUE && otherwise !== NO_VALUE && valuesEqual(then, otherwise) === true) return then;
        return unknownOf([test, ...[then, otherwise].filter((item): item is Value => item !== NO_VALUE)]);
      }
      case "Fn::Equals": {
        const [a, b] = args.map(inner);
        if (a === NO_VALUE || b === NO_VALUE) return false;
        return valuesEqual(a ?? null, b ?? null);
      }
      case "Fn::Not": {
        const truth = this.truth(inner(args[0]));
        return isUnknown(truth) ? truth : !truth;
      }
      case "Fn::And":
      case "Fn::Or": {
        const decides = key === "Fn::Or";
        const truths = args.map((item) => this.truth(inner(item)));
        if (truths.some((truth) => truth === decides)) return decides;
        const unknown = truths.filter(isUnknown);
        return unknown.length > 0 ? unknownOf(unknown) : !decides;
      }
    }
    return undefined;
  }

  private ref(name: string): Evaluated {
    if (this.parameters.has(name)) return this.parameters.get(name)!;
    switch (name) {
      case "AWS::NoValue":
        return NO_VALUE;
      case "AWS::Region":
        return this.region ?? new Unknown(["AWS::Region"], "the stack's region");
      case "AWS::Partition":
        return this.region ? partitionOf(this.region) : new Unknown(["AWS::Region"], "the stack's partition");
      case "AWS::URLSuffix":
        return this.region?.startsWith("cn-") ? "amazonaws.com.cn" : "amazonaws.com";
      case "AWS::AccountId":
      case "AWS::StackName":
      case "AWS::StackId":
      case "AWS::NotificationARNs":
        return new Unknown([], `${name}, known when the stack is made`);
    }
    if (this.resources.has(name)) return new Unknown([], `the id of ${name.slice(0, 60)}, known when it is created`);
    return new Unknown([], `a Ref to ${name.slice(0, 60)}, which the template does not declare`);
  }

  private findInMap(args: readonly Evaluated[]): Evaluated {
    const [map, top, second, options] = args;
    const known = [map, top, second].filter((item): item is Value => item !== NO_VALUE && item !== undefined);
    if (known.some(isUnknown)) return unknownOf(known);
    const mappings = isObject(this.template.Mappings) ? fromJson(this.template.Mappings) : valueObject();
    const found = [map, top, second].reduce<Value | undefined>(
      (here, key) =>
        here !== undefined && key !== NO_VALUE && isValueObject(here) ? own(here, textOf(key as Value)) : undefined,
      mappings,
    );
    if (found !== undefined) return found;
    // The language extensions' fourth argument: {DefaultValue: …}.
    const fallback = isValueObject(options ?? null) ? own(options as ValueObject, "DefaultValue") : undefined;
    const names = [map, top, second].map((key) => (key === NO_VALUE ? "" : textOf(key as Value)));
    if (fallback === undefined && this.speculative === 0)
      this.misses.push(`Fn::FindInMap finds no ${names.join(" › ").slice(0, 200)} in Mappings`);
    return fallback ?? new Unknown([], `Fn::FindInMap found no ${names.join(" › ")}`);
  }

  private sub(args: readonly unknown[], inner: (item: unknown) => Evaluated): Evaluated {
    const text = args[0];
    if (typeof text !== "string") return new Unknown([], "an Fn::Sub without a string");
    const variables = isObject(args[1]) ? args[1] : {};
    const unknowns: Value[] = [];
    let length = text.length;
    const result = text.replace(/\$\{(!?)([^}]*)\}/g, (whole, literal: string, name: string) => {
      if (literal === "!") return `\${${name}}`;
      let value: Evaluated;
      if (Object.hasOwn(variables, name)) value = inner(variables[name]);
      else if (name.includes(".") && !name.startsWith("AWS::"))
        value = new Unknown([], "a resource's attribute, known when it is created");
      else value = this.ref(name);
      const part = value === NO_VALUE ? "" : asText(value);
      if (isUnknown(part)) {
        unknowns.push(part);
        return whole;
      }
      // Each substitution's length is counted before the text grows by it.
      length += part.length - whole.length;
      budget().string(length, "Fn::Sub");
      return part;
    });
    return unknowns.length > 0 ? unknownOf(unknowns) : result;
  }
}

/** A List<…> or CommaDelimitedList parameter's value as a list. */
function listOf(type: string, value: Value): Value {
  if ((type.startsWith("List<") || type === "CommaDelimitedList") && typeof value === "string")
    return splitChecked(value, ",", "a list parameter's value").map((item) => item.trim());
  return value;
}

/** A text split, its number of parts checked before the list is made. */
function splitChecked(text: string, separator: string, what: string): string[] {
  let parts = 1;
  if (separator === "") parts = text.length;
  else for (let at = text.indexOf(separator); at >= 0; at = text.indexOf(separator, at + separator.length)) parts++;
  budget().items(parts, what);
  return text.split(separator);
}
