/** The items a reader collects (read.ts, terraform-config.ts), each with the first few places it came from. */
import { TemplateError } from "./errors.ts";
import type { Deployment, DeploymentItem } from "./deployment.ts";
import { versionedAttributes, type VersionedAttribute } from "./versioned.ts";
import { LocatedResources } from "./stated-locations.ts";

/** At most this many resources are read; more is a 400 (the body's size bounds the rest). */
export const MAX_TEMPLATE_ITEMS = 2000;
const MAX_FROM = 5;
/** Versions read at most (one per versioned attribute of a resource); the rest are not reported. */
const MAX_VERSIONED = 500;

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
  readonly versioned: VersionedAttribute[] = [];
  /** Reads the versions a resource's attributes name (./versioned.ts). */
  versions(kind: DeploymentItem["kind"], type: string, properties: unknown, from: string) {
    if (this.versioned.length >= MAX_VERSIONED) return;
    this.versioned.push(...versionedAttributes(kind, type, properties, from));
  }
  /** The versions and locations read, as a deployment's optional fields. */
  versionedField(): Pick<Deployment, "versioned" | "locations" | "unlocated"> {
    return {
      ...(this.versioned.length > 0 ? { versioned: this.versioned.slice(0, MAX_VERSIONED) } : {}),
      ...this.located.fields(),
    };
  }
  readonly located = new LocatedResources();
  /** Reads where a resource says it goes (./stated-locations.ts). */
  locate(type: string, providerId: string | undefined, values: unknown, from: string) {
    this.located.read(type, providerId, values, from);
  }
  list(): DeploymentItem[] {
    return [...this.byKey.values()].sort((a, b) => (a.item < b.item ? -1 : a.item > b.item ? 1 : 0));
  }
}
