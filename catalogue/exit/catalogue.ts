/**
 * What exitPlan() (plan.ts) reads of a catalogue, in a compact, JSON-serialisable form the
 * build writes for the site (/exit-catalogue.json), so "Plan an exit" runs in the browser with the
 * API's own function, works on a mirror and spends no API request. expandExitCatalogue(compact)
 * gives an ExitCatalogue whose plans equal the full catalogue's (tests/catalogue/exit-catalogue.test.ts).
 */
import {
  compatibilityOf,
  notCompatibleOf,
  originOf,
  partialCompatibilityOf,
  type Approved,
  type ExitCatalogue,
  flagshipPrior,
} from "./context.ts";
import type { Catalogue } from "../load/load.ts";
import { capabilityData, capabilityIndex, type CapabilityData } from "../capabilities/capabilities.ts";
import { followsIndex } from "../capabilities/follows.ts";
import type { EgressFileT } from "../schema/exit-data.ts";
import type { CompatibilityClaimT, CompatibilityNotSupportedT, ServiceLineageT } from "../schema/compatibility.ts";
import type { ServiceLifecycleT, ServiceT } from "../schema/index.ts";

/**
 * One service: [slug, name, category, lifecycle or 0 (the exposure rows carry it whole), tags,
 * flagship prior, documentation URL or 0, compatibility entry ids (a claim for part of a job as
 * "id|scope"), lineage origin or 0, its own compliance ids (the exposure rows show them)].
 */
export type CompactExitService = [
  slug: string,
  name: string,
  category: string,
  lifecycle: ServiceLifecycleT | 0,
  tags: readonly string[],
  prior: number,
  documentationUrl: string | 0,
  compatibility: readonly string[],
  lineageOrigin: string | 0,
  compliance: readonly string[],
];

export interface CompactExitCatalogue {
  readonly lastUpdated: string;
  /** The newest released catalogue release, when there is one. */
  readonly release: string | null;
  readonly providers: readonly {
    readonly id: string;
    readonly name: string;
    readonly shortName: string;
    readonly headOfficeCountry: string;
    /** The operating company as the provider publishes it. */
    readonly company: string;
    readonly jurisdiction: string;
    readonly controllingCountry: string;
    readonly regionCountries: readonly string[];
    readonly sovereignOption: boolean;
    readonly euResidentOnly: boolean;
    /** What the exposure rows' providerOnly reads: the programmes held, and which scope lists are carried in full. */
    readonly defaultCompliance: readonly string[];
    readonly complianceScope: readonly {
      readonly programmes: readonly string[];
      readonly url: string;
      readonly listed?: true;
    }[];
    readonly services: readonly CompactExitService[];
  }[];
  /** Equivalence groups: [id, name, member slugs, providers recorded as not selling the job, primaryOf, flagships]. */
  readonly groups: readonly (readonly [
    string,
    string,
    readonly string[],
    readonly string[],
    readonly string[],
    readonly string[],
  ])[];
  /** The compatibility terms swept over groups: [term id, group ids]. */
  readonly termGroups: readonly (readonly [string, readonly string[]])[];
  /** Each job's capabilities and which each service has or lacks (capabilities.yaml, without sources). */
  readonly capabilities?: CapabilityData;
  /** The jobs that follow what they serve: [group, served groups, why] (placement.yaml). */
  readonly follows?: readonly (readonly [string, readonly string[], string])[];
  /** What leaving costs, with its pages (egress.yaml, whole: the plan names every figure's page). */
  readonly egress?: EgressFileT;
}

export function compactExitCatalogue(catalogue: Catalogue): CompactExitCatalogue {
  return {
    lastUpdated: catalogue.lastUpdated,
    release: catalogue.changes.find((change) => change.released)?.release ?? null,
    providers: catalogue.providers.map((provider) => {
      const record = catalogue.providerById.get(provider.id)!;
      return {
        id: provider.id,
        name: provider.name,
        shortName: provider.shortName,
        headOfficeCountry: record.file.headOffice.country,
        company: record.file.headOffice.company,
        jurisdiction: record.file.jurisdiction,
        controllingCountry: record.file.controllingCountry,
        regionCountries: record.regionCountries,
        sovereignOption: record.sovereignOption,
        euResidentOnly: record.euResidentOnly,
        defaultCompliance: record.file.defaultCompliance ?? [],
        complianceScope: (record.file.complianceScope ?? []).map(({ programmes, url, listed }) => ({
          programmes,
          url,
          ...(listed ? { listed: true as const } : {}),
        })),
        services: catalogue.services
          .filter((service) => service.providerId === provider.id)
          .map((service): CompactExitService => {
            const record = catalogue.bySlug.get(service.slug)!;
            return [
              service.slug,
              service.name,
              service.category,
              service.lifecycle ?? 0,
              service.tags ?? [],
              flagshipPrior(record),
              service.documentationUrl ?? 0,
              [
                ...compatibilityOf(record),
                ...partialCompatibilityOf(record).map(([id, scope]) => `${id}|${scope}`),
                ...notCompatibleOf(record).map(([id, note]) => `!${id}|${note ?? ""}`),
              ],
              originOf(record) ?? 0,
              service.compliance ?? [],
            ];
          }),
      };
    }),
    groups: catalogue.groups.map(
      (group) =>
        [
          group.id,
          group.name,
          group.services,
          (group.notDoing ?? []).flatMap((record) => (record.provider ? [record.provider] : [])),
          group.primaryOf ?? [],
          group.flagships ?? [],
        ] as const,
    ),
    termGroups: [...catalogue.compatibilityById.values()].flatMap((term) =>
      term.groups ? [[term.id, term.groups] as const] : [],
    ),
    ...(catalogue.source.capabilities
      ? { capabilities: capabilityData(catalogue.source.capabilities, catalogue.bySlug) }
      : {}),
    ...(catalogue.source.placement
      ? { follows: catalogue.source.placement.follows.map(({ group, serves, why }) => [group, serves, why] as const) }
      : {}),
    ...(catalogue.source.egress ? { egress: catalogue.source.egress } : {}),
  };
}

/** A compact service's claims back: "id", "id|scope" (part of a job), "!id|note" (not supported). */
function claimsOf(entries: readonly string[]): Pick<Approved, "compatibility" | "notCompatible"> {
  const split = entries.map((entry) => entry.split("|") as [string, string | undefined]);
  const claims = split
    .filter(([id]) => !id.startsWith("!"))
    .map(([id, scope]) => ({ id, ...(scope ? { scope } : {}) }) as CompatibilityClaimT);
  const not = split
    .filter(([id]) => id.startsWith("!"))
    .map(([id, note]) => ({ id: id.slice(1), ...(note ? { note } : {}) }) as CompatibilityNotSupportedT);
  return { ...(claims.length > 0 ? { compatibility: claims } : {}), ...(not.length > 0 ? { notCompatible: not } : {}) };
}

type ExpandedProvider = ExitCatalogue["providerById"] extends ReadonlyMap<string, infer R> ? R : never;

/** A provider of the compact form as the exposure and the plan read it. */
function expandProvider(provider: CompactExitCatalogue["providers"][number]): ExpandedProvider {
  return {
    provider: { id: provider.id, name: provider.name },
    file: {
      headOffice: { country: provider.headOfficeCountry, company: provider.company },
      jurisdiction: provider.jurisdiction,
      controllingCountry: provider.controllingCountry,
      defaultCompliance: [...provider.defaultCompliance],
      complianceScope: provider.complianceScope.map(({ programmes, url, listed }) => ({
        programmes: [...programmes],
        url,
        ...(listed ? { listed } : {}),
      })),
    },
    regionCountries: provider.regionCountries,
    sovereignOption: provider.sovereignOption,
    euResidentOnly: provider.euResidentOnly,
  };
}

/** The ExitCatalogue back from its compact form (in the browser). */
export function expandExitCatalogue(compact: CompactExitCatalogue): ExitCatalogue {
  const services: ServiceT[] = [];
  const groupIds = new Map<string, string[]>();
  for (const [id, , members] of compact.groups)
    for (const slug of members) groupIds.set(slug, [...(groupIds.get(slug) ?? []), id]);
  const bySlug: Map<string, ExitCatalogue["bySlug"] extends ReadonlyMap<string, infer R> ? R : never> = new Map();
  const priors = new Map<string, number>();
  const providerById = new Map<string, ExpandedProvider>();
  for (const provider of compact.providers) {
    providerById.set(provider.id, expandProvider(provider));
    for (const [
      slug,
      name,
      category,
      lifecycle,
      tags,
      prior,
      documentationUrl,
      compatibility,
      origin,
      compliance,
    ] of provider.services) {
      // Only what exitPlan and the plan's document read: a source's URL and date stay on the API.
      const service: ServiceT = {
        id: slug,
        slug,
        providerId: provider.id,
        name,
        category,
        ...(lifecycle ? { lifecycle } : {}),
        ...(tags.length > 0 ? { tags: [...tags] } : {}),
        ...(documentationUrl ? { documentationUrl } : {}),
        ...(compliance.length > 0 ? { compliance: [...compliance] } : {}),
      };
      services.push(service);
      priors.set(slug, prior);
      // Only what exitPlan reads of a claim and a lineage: the id and the origin (sources stay on the API).
      bySlug.set(slug, {
        service,
        groupIds: groupIds.get(slug) ?? [],
        ...claimsOf(compatibility),
        ...(origin ? { lineage: { origin } as ServiceLineageT } : {}),
      });
    }
  }
  return {
    providers: compact.providers.map(({ id, name, shortName }) => ({ id, name, shortName })),
    services,
    groups: compact.groups.map(([id, name, members, notSold, primaryOf, flagships]) => ({
      id,
      name,
      services: members,
      ...(primaryOf.length > 0 ? { primaryOf } : {}),
      ...(flagships.length > 0 ? { flagships } : {}),
      ...(notSold.length > 0
        ? { notDoing: notSold.map((provider) => ({ provider, note: "", source: { url: "", retrieved: "" } })) }
        : {}),
    })),
    compatibilityById: new Map(compact.termGroups.map(([id, groups]) => [id, { groups }])),
    ...(compact.capabilities ? { capabilities: capabilityIndex(compact.capabilities) } : {}),
    ...(compact.follows
      ? { follows: followsIndex(compact.follows.map(([group, serves, why]) => ({ group, serves, why }))) }
      : {}),
    ...(compact.egress ? { egress: compact.egress } : {}),
    bySlug,
    providerById,
    priors,
    lastUpdated: compact.lastUpdated,
    changes: compact.release ? [{ release: compact.release, released: true }] : [],
  };
}
