/**
 * Resource instances from what an evaluation resolved: each instance's catalogue provider, where it
 * goes (../tables/places.ts: its own attribute, else its provider block's, else the request's region; global
 * types and values as global; what no input says as unknown, with why), the versions its attributes
 * name (../tables/versioned.ts) and the traits a generic type is placed by (../tables/generic-types.ts).
 */
import type { DeploymentItem, InstanceLocation, ResourceInstance, UnknownVersion } from "../model/deployment.ts";
import { traitAttributes } from "../tables/generic-types.ts";
import { terraformProviderOf } from "../tables/terraform-providers.ts";
import { versionedAttributes, versionValuesRead } from "../tables/versioned.ts";
import {
  AZURE_GLOBAL,
  childType,
  DEFAULT_PLACES,
  globalType,
  GOOGLE_GLOBAL,
  isGlobalValue,
  REPLICA_PLACES,
  TERRAFORM_PLACES,
} from "../tables/places.ts";
import type { EvaluatedResource } from "./terraform.ts";
import { endpointItem, endpointKeyOf, endpointUse } from "../tables/endpoints.ts";
import { dependsOn, isUnknown, isValueObject, own } from "./values.ts";

/** The value at a dotted path (a number indexes a list: nodes.0.region). */
export function valueAt(value: unknown, path: string): unknown {
  let here = value;
  for (const key of path.split(".")) {
    if (isUnknown(here)) return here;
    if (Array.isArray(here) && /^[0-9]+$/.test(key)) here = here[Number(key)];
    else if (isValueObject(here)) here = own(here, key);
    else if (typeof here === "object" && here !== null && !Array.isArray(here) && Object.hasOwn(here, key))
      here = (here as Record<string, unknown>)[key];
    else return undefined;
  }
  return here;
}

/** The values at a dotted path with `*` for every item of a list (replica.*.region_name). */
function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  if (path.length === 0) return [value];
  if (isUnknown(value)) return [value];
  const [head, ...rest] = path as [string, ...string[]];
  if (head === "*") return Array.isArray(value) ? value.flatMap((item) => valuesAt(item, rest)) : [];
  const next = valueAt(value, head);
  return next === undefined ? [] : valuesAt(next, rest);
}

/** The further places a resource keeps data in (REPLICA_PLACES), each stated or not known. */
export function replicasOf(type: string, values: unknown): InstanceLocation[] | undefined {
  const path = REPLICA_PLACES.get(type);
  if (!path) return undefined;
  const attribute = path.split(".").at(-1)!;
  const found = valuesAt(values, path.split(".")).flatMap((value): InstanceLocation[] => {
    if (isUnknown(value)) return [{ kind: "unknown", why: `a replica's ${attribute} ${dependsOn(value)}` }];
    const stated = placeValue(value);
    return stated === undefined ? [] : [{ kind: "stated", attribute, value: stated, via: "a replica" }];
  });
  return found.length > 0 ? found : undefined;
}

/** A value as a place: a non-empty string (an ARM expression left unevaluated is none). */
function placeValue(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" || trimmed.startsWith("[") || trimmed.includes("${") ? undefined : trimmed.slice(0, 100);
}

const vendorGlobal = (providerId: string | undefined) =>
  providerId === "azure" ? AZURE_GLOBAL : providerId === "gcp" ? GOOGLE_GLOBAL : "its vendor's word for no region";

/**
 * Where a resource goes: the first of `attributes` it states; an Unknown there says why it is not
 * known; else `fallback` (its provider block's, an input's, the request's) decides.
 */
export function locate(
  type: string,
  providerId: string | undefined,
  values: unknown,
  attributes: readonly string[],
  fallback: () => InstanceLocation,
): InstanceLocation {
  const global = globalType(type);
  if (global) return { kind: "global", why: global };
  for (const attribute of attributes) {
    const value = valueAt(values, attribute);
    if (isUnknown(value)) return { kind: "unknown", why: `its ${attribute} ${dependsOn(value)}` };
    const stated = placeValue(value);
    if (stated === undefined) continue;
    if (isGlobalValue(stated)) return { kind: "global", why: vendorGlobal(providerId) };
    return { kind: "stated", attribute: attribute.split(".").at(-1)!, value: stated };
  }
  return fallback();
}

/** The traits a generic type is placed by, where the values state them. */
/**
 * The version attributes of a resource set through values the deployment does not say (a variable
 * or parameter without a value): named with the inputs that would tell, so that no version passes
 * unread in silence.
 */
export function unknownVersions(
  kind: DeploymentItem["kind"],
  type: string,
  values: unknown,
  from: string,
): UnknownVersion[] {
  return versionValuesRead(kind, type, values).flatMap(({ attribute, raw }): UnknownVersion[] =>
    isUnknown(raw)
      ? [
          {
            type,
            from,
            attribute,
            dependsOn: raw.inputs.length > 0 ? raw.inputs : [raw.reason ?? "computed when deployed"],
          },
        ]
      : [],
  );
}

export function traitsOf(
  kind: DeploymentItem["kind"],
  type: string,
  values: unknown,
): Record<string, string> | undefined {
  const traits: Record<string, string> = {};
  for (const path of traitAttributes(kind, type)) {
    const value = valueAt(values, path);
    if (typeof value === "string" && value.trim() !== "") traits[path] = value.trim().slice(0, 100);
  }
  return Object.keys(traits).length > 0 ? traits : undefined;
}

/**
 * A resource the AWS provider's `endpoints` block sends to another vendor's host (tables/endpoints.ts):
 * that vendor's service placed by the host, or an item of no vendor the catalogue places; never AWS's.
 */
function redirected(resource: EvaluatedResource): ResourceInstance | undefined {
  const { type, provider } = resource;
  const key = endpointKeyOf(type);
  if (!key) return undefined;
  const url = valueAt(provider.attributes, `endpoints.0.${key}`);
  const use = typeof url === "string" ? endpointUse(url) : undefined;
  if (!use || use.kind === "aws") return undefined;
  const base = {
    kind: "terraform-type" as const,
    item: endpointItem(use.host, type),
    from: resource.address.slice(0, 160),
    deployed: resource.deployed,
  };
  if (use.kind === "other")
    return { ...base, location: { kind: "unknown", why: `its provider block sends it to ${use.host}, ${use.why}` } };
  return {
    ...base,
    providerId: use.endpoint.providerId,
    location:
      resource.mode === "resource"
        ? {
            kind: "stated",
            attribute: "endpoint",
            value: use.region,
            via: `the provider block ${provider.key}'s endpoints.${key}${provider.where ? ` (${provider.where})` : ""}`,
          }
        : { kind: "none" },
    traits: { endpoint: use.endpoint.serviceId },
  };
}

/** A Terraform resource instance (configuration or plan) as the rules read it. */
export function terraformInstance(resource: EvaluatedResource, requestRegion: string | undefined): ResourceInstance {
  const elsewhere = redirected(resource);
  if (elsewhere) return elsewhere;
  const { type, attributes, provider } = resource;
  const armType = type.startsWith("azapi_") ? azapiType(attributes) : undefined;
  const kind: DeploymentItem["kind"] = armType ? "azure-type" : "terraform-type";
  const item = armType ?? type;
  const providerId = terraformProviderOf(type);
  const places = TERRAFORM_PLACES.get(type.slice(0, Math.max(0, type.indexOf("_")))) ?? DEFAULT_PLACES;
  const fromProvider = (): InstanceLocation => {
    if (childType(type)) return { kind: "none" };
    for (const attribute of places.provider) {
      const value = valueAt(provider.attributes, attribute);
      const where = `the provider block ${provider.key}${provider.where ? ` (${provider.where})` : ""}`;
      if (isUnknown(value)) return { kind: "unknown", why: `${where}'s ${attribute} ${dependsOn(value)}` };
      const stated = placeValue(value);
      if (stated !== undefined) return { kind: "stated", attribute, value: stated, via: where };
    }
    if (places.provider.length === 0) return { kind: "none" };
    if (requestRegion)
      return { kind: "stated", attribute: places.provider[0]!, value: requestRegion, via: "the request's region" };
    return {
      kind: "unknown",
      why: `the ${provider.key} provider's ${places.provider.join(" or ")} is not set in the configuration${provider.where ? ` (${provider.where})` : ""}: it comes from the environment Terraform runs in; give it as the request's region (--region)`,
    };
  };
  const versioned =
    resource.mode === "resource" ? versionedAttributes("terraform-type", type, attributes, resource.address) : [];
  const versionsUnknown =
    resource.mode === "resource" ? unknownVersions("terraform-type", type, attributes, resource.address) : [];
  const traits = traitsOf(kind, item, attributes);
  const replicas = resource.mode === "resource" ? replicasOf(type, attributes) : undefined;
  return {
    ...(replicas ? { replicas } : {}),
    kind,
    item,
    from: resource.address.slice(0, 160),
    ...(providerId ? { providerId } : {}),
    deployed: resource.deployed,
    location:
      resource.mode === "resource"
        ? locate(type, providerId, attributes, places.resource, fromProvider)
        : { kind: "none" },
    ...(versioned.length > 0 ? { versioned } : {}),
    ...(versionsUnknown.length > 0 ? { versionsUnknown } : {}),
    ...(traits ? { traits } : {}),
  };
}

/** What an azapi resource creates: its ARM type, without the API version. */
export function azapiType(values: unknown): string | undefined {
  const type = valueAt(values, "type");
  return typeof type === "string" ? type.split("@")[0] : undefined;
}
