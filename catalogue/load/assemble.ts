/**
 * The Catalogue every face reads, and how validated data (a CatalogueSource: load.ts reads and checks
 * the data folder; a build ships the same as JSON) is indexed into it: providers with their derived
 * properties, services with their records, groups and the lookups by id. Pure: no file is read here.
 */

import type { RegisterFileT } from "../schema/register.ts";
import { capabilityData, capabilityIndex, type CapabilityIndex } from "../capabilities/capabilities.ts";
import { placeMetros } from "../locations/metros.ts";
import type { PlaceMetro } from "../locations/places.ts";
import type { CapabilitiesFileT } from "../schema/capabilities.ts";
import type { EgressFileT, PlacementFileT } from "../schema/exit-data.ts";
import { followsIndex, type FollowsIndex } from "../capabilities/follows.ts";
import type { DependencyMap } from "../dependencies/dependencies.ts";
import {
  EU_EEA_COUNTRIES,
  EUROPEAN_SOVEREIGN_COUNTRIES,
  SOURCE_BACKS,
  type CatalogueReleaseT,
  type CategoryT,
  type CompatibilityClaimT,
  type CompatibilityNotSupportedT,
  type CompatibilityTermT,
  type NotDoingRecordT,
  type PolicyIdentifiersT,
  type ProviderFileT,
  type ProviderT,
  type OtherProductsFileT,
  type MetrosFileT,
  type SearchAbbreviationsFileT,
  type SearchWordsFileT,
  type ServiceDependencyT,
  type ServiceEntryT,
  type ServiceLineageT,
  type ServiceSourceEntryT,
  type ServiceSourceT,
  type ServiceT,
  type SubServiceT,
  type VerifiedT,
  type VersionFamilyDataT,
  type VersionMap,
} from "../schema/index.ts";
import { copiedServiceFields } from "../schema/service-fields.ts";
import type {
  EndpointRegionData,
  MultiRegionT,
  RegionT,
  ServicePlacementT,
  ServiceRegionT,
  StatedPlacementT,
  VendorRegionData,
} from "../schema/index.ts";
import { derivedRegionsOf, publicRegions, servicePlacement } from "./regions.ts";
import { descriptionBacked } from "./claim-terms.ts";
import { drained } from "../base/steps.ts";

export interface EquivalenceGroup {
  readonly id: string;
  readonly name: string;
  readonly services: readonly string[];
  /** The group's category when stated; otherwise the one most members are in. */
  readonly category?: string;
  /** Members filed under another category than the group's, each with the reason it belongs. */
  readonly otherCategories?: Readonly<Record<string, string>>;
  /** Services and providers checked and found not doing the job, each with the page read. */
  readonly notDoing?: readonly NotDoingRecordT[];
  /** Members whose primary job this group is, where the default rule would pick another. */
  readonly primaryOf?: readonly string[];
  /** Per provider, the member its vendor positions for this job (issue 124). */
  readonly flagships?: readonly string[];
}

/** What the catalogue knows about one service beyond its public Service fields. */
export interface ServiceRecord {
  readonly service: ServiceT;
  readonly subServices: readonly SubServiceT[];
  readonly policyIdentifiers: PolicyIdentifiersT;
  /** The official Terraform provider's resource types this service owns (empty when none are recorded). */
  readonly terraformResources: readonly string[];
  /** The vendor pages that back the service's facts, newest check first (empty when none are listed). */
  readonly sources: readonly ServiceSourceT[];
  /** What else it needs to be usable under a policy allowing it (data/dependencies/), with sources. */
  readonly dependencies: readonly ServiceDependencyT[];
  /** Its versions and tiers with their end dates (data/versions/; empty when none are recorded). */
  readonly versions: readonly VersionFamilyDataT[];
  /** Wire protocols and APIs its vendor states it is compatible with, each with that page (empty when none). */
  readonly compatibility: readonly CompatibilityClaimT[];
  /** Compatibility terms checked on the vendor's pages and not supported, each with that page (empty when none). */
  readonly notCompatible: readonly CompatibilityNotSupportedT[];
  /** The other provider's product it is, when another company operates it. */
  readonly lineage?: ServiceLineageT;
  /** Slugs of equivalent services on other providers, ordered by provider then name. */
  readonly equivalentSlugs: readonly string[];
  readonly groupIds: readonly string[];
  /** Where it runs: per region its country and level (regions.ts). */
  readonly regions: readonly ServiceRegionT[];
  /** How its place is known: global, regional or provider level, from which data as of when; absent when retired. */
  readonly placement?: ServicePlacementT;
}

export interface ProviderRecord {
  readonly provider: ProviderT;
  readonly file: ProviderFileT;
  readonly regionCountries: readonly string[];
  readonly sovereignOption: boolean;
  readonly euResidentOnly: boolean;
  /** Its regions as the API shows them: with operator and, for AWS, partition. */
  readonly regions: readonly RegionT[];
}

export interface Catalogue {
  readonly providers: readonly ProviderT[];
  readonly categories: readonly CategoryT[];
  /** All services, ordered by provider id then name. */
  readonly services: readonly ServiceT[];
  readonly groups: readonly EquivalenceGroup[];
  readonly compliance: ReadonlyMap<string, string>;
  /** The compatibility vocabulary (data/compatibility.yaml), by id, in file order. */
  readonly compatibilityById: ReadonlyMap<string, CompatibilityTermT>;
  readonly providerById: ReadonlyMap<string, ProviderRecord>;
  readonly categoryById: ReadonlyMap<string, CategoryT>;
  readonly bySlug: ReadonlyMap<string, ServiceRecord>;
  /** Newest modification time of the data files, ISO 8601. */
  readonly lastUpdated: string;
  /** What each release changed, newest first (changes.ts). */
  readonly changes: readonly CatalogueReleaseT[];
  /** Per lifecycle event (a calendar UID's key), the dates it has had, oldest first (event-dates.ts; empty in older builds). */
  readonly eventDates: ReadonlyMap<string, readonly string[]>;
  /** The validated data it was assembled from (JSON-serialisable; mirrors ship it). */
  readonly source: CatalogueSource;
  /** The capabilities of each job and which each service has (data/capabilities.yaml; absent in older builds). */
  readonly capabilities?: CapabilityIndex;
  /** Per job that follows what it serves, the jobs it serves and why (data/placement.yaml; absent in older builds). */
  readonly follows?: FollowsIndex;
  /** What leaving costs (data/egress.yaml; absent in older builds). */
  readonly egress?: EgressFileT;
  /** The vendors' multi-regions and dual-regions (data/locations/multi-regions.yaml; empty when none). */
  readonly multiRegions: readonly MultiRegionT[];
  /** The metro areas people name, each with its regions (data/places/metros.yaml; empty when none). */
  readonly metros: readonly PlaceMetro[];
}

/** Validated data files: what assembleCatalogue() indexes. */
export interface CatalogueSource {
  readonly providers: readonly ProviderFileT[];
  readonly categories: readonly CategoryT[];
  readonly compliance: readonly { id: string; name: string }[];
  /** The compatibility vocabulary (absent in builds before 1.8.0). */
  readonly compatibilityTerms?: readonly CompatibilityTermT[];
  readonly services: readonly { providerId: string; entry: ServiceEntryT }[];
  readonly groups: readonly EquivalenceGroup[];
  readonly lastUpdated: string;
  /** What each release changed, from the release snapshots beside the data folder (absent in older builds). */
  readonly changes?: readonly CatalogueReleaseT[];
  /** The recorded dates of each lifecycle event (catalogue/releases/event-dates.txt; absent in older builds). */
  readonly eventDates?: Readonly<Record<string, readonly string[]>>;
  /** Per service slug, its dependencies (data/dependencies/; absent in older builds). */
  readonly dependencies?: DependencyMap;
  /** Per service slug, its version families (data/versions/; absent in older builds and folders without it). */
  readonly versions?: VersionMap;
  /** How people ask (data/search-words.yaml; absent in older builds and in data folders without it). */
  readonly searchWords?: SearchWordsFileT;
  /** Products the catalogue does not list, by kind (data/other-products.yaml; absent in older builds). */
  readonly otherProducts?: OtherProductsFileT;
  /** Abbreviations people type for a product (data/search-abbreviations.yaml, 1.13.0; absent in older builds). */
  readonly abbreviations?: SearchAbbreviationsFileT;
  /** Metro areas people name, and where regions' cities come from (data/places/metros.yaml, 1.13.0). */
  readonly metros?: MetrosFileT;
  /** Per job the capabilities that decide a migration, per service which it has (data/capabilities.yaml, 1.11.0). */
  readonly capabilities?: CapabilitiesFileT;
  /** The jobs that follow what they serve (data/placement.yaml, 1.12.0; absent in older builds). */
  readonly placement?: PlacementFileT;
  /** What leaving costs: egress prices, exit waivers, the Data Act's rules (data/egress.yaml, 1.12.0). */
  readonly egress?: EgressFileT;
  /** AWS services' regions from the vendored endpoint metadata (absent in older builds). */
  readonly endpointRegions?: EndpointRegionData;
  /** Azure's and Google Cloud's services' regions from their vendored availability data (absent in older builds). */
  readonly vendorRegions?: readonly VendorRegionData[];
  /** Per service slug, what a vendor page states of its place (data/locations/<provider>.yaml; absent before 1.12.0). */
  readonly statedPlacements?: Readonly<Record<string, StatedPlacementT>>;
  /** The vendors' multi-regions and dual-regions (data/locations/multi-regions.yaml; absent before 1.12.0). */
  readonly multiRegions?: readonly MultiRegionT[];
  /** The provider side of the DORA register: ICT service types, contracting entities (data/register.yaml, 1.13.0). */
  readonly register?: RegisterFileT;
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, "en");

/** Whether a provider is a sovereign option: head office and controlling parent in the EU/EEA or CH. */
export function isSovereignOption(file: ProviderFileT): boolean {
  return (
    EUROPEAN_SOVEREIGN_COUNTRIES.has(file.headOffice.country) &&
    EUROPEAN_SOVEREIGN_COUNTRIES.has(file.controllingCountry)
  );
}

/** Whether a provider is EU-resident-only: head office and every region in the EU/EEA. */
export function isEuResidentOnly(file: ProviderFileT): boolean {
  return (
    EU_EEA_COUNTRIES.has(file.headOffice.country) &&
    file.regions.every((region) => EU_EEA_COUNTRIES.has(region.country))
  );
}

/**
 * When the data last changed, from the data itself (docs/design.md: "the same data builds the same bytes"):
 * the newest of the providers' and services' lastVerified days and the release snapshots' days, as
 * midnight UTC. Never a file's modification time, which a fresh clone or a copy resets.
 */
export function dataDate(
  providers: readonly { readonly lastVerified: string }[],
  services: readonly { readonly lastVerified?: string | undefined }[],
  snapshots: readonly { readonly release: string }[],
): string {
  let newest = "1970-01-01";
  for (const day of [
    ...providers.map((file) => file.lastVerified),
    ...services.map((entry) => entry.lastVerified),
    ...snapshots.map((snapshot) => snapshot.release),
  ])
    if (day && day > newest) newest = day;
  return `${newest}T00:00:00.000Z`;
}

/** Each provider's record, by id in id order, with its public regions (regions.ts). */
function providerRecords(source: CatalogueSource): Map<string, ProviderRecord> {
  const providerById = new Map<string, ProviderRecord>();
  for (const file of [...source.providers].sort((a, b) => a.id.localeCompare(b.id))) {
    const sovereignOption = isSovereignOption(file);
    const euResidentOnly = isEuResidentOnly(file);
    const provider: ProviderT = {
      id: file.id,
      name: file.name,
      shortName: file.shortName,
      ...(file.logo ? { logo: file.logo } : {}),
      documentationBaseUrl: file.documentationBaseUrl,
      defaultCompliance: file.defaultCompliance,
      ...(file.complianceScope ? { complianceScope: file.complianceScope } : {}),
      headOffice: file.headOffice,
      jurisdiction: file.jurisdiction,
      controllingCountry: file.controllingCountry,
      sovereignOption,
      euResidentOnly,
      regions: publicRegions(file, source.endpointRegions?.partitionOf),
    };
    const regionCountries = [...new Set(file.regions.map((region) => region.country))].sort();
    providerById.set(
      file.id,
      deepFreeze({ provider, file, regionCountries, sovereignOption, euResidentOnly, regions: provider.regions ?? [] }),
    );
  }

  return providerById;
}

/** Indexes validated data into the immutable Catalogue every face uses. */
export function assembleCatalogue(source: CatalogueSource): Catalogue {
  return drained(assembleSteps(source));
}

/** Services indexed between two steps of assembleSteps: a few milliseconds of work. */
const SERVICES_PER_STEP = 25;

/**
 * assembleCatalogue a few services at a time: between steps its caller may let other work run
 * (a server preparing the hosts of a new copy keeps answering meanwhile: sidecar/catalogue-in-turns.ts).
 */
export function* assembleSteps(source: CatalogueSource): Generator<void, Catalogue, void> {
  const providerById = providerRecords(source);
  const entries = new Map(source.services.map((item) => [item.entry.slug, item]));
  const unsorted: ServiceT[] = [];
  for (const { providerId, entry } of source.services) {
    unsorted.push(
      toService(providerId, entry, {
        providerNames: providerNamesOf(providerById.get(providerId)),
        compatibilityNames: (entry.compatibility ?? []).map(
          (claim) => source.compatibilityTerms?.find((term) => term.id === claim.id)?.name ?? claim.id,
        ),
      }),
    );
    if (unsorted.length % SERVICES_PER_STEP === 0) yield;
  }
  const services = unsorted.sort(
    (a, b) => a.providerId.localeCompare(b.providerId) || byName(a, b) || a.slug.localeCompare(b.slug),
  );
  const order = new Map(services.map((service, index) => [service.slug, index]));
  const groupById = new Map(source.groups.map((group) => [group.id, group]));
  const groupsBySlug = new Map<string, string[]>();
  for (const group of source.groups)
    for (const slug of group.services) groupsBySlug.set(slug, [...(groupsBySlug.get(slug) ?? []), group.id]);

  const bySlug = new Map<string, ServiceRecord>();
  for (const service of services) {
    const { entry } = entries.get(service.slug)!;
    const memberships = groupsBySlug.get(service.slug) ?? [];
    const equivalents = new Set<string>();
    for (const groupId of memberships) {
      for (const other of groupById.get(groupId)!.services) {
        if (entries.get(other)!.providerId !== service.providerId) equivalents.add(other);
      }
    }
    bySlug.set(
      service.slug,
      deepFreeze({
        service,
        subServices: entry.subServices ?? [],
        policyIdentifiers: entry.policyIdentifiers ?? {},
        terraformResources: entry.terraformResources ?? [],
        sources: newestFirst(entry.sources ?? []).map(publicSource),
        dependencies: source.dependencies?.[service.slug] ?? [],
        versions: source.versions?.[service.slug] ?? [],
        compatibility: entry.compatibility ?? [],
        notCompatible: entry.notCompatible ?? [],
        ...(entry.lineage ? { lineage: entry.lineage } : {}),
        equivalentSlugs: [...equivalents].sort((a, b) => order.get(a)! - order.get(b)!),
        groupIds: memberships,
        // A retired service runs nowhere, whatever an SDK's metadata still lists.
        ...placementOf(source, providerById.get(service.providerId), service),
      }),
    );
    if (bySlug.size % SERVICES_PER_STEP === 0) yield;
  }

  return deepFreeze({
    providers: [...providerById.values()].map((record) => record.provider),
    categories: source.categories,
    services,
    groups: source.groups,
    compliance: new Map(source.compliance.map((entry) => [entry.id, entry.name])),
    compatibilityById: new Map((source.compatibilityTerms ?? []).map((term) => [term.id, term])),
    providerById,
    categoryById: new Map(source.categories.map((category) => [category.id, category])),
    bySlug,
    lastUpdated: source.lastUpdated,
    changes: source.changes ?? [],
    eventDates: new Map(Object.entries(source.eventDates ?? {})),
    source,
    ...(source.capabilities ? { capabilities: capabilitiesOf(source.capabilities, bySlug) } : {}),
    ...(source.placement ? { follows: followsIndex(source.placement.follows) } : {}),
    ...(source.egress ? { egress: source.egress } : {}),
    multiRegions: source.multiRegions ?? [],
    metros: placeMetros(source.metros, source.providers),
  });
}

/** The capability index, with what the services' compatibility records state (issue 114). */
function capabilitiesOf(file: CapabilitiesFileT, bySlug: ReadonlyMap<string, ServiceRecord>): CapabilityIndex {
  return capabilityIndex(capabilityData(file, bySlug), file, bySlug);
}

/** A service's regions and placement (regions.ts); a retired service has neither. */
function placementOf(
  source: CatalogueSource,
  provider: ProviderRecord | undefined,
  service: ServiceT,
): Pick<ServiceRecord, "regions" | "placement"> {
  if (service.lifecycle?.status === "retired" || !provider) return { regions: [] };
  const stated: StatedPlacementT | undefined =
    source.statedPlacements && Object.hasOwn(source.statedPlacements, service.slug)
      ? source.statedPlacements[service.slug]
      : undefined;
  const placed = servicePlacement({
    regions: provider.regions,
    providerListAsOf: provider.file.lastVerified,
    providerName: provider.provider.shortName,
    derived: derivedRegionsOf(source.endpointRegions, source.vendorRegions, service.providerId, service.slug),
    stated,
  });
  return { regions: placed.regions, placement: placed.placement };
}

/** Sources by retrieved date, newest first; ties keep the file's order. */
function newestFirst<T extends { readonly retrieved: string }>(sources: readonly T[]): T[] {
  return [...sources].sort((a, b) => (a.retrieved === b.retrieved ? 0 : a.retrieved < b.retrieved ? 1 : -1));
}

/** A data-file source as the API shows it: `checked` repeats `retrieved` for 1.7 clients. */
function publicSource(source: ServiceSourceEntryT): ServiceSourceT {
  return { ...source, checked: source.retrieved };
}

/** A service entry's lastVerified: the newest retrieved date of its sources, undefined when it has none. */
export function lastVerifiedOf(entry: Pick<ServiceEntryT, "sources">): string | undefined {
  return newestFirst(entry.sources ?? [])[0]?.retrieved;
}

/** Per kind of fact its sources back, the newest retrieved day; undefined when it has no source. */
export function verifiedOf(entry: Pick<ServiceEntryT, "sources">): VerifiedT | undefined {
  const verified: Record<string, string> = {};
  for (const source of entry.sources ?? [])
    for (const kind of source.backs)
      if (!verified[kind] || source.retrieved > verified[kind]) verified[kind] = source.retrieved;
  if (Object.keys(verified).length === 0) return undefined;
  return Object.fromEntries(SOURCE_BACKS.flatMap((kind) => (verified[kind] ? [[kind, verified[kind]]] : [])));
}

/** A provider's names, which a description may use as its service's own (rule "claim terms"). */
function providerNamesOf(
  record: { readonly provider: { readonly name: string; readonly shortName: string } } | undefined,
) {
  return record ? [record.provider.name, record.provider.shortName] : [];
}

/**
 * The public Service shape (see data/README.md): id = slug; compliance is the entry's own list only,
 * never the provider's defaultCompliance (that stays on the provider); lastVerified is the newest
 * checked date of the entry's sources, absent when it has none.
 */
function toService(
  providerId: string,
  entry: ServiceEntryT,
  names: { readonly providerNames: readonly string[]; readonly compatibilityNames: readonly string[] },
): ServiceT {
  const compliance = [...(entry.compliance ?? [])];
  const service: ServiceT = {
    id: entry.slug,
    slug: entry.slug,
    providerId,
    name: entry.name,
    shortName: entry.shortName,
    category: entry.category,
    ...copiedServiceFields(entry),
    compliance,
    lifecycle: entry.lifecycle,
    lastVerified: lastVerifiedOf(entry),
    descriptionBacked: descriptionBacked({
      description: entry.description,
      names: [entry.name, entry.shortName ?? "", ...(entry.aliases ?? []), ...names.providerNames].filter(Boolean),
      sources: entry.sources ?? [],
      compatibility: names.compatibilityNames,
    }),
    verified: verifiedOf(entry),
  };
  // Drop absent optional fields so that serialised JSON carries no undefined keys and key order is stable.
  for (const key of Object.keys(service) as (keyof ServiceT)[]) if (service[key] === undefined) delete service[key];
  return service;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    if (value instanceof Map) for (const item of value.values()) deepFreeze(item);
    else for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
