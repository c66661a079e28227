/**
 * What every phase of an exit plan (plan.ts) reads: the slice of a catalogue it needs, the
 * services closed to new customers, the compatibility and lineage signals of a record, and the
 * shapes the phases pass on (peers, placement, the ranking's context).
 */
import type { ExposureCatalogue } from "../equivalence/exposure.ts";
import type { CapabilityIndex } from "../capabilities/capabilities.ts";
import type { FollowsIndex } from "../capabilities/follows.ts";
import type { EgressFileT } from "../schema/exit-data.ts";
import type { CapabilityDifferenceT } from "../schema/capabilities.ts";
import type { EquivalenceGroup, ServiceRecord } from "../load/load.ts";
import type { CatalogueReleaseT, ExitCandidateT, ExitJobT, ProviderT, ServiceT } from "../schema/index.ts";
import { roundedPrior } from "../search/search.ts";

/**
 * A candidate's flagship prior: the search's (servicePrior) without its count of equivalents,
 * which is group size; group size never ranks a candidate (catalogue/data/README.md, rule "job fit").
 */
export const flagshipPrior = (record: Parameters<typeof roundedPrior>[0]): number =>
  roundedPrior({ ...record, equivalentSlugs: [] });

/** What an exit plan reads of a catalogue; a full Catalogue is one. */
export interface ExitCatalogue extends ExposureCatalogue {
  readonly providers: readonly Pick<ProviderT, "id" | "name" | "shortName">[];
  readonly services: readonly ServiceT[];
  readonly groups: readonly EquivalenceGroup[];
  readonly bySlug: ReadonlyMap<
    string,
    Pick<ServiceRecord, "service" | "groupIds"> &
      Partial<Pick<ServiceRecord, "equivalentSlugs" | "subServices" | "compatibility" | "notCompatible" | "lineage">>
  >;
  /** The compatibility terms' swept groups (compatibility.yaml `groups`): which job a protocol is part of. */
  readonly compatibilityById?: ReadonlyMap<string, { readonly groups?: readonly string[] | undefined }>;

  /** Each job's capabilities and which each service has (capabilities.yaml): what a candidate keeps and loses. */
  readonly capabilities?: CapabilityIndex | undefined;
  /** The jobs that follow what they serve (placement.yaml, issue 114). */
  readonly follows?: FollowsIndex | undefined;
  /** What leaving costs: egress prices, exit waivers, the Data Act's rules (egress.yaml, issue 114). */
  readonly egress?: EgressFileT | undefined;
  /** Each service's flagship prior, where the records lack what computes it (the compact catalogue). */
  readonly priors?: ReadonlyMap<string, number>;
  readonly providerById: ReadonlyMap<
    string,
    ExposureCatalogue["providerById"] extends ReadonlyMap<string, infer R>
      ? R & { readonly provider: Pick<ProviderT, "id" | "name"> }
      : never
  >;
  readonly lastUpdated: string;
  readonly changes: readonly Pick<CatalogueReleaseT, "release" | "released">[];
}

/** Deprecated (closed to new customers), sunset and retired: never proposed. */
export const isClosed = (service: Pick<ServiceT, "lifecycle">): boolean =>
  service.lifecycle !== undefined && service.lifecycle.status !== "preview";

/** What a service record declares of compatibility and lineage (catalogue/data/README.md). */
interface Signalled {
  readonly service: ServiceT;
  readonly compatibility?: readonly { readonly id: string; readonly scope?: string | undefined }[];
  readonly notCompatible?: readonly { readonly id: string; readonly note?: string | undefined }[];
  readonly lineage?: { readonly origin: string };
}
/** The compatibility vocabulary ids a service record claims for the whole job. */
export const compatibilityOf = (record: Signalled): string[] =>
  (record.compatibility ?? []).filter((entry) => !entry.scope).map((entry) => entry.id);
/** Its claims for part of a job only, as [id, scope] ("kafka", "producing only"): they never rank. */
export const partialCompatibilityOf = (record: Signalled): [string, string][] =>
  (record.compatibility ?? []).flatMap((entry) => (entry.scope ? [[entry.id, entry.scope] as [string, string]] : []));
/** The terms its vendor's pages were checked for and do not list, as [id, note]. */
export const notCompatibleOf = (record: Signalled): [string, string | undefined][] =>
  (record.notCompatible ?? []).map((entry) => [entry.id, entry.note]);
/** The slug of the product a service is, where another company operates it. */
export const originOf = (record: Signalled): string | undefined => record.lineage?.origin;

/** Whether two services are the same product, one operated by another company (lineage). */
export function sameProduct(a: Signalled, b: Signalled): boolean {
  const [originA, originB] = [originOf(a), originOf(b)];
  return originB === a.service.slug || originA === b.service.slug || (originA !== undefined && originA === originB);
}

/** A candidate and what it has in common with the service it would replace: the ranking's signals. */
export interface Peer {
  readonly service: ServiceT;
  /** The groups it shares with the service it would replace, in the service's group order. */
  readonly groups: string[];
  /** The same product, operated by another company. */
  readonly lineage: boolean;
  /** The compatibility entries (protocols, APIs) it shares with the service. */
  readonly compatibility: readonly string[];
  /** How many of those the service speaks for the whole job (not a `scope`d claim of its own). */
  readonly wholeJob: number;
  /** Entries it speaks for part of the job only, with the part ("kafka: producing only"); they never rank. */
  readonly partial: readonly string[];
  /** Its flagship prior (flagshipPrior). */
  readonly prior: number;
  /** Its record: its compatibility claims and notCompatible records judge each job (jobs.ts). */
  readonly record: Approved;
  /** How it does each of the service's jobs, in the service's job order (primary first). */
  readonly jobFits: readonly JobFit[];
  /** Whether the request said which jobs the replaced service is used for (all of jobFits count), else its primary only. */
  readonly said: boolean;
  /** Its best fit on those jobs (jobs.ts overallFit). */
  readonly fit: Fit;
  /** Of the replaced service's capabilities over its jobs (capabilities.yaml): how many it keeps, how many it is recorded as lacking or having in part only. */
  readonly kept: number;
  readonly lacking: number;
}

/** How a candidate does a job: same-product, compatible, partly-compatible, equivalent, look-alike. */
export type Fit = NonNullable<ExitCandidateT["fit"]>;
/** How one candidate does one job of the service it would replace (jobs.ts jobFit). */
export interface JobFit {
  readonly group: string;
  readonly status: ExitJobT["status"] | "none";
  readonly fit?: Fit;
  readonly lost: readonly string[];
  /** The job's capabilities the replaced service has, as this candidate keeps them (capabilities.yaml). */
  readonly capabilities?: CapabilityDifferenceT;
  /** Those capabilities the catalogue does not know whether it has, in words: to check, no loss. */
  readonly unconfirmed?: readonly string[];
}

export interface Moving {
  readonly index: number;
  /** Its jobs (group ids), primary first. */
  readonly jobs: readonly string[];
  readonly open: Peer[];
  /** The candidates that count for the cover: those best at its jobs (placement.ts jobTierOf). */
  readonly best: Peer[];
  /** Of those, the best by every real signal (placement.ts tierOf): what breaks the cover's ties. */
  readonly finest: Peer[];
}

export type Approved = Pick<ServiceRecord, "service" | "groupIds"> &
  Partial<Pick<ServiceRecord, "compatibility" | "notCompatible" | "lineage">> & {
    /** The jobs the request says the service is used for, primary first (ExitPlanBody.jobsUsed). */
    readonly usedFor?: readonly string[];
  };

/** What every phase of a plan reads: the catalogue, the allowed providers and the groups by id. */
export interface PlanContext {
  readonly catalogue: ExitCatalogue;
  readonly allowed: readonly string[];
  readonly allowedSet: ReadonlySet<string>;
  readonly groupById: ReadonlyMap<string, EquivalenceGroup>;
  readonly prior: (slug: string) => number;
  /** The services whose jobs the request gave (ExitPlanBody.jobsUsed): none of their jobs is optional. */
  readonly jobsSaid?: ReadonlySet<string>;
  /** The services on allowed providers by lineage origin and by compatibility entry (built once). */
  readonly signalIndex: () => SignalIndex;
}

export interface SignalIndex {
  readonly byOrigin: ReadonlyMap<string, readonly Approved[]>;
  readonly byCompatibility: ReadonlyMap<string, readonly Approved[]>;
}

/** Where each approved service can go, by its index in the approved list. */
export interface Placement {
  readonly stays: ReadonlySet<number>;
  readonly moving: readonly Moving[];
  readonly closedPeersOf: ReadonlyMap<number, ServiceT[]>;
}

/** What ranking a moving service's candidates reads, once the cover is chosen. */
export interface RankContext extends PlanContext {
  /** For a service that follows what it serves: per provider, how many of those services it receives. */
  readonly receiving?: ReadonlyMap<string, number>;
  /** The providers the proposed list uses. */
  readonly chosen: ReadonlySet<string>;
  /** Per chosen provider, how many of the services it takes or could take (placement.ts weightsOf). */
  readonly weight: ReadonlyMap<string, number>;
  /** How many of the services to move each allowed provider has a candidate for. */
  readonly reach: ReadonlyMap<string, number>;
  readonly breadth: (groupId: string) => number;
  readonly movingCount: number;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const providerNameOf = (catalogue: ExitCatalogue, id: string) => catalogue.providerById.get(id)!.provider.name;
