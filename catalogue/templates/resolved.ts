/**
 * The resolved deployment: the evaluator's resource instances (./evaluate/) and the views of them
 * the rules read — the items deployed, the versions they name, where each goes and what the input
 * does not say of it, what is never deployed and what depends on inputs. Computed once, here, so
 * every rule (services and policies, locations, versions) reads the same instances.
 */
import { TemplateError } from "./model/errors.ts";
import type {
  ConditionalResource,
  Deployment,
  DeploymentFormat,
  DeploymentItem,
  ResourceInstance,
  StatedLocation,
  UnknownLocation,
  UnknownVersion,
  VersionedAttribute,
} from "./model/deployment.ts";

/** At most this many resource instances are read; more is a 400 (the body's size bounds the rest). */
export const MAX_TEMPLATE_ITEMS = 2000;
/** Versions, located resources and listed conditional resources kept at most (the rest are counted or left out). */
const MAX_VERSIONED = 500;
const MAX_LOCATED = 500;
const MAX_LISTED = 200;

/** What a reader knows beside its instances. */
export type DeploymentExtras = Partial<
  Pick<
    Deployment,
    | "parameterTypes"
    | "cdk"
    | "sam"
    | "expanded"
    | "notRead"
    | "notReadVendors"
    | "loops"
    | "shows"
    | "inputs"
    | "failures"
  >
>;

/**
 * The deployed items, each with every instance it came from, never the first few: a gate weighs each
 * resource on its own (issue 122), and MAX_TEMPLATE_ITEMS bounds them. A Set per item keeps 2,000
 * instances of one type linear.
 */
class Items {
  private readonly items = new Map<string, { kind: DeploymentItem["kind"]; item: string; from: Set<string> }>();

  add(instance: ResourceInstance): void {
    const key = `${instance.kind} ${instance.kind === "azure-type" ? instance.item.toLowerCase() : instance.item}`;
    let entry = this.items.get(key);
    if (!entry) {
      entry = { kind: instance.kind, item: instance.item, from: new Set() };
      this.items.set(key, entry);
    }
    entry.from.add(instance.from);
  }

  /** By item, as the answer lists them. */
  list(): DeploymentItem[] {
    return [...this.items.values()]
      .map(({ kind, item, from }) => ({ kind, item, from: [...from] }))
      .sort((a, b) => (a.item < b.item ? -1 : a.item > b.item ? 1 : 0));
  }
}

/** The deployment the rules read, from the instances a reader's evaluation made. */
export function resolvedDeployment(
  format: DeploymentFormat,
  instances: readonly ResourceInstance[],
  extras: DeploymentExtras = {},
): Deployment {
  const items = new Items();
  const notDeployed: ConditionalResource[] = [];
  const dependsOnInputs: ConditionalResource[] = [];
  const versioned: VersionedAttribute[] = [];
  const versionsUnknown: UnknownVersion[] = [];
  const locations: StatedLocation[] = [];
  const unknownLocations: UnknownLocation[] = [];
  type Traits = Record<string, Record<string, string>[]>;
  const traits = Object.create(null) as Traits;
  let unlocated = 0;
  if (instances.length > MAX_TEMPLATE_ITEMS)
    throw new TemplateError(`The template holds more than ${MAX_TEMPLATE_ITEMS} resources; check it in parts.`);
  for (const instance of instances) {
    const { deployed } = instance;
    if (deployed.state === "no") {
      if (notDeployed.length < MAX_LISTED)
        notDeployed.push({ item: instance.item, from: instance.from, because: deployed.because });
      continue;
    }
    if (deployed.state === "depends" && dependsOnInputs.length < MAX_LISTED)
      dependsOnInputs.push({ item: instance.item, from: instance.from, because: deployed.because, on: deployed.on });
    items.add(instance);
    for (const attribute of instance.versioned ?? []) if (versioned.length < MAX_VERSIONED) versioned.push(attribute);
    for (const attribute of instance.versionsUnknown ?? [])
      if (versionsUnknown.length < MAX_VERSIONED) versionsUnknown.push(attribute);
    if (instance.traits) (traits[instance.item] ??= []).push({ ...instance.traits });
    const base = { type: instance.item, ...(instance.providerId ? { providerId: instance.providerId } : {}) };
    // Its own place, then each replica's (a global table's, a Cosmos DB account's other regions).
    const places = [
      [instance.location, instance.from] as const,
      ...(instance.replicas ?? []).map((replica) => [replica, `${instance.from} (replica)`] as const),
    ];
    for (const [place, from] of places) {
      if (place.kind === "none") unlocated++;
      else if (place.kind === "unknown") {
        if (unknownLocations.length < MAX_LOCATED) unknownLocations.push({ ...base, from, why: place.why });
      } else if (locations.length < MAX_LOCATED)
        locations.push(
          place.kind === "global"
            ? { ...base, from, attribute: "global", value: "global", global: place.why }
            : {
                ...base,
                from,
                attribute: place.attribute,
                value: place.value,
                ...(place.via ? { via: place.via } : {}),
              },
        );
    }
  }
  return {
    format,
    items: items.list(),
    parameterTypes: [],
    cdk: false,
    sam: false,
    expanded: [],
    notRead: [],
    ...extras,
    ...(notDeployed.length > 0 ? { notDeployed } : {}),
    ...(dependsOnInputs.length > 0 ? { dependsOnInputs } : {}),
    ...(versioned.length > 0 ? { versioned } : {}),
    ...(versionsUnknown.length > 0 ? { versionsUnknown } : {}),
    ...(locations.length > 0 ? { locations } : {}),
    ...(unknownLocations.length > 0 ? { unknownLocations } : {}),
    ...(unlocated > 0 ? { unlocated } : {}),
    ...(Object.keys(traits).length > 0 ? { traits } : {}),
  };
}
