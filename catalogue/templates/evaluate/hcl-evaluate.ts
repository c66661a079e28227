/**
 * HCL expressions evaluated as Terraform evaluates them before a plan, as far as the configuration
 * says: references go to a scope (variables, locals, each, count, modules' outputs, other
 * resources' configured attributes), functions to ./hcl-functions.ts, and whatever the
 * configuration cannot say (an input without a value, an attribute the provider computes, a file)
 * is an Unknown naming it. Nothing here throws for a value: an expression Terraform would refuse
 * (an undeclared variable, a missing key) is Unknown with the reason, since the check judges a
 * deployment rather than validating it.
 */
import { TEMPLATE_MAX_DEPTH } from "../../base/limits.ts";
import { SPLAT_ITEM, type Expression } from "../readers/hcl-expression.ts";
import { budget } from "./budget.ts";
import { callFunction, EvaluationError } from "./hcl-functions.ts";
import {
  asBoolean,
  asText,
  isUnknown,
  isValueObject,
  own,
  Unknown,
  unknownOf,
  valueObject,
  valuesEqual,
  type Value,
} from "./values.ts";

export { EvaluationError };

/** A key of a traversal: an attribute name or index, or Unknown (an index not known). */
export type Key = string | number | Unknown;

/** What references resolve against. */
export interface Scope {
  /** The value a traversal from a root name reaches (`var`, ["region"]); the scope applies every key. */
  reference(root: string, keys: readonly Key[]): Value;
}

/** Evaluates an expression in a scope. */
export function evaluate(expression: Expression, scope: Scope): Value {
  try {
    return evaluateIn(expression, scope, 0);
  } catch (error) {
    if (error instanceof EvaluationError) return new Unknown([], error.message);
    throw error;
  }
}

function evaluateIn(expression: Expression, scope: Scope, depth: number): Value {
  if (depth > TEMPLATE_MAX_DEPTH) throw new EvaluationError("an expression nested too deeply");
  budget().step();
  const inner = (next: Expression, innerScope: Scope = scope) => evaluateIn(next, innerScope, depth + 1);
  switch (expression.kind) {
    case "literal":
      return expression.value;
    case "template":
      return template(expression, inner);
    case "tuple":
      return expression.items.map((item) => inner(item));
    case "object": {
      const entries: [string, Value][] = [];
      for (const [keyExpression, valueExpression] of expression.items) {
        const key = asText(inner(keyExpression));
        if (isUnknown(key)) return unknownOf([key], "an object whose keys are not known");
        entries.push([key, inner(valueExpression)]);
      }
      return valueObject(entries);
    }
    case "variable":
    case "attribute":
    case "index": {
      const traversal = traversalOf(expression, inner);
      if (traversal) return scope.reference(traversal.root, traversal.keys);
      // An access on a computed value: (expression)[key], func().attr.
      const of = inner((expression as { of: Expression }).of);
      const key =
        expression.kind === "attribute" ? expression.name : keyOf(inner((expression as { key: Expression }).key));
      return access(of, key);
    }
    case "splat": {
      const of = inner(expression.of);
      if (isUnknown(of)) return of;
      // A splat of a single value is a list of it; of null, an empty list.
      const items = of === null ? [] : Array.isArray(of) ? (of as Value[]) : [of];
      budget().items(items.length, "a splat ([*])");
      return items.map((item) =>
        inner(expression.each, {
          reference: (root, keys) =>
            root === SPLAT_ITEM
              ? keys.reduce<Value>((value, key) => access(value, key), item)
              : scope.reference(root, keys),
        }),
      );
    }
    case "call":
      return expression.line === undefined
        ? call(expression, inner)
        : budget().at({ file: expression.file, line: expression.line }, () => call(expression, inner));
    case "unary": {
      const operand = inner(expression.operand);
      if (isUnknown(operand)) return operand;
      if (expression.op === "!") {
        const truth = asBoolean(operand);
        return isUnknown(truth) ? truth : !truth;
      }
      return -toNumber(operand);
    }
    case "binary":
      return binary(expression.op, expression.left, expression.right, inner);
    case "conditional": {
      const test = asBoolean(inner(expression.test));
      if (!isUnknown(test)) return inner(test ? expression.then : expression.else);
      // Both branches alike: the answer is known whatever the test.
      const then = inner(expression.then);
      const otherwise = inner(expression.else);
      return valuesEqual(then, otherwise) === true ? then : unknownOf([test, then, otherwise]);
    }
    case "for":
      return expression.line === undefined
        ? forExpression(expression, scope, inner)
        : budget().at({ file: expression.file, line: expression.line }, () => forExpression(expression, scope, inner));
  }
}

/** A string template's text; "${local.big}${local.big}" doubles a string, so its length is checked before it is made. */
function template(expression: Extract<Expression, { kind: "template" }>, inner: (next: Expression) => Value): Value {
  if (expression.directive) return new Unknown([], "a template directive (%{…}) not evaluated here");
  const parts = expression.parts.map((part) => (typeof part === "string" ? part : asText(inner(part))));
  const unknown = parts.filter(isUnknown);
  if (unknown.length > 0) return unknownOf(unknown);
  budget().string(
    (parts as string[]).reduce((sum, part) => sum + part.length, 0),
    "a string template",
  );
  return (parts as string[]).join("");
}

function call(expression: Extract<Expression, { kind: "call" }>, inner: (next: Expression) => Value): Value {
  if (expression.name === "try") return tryEach(expression.args, inner);
  if (expression.name === "can") return canEvaluate(expression.args, inner);
  const args = expression.args.map((arg) => inner(arg));
  if (expression.expand) {
    const last = args.pop();
    if (isUnknown(last)) return last;
    if (!Array.isArray(last)) throw new EvaluationError(`"..." expands a list, in the call of ${expression.name}`);
    args.push(...(last as Value[]));
  }
  return callFunction(expression.name, args);
}

/** A chain of accesses from a root name (var.region, local.tags["env"]): the root and its keys. */
function traversalOf(
  expression: Expression,
  inner: (next: Expression) => Value,
): { root: string; keys: Key[] } | undefined {
  const keys: Key[] = [];
  let here = expression;
  for (;;) {
    if (here.kind === "variable") return { root: here.name, keys: keys.reverse() };
    if (here.kind === "attribute") keys.push(here.name);
    else if (here.kind === "index") keys.push(keyOf(inner(here.key)));
    else return undefined;
    here = here.of;
  }
}

function keyOf(value: Value): Key {
  if (isUnknown(value)) return value;
  if (typeof value === "string" || typeof value === "number") return value;
  if (typeof value === "boolean") return String(value);
  throw new EvaluationError("an index that is neither a number nor a string");
}

/** One access: an object's key, a list's index; Unknown in, Unknown out. */
export function access(value: Value, key: Key): Value {
  if (isUnknown(value)) return value;
  if (isUnknown(key)) return unknownOf([key], "an index not known");
  if (Array.isArray(value)) {
    const index = typeof key === "number" ? key : /^[0-9]+$/.test(key) ? Number(key) : NaN;
    if (!Number.isInteger(index) || index < 0 || index >= value.length)
      throw new EvaluationError(`the index ${String(key)} is outside a list of ${value.length}`);
    return (value as Value[])[index]!;
  }
  if (isValueObject(value)) {
    const found = own(value, String(key));
    if (found === undefined) throw new EvaluationError(`no key "${String(key).slice(0, 60)}" in the object`);
    return found;
  }
  throw new EvaluationError(`"${String(key).slice(0, 60)}" read of a ${value === null ? "null" : typeof value}`);
}

function toNumber(value: Value): number {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  throw new EvaluationError("a number is needed");
}

function binary(op: string, left: Expression, right: Expression, inner: (next: Expression) => Value): Value {
  const a = inner(left);
  // && and || decide on a known first operand without the second, as Terraform 1.x does not; the
  // answer is the same when the second is known, and known more often when it is not.
  if (op === "&&" || op === "||") {
    const first = asBoolean(a);
    if (!isUnknown(first) && first === (op === "||")) return first;
    const second = asBoolean(inner(right));
    if (isUnknown(first) || isUnknown(second)) {
      if (!isUnknown(second) && second === (op === "||")) return second;
      return unknownOf([first, second]);
    }
    return second;
  }
  const b = inner(right);
  if (op === "==" || op === "!=") {
    const equal = valuesEqual(a, b);
    return isUnknown(equal) ? equal : op === "==" ? equal : !equal;
  }
  if (isUnknown(a) || isUnknown(b)) return unknownOf([a, b]);
  const x = toNumber(a);
  const y = toNumber(b);
  switch (op) {
    case "+":
      return x + y;
    case "-":
      return x - y;
    case "*":
      return x * y;
    case "/":
      if (y === 0) throw new EvaluationError("a division by zero");
      return x / y;
    case "%":
      if (y === 0) throw new EvaluationError("a division by zero");
      return x % y;
    case ">":
      return x > y;
    case ">=":
      return x >= y;
    case "<":
      return x < y;
    default:
      return x <= y;
  }
}

function tryEach(args: readonly Expression[], inner: (next: Expression) => Value): Value {
  const unknowns: Unknown[] = [];
  for (const arg of args) {
    try {
      const value = inner(arg);
      // An Unknown may still fail when known: try answers Unknown then, as Terraform does.
      if (isUnknown(value)) unknowns.push(value);
      else return unknowns.length > 0 ? unknownOf(unknowns) : value;
    } catch (error) {
      if (!(error instanceof EvaluationError)) throw error;
    }
  }
  if (unknowns.length > 0) return unknownOf(unknowns);
  throw new EvaluationError("no argument of try() could be evaluated");
}

function canEvaluate(args: readonly Expression[], inner: (next: Expression) => Value): Value {
  try {
    const value = inner(args[0]!);
    return isUnknown(value) ? value : true;
  } catch (error) {
    if (error instanceof EvaluationError) return false;
    throw error;
  }
}

function forExpression(
  expression: Extract<Expression, { kind: "for" }>,
  scope: Scope,
  inner: (next: Expression, innerScope?: Scope) => Value,
): Value {
  const collection = inner(expression.collection);
  if (isUnknown(collection)) return collection;
  const pairs: [Value, Value][] = Array.isArray(collection)
    ? (collection as Value[]).map((value, index) => [index, value])
    : isValueObject(collection)
      ? Object.keys(collection)
          .sort()
          .map((key) => [key, collection[key]!])
      : [];
  // Each item is charged before the loop makes anything: nested for expressions multiply, and the
  // product meets the items or steps budget as it grows, never after.
  budget().items(pairs.length, `a for expression over ${pairs.length.toLocaleString("en")} items`);
  const list: Value[] = [];
  const grouped = new Map<string, Value[]>();
  const single = new Map<string, Value>();
  const unknowns: Unknown[] = [];
  for (const [key, value] of pairs) {
    const bound: Scope = {
      reference: (root, keys) => {
        const here = root === expression.valueName ? value : root === expression.keyName ? key : undefined;
        return here === undefined ? scope.reference(root, keys) : keys.reduce<Value>(access, here);
      },
    };
    if (expression.condition) {
      const keep = asBoolean(inner(expression.condition, bound));
      if (isUnknown(keep)) {
        unknowns.push(keep);
        continue;
      }
      if (!keep) continue;
    }
    const item = inner(expression.value, bound);
    if (!expression.object) {
      list.push(item);
      continue;
    }
    const name = asText(inner(expression.key!, bound));
    if (isUnknown(name)) {
      unknowns.push(name);
      continue;
    }
    if (expression.group) {
      const group = grouped.get(name);
      if (group) group.push(item);
      else grouped.set(name, [item]);
    } else if (single.has(name)) throw new EvaluationError(`the key "${name.slice(0, 60)}" twice in a for expression`);
    else single.set(name, item);
  }
  if (unknowns.length > 0) return unknownOf(unknowns);
  if (!expression.object) return list;
  return valueObject(expression.group ? grouped : single);
}
