/**
 * The values an evaluator works with: JSON's, plus Unknown for what the deployment does not say
 * before it is deployed (an input given no value, an attribute the provider computes, a function
 * not evaluated here). An Unknown names the inputs it depends on, so that an answer can say
 * "depends on var.region" rather than guess.
 */
import { TEMPLATE_BUDGETS, TEMPLATE_MAX_DEPTH } from "../../base/limits.ts";
import { budget } from "./budget.ts";

export class Unknown {
  /** The inputs whose values would make it known ("var.region", "parameter Env"). */
  readonly inputs: readonly string[];
  /** Why it is not known, when no input would tell ("computed by the provider when deployed"). */
  readonly reason: string | undefined;
  constructor(inputs: readonly string[], reason?: string) {
    this.inputs = inputs;
    this.reason = reason;
  }
}

export interface ValueObject {
  readonly [key: string]: Value;
}
export type Value = null | boolean | number | string | readonly Value[] | ValueObject | Unknown;

export const isUnknown = (value: unknown): value is Unknown => value instanceof Unknown;
/** A list (Array.isArray narrows a readonly list to any[]). */
export const isList = (value: unknown): value is readonly Value[] => Array.isArray(value);
export const isValueObject = (value: unknown): value is ValueObject =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Unknown);

/** An object without a prototype, so that no key a user writes ("__proto__") reaches one. */
export function valueObject(entries: Iterable<readonly [string, Value]> = []): ValueObject {
  const object = Object.create(null) as Record<string, Value>;
  for (const [key, value] of entries) object[key] = value;
  return object;
}

/** A key's own value, never an inherited one. */
export const own = (object: ValueObject, key: string): Value | undefined =>
  Object.hasOwn(object, key) ? object[key] : undefined;

/** One Unknown for several: the inputs of all, the first reason. */
export function unknownOf(values: readonly Value[], reason?: string): Unknown {
  const unknowns = values.filter(isUnknown);
  const inputs = [...new Set(unknowns.flatMap((value) => value.inputs))].sort();
  return new Unknown(inputs, reason ?? unknowns.find((value) => value.reason)?.reason);
}

/** The first Unknown anywhere inside a value (a list or object holding one is partly unknown); each value read is a step. */
export function unknownInside(value: Value, depth = 0): Unknown | undefined {
  if (value instanceof Unknown) return value;
  if (depth > TEMPLATE_MAX_DEPTH || value === null || typeof value !== "object") return undefined;
  const items = isList(value) ? value : Object.values(value);
  budget().step(items.length);
  for (const inner of items) {
    const found = unknownInside(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** What an Unknown depends on, said as a predicate ("its region …"). */
export function dependsOn(value: Unknown): string {
  if (value.inputs.length > 0)
    return `depends on ${value.inputs.slice(0, 4).join(", ")}${value.inputs.length > 4 ? ", …" : ""}, which the input gives no value`;
  return `is not known before deployment (${value.reason ?? "computed when deployed"})`;
}

/** A known value as text: strings as they are, numbers and booleans written, others as JSON (its length checked first). */
export const textOf = (value: Value | undefined): string =>
  typeof value === "string"
    ? value
    : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : jsonText(value ?? null, "a value written as text");

/** JSON.stringify's answer, its length checked against the string budgets before it is made. */
export function jsonText(value: Value, what: string): string {
  budget().string(jsonLength(value, TEMPLATE_BUDGETS.stringChars), what);
  return JSON.stringify(value);
}

/** A value's JSON cut to `max` characters, for a message (a value too long to write whole is said so, never written). */
export function jsonPreview(value: Value, max: number): string {
  const length = jsonLength(value, 100_000);
  return length > 100_000 ? `(a value of more than 100,000 characters)` : JSON.stringify(value).slice(0, max);
}

// JSON.stringify escapes exactly these: quotes, backslashes, control characters and lone surrogates.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The length of a string as JSON writes it, quotes and escapes included. */
function quotedLength(text: string): number {
  if (!NEEDS_ESCAPE.test(text)) return text.length + 2;
  let length = 2;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (
      code === 0x22 ||
      code === 0x5c ||
      code === 0x08 ||
      code === 0x0c ||
      code === 0x0a ||
      code === 0x0d ||
      code === 0x09
    )
      length += 2;
    else if (code < 0x20) length += 6;
    else if (code >= 0xd800 && code <= 0xdbff && at + 1 < text.length) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 2;
        at++;
      } else length += 6;
    } else if (code >= 0xd800 && code <= 0xdfff) length += 6;
    else length += 1;
  }
  return length;
}

/**
 * The length JSON.stringify gives a value, counted without making it and no further than past
 * `limit` (a list holding one long string 10,000 times answers as soon as it passes): each
 * string, number and bracket counted once per place it appears, as the text would repeat it.
 */
export function jsonLength(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const item = stack.pop();
    if (typeof item === "string") total += quotedLength(item);
    else if (typeof item === "number") total += Number.isFinite(item) ? String(item).length : 4;
    else if (typeof item === "boolean") total += item ? 4 : 5;
    else if (item === null || item === undefined || typeof item !== "object") total += 4;
    else if (Array.isArray(item)) {
      total += 1 + Math.max(1, item.length);
      if (total > limit) break;
      for (const inner of item as unknown[]) stack.push(inner);
    } else {
      const keys = Object.keys(item);
      total += 1 + Math.max(1, keys.length);
      if (total > limit) break;
      for (const key of keys) {
        total += quotedLength(key) + 1;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return total;
}

/** A value as text, for a string template or a message (an Unknown has none). */
export function asText(value: Value): string | Unknown {
  if (value instanceof Unknown) return value;
  if (value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return new Unknown([], "a list or object where text is needed");
}

/** The value as a boolean condition: true, false, or Unknown. */
export function asBoolean(value: Value): boolean | Unknown {
  if (value instanceof Unknown) return value;
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  if (typeof value === "number") return value !== 0;
  return new Unknown([], "a condition that is not true or false");
}

/** Deep equality of two known values (an Unknown inside makes it Unknown); each pair compared is a step. */
export function valuesEqual(a: Value, b: Value): boolean | Unknown {
  if (a instanceof Unknown || b instanceof Unknown) return unknownOf([a, b]);
  if (a === b) return true;
  budget().step();
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") {
    // Terraform compares a number and its string form as unequal; JSON's types decide.
    return a === b;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (const key of keysA) {
    if (!Object.hasOwn(b, key)) return false;
    const equal = valuesEqual((a as ValueObject)[key]!, (b as ValueObject)[key]!);
    if (equal !== true) return equal;
  }
  return true;
}
