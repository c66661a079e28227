/**
 * What Terraform's instances are made of: a for_each collection's keys and values, and a resource's
 * or module's deployed state (yes, no, or depending on inputs), combined down a module tree.
 */
import type { Deployed } from "../model/deployment.ts";
import { budget } from "./budget.ts";
import { dependsOn, isValueObject, textOf, type Unknown, type Value } from "./values.ts";

export const YES: Deployed = { state: "yes" };

/** Combines a parent's deployed state with a child's: no wins, then depends. */
export function both(parent: Deployed, child: Deployed): Deployed {
  if (parent.state === "no") return parent;
  if (child.state === "no") return child;
  if (parent.state === "depends" && child.state === "depends")
    return { state: "depends", on: [...new Set([...parent.on, ...child.on])].sort(), because: parent.because };
  return parent.state === "depends" ? parent : child;
}

/** A for_each collection's instances: a map's keys and values, a set of strings' items as both. */
export function forEachItems(value: Value): [string, Value][] {
  if (isValueObject(value) || Array.isArray(value)) budget().step(Object.keys(value).length);
  if (isValueObject(value))
    return Object.keys(value)
      .sort()
      .map((key) => [key, value[key]!]);
  if (Array.isArray(value))
    return [...new Set((value as Value[]).map((item) => textOf(item)))].sort().map((item) => [item, item]);
  return [];
}

export function depends(value: Unknown, what: string): Deployed {
  return { state: "depends", on: [...value.inputs], because: `its ${what} ${dependsOn(value)}` };
}
