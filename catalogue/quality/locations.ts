/**
 * check:data's locations report (docs/decisions.md#locations): per provider how its services'
 * regions are known (per service or provider level), its regions with country and operator, and
 * AWS's region list and services against the vendored endpoint metadata (inventory aws/endpoints),
 * and Azure's and Google Cloud's region lists against their vendored availability data
 * (inventory/data/<provider>/locations).
 */
import type { Catalogue } from "../load/load.ts";
import type { VendorRegionData } from "../schema/index.ts";

/** Lines to print: per provider, services per level, regions, countries and operators; AWS's regions in full. */
export function locationLines(catalogue: Catalogue): string[] {
  const lines: string[] = [];
  for (const provider of catalogue.providers) {
    const record = catalogue.providerById.get(provider.id)!;
    const services = [...catalogue.bySlug.values()].filter((service) => service.service.providerId === provider.id);
    const kind = (name: string) => services.filter((service) => service.placement?.kind === name).length;
    const [perService, global, providerLevel] = [kind("regional"), kind("global"), kind("provider-level")];
    const stated = services.filter((service) =>
      Object.hasOwn(catalogue.source.statedPlacements ?? {}, service.service.slug),
    ).length;
    const operators = new Map<string, number>();
    for (const region of record.regions)
      operators.set(region.operator ?? "none stated", (operators.get(region.operator ?? "none stated") ?? 0) + 1);
    lines.push(
      `${provider.id}: ${services.length} services (${perService} per service, ${global} global, ${providerLevel} provider level, ${services.length - perService - global - providerLevel} retired: none; ${stated} from data/locations/); ${record.regions.length} regions in ${record.regionCountries.length} countries; operator ${[...operators].map(([name, count]) => `${name} (${count})`).join(", ")}`,
    );
  }
  const aws = catalogue.providerById.get("aws");
  if (aws)
    for (const region of aws.regions)
      lines.push(
        `  aws ${region.id}: ${region.country}, ${region.partition ?? "no partition in the endpoint data"}, ${region.operator ?? "operator not stated"}`,
      );
  const data = catalogue.source.endpointRegions;
  if (data) {
    const without = [...catalogue.bySlug.values()]
      .filter((record) => record.service.providerId === "aws" && !Object.hasOwn(data.services, record.service.slug))
      .map((record) => record.service.slug);
    lines.push(`AWS services the endpoint metadata lacks (provider level): ${without.length}: ${without.join(", ")}`);
  }
  for (const data of catalogue.source.vendorRegions ?? []) lines.push(...vendorRegionLines(catalogue, data));
  return lines;
}

/** A provider's vendored availability data against its region list and services. */
function vendorRegionLines(catalogue: Catalogue, data: VendorRegionData): string[] {
  const listed = new Set(catalogue.providerById.get(data.provider)?.regions.map(({ id }) => id) ?? []);
  const named = new Set(data.locations);
  const services = [...catalogue.bySlug.values()].filter((record) => record.service.providerId === data.provider);
  const without = services
    .filter((record) => !Object.hasOwn(data.services, record.service.slug))
    .filter((record) => record.service.lifecycle?.status !== "retired");
  const retired = services.filter((record) => record.service.lifecycle?.status === "retired").length;
  return [
    `${data.provider} availability data (${data.origin}): ${data.itemCount} items, ${data.itemCount - data.unclaimed} claimed, ${data.excluded} excluded, ${data.unreconciled.length} unreconciled; ${services.length - without.length - retired} services in use placed by it`,
    `  ${data.provider} services in use it does not place (provider level): ${without.length}: ${without.map((record) => record.service.slug).join(", ")}`,
    `  ${data.provider} services whose items name only a geography (provider level): ${data.unplaced.length}: ${data.unplaced.join(", ") || "none"}`,
    `  ${data.provider} locations the data names that providers/${data.provider}.yaml does not list (not a region, or not a public one): ${data.locations.filter((id) => !listed.has(id)).join(", ") || "none"}`,
    `  ${data.provider} regions providers/${data.provider}.yaml lists that the data never names (newer than it, or restricted): ${[...listed].filter((id) => !named.has(id)).join(", ") || "none"}`,
  ];
}

/**
 * AWS's region list against the endpoint metadata: each region the catalogue lists is in it, in the
 * partition its market says (eu-sovereign: aws-eusc; else aws); each region of those two partitions
 * is in the list; each service the data places has at least one listed region. And each region a
 * search place names is a provider's.
 */
export function locationProblems(catalogue: Catalogue): string[] {
  const known = new Set(catalogue.providers.flatMap((provider) => (provider.regions ?? []).map(({ id }) => id)));
  const placeProblems = (catalogue.source.searchWords?.places ?? []).flatMap((place) =>
    place.region && !known.has(place.region)
      ? [`LOCATIONS: search-words.yaml place ${place.words[0]}: region ${place.region} is no provider's region`]
      : [],
  );
  return [...placeProblems, ...awsRegionProblems(catalogue), ...vendorRegionProblems(catalogue)];
}

/**
 * Each item of the vendored availability data is claimed or excluded (exclusions.yaml, with a
 * reason), and each service it places has at least one region of its provider's list.
 */
function vendorRegionProblems(catalogue: Catalogue): string[] {
  return (catalogue.source.vendorRegions ?? []).flatMap((data) => [
    ...data.unreconciled.map(
      (item) =>
        `LOCATIONS: ${data.provider}/locations: "${item}" is neither claimed by a service nor excluded (name it in a service's policyIdentifiers or map.yaml, or in exclusions.yaml with a reason)`,
    ),
    ...Object.entries(data.services).flatMap(([slug, claimed]) => {
      const record = catalogue.bySlug.get(slug);
      return record && record.placement?.kind === "regional" && record.regions.length === 0
        ? [
            `LOCATIONS: ${slug}: its items in the ${data.provider} availability data (${claimed.prefixes.join(", ")}) name no region providers/${data.provider}.yaml lists`,
          ]
        : [];
    }),
  ]);
}

function awsRegionProblems(catalogue: Catalogue): string[] {
  const data = catalogue.source.endpointRegions;
  const aws = catalogue.providerById.get("aws");
  if (!data || !aws) return [];
  const problems: string[] = [];
  const listed = new Set(aws.regions.map((region) => region.id));
  for (const region of aws.file.regions) {
    const partition = Object.hasOwn(data.partitionOf, region.id) ? data.partitionOf[region.id] : undefined;
    const expected = region.market === "eu-sovereign" ? "aws-eusc" : "aws";
    if (partition !== expected)
      problems.push(
        `LOCATIONS: providers/aws.yaml region ${region.id} is in partition ${partition ?? "(none)"} of the endpoint metadata, but its market says ${expected}`,
      );
  }
  for (const [region, partition] of Object.entries(data.partitionOf))
    if ((partition === "aws" || partition === "aws-eusc") && !listed.has(region))
      problems.push(
        `LOCATIONS: the endpoint metadata has region ${region} (${partition}), which providers/aws.yaml lacks`,
      );
  for (const [slug, endpoint] of Object.entries(data.services)) {
    const record = catalogue.bySlug.get(slug);
    // A retired service runs nowhere on purpose (assemble.ts), whatever the metadata still lists.
    if (record && record.placement && record.placement.kind !== "global" && record.regions.length === 0)
      problems.push(
        `LOCATIONS: ${slug}: its endpoint prefixes (${endpoint.prefixes.join(", ")}) serve no region providers/aws.yaml lists`,
      );
  }
  return problems;
}
