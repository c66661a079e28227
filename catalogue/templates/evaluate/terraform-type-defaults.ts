/**
 * A variable's type constraint applied to its value as Terraform applies it (1.3+): an object
 * attribute declared `optional(type, default)` and absent from the value takes the default, one
 * declared `optional(type)` is null, within lists, sets, maps and tuples of objects too; what the
 * value holds is kept. Only defaults are applied: a value the type would refuse is Terraform's to
 * refuse, never guessed here
 * (https://developer.hashicorp.com/terraform/language/expressions/type-constraints#optional-object-type-attributes).
 */
import type { Expression } from "../readers/hcl-expression.ts";
import { evaluate, type Scope } from "./hcl-evaluate.ts";
import { isList, isUnknown, isValueObject, own, valueObject, type Value } from "./values.ts";

interface Attribute {
  readonly type: TypeConstraint;
  readonly optional: boolean;
  readonly fallback?: Expression;
}

export type TypeConstraint =
  | { readonly kind: "any" }
  | { readonly kind: "object"; readonly attributes: ReadonlyMap<string, Attribute> }
  | { readonly kind: "collection"; readonly of: TypeConstraint }
  | { readonly kind: "tuple"; readonly items: readonly TypeConstraint[] };

const ANY: TypeConstraint = { kind: "any" };
/** Type expressions nest at most this deep (a type deeper than this is read as any). */
const MAX_TYPE_DEPTH = 32;

/** The key of an object type's attribute: a bare name or a quoted one. */
function keyName(expression: Expression): string | undefined {
  if (expression.kind === "variable") return expression.name;
  if (expression.kind === "literal" && typeof expression.value === "string") return expression.value;
  return undefined;
}

/** A type expression (`object({a = optional(bool, false)})`) as the constraint the defaults read. */
export function typeConstraint(expression: Expression | undefined, depth = 0): TypeConstraint {
  if (!expression || depth > MAX_TYPE_DEPTH || expression.kind !== "call") return ANY;
  const [first] = expression.args;
  switch (expression.name) {
    case "object": {
      if (first?.kind !== "object") return ANY;
      const attributes = new Map<string, Attribute>();
      for (const [key, value] of first.items) {
        const name = keyName(key);
        if (name === undefined) continue;
        if (value.kind === "call" && value.name === "optional")
          attributes.set(name, {
            type: typeConstraint(value.args[0], depth + 1),
            optional: true,
            ...(value.args[1] ? { fallback: value.args[1] } : {}),
          });
        else attributes.set(name, { type: typeConstraint(value, depth + 1), optional: false });
      }
      return { kind: "object", attributes };
    }
    case "list":
    case "set":
    case "map":
      return { kind: "collection", of: typeConstraint(first, depth + 1) };
    case "tuple":
      return first?.kind === "tuple"
        ? { kind: "tuple", items: first.items.map((item) => typeConstraint(item, depth + 1)) }
        : ANY;
    default:
      return ANY;
  }
}

const EMPTY: Scope = { reference: () => null };

/** The value with the type's optional attributes' defaults filled in where it lacks them. */
export function withDefaults(value: Value, type: TypeConstraint, depth = 0): Value {
  if (type.kind === "any" || value === null || isUnknown(value) || depth > MAX_TYPE_DEPTH) return value;
  if (type.kind === "collection") {
    if (isList(value)) return value.map((item) => withDefaults(item, type.of, depth + 1));
    if (isValueObject(value))
      return valueObject(Object.keys(value).map((key) => [key, withDefaults(value[key]!, type.of, depth + 1)]));
    return value;
  }
  if (type.kind === "tuple")
    return isList(value) ? value.map((item, at) => withDefaults(item, type.items[at] ?? ANY, depth + 1)) : value;
  if (!isValueObject(value)) return value;
  const entries: [string, Value][] = Object.keys(value)
    .filter((key) => !(type.attributes.get(key)?.optional && value[key] === null))
    .map((key) => {
      const attribute = type.attributes.get(key);
      return [key, attribute ? withDefaults(value[key]!, attribute.type, depth + 1) : value[key]!];
    });
  for (const [name, attribute] of type.attributes) {
    const given = own(value, name);
    if (!attribute.optional || (given !== undefined && given !== null)) continue;
    // A default is a constant of the module (Terraform refuses references there); it gets its own defaults too.
    const fallback = attribute.fallback ? evaluate(attribute.fallback, EMPTY) : null;
    entries.push([name, withDefaults(fallback, attribute.type, depth + 1)]);
  }
  return valueObject(entries);
}
