/**
 * ARM template expressions (`"[concat(parameters('name'), '-x')]"`) parsed and evaluated as Resource
 * Manager does at deployment (https://learn.microsoft.com/azure/azure-resource-manager/templates/template-expressions):
 * parameters and variables, resourceGroup(), subscription() and deployment(), copyIndex() within a
 * copy loop, and the template functions a deployment's names, locations, versions, kinds and
 * conditions are written with. What only the deployment knows (reference(), list*(), uniqueString(),
 * guid(), utcNow()) is Unknown naming why; a parameter without a value is Unknown naming it.
 */
import { TEMPLATE_MAX_DEPTH } from "../../base/limits.ts";
import { budget } from "./budget.ts";
import { fromJson } from "./hcl-functions.ts";
import {
  asBoolean,
  isList,
  isUnknown,
  isValueObject,
  own,
  textOf,
  Unknown,
  unknownInside,
  unknownOf,
  valueObject,
  valuesEqual,
  type Value,
  type ValueObject,
} from "./values.ts";

type Node =
  | { readonly kind: "literal"; readonly value: string | number }
  | { readonly kind: "call"; readonly name: string; readonly args: readonly Node[] }
  | { readonly kind: "property"; readonly of: Node; readonly name: string }
  | { readonly kind: "index"; readonly of: Node; readonly key: Node };

/** Why an expression could not be read: it is kept as Unknown, never a refusal (Resource Manager validates it). */
class ParseError extends Error {}

/** Whether a template string is an expression ("[[" escapes a literal "["). */
export const isExpression = (text: string): boolean => {
  const trimmed = text.trim();
  return trimmed.startsWith("[") && !trimmed.startsWith("[[") && trimmed.endsWith("]");
};

function parse(text: string): Node {
  let at = 0;
  const space = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const expression = (): Node => {
    space();
    let node = term();
    for (;;) {
      space();
      if (text[at] === ".") {
        at++;
        const name = /^[A-Za-z_$][\w$]*/.exec(text.slice(at))?.[0];
        if (!name) throw new ParseError("a property name");
        at += name.length;
        node = { kind: "property", of: node, name };
      } else if (text[at] === "[") {
        at++;
        const key = expression();
        space();
        if (text[at] !== "]") throw new ParseError("]");
        at++;
        node = { kind: "index", of: node, key };
      } else return node;
    }
  };
  const term = (): Node => {
    space();
    const char = text[at];
    if (char === "'") {
      let value = "";
      at++;
      for (;;) {
        if (at >= text.length) throw new ParseError("a closing quote");
        if (text[at] === "'") {
          if (text[at + 1] === "'") {
            value += "'";
            at += 2;
            continue;
          }
          at++;
          return { kind: "literal", value };
        }
        value += text[at++];
      }
    }
    const number = /^-?[0-9]+(\.[0-9]+)?/.exec(text.slice(at))?.[0];
    if (number) {
      at += number.length;
      return { kind: "literal", value: Number(number) };
    }
    const name = /^[A-Za-z_][\w.]*/.exec(text.slice(at))?.[0];
    if (!name) throw new ParseError("a function");
    at += name.length;
    space();
    if (text[at] !== "(") throw new ParseError("(");
    at++;
    const args: Node[] = [];
    space();
    while (text[at] !== ")") {
      args.push(expression());
      space();
      if (text[at] === ",") at++;
      else if (text[at] !== ")") throw new ParseError(", or )");
      if (at >= text.length) throw new ParseError(")");
    }
    at++;
    return { kind: "call", name: name.toLowerCase(), args };
  };
  const node = expression();
  space();
  if (at !== text.length) throw new ParseError("the end of the expression");
  return node;
}

/** What expressions are evaluated against. */
export interface ArmContext {
  readonly parameter: (name: string) => Value;
  readonly variable: (name: string) => Value;
  /** resourceGroup(), subscription(), deployment(): objects whose unknown parts are Unknown. */
  readonly resourceGroup: () => Value;
  readonly subscription: () => Value;
  readonly deployment: () => Value;
  /** copyIndex(loop?): the current index of a copy loop. */
  readonly copyIndex: (loop: string | undefined) => Value;
}

const UNKNOWN_FUNCTIONS: Readonly<Record<string, string>> = {
  reference: "a deployed resource's properties",
  list: "a deployed resource's keys",
  listkeys: "a deployed resource's keys",
  listsecrets: "a deployed resource's secrets",
  listaccountsas: "a deployed resource's token",
  uniquestring: "a hash of deployment values",
  guid: "a hash of deployment values",
  newguid: "random",
  utcnow: "the deployment's time",
  dateTimeAdd: "the deployment's time",
  pickzones: "the region's zones",
  environment: "the cloud's endpoints",
  tenant: "the tenant",
  managementgroup: "the management group",
  extensionresourceid: "a resource id",
  subscriptionresourceid: "a resource id",
  tenantresourceid: "a resource id",
  resourceid: "a resource id",
  filter: "a lambda",
  map: "a lambda",
  reduce: "a lambda",
  sort: "a lambda",
  toobject: "a lambda",
  items: "an object's items",
  base64: "an encoding",
  datauri: "an encoding",
};

/** Evaluates a template value: strings that are expressions evaluated, objects and arrays walked. */
export function resolveArm(value: unknown, context: ArmContext, depth = 0): Value {
  if (depth > TEMPLATE_MAX_DEPTH) return new Unknown([], "nested too deeply");
  budget().step();
  if (typeof value === "string") return isExpression(value) ? evaluateExpression(value, context) : literalString(value);
  if (Array.isArray(value)) return value.map((item) => resolveArm(item, context, depth + 1));
  if (typeof value === "object" && value !== null)
    return valueObject(Object.entries(value).map(([key, item]) => [key, resolveArm(item, context, depth + 1)]));
  return (value ?? null) as Value;
}

/** "[[x]" is the literal "[x]". */
const literalString = (text: string) => (text.trimStart().startsWith("[[") ? text.replace("[[", "[") : text);

export function evaluateExpression(text: string, context: ArmContext): Value {
  const trimmed = text.trim();
  let node: Node;
  try {
    node = parse(trimmed.slice(1, -1));
  } catch (error) {
    if (error instanceof ParseError)
      return new Unknown([], `an expression this check cannot read (${trimmed.slice(0, 60)})`);
    throw error;
  }
  return evaluate(node, context, 0);
}

function evaluate(node: Node, context: ArmContext, depth: number): Value {
  if (depth > TEMPLATE_MAX_DEPTH) return new Unknown([], "nested too deeply");
  budget().step();
  const inner = (next: Node) => evaluate(next, context, depth + 1);
  switch (node.kind) {
    case "literal":
      return node.value;
    case "property":
    case "index": {
      const of = inner(node.of);
      const key = node.kind === "property" ? node.name : inner(node.key);
      if (isUnknown(of)) return of;
      if (isUnknown(key)) return key;
      if (Array.isArray(of)) return (of as Value[])[num(key)] ?? new Unknown([], "an index outside its array");
      if (isValueObject(of)) {
        // ARM's property names are case-insensitive.
        const name = Object.keys(of).find((candidate) => candidate.toLowerCase() === str(key).toLowerCase());
        return name === undefined ? new Unknown([], `no property ${str(key).slice(0, 60)}`) : of[name]!;
      }
      return new Unknown([], `a property of a ${of === null ? "null" : typeof of}`);
    }
    case "call":
      return call(node, context, inner);
  }
}

const str = textOf;
const num = (value: Value | undefined): number => Number(str(value));
const list = (value: Value | undefined): Value[] | undefined => (Array.isArray(value) ? (value as Value[]) : undefined);

type ArmFunction = (args: readonly Value[]) => Value;

/** Texts joined, their length checked before the string is made. */
function joinChecked(parts: readonly string[], separator: string, what: string): string {
  budget().string(
    parts.reduce((sum, part) => sum + part.length, 0) + separator.length * Math.max(0, parts.length - 1),
    what,
  );
  return parts.join(separator);
}

/** How many times `search` is found in `text` (split's count: "" between every character). */
function occurrences(text: string, search: string): number {
  if (search === "") return Math.max(0, text.length - 1);
  let found = 0;
  for (let at = text.indexOf(search); at >= 0; at = text.indexOf(search, at + search.length)) found++;
  return found;
}

/** The template functions over known arguments (an Unknown argument makes the answer Unknown first). */
const FUNCTIONS: Readonly<Record<string, ArmFunction>> = {
  concat: (args) => {
    if (!args.every((arg) => Array.isArray(arg))) return joinChecked(args.map(str), "", "concat()");
    budget().items(
      args.reduce((sum, arg) => sum + (arg as Value[]).length, 0),
      "concat()",
    );
    return args.flatMap((arg) => arg as Value[]);
  },
  format: ([pattern, ...rest]) => {
    const text = str(pattern);
    const parts: string[] = [];
    let last = 0;
    for (const match of text.matchAll(/\{(\d+)(:[^}]*)?\}/g)) {
      parts.push(text.slice(last, match.index), str(rest[Number(match[1])] ?? ""));
      last = match.index + match[0].length;
    }
    parts.push(text.slice(last));
    return joinChecked(parts, "", "format()");
  },
  tolower: ([value]) => str(value).toLowerCase(),
  toupper: ([value]) => str(value).toUpperCase(),
  trim: ([value]) => str(value).trim(),
  replace: ([value, search, replacement]) => {
    const [v, s, r] = [str(value), str(search), str(replacement)];
    budget().string(v.length + occurrences(v, s) * (r.length - s.length), "replace()");
    return v.split(s).join(r);
  },
  substring: ([value, start, length]) =>
    str(value).slice(num(start ?? 0), length === undefined ? undefined : num(start ?? 0) + num(length)),
  split: ([value, separator]) => {
    const [v, s] = [str(value), str(separator)];
    budget().items(occurrences(v, s) + 1, "split()");
    return v.split(s);
  },
  startswith: ([value, prefix]) => str(value).toLowerCase().startsWith(str(prefix).toLowerCase()),
  endswith: ([value, suffix]) => str(value).toLowerCase().endsWith(str(suffix).toLowerCase()),
  string: ([value]) => str(value),
  int: ([value]) => Math.trunc(num(value)),
  bool: ([value]) => value === true || str(value).toLowerCase() === "true",
  json: ([value]) => {
    try {
      return fromJson(JSON.parse(str(value)));
    } catch {
      return new Unknown([], "json() of text that is not JSON");
    }
  },
  equals: ([a, b]) => valuesEqual(a ?? null, b ?? null),
  greater: ([a, b]) => num(a) > num(b),
  greaterorequals: ([a, b]) => num(a) >= num(b),
  less: ([a, b]) => num(a) < num(b),
  lessorequals: ([a, b]) => num(a) <= num(b),
  add: ([a, b]) => num(a) + num(b),
  sub: ([a, b]) => num(a) - num(b),
  mul: ([a, b]) => num(a) * num(b),
  createarray: (args) => [...args],
  array: ([value]) => list(value) ?? [value ?? null],
  createobject: (args) => {
    const entries: [string, Value][] = [];
    for (let at = 0; at + 1 < args.length; at += 2) entries.push([str(args[at]), args[at + 1]!]);
    return valueObject(entries);
  },
  union: (args) => {
    budget().items(
      args.reduce<number>(
        (sum, arg) => sum + (Array.isArray(arg) || isValueObject(arg) ? Object.keys(arg).length : 0),
        0,
      ),
      "union()",
    );
    if (!args.every((arg) => Array.isArray(arg)))
      return valueObject(args.flatMap((arg) => (isValueObject(arg) ? Object.entries(arg) : [])));
    const out: Value[] = [];
    for (const item of args.flatMap((arg) => arg as Value[]))
      if (!out.some((other) => valuesEqual(other, item) === true)) out.push(item);
    return out;
  },
  first: ([value]) => (list(value) ? (list(value)![0] ?? null) : str(value).slice(0, 1)),
  last: ([value]) => (list(value) ? (list(value)!.at(-1) ?? null) : str(value).slice(-1)),
  range: ([start, count]) => {
    const total = Math.max(0, Math.trunc(num(count)));
    if (!Number.isFinite(total)) return new Unknown([], "range() of a count that is not a number");
    budget().items(total, `range(${str(start)}, ${total.toLocaleString("en")})`);
    return Array.from({ length: total }, (_, at) => num(start) + at);
  },
  take: ([value, count]) => list(value)?.slice(0, num(count)) ?? str(value).slice(0, num(count)),
  skip: ([value, count]) => list(value)?.slice(num(count)) ?? str(value).slice(num(count)),
  min: (args) => Math.min(...(list(args[0]) ?? args).map(num)),
  max: (args) => Math.max(...(list(args[0]) ?? args).map(num)),
  tryget: ([object, key]) => (isValueObject(object ?? null) ? (own(object as ValueObject, str(key)) ?? null) : null),
};

/** Functions that read an Unknown argument themselves (coalesce's first known, an empty()'s answer). */
const READS_UNKNOWN: Readonly<Record<string, ArmFunction>> = {
  coalesce: (args) => {
    const first = args.find((arg) => arg !== null);
    return first ?? null;
  },
  not: ([value]) => {
    const truth = asBoolean(value ?? null);
    return isUnknown(truth) ? truth : !truth;
  },
  and: (args) => logic(args, false),
  or: (args) => logic(args, true),
  empty: ([value]) => {
    if (isUnknown(value)) return value;
    if (value === null || value === "" || value === undefined) return true;
    if (Array.isArray(value)) return value.length === 0;
    return isValueObject(value) ? Object.keys(value).length === 0 : false;
  },
  length: ([value]) => {
    if (isUnknown(value)) return value;
    if (typeof value === "string" || Array.isArray(value)) return value.length;
    return isValueObject(value ?? null)
      ? Object.keys(value as ValueObject).length
      : new Unknown([], "length() of a scalar");
  },
  contains: ([container, item]) => {
    if (isUnknown(container) || isUnknown(item)) return unknownOf([container, item].filter(isUnknown));
    if (typeof container === "string") return container.toLowerCase().includes(str(item).toLowerCase());
    if (isList(container)) return container.some((entry) => valuesEqual(entry, item ?? null) === true);
    return isValueObject(container ?? null) ? own(container as ValueObject, str(item)) !== undefined : false;
  },
};

function logic(args: readonly Value[], decides: boolean): Value {
  const truths = args.map((arg) => asBoolean(arg));
  if (truths.some((truth) => truth === decides)) return decides;
  const missing = truths.filter(isUnknown);
  return missing.length > 0 ? unknownOf(missing) : !decides;
}

function call(node: Extract<Node, { kind: "call" }>, context: ArmContext, inner: (next: Node) => Value): Value {
  // Bicep's namespaced calls (sys.concat, az.resourceGroup) are the plain functions.
  const bare = node.name.replace(/^(sys|az)\./, "");
  if (bare === "if") {
    const test = asBoolean(inner(node.args[0]!));
    if (!isUnknown(test)) return inner(node.args[test ? 1 : 2]!);
    const [then, otherwise] = [inner(node.args[1]!), inner(node.args[2]!)];
    return valuesEqual(then, otherwise) === true ? then : unknownOf([test, then, otherwise]);
  }
  const args = node.args.map(inner);
  const contextual = contextCall(bare, args, context);
  if (contextual !== undefined) return contextual;
  if (Object.hasOwn(UNKNOWN_FUNCTIONS, bare) || bare.startsWith("list"))
    return new Unknown(unknownInputs(args), `${bare}(): ${UNKNOWN_FUNCTIONS[bare] ?? "a deployed resource's values"}`);
  if (Object.hasOwn(READS_UNKNOWN, bare)) return READS_UNKNOWN[bare]!(args);
  const unknown = args.filter(isUnknown);
  if (unknown.length > 0) return unknownOf(unknown);
  if (Object.hasOwn(FUNCTIONS, bare)) return FUNCTIONS[bare]!(args);
  return new Unknown([], `the function ${node.name.slice(0, 40)}() is not evaluated by this check`);
}

/** The functions that read the deployment's context: parameters, variables, scopes, copyIndex. */
function contextCall(bare: string, args: readonly Value[], context: ArmContext): Value | undefined {
  switch (bare) {
    case "parameters":
    case "variables": {
      const name = args[0];
      if (isUnknown(name)) return name;
      return bare === "parameters" ? context.parameter(str(name)) : context.variable(str(name));
    }
    case "resourcegroup":
      return context.resourceGroup();
    case "subscription":
      return context.subscription();
    case "deployment":
      return context.deployment();
    case "copyindex": {
      const loop = typeof args[0] === "string" ? args[0] : undefined;
      const offset = typeof args[0] === "number" ? args[0] : typeof args[1] === "number" ? args[1] : 0;
      const index = context.copyIndex(loop);
      return isUnknown(index) ? index : num(index) + offset;
    }
    case "true":
      return true;
    case "false":
      return false;
    case "null":
      return null;
  }
  return undefined;
}

function unknownInputs(args: readonly Value[]): string[] {
  return [...new Set(args.flatMap((arg) => unknownInside(arg)?.inputs ?? []))];
}
