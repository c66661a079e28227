/** The items a reader collects (read.ts, terraform-config.ts), each with the first few places it came from. */
import { TemplateError } from "./errors.ts";
import type { DeploymentItem } from "./read.ts";

/** At most this many resources are read; more is a 400 (the body's size bounds the rest). */
export const MAX_TEMPLATE_ITEMS = 2000;
const MAX_FROM = 5;

/** Collects items, keeping the first few places each came from. */
export class Items {
  readonly byKey = new Map<string, { kind: DeploymentItem["kind"]; item: string; from: string[] }>();
  count = 0;
  add(kind: DeploymentItem["kind"], item: string, from: string) {
    if (++this.count > MAX_TEMPLATE_ITEMS)
      throw new TemplateError(`The template holds more than ${MAX_TEMPLATE_ITEMS} resources; check it in parts.`);
    const key = `${kind} ${kind === "azure-type" ? item.toLowerCase() : item}`;
    const entry = this.byKey.get(key) ?? { kind, item, from: [] };
    this.byKey.set(key, entry);
    if (entry.from.length < MAX_FROM && !entry.from.includes(from)) entry.from.push(from);
  }
  list(): DeploymentItem[] {
    return [...this.byKey.values()].sort((a, b) => (a.item < b.item ? -1 : a.item > b.item ? 1 : 0));
  }
}
