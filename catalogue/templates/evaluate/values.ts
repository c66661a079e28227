/**
 * The values an evaluator works with: JSON's, plus Unknown for what the deployment does not say
 * before it is deployed (an input given no value, an attribute the provider computes, a function
 * not evaluated here). An Unknown names the inputs it depends on, so that an answer can say
 * "depends on var.region" rather than guess.
 */

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

/** The first Unknown anywhere inside a value (a list or object holding one is partly unknown). */
export function unknownInside(value: Value, depth = 0): Unknown | undefined {
  if (value instanceof Unknown) return value;
  if (depth > 40 || value === null || typeof value !== "object") return undefined;
  for (const inner of isList(value) ? value : Object.values(value)) {
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

/** A known value as text: strings as they are, numbers and booleans written, others as JSON. */
export const textOf = (value: Value | undefined): string =>
  typeof value === "string"
    ? value
    : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : JSON.stringify(value ?? null);

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

/** Deep equality of two known values (an Unknown inside makes it Unknown). */
export function valuesEqual(a: Value, b: Value): boolean | Unknown {
  if (a instanceof Unknown || b instanceof Unknown) return unknownOf([a, b]);
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
