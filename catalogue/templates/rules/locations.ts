/**
 * The deployment check's locations (added in 1.11.0): each resource's stated location
 * (../evaluate/instances.ts) matched to its provider's region in the catalogue, and, with the
 * request's allowedLocations, whether that region is allowed. allowedLocations means what it means
 * to the policy endpoints (policies/locations.ts resolves it), over every provider with regions, so
 * one approved list with locations is checked the same way on every provider, with or without an
 * organisation-policy engine.
 */
import { multiRegionAllowed, resolvePlace } from "../../locations/places.ts";
import {
  allowedPlaces,
  resolveLocations,
  type LocationRegion,
  type LocationVocabulary,
} from "../../policies/locations.ts";
import type { ListCatalogue } from "../../lists/list-catalogue.ts";
import type { LocationAnswer, Statement } from "../model/answer.ts";
import type { Deployment, StatedLocation } from "../model/deployment.ts";

/** The vocabulary of the check's allowedLocations: every provider's regions the catalogue holds. */
export function checkVocabulary(catalogue: ListCatalogue): LocationVocabulary {
  return {
    providerIds: catalogue.providers.filter((provider) => provider.regions?.length).map((provider) => provider.id),
    named: "any provider of the catalogue",
  };
}

/**
 * OVHcloud's Public Cloud regions as its Terraform provider and OpenStack name them (GRA7, SBG5,
 * DE1, UK1, WAW1, BHS5, SGP1, SYD1: site letters and a number), to the catalogue's region of that
 * site: DE and UK are OVHcloud's only sites in those countries the catalogue lists (Limburg, and
 * Erith for London). Other names (US-EAST-VA-1, RBX-A) are matched by id or not at all.
 */
const OVH_SITES: ReadonlyMap<string, string> = new Map([
  ["GRA", "eu-west-gra"],
  ["SBG", "eu-west-sbg"],
  ["RBX", "eu-west-rbx"],
  ["DE", "eu-west-lim"],
  ["UK", "eu-west-eri"],
  ["WAW", "eu-central-waw"],
  ["BHS", "ca-east-bhs"],
  ["SGP", "ap-southeast-sgp"],
  ["SYD", "ap-southeast-syd"],
]);

/**
 * The provider's region a stated location names: its id (any case; Azure's display name without
 * spaces, as azurerm accepts "West Europe"), an OVHcloud site name, or a zone or data centre that
 * extends exactly one region's id (fr-par-1, europe-west3-a, fsn1-dc14). Anything else is not
 * known: kept as given, never matched to a nearest region.
 */
export function regionOf(
  regions: readonly LocationRegion[],
  providerId: string,
  value: string,
): LocationRegion | undefined {
  const key = (providerId === "azure" ? value.replace(/\s+/g, "") : value).toLowerCase();
  const byId = (id: string | undefined) => regions.find((region) => region.id.toLowerCase() === id);
  const exact = byId(key);
  if (exact) return exact;
  // Managed Databases name a site alone (GRA), Public Cloud a site and a number (GRA7).
  const site = providerId === "ovhcloud" ? /^([A-Z]+)[0-9]*$/i.exec(value)?.[1]?.toUpperCase() : undefined;
  if (site && OVH_SITES.has(site)) return byId(OVH_SITES.get(site));
  const extended = regions.filter((region) => key.startsWith(`${region.id.toLowerCase()}-`));
  return extended.length === 1 ? extended[0] : undefined;
}

/** Each located resource with its region, country and, with allowedLocations, whether it is allowed. */
export function locationAnswers(
  catalogue: ListCatalogue,
  deployment: Deployment,
  allowedLocations: readonly string[] | undefined,
): LocationAnswer[] {
  const vocabulary = checkVocabulary(catalogue);
  // An unknown location is a 400 whatever the deployment holds, as at the policy endpoints.
  if (allowedLocations)
    resolveLocations(catalogue, { providerId: vocabulary.providerIds[0]! }, allowedLocations, vocabulary);
  const allowed = allowedLocations ? allowedPlaces(catalogue, allowedLocations) : undefined;
  const allowedByProvider = new Map<string, Set<string>>();
  const allowedOf = (providerId: string) => {
    if (!allowedByProvider.has(providerId)) {
      const asked = resolveLocations(catalogue, { providerId }, allowedLocations!, vocabulary);
      allowedByProvider.set(providerId, new Set(asked.flatMap((location) => location.regions.map((r) => r.id))));
    }
    return allowedByProvider.get(providerId)!;
  };
  return (deployment.locations ?? []).map((stated: StatedLocation): LocationAnswer => {
    const common = {
      from: stated.from,
      type: stated.type,
      ...(stated.providerId ? { providerId: stated.providerId } : {}),
      attribute: stated.attribute,
      location: stated.value,
      ...(stated.via ? { via: stated.via } : {}),
    };
    // A global resource is exempt from each vendor's location policy: allowed, and said so.
    if (stated.global) return { ...common, global: stated.global, ...(allowedLocations ? { allowed: true } : {}) };
    const provider = stated.providerId
      ? catalogue.providers.find((candidate) => candidate.id === stated.providerId)
      : undefined;
    const region = provider?.regions ? regionOf(provider.regions, provider.id, stated.value) : undefined;
    if (!region && provider) {
      // A vendor's multi-region or dual-region (a bucket's US, EU or NAM4): allowed only if all it covers is.
      const multi = resolvePlace(catalogue, `${provider.id}:${stated.value}`);
      if (multi?.kind === "multi-region")
        return {
          ...common,
          multiRegion: multi.regions.length > 0 ? multi.regions.map((covered) => covered.id) : multi.countries,
          ...(allowedLocations ? { allowed: multiRegionAllowed(multi, allowed!) } : {}),
        };
    }
    return {
      ...common,
      ...(region ? { region: region.id, country: region.country } : {}),
      ...(allowedLocations ? { allowed: region ? allowedOf(provider!.id).has(region.id) : null } : {}),
    };
  });
}

const some = (values: readonly string[], max: number) =>
  `${values.slice(0, max).join(", ")}${values.length > max ? `, … (${values.length} in all)` : ""}`;
const resources = (count: number) => `${count} resource${count === 1 ? "" : "s"}`;

/** The locations statement: only with allowedLocations, what is outside them, not known, or not stated. */
export function locationStatements(
  deployment: Deployment,
  answers: readonly LocationAnswer[],
  allowedLocations: readonly string[] | undefined,
): Statement[] {
  if (!allowedLocations) return [];
  const asked = [...new Set(allowedLocations.map((location) => location.trim()))].join(", ");
  const denied = answers.filter((answer) => answer.allowed === false);
  const unknown = answers.filter((answer) => answer.allowed === null);
  const global = answers.filter((answer) => answer.global);
  const where = (answer: LocationAnswer) =>
    `${answer.from} (${answer.location}${answer.region && answer.region !== answer.location ? ` = ${answer.region}` : ""}${answer.country ? `, ${answer.country}` : ""}${answer.via ? `, from ${answer.via}` : ""})`;
  const notSaid = deployment.unknownLocations ?? [];
  const parts = [
    denied.length > 0
      ? `${resources(denied.length)} outside the allowed locations (${asked}): ${some(denied.map(where), 8)}.`
      : `No resource whose location the input says is outside the allowed locations (${asked}): ${resources(answers.length - unknown.length - global.length)} checked.`,
    ...(global.length > 0
      ? [
          `${resources(global.length)} ${global.length === 1 ? "is" : "are"} global, answered from the vendor's global endpoint, which each vendor's location policy exempts: allowed, though ${global.length === 1 ? "its" : "their"} data may leave the allowed locations (${some(
            global.map((answer) => answer.from),
            6,
          )}).`,
        ]
      : []),
    ...(notSaid.length > 0
      ? [
          `${resources(notSaid.length)} ${notSaid.length === 1 ? "goes" : "go"} where the input does not say, so neither allowed nor denied: ${some(
            notSaid.map((entry) => `${entry.from} (${entry.why})`),
            4,
          )}.`,
        ]
      : []),
    ...(unknown.length > 0
      ? [
          `${resources(unknown.length)} state a location the catalogue's regions do not hold, so neither allowed nor denied: ${some(
            unknown.map((answer) => `${answer.from} (${answer.location})`),
            8,
          )}.`,
        ]
      : []),
    ...(deployment.unlocated
      ? [
          `${resources(deployment.unlocated)} ${deployment.unlocated === 1 ? "has" : "have"} no location of ${deployment.unlocated === 1 ? "its" : "their"} own (a child resource, a resource of no region): not listed, not checked.`,
        ]
      : []),
  ];
  return [
    {
      kind: "locations",
      text: parts.join(" "),
      checked: ["allowedLocations", "catalogue provider regions (data/providers/*.yaml)"],
    },
  ];
}
