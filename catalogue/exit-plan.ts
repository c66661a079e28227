/**
 * Exit plans (decisions.md#exit-ranking): an approved list mapped onto the providers a team could move to. One pure
 * function, exitPlan(), answers POST /v1/exit-plan, GET /v1/lists/{id}/exit-plan, the text host's
 * /lists/{slug}/exit-plan and the site's "Plan an exit".
 *
 * The target resolves to a set of allowed providers: those meeting every criterion given
 * (providers, sovereignOption, euResidentOnly, jurisdictions — the derived provider properties of
 * load.ts), less `exclude`. Then, per approved service:
 * - stays: its provider is allowed and it is open to new customers (active or preview);
 * - mapped: its candidates on allowed providers that are open to new customers — its
 *   equivalence-group peers, the same product operated elsewhere (lineage) and same-category
 *   services sharing a compatibility entry (protocol, API) — ranked; deprecated, sunset and retired
 *   peers are never candidates (listed as closedPeers);
 * - no-equivalent: none, a gap; same-category services on allowed providers similar enough by
 *   their tags (NEAREST_FLOOR, at most three) are listed as `nearest`, marked as not equivalent.
 * The ranking (sortCandidates): lineage first, then shared compatibility, then shared groups, then
 * consolidation onto the providers the greedy set cover chose (COVER_METHOD), then the flagship
 * prior of the search and the matrix; a provider id or a name decides only where every signal is
 * equal, and each candidate's reason names the signal that decided (decidedBy). The proposed list
 * takes every service that stays, each mapped service's rank-1 candidate and, for a service in
 * several groups, the best candidate on a used provider for each group rank 1 is not in. Exposure
 * before and after is exposureReport(), the function GET /v1/exposure answers with; after counts
 * the gaps where they are now.
 */
import { exposureReport, type ExposureCatalogue } from "./exposure.ts";
import { roundedPrior } from "./search.ts";
import type { EquivalenceGroup, ServiceRecord } from "./load.ts";
import { HttpError } from "./problem.ts";
import type {
  CatalogueReleaseT,
  ExitCandidateT,
  ExitNearestT,
  ExitPlanT,
  ExitServicePlanT,
  ExitTargetT,
  ProviderT,
  ServiceT,
} from "./schema/index.ts";

/** What an exit plan reads of a catalogue; a full Catalogue is one. */
export interface ExitCatalogue extends ExposureCatalogue {
  readonly providers: readonly Pick<ProviderT, "id" | "name" | "shortName">[];
  readonly services: readonly ServiceT[];
  readonly groups: readonly EquivalenceGroup[];
  readonly bySlug: ReadonlyMap<
    string,
    Pick<ServiceRecord, "service" | "groupIds"> &
      Partial<Pick<ServiceRecord, "equivalentSlugs" | "subServices" | "compatibility" | "lineage">>
  >;
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

export const COVER_METHOD =
  "Greedy set cover: the providers of the services that stay are used first; then, while a service with a candidate is not placed, the allowed provider with candidates for the most of them is added (ties: the provider id). Only each service's best candidates count: those equal best on its real signals (generally available before preview, then lineage, shared compatibility, shared groups, category). Greedy, so the provider count is small but not guaranteed minimal. Each mapped service then takes its rank-1 candidate, and a service in several groups also the best candidate on a chosen provider for each group rank 1 is not in.";

export const EXIT_PLAN_NOTES = [
  "Equivalence means the services do the same job at the same layer (catalogue/data/README.md); it does not mean feature parity, the same APIs, prices or limits. Check each mapping against the vendors' documentation before planning a migration.",
  "Deprecated, sunset and retired services are never proposed; preview services only where no generally available equivalent exists on the allowed providers, and they are labelled.",
  "Exposure after counts the proposed list and, where they are now, the services with no equivalent (exposure.unplacedServiceIds): a gap is not an exit.",
  "Exposure figures are procurement triage, not legal advice (see exposure.disclaimer).",
];

/** Deprecated (closed to new customers), sunset and retired: never proposed. */
export const isClosed = (service: Pick<ServiceT, "lifecycle">): boolean =>
  service.lifecycle !== undefined && service.lifecycle.status !== "preview";

const lifecycleOf = (service: ServiceT): ExitServicePlanT["lifecycle"] => service.lifecycle?.status ?? "active";

const targetError = (title: string, details: string) => new HttpError(400, title, details);

/**
 * The providers a target allows, by id in catalogue order. Throws HttpError 400 when no criterion
 * is given, an id is unknown, or nothing matches.
 */
export function allowedProviders(catalogue: ExitCatalogue, to: ExitTargetT): string[] {
  if (!to.providers && to.sovereignOption !== true && to.euResidentOnly !== true && !to.jurisdictions)
    throw targetError(
      "No target",
      'Give to at least one of providers (ids), sovereignOption: true, euResidentOnly: true or jurisdictions (e.g. ["EU", "CH"]).',
    );
  const unknown = [...(to.providers ?? []), ...(to.exclude ?? [])].filter((id) => !catalogue.providerById.has(id));
  if (unknown.length > 0)
    throw targetError(
      "Unknown provider ids",
      `Not a provider of the catalogue: ${[...new Set(unknown)]
        .slice(0, 20)
        .map((id) => (id.length > 80 ? `${id.slice(0, 80)}…` : id))
        .join(", ")}; see GET /v1/providers.`,
    );
  const allowed = catalogue.providers
    .map((provider) => catalogue.providerById.get(provider.id)!)
    .filter(
      (record) =>
        (!to.providers || to.providers.includes(record.provider.id)) &&
        (to.sovereignOption !== true || record.sovereignOption) &&
        (to.euResidentOnly !== true || record.euResidentOnly) &&
        (!to.jurisdictions || to.jurisdictions.includes(record.file.jurisdiction)) &&
        !(to.exclude ?? []).includes(record.provider.id),
    )
    .map((record) => record.provider.id);
  if (allowed.length === 0)
    throw targetError(
      "No provider matches the target",
      `No provider of the catalogue meets every criterion given (${describeTarget(to, (id) => catalogue.providerById.get(id)?.provider.name ?? id)}); widen it.`,
    );
  return allowed;
}

/** The target in words, providers by name: "sovereign option; jurisdiction EU or CH; not STACKIT". */
export function describeTarget(to: ExitTargetT, nameOf: (providerId: string) => string = (id) => id): string {
  const parts: string[] = [];
  if (to.providers) parts.push(`providers ${to.providers.map(nameOf).join(", ")}`);
  if (to.sovereignOption === true) parts.push("sovereign option");
  if (to.euResidentOnly === true) parts.push("EU-resident-only");
  if (to.jurisdictions) parts.push(`jurisdiction ${to.jurisdictions.join(" or ")}`);
  if (to.exclude) parts.push(`not ${to.exclude.map(nameOf).join(", ")}`);
  return parts.join("; ");
}

/** What a service record declares of compatibility and lineage (catalogue/data/README.md). */
interface Signalled {
  readonly service: ServiceT;
  readonly compatibility?: readonly { readonly id: string; readonly scope?: string | undefined }[];
  readonly lineage?: { readonly origin: string };
}
/** The compatibility vocabulary ids a service record claims for the whole job. */
export const compatibilityOf = (record: Signalled): string[] =>
  (record.compatibility ?? []).filter((entry) => !entry.scope).map((entry) => entry.id);
/** Its claims for part of a job only, as [id, scope] ("kafka", "producing only"): they never rank. */
export const partialCompatibilityOf = (record: Signalled): [string, string][] =>
  (record.compatibility ?? []).flatMap((entry) => (entry.scope ? [[entry.id, entry.scope] as [string, string]] : []));
/** The slug of the product a service is, where another company operates it. */
export const originOf = (record: Signalled): string | undefined => record.lineage?.origin;

/** Whether two services are the same product, one operated by another company (lineage). */
export function sameProduct(a: Signalled, b: Signalled): boolean {
  const [originA, originB] = [originOf(a), originOf(b)];
  return originB === a.service.slug || originA === b.service.slug || (originA !== undefined && originA === originB);
}

/** A candidate and what it has in common with the service it would replace: the ranking's signals. */
interface Peer {
  readonly service: ServiceT;
  /** The groups it shares with the service it would replace, in the service's group order. */
  readonly groups: string[];
  /** The same product, operated by another company. */
  readonly lineage: boolean;
  /** The compatibility entries (protocols, APIs) it shares with the service. */
  readonly compatibility: readonly string[];
  /** Entries it speaks for part of the job only, with the part ("kafka: producing only"); they never rank. */
  readonly partial: readonly string[];
  /** The search's flagship prior (catalogue/search.ts). */
  readonly prior: number;
}

interface Moving {
  readonly index: number;
  readonly open: Peer[];
  /** The candidates that count for the cover: those with the best real signals (see tierOf). */
  readonly best: Peer[];
}

type Approved = Pick<ServiceRecord, "service" | "groupIds"> & Partial<Pick<ServiceRecord, "compatibility" | "lineage">>;

/** What every phase of a plan reads: the catalogue, the allowed providers and the groups by id. */
interface PlanContext {
  readonly catalogue: ExitCatalogue;
  readonly allowed: readonly string[];
  readonly allowedSet: ReadonlySet<string>;
  readonly groupById: ReadonlyMap<string, EquivalenceGroup>;
  readonly prior: (slug: string) => number;
  /** The services on allowed providers by lineage origin and by compatibility entry (built once). */
  readonly signalIndex: () => SignalIndex;
}

interface SignalIndex {
  readonly byOrigin: ReadonlyMap<string, readonly Approved[]>;
  readonly byCompatibility: ReadonlyMap<string, readonly Approved[]>;
}

/** Where each approved service can go, by its index in the approved list. */
interface Placement {
  readonly stays: ReadonlySet<number>;
  readonly moving: readonly Moving[];
  readonly closedPeersOf: ReadonlyMap<number, ServiceT[]>;
}

/** What ranking a moving service's candidates reads, once the cover is chosen. */
interface RankContext extends PlanContext {
  /** The providers the proposed list uses. */
  readonly chosen: ReadonlySet<string>;
  /** How many of the services to move each allowed provider has a candidate for. */
  readonly reach: ReadonlyMap<string, number>;
  readonly breadth: (groupId: string) => number;
  readonly movingCount: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const providerNameOf = (catalogue: ExitCatalogue, id: string) => catalogue.providerById.get(id)!.provider.name;

const priors = new WeakMap<ExitCatalogue, Map<string, number>>();
/** The flagship prior of a service: the compact catalogue's, else computed from its record, memoised. */
function priorLookup(catalogue: ExitCatalogue): (slug: string) => number {
  let known = priors.get(catalogue);
  if (!known) priors.set(catalogue, (known = new Map<string, number>()));
  return (slug) => {
    let prior = catalogue.priors?.get(slug) ?? known.get(slug);
    if (prior === undefined) {
      const record = catalogue.bySlug.get(slug)!;
      prior = roundedPrior({
        service: record.service,
        groupIds: record.groupIds,
        equivalentSlugs: record.equivalentSlugs ?? [],
        subServices: record.subServices ?? [],
      });
      known.set(slug, prior);
    }
    return prior;
  };
}

function signalIndexOf(catalogue: ExitCatalogue, allowed: ReadonlySet<string>): SignalIndex {
  const byOrigin = new Map<string, Approved[]>();
  const byCompatibility = new Map<string, Approved[]>();
  for (const service of catalogue.services) {
    if (!allowed.has(service.providerId)) continue;
    const record = catalogue.bySlug.get(service.slug)!;
    const origin = originOf(record);
    if (origin) byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), record]);
    for (const id of [...compatibilityOf(record), ...partialCompatibilityOf(record).map(([claimed]) => claimed)])
      byCompatibility.set(id, [...(byCompatibility.get(id) ?? []), record]);
  }
  return { byOrigin, byCompatibility };
}

/**
 * The exit plan of an approved list for a target (see the head of this file). The phases: resolve
 * the services, place each (stays, or its open and closed peers), choose the providers by greedy
 * set cover, then rank each moving service's candidates with that choice and assemble the answer.
 */
export function exitPlan(catalogue: ExitCatalogue, approvedServiceIds: readonly string[], to: ExitTargetT): ExitPlanT {
  const allowed = allowedProviders(catalogue, to);
  const { ids, repeated } = distinctIds(catalogue, approvedServiceIds);
  const services = resolveServices(catalogue, ids);
  const allowedSet = new Set(allowed);
  let index: SignalIndex | undefined;
  const context: PlanContext = {
    catalogue,
    allowed,
    allowedSet,
    groupById: new Map(catalogue.groups.map((group) => [group.id, group])),
    prior: priorLookup(catalogue),
    signalIndex: () => (index ??= signalIndexOf(catalogue, allowedSet)),
  };
  const placement = placeServices(context, services);
  const placeable = placement.moving.filter((entry) => entry.best.length > 0);
  const rank: RankContext = {
    ...context,
    chosen: coverProviders(context, services, placement.stays, placeable),
    reach: reachOf(placeable),
    breadth: groupBreadth(context),
    movingCount: placement.moving.length,
  };
  const plans = servicePlans(rank, services, placement);
  const targetIds = proposedServiceIds(plans);
  const plan = assemblePlan(context, to, ids, plans, targetIds);
  if (repeated.length > 0)
    plan.notes.push(
      `Listed more than once, planned once: ${repeated
        .slice(0, 20)
        .map(([slug, count]) => `${slug} (${count} times)`)
        .join(", ")}${repeated.length > 20 ? ` and ${repeated.length - 20} more` : ""}.`,
    );
  return plan;
}

/** The ids in list order, each once, and those given more than once with their count. */
function distinctIds(
  catalogue: ExitCatalogue,
  given: readonly string[],
): { ids: string[]; repeated: [string, number][] } {
  const count = new Map<string, number>();
  for (const id of given) {
    const slug = catalogue.bySlug.get(id)?.service.slug ?? id;
    count.set(slug, (count.get(slug) ?? 0) + 1);
  }
  return { ids: [...count.keys()], repeated: [...count].filter(([, n]) => n > 1) };
}

/** The approved services, in list order; a 400 on the first unknown id. */
function resolveServices(catalogue: ExitCatalogue, ids: readonly string[]): Approved[] {
  return ids.map((id) => {
    const record = catalogue.bySlug.get(id);
    if (!record) throw new HttpError(400, "Unknown service ids", `Not in the catalogue: ${id.slice(0, 80)}`);
    return record;
  });
}

/**
 * A service's candidates on the allowed providers: its equivalence-group peers, the same product
 * operated elsewhere (lineage), and same-category services sharing a compatibility entry; each with
 * what it shares with the service.
 */
function peersOn(context: PlanContext, approved: Approved): Peer[] {
  const { service, groupIds } = approved;
  const peers = new Map<string, Approved>();
  const shared = new Map<string, string[]>();
  for (const groupId of groupIds) {
    for (const slug of context.groupById.get(groupId)?.services ?? []) {
      const peer = context.catalogue.bySlug.get(slug);
      if (!peer || slug === service.slug || !context.allowedSet.has(peer.service.providerId)) continue;
      peers.set(slug, peer);
      shared.set(slug, [...(shared.get(slug) ?? []), groupId]);
    }
  }
  const compatibility = compatibilityOf(approved);
  const origin = originOf(approved);
  const index = context.signalIndex();
  const originRecord = origin ? context.catalogue.bySlug.get(origin) : undefined;
  const related = [
    ...(index.byOrigin.get(service.slug) ?? []),
    ...(origin ? (index.byOrigin.get(origin) ?? []) : []),
    ...(originRecord ? [originRecord] : []),
    ...compatibility.flatMap((id) =>
      (index.byCompatibility.get(id) ?? []).filter((other) => other.service.category === service.category),
    ),
  ];
  for (const peer of related)
    if (peer.service.slug !== service.slug && context.allowedSet.has(peer.service.providerId))
      peers.set(peer.service.slug, peer);
  // What the service speaks, whole or in part: a peer covering the whole job shares it.
  const mine = new Set([...compatibility, ...partialCompatibilityOf(approved).map(([id]) => id)]);
  return [...peers.values()].map((peer) => ({
    service: peer.service,
    groups: shared.get(peer.service.slug) ?? [],
    lineage: sameProduct(approved, peer),
    compatibility: compatibilityOf(peer).filter((id) => mine.has(id)),
    partial: partialCompatibilityOf(peer)
      .filter(([id]) => mine.has(id))
      .map(([id, scope]) => `${id}: ${scope}`),
    prior: context.prior(peer.service.slug),
  }));
}

/**
 * A candidate's real signals, best first when compared in order (lower is better): generally
 * available, the same product (lineage), shared compatibility entries, shared groups, in the
 * service's broadest group, in its category.
 */
function tierOf(peer: Peer, replaced: ServiceT, inBroadest: boolean): number[] {
  return [
    peer.service.lifecycle ? 1 : 0,
    peer.lineage ? 0 : 1,
    -peer.compatibility.length,
    -peer.groups.length,
    inBroadest ? 0 : 1,
    peer.service.category === replaced.category ? 0 : 1,
  ];
}

const compareKeys = (x: readonly (number | string)[], y: readonly (number | string)[]): number => {
  for (let i = 0; i < x.length; i++)
    if (x[i] !== y[i])
      return typeof x[i] === "string" ? String(x[i]).localeCompare(String(y[i])) : Number(x[i]) - Number(y[i]);
  return 0;
};

/** The candidates whose real signals are the best (tierOf): those the cover may choose among. */
function bestTier(context: PlanContext, approved: Approved, open: readonly Peer[]): Peer[] {
  if (open.length === 0) return [];
  const inBroadest = inBroadestOf(groupBreadth(context), approved.groupIds);
  const tiers = open.map((peer) => tierOf(peer, approved.service, inBroadest(peer)));
  const top = tiers.reduce((best, tier) => (compareKeys(tier, best) < 0 ? tier : best));
  return open.filter((_, i) => compareKeys(tiers[i]!, top) === 0);
}

/** Which services stay, and for each that moves, its open candidates and its closed peers. */
function placeServices(context: PlanContext, services: readonly Approved[]): Placement {
  const stays = new Set<number>();
  const moving: Moving[] = [];
  const closedPeersOf = new Map<number, ServiceT[]>();
  services.forEach((approved, index) => {
    const { service } = approved;
    if (context.allowedSet.has(service.providerId) && !isClosed(service)) {
      stays.add(index);
      return;
    }
    const all = peersOn(context, approved);
    const open = all.filter((peer) => !isClosed(peer.service));
    closedPeersOf.set(
      index,
      all.filter((peer) => isClosed(peer.service)).map((peer) => peer.service),
    );
    moving.push({ index, open, best: bestTier(context, approved, open) });
  });
  return { stays, moving, closedPeersOf };
}

/** Greedy set cover over the providers of each service's best candidates (COVER_METHOD). */
function coverProviders(
  context: PlanContext,
  services: readonly Approved[],
  stays: ReadonlySet<number>,
  placeable: readonly Moving[],
): Set<string> {
  const chosen = new Set([...stays].map((index) => services[index]!.service.providerId));
  const covers = (entry: Moving, providerId: string) =>
    entry.best.some((peer) => peer.service.providerId === providerId);
  let unplaced = placeable.filter((entry) => ![...chosen].some((providerId) => covers(entry, providerId)));
  while (unplaced.length > 0) {
    let pick = "";
    let most = 0;
    for (const providerId of context.allowed) {
      if (chosen.has(providerId)) continue;
      const count = unplaced.filter((entry) => covers(entry, providerId)).length;
      if (count > most) [pick, most] = [providerId, count];
    }
    chosen.add(pick);
    unplaced = unplaced.filter((entry) => !covers(entry, pick));
  }
  return chosen;
}

/** How many of the services to move each allowed provider has a candidate for. */
function reachOf(placeable: readonly Moving[]): Map<string, number> {
  const reach = new Map<string, number>();
  for (const entry of placeable)
    for (const providerId of new Set(entry.open.map((peer) => peer.service.providerId)))
      reach.set(providerId, (reach.get(providerId) ?? 0) + 1);
  return reach;
}

const breadths = new WeakMap<ExitCatalogue, Map<string, number>>();
/**
 * A group's breadth, its number of providers (memoised): the broadest group of a service is its
 * mainstream job (EC2's is virtual machines, not Mac instances).
 */
function groupBreadth(context: PlanContext): (groupId: string) => number {
  let known = breadths.get(context.catalogue);
  if (!known) breadths.set(context.catalogue, (known = new Map<string, number>()));
  return (groupId) => {
    let size = known.get(groupId);
    if (size === undefined) {
      const members = context.groupById.get(groupId)?.services ?? [];
      size = new Set(members.map((slug) => context.catalogue.bySlug.get(slug)?.service.providerId)).size;
      known.set(groupId, size);
    }
    return size;
  };
}

/** Whether a peer is in one of the broadest groups of the service it would replace. */
function inBroadestOf(breadth: (groupId: string) => number, serviceGroups: readonly string[]): (peer: Peer) => boolean {
  if (serviceGroups.length === 0) return () => true;
  const broadest = Math.max(...serviceGroups.map(breadth));
  return (peer) => peer.groups.some((id) => breadth(id) === broadest);
}

/** The signal each position of a ranking key stands for (rankKey). */
const KEY_SIGNALS: readonly ExitCandidateT["decidedBy"][] = [
  "lifecycle",
  "lineage",
  "compatibility",
  "groups",
  "groups",
  "category",
  "consolidation",
  "consolidation",
  "consolidation",
  "flagship",
  "name",
  "flagship",
  "name",
  "name",
];

/** Where sortCandidates' key holds "a provider the list uses" and "the service's groups it covers". */
const CHOSEN_AT = 6;
const JOBS_AT = 7;

interface Ranked {
  readonly peer: Peer;
  readonly key: readonly (number | string)[];
  readonly inBroadest: boolean;
}

/**
 * A moving service's open candidates, best first: the real signals of tierOf, then consolidation
 * (a provider the proposed list uses, then one whose candidates cover more of the service's jobs
 * (jobOf), then one with candidates for more of the services), then the flagship prior (a
 * provider's best candidate against another's, then within a provider); a provider id or a name
 * decides only where every signal is equal.
 */
function sortCandidates(context: RankContext, approved: Approved, open: readonly Peer[]): Ranked[] {
  const inBroadest = inBroadestOf(context.breadth, approved.groupIds);
  const tiers = new Map(open.map((peer) => [peer, tierOf(peer, approved.service, inBroadest(peer))]));
  // How many of the service's groups each provider's candidates cover together: one provider for
  // all its jobs (Key Vault's keys and secrets) rather than two.
  const jobs = new Map<string, Set<string>>();
  const isJob = jobOf(context, approved);
  for (const peer of open)
    for (const id of peer.groups.filter(isJob))
      jobs.set(peer.service.providerId, (jobs.get(peer.service.providerId) ?? new Set()).add(id));
  const flagship = new Map<string, number>();
  for (const [peer, tier] of tiers) {
    const at = `${peer.service.providerId}|${tier.join()}`;
    flagship.set(at, Math.max(flagship.get(at) ?? -Infinity, peer.prior));
  }
  const ranked = open.map((peer): Ranked => {
    const tier = tiers.get(peer)!;
    const { providerId } = peer.service;
    return {
      peer,
      inBroadest: inBroadest(peer),
      key: [
        ...tier,
        context.chosen.has(providerId) ? 0 : 1,
        -(jobs.get(providerId)?.size ?? 0),
        -(context.reach.get(providerId) ?? 0),
        -flagship.get(`${providerId}|${tier.join()}`)!,
        providerId,
        -peer.prior,
        peer.service.name,
        peer.service.slug,
      ],
    };
  });
  return ranked.sort((a, b) => compareKeys(a.key, b.key));
}

/** The signal that puts one candidate before another: the first key where they differ. */
function decidingSignal(a: Ranked, b: Ranked): ExitCandidateT["decidedBy"] {
  const at = a.key.findIndex((value, i) => value !== b.key[i]);
  return at < 0 ? "name" : KEY_SIGNALS[at]!;
}

/** The real signals a candidate carries, in words. */
function signalWords(context: RankContext, approved: Approved, ranked: Ranked): string[] {
  const { peer } = ranked;
  const serviceGroups = approved.groupIds;
  const groupNames = peer.groups.map((id) => context.groupById.get(id)?.name ?? id);
  const name = providerNameOf(context.catalogue, peer.service.providerId);
  return [
    peer.service.lifecycle ? "In preview" : "Generally available",
    ...(peer.lineage ? [`the same product as ${approved.service.name}, operated by ${name}`] : []),
    ...(peer.compatibility.length > 0 ? [`compatible as it is (${peer.compatibility.join(", ")})`] : []),
    ...(peer.partial.length > 0 ? [`compatible for part of the job only (${peer.partial.join("; ")})`] : []),
    peer.groups.length === 0
      ? "in none of its equivalence groups"
      : serviceGroups.length > 1
        ? `in ${peer.groups.length} of its ${serviceGroups.length} equivalence groups (${groupNames.join(", ")})${ranked.inBroadest ? ", its broadest among them" : ", not its broadest"}`
        : `in its equivalence group ${groupNames[0]}`,
    ...(peer.service.category === approved.service.category ? [] : [`in another category (${peer.service.category})`]),
    context.chosen.has(peer.service.providerId)
      ? `on ${name}, a provider the proposed list uses`
      : `${name} would add a provider to the proposed list`,
  ];
}

/** Why the winner's provider consolidates better than the loser's: the key that differs, in words. */
function consolidationWords(context: RankContext, winner: Ranked, loser: Ranked): string {
  const [a, b] = [winner.peer.service.providerId, loser.peer.service.providerId];
  const name = providerNameOf(context.catalogue, a);
  if (winner.key[CHOSEN_AT] !== loser.key[CHOSEN_AT]) return `${name} is a provider the proposed list uses`;
  if (winner.key[JOBS_AT] !== loser.key[JOBS_AT])
    return `${name} covers ${-Number(winner.key[JOBS_AT])} of its groups on its own, ${providerNameOf(context.catalogue, b)} ${-Number(loser.key[JOBS_AT])}`;
  return `${name} has candidates for more of the services to move (${context.reach.get(a) ?? 0} of ${context.movingCount}, ${providerNameOf(context.catalogue, b)} ${context.reach.get(b) ?? 0})`;
}

/** Why a candidate ranks above the next one (or, the last, below the previous one), in words. */
function decisionWords(context: RankContext, ranked: Ranked, other: Ranked, above: boolean): string {
  const signal = above ? decidingSignal(ranked, other) : decidingSignal(other, ranked);
  const [mine, theirs] = [ranked.peer, other.peer];
  const provider = (peer: Peer) => providerNameOf(context.catalogue, peer.service.providerId);
  const [me, them] = [mine, theirs].map((peer) => `${peer.service.name} (${provider(peer)})`) as [string, string];
  const verb = above ? `Ranked above ${them}` : `Ranked below ${them}`;
  switch (signal) {
    case "lifecycle":
      return `${verb} by lifecycle: generally available before preview.`;
    case "lineage":
      return `${verb} by lineage: ${above ? me : them} is the same product.`;
    case "compatibility":
      return `${verb} by compatibility: ${me} shares ${plural(mine.compatibility.length, "compatibility entry", "compatibility entries")}, ${them} ${theirs.compatibility.length}.`;
    case "groups":
    case "category":
      return `${verb} by equivalence groups: ${me} is in ${plural(mine.groups.length, "group")} of the service, ${them} in ${theirs.groups.length}${ranked.inBroadest !== other.inBroadest ? `; ${above ? me : them} is in its broadest` : ""}${signal === "category" ? `; ${above ? me : them} is in its category` : ""}.`;
    case "consolidation":
      return `${verb} by consolidation: ${consolidationWords(context, above ? ranked : other, above ? other : ranked)}.`;
    case "flagship":
      return `${verb} by the flagship prior: ${me} ${mine.prior.toFixed(2)}, ${them} ${theirs.prior.toFixed(2)}${mine.service.providerId === theirs.service.providerId ? "" : ` (each provider's best candidate compared)`}.`;
    case "only":
      return "The only candidate.";
    default:
      return `${verb}: equal on every signal, ordered by provider id and name.`;
  }
}

/**
 * A moving service's open candidates, ranked. Rank 1 is proposed; so is, for each of the service's
 * groups rank 1 is not in, its best candidate there on a provider the proposed list uses (Key
 * Vault: a key manager and a secret manager).
 */
function rankCandidates(context: RankContext, approved: Approved, open: readonly Peer[]): ExitCandidateT[] {
  const ranked = sortCandidates(context, approved, open);
  const proposed = alsoProposed(context, approved, ranked);
  return ranked.map((entry, i) => {
    const { peer } = entry;
    const other = ranked[i + 1] ?? ranked[i - 1];
    const beside = i > 0 && proposed.has(entry) ? alsoWords(context, approved, ranked[0]!, entry) : "";
    return {
      slug: peer.service.slug,
      name: peer.service.name,
      providerId: peer.service.providerId,
      providerName: providerNameOf(context.catalogue, peer.service.providerId),
      lifecycle: peer.service.lifecycle ? "preview" : "active",
      rank: i + 1,
      groups: peer.groups,
      ...(peer.lineage ? { lineage: true } : {}),
      compatibility: [...peer.compatibility],
      proposed: proposed.has(entry),
      decidedBy: other ? (ranked[i + 1] ? decidingSignal(entry, other) : decidingSignal(other, entry)) : "only",
      reason: `${signalWords(context, approved, entry).join("; ")}. ${beside}${other ? decisionWords(context, entry, other, Boolean(ranked[i + 1])) : "The only candidate."}`,
    };
  });
}

/**
 * Whether a group of the service is a job it is commonly chosen for: at least half as broad as its
 * broadest (Key Vault's secrets beside its keys; not EC2's Mac instances beside its virtual machines).
 */
function jobOf(context: RankContext, approved: Approved): (groupId: string) => boolean {
  const broadest = Math.max(0, ...approved.groupIds.map(context.breadth));
  return (groupId) => approved.groupIds.includes(groupId) && 2 * context.breadth(groupId) >= broadest;
}

/**
 * Rank 1, and for each other job of the service (a group rank 1 is not in, at least half as broad
 * as its broadest), its best candidate on a provider the proposed list uses.
 */
function alsoProposed(context: RankContext, approved: Approved, ranked: readonly Ranked[]): Set<Ranked> {
  const first = ranked[0];
  if (!first) return new Set();
  const proposed = new Set([first]);
  const covered = new Set(first.peer.groups);
  const isJob = jobOf(context, approved);
  for (const groupId of approved.groupIds) {
    if (covered.has(groupId) || !isJob(groupId)) continue;
    const extra = ranked.find(
      (entry) =>
        entry.peer.groups.includes(groupId) &&
        context.chosen.has(entry.peer.service.providerId) &&
        !entry.peer.service.lifecycle === !first.peer.service.lifecycle,
    );
    if (!extra) continue;
    proposed.add(extra);
    for (const id of extra.peer.groups) covered.add(id);
  }
  return proposed;
}

function alsoWords(context: RankContext, approved: Approved, first: Ranked, extra: Ranked): string {
  const groups = extra.peer.groups
    .filter((id) => !first.peer.groups.includes(id))
    .map((id) => context.groupById.get(id)?.name ?? id);
  return `Proposed beside ${first.peer.service.name}: ${approved.service.name} also does ${groups.join(", ")}, which ${first.peer.service.name} does not. `;
}

type PlanBase = Pick<ExitServicePlanT, "slug" | "name" | "providerId" | "providerName" | "category" | "lifecycle">;

/** Each approved service's plan, in list order: stays, mapped or no-equivalent. */
function servicePlans(context: RankContext, services: readonly Approved[], placement: Placement): ExitServicePlanT[] {
  let sameCategory: Map<string, ServiceT[]> | undefined;
  const nearestOf = (service: ServiceT) =>
    nearestServices(
      context.catalogue,
      service,
      (sameCategory ??= openByCategory(context.catalogue, context.allowedSet)),
    );
  const movingByIndex = new Map(placement.moving.map((entry) => [entry.index, entry]));
  return services.map((approved, index) => {
    const { service } = approved;
    const base: PlanBase = {
      slug: service.slug,
      name: service.name,
      providerId: service.providerId,
      providerName: providerNameOf(context.catalogue, service.providerId),
      category: service.category,
      lifecycle: lifecycleOf(service),
    };
    if (placement.stays.has(index)) return stayPlan(base, service);
    const entry = movingByIndex.get(index)!;
    const closed = placement.closedPeersOf.get(index)!;
    return entry.open.length > 0
      ? mappedPlan(context, base, approved, entry, closed)
      : gapPlan(context, base, approved, closed, nearestOf);
  });
}

function stayPlan(base: PlanBase, service: ServiceT): ExitServicePlanT {
  return {
    ...base,
    outcome: "stays",
    reason: `${base.providerName} is an allowed provider${service.lifecycle ? "; the service is in preview" : ""}.`,
    candidates: [],
    closedPeers: [],
    nearest: [],
  };
}

/** Why a service must move: its provider is not allowed, or it is closed to new customers there. */
function whyMove(context: PlanContext, base: PlanBase, service: ServiceT): string {
  return context.allowedSet.has(service.providerId)
    ? `It is ${service.lifecycle!.status} on ${base.providerName}, so it is replaced though its provider is allowed`
    : `${base.providerName} is not an allowed provider`;
}

const closedPeersOut = (closed: readonly ServiceT[]): ExitServicePlanT["closedPeers"] =>
  closed.map((peer) => ({
    slug: peer.slug,
    name: peer.name,
    providerId: peer.providerId,
    status: peer.lifecycle!.status,
  }));

function mappedPlan(
  context: RankContext,
  base: PlanBase,
  { service, groupIds }: Approved,
  entry: Moving,
  closed: readonly ServiceT[],
): ExitServicePlanT {
  const candidates = rankCandidates(context, { service, groupIds }, entry.open);
  return {
    ...base,
    outcome: "mapped",
    reason: `${whyMove(context, base, service)}; ${plural(candidates.length, "equivalent")} on the allowed providers${closed.length > 0 ? ` (${closed.length} more left out as closed to new customers)` : ""}.`,
    candidates,
    closedPeers: closedPeersOut(closed),
    nearest: [],
  };
}

function gapPlan(
  context: PlanContext,
  base: PlanBase,
  approved: Approved,
  closed: readonly ServiceT[],
  nearestOf: (service: ServiceT) => ExitNearestT[],
): ExitServicePlanT {
  const { service } = approved;
  return {
    ...base,
    outcome: "no-equivalent",
    reason: `${whyMove(context, base, service)}; ${gapReason(context, approved, closed)}.`,
    candidates: [],
    closedPeers: closedPeersOut(closed),
    nearest: nearestOf(service),
  };
}

/** Why a service that moves has no equivalent on the allowed providers. */
function gapReason(context: PlanContext, { service, groupIds }: Approved, closed: readonly ServiceT[]): string {
  if (groupIds.length === 0) return "the catalogue names no equivalent of it on any provider";
  if (closed.length > 0)
    return `its only equivalents on the allowed providers are closed to new customers: ${closed.map((peer) => `${peer.name} (${peer.lifecycle!.status})`).join(", ")}`;
  const elsewhere = new Set(
    groupIds.flatMap((id) =>
      (context.groupById.get(id)?.services ?? [])
        .map((slug) => context.catalogue.bySlug.get(slug)?.service.providerId)
        .filter((providerId) => providerId !== undefined && providerId !== service.providerId),
    ),
  );
  return `none of its equivalents (on ${plural(elsewhere.size, "other provider")}) runs on the allowed providers`;
}

/** The proposed list: every service that stays and each mapped service's rank-1 candidate. */
function proposedServiceIds(plans: readonly ExitServicePlanT[]): string[] {
  return [
    ...new Set(
      plans.flatMap((plan) =>
        plan.outcome === "stays" ? [plan.slug] : plan.candidates.filter((c) => c.proposed).map((c) => c.slug),
      ),
    ),
  ];
}

function assemblePlan(
  { catalogue, allowed }: PlanContext,
  to: ExitTargetT,
  ids: readonly string[],
  plans: ExitServicePlanT[],
  targetIds: string[],
): ExitPlanT {
  const release = catalogue.changes.find((change) => change.released)?.release ?? null;
  return {
    target: { criteria: to, providers: [...allowed] },
    catalogue: { release, lastUpdated: catalogue.lastUpdated },
    summary: {
      services: plans.length,
      stays: plans.filter((plan) => plan.outcome === "stays").length,
      mapped: plans.filter((plan) => plan.outcome === "mapped").length,
      noEquivalent: plans.filter((plan) => plan.outcome === "no-equivalent").length,
    },
    services: plans,
    gaps: plans
      .filter((plan) => plan.outcome === "no-equivalent")
      .map(({ slug, name, providerId, reason }) => ({ slug, name, providerId, reason })),
    targetList: {
      approvedServiceIds: targetIds,
      providers: [...new Set(targetIds.map((slug) => catalogue.bySlug.get(slug)!.service.providerId))].sort(),
      method: COVER_METHOD,
    },
    exposure: exposureOf(catalogue, ids, plans, targetIds),
    notes: [...EXIT_PLAN_NOTES],
  };
}

/**
 * Exposure before and after: after counts the proposed list and, where they are now, the gaps it
 * leaves out, since nothing replaces them (the site calls it again when a choice changes the list).
 */
export function exposureOf(
  catalogue: ExposureCatalogue,
  ids: readonly string[],
  plans: readonly Pick<ExitServicePlanT, "slug" | "outcome">[],
  targetIds: readonly string[],
): ExitPlanT["exposure"] {
  const proposed = new Set(targetIds);
  const unplaced = plans
    .filter((plan) => plan.outcome === "no-equivalent" && !proposed.has(plan.slug))
    .map((plan) => plan.slug);
  return {
    before: exposureReport(catalogue, ids),
    after: exposureReport(catalogue, [...targetIds, ...unplaced]),
    unplacedServiceIds: unplaced,
  };
}

/** The open services on allowed providers, by category: where a gap's nearest services are looked for. */
function openByCategory(catalogue: ExitCatalogue, allowed: ReadonlySet<string>): Map<string, ServiceT[]> {
  const byCategory = new Map<string, ServiceT[]>();
  for (const service of catalogue.services)
    if (allowed.has(service.providerId) && !isClosed(service))
      byCategory.set(service.category, [...(byCategory.get(service.category) ?? []), service]);
  return byCategory;
}

/**
 * The similarity floor of a gap's nearest services: the search tags they must share with it. A
 * same-category service sharing none is noise (Azure SQL Database → an OpenSearch offering).
 */
export const NEAREST_FLOOR = 1;

/**
 * Up to three open same-category services on allowed providers sharing at least NEAREST_FLOOR tags
 * with the gap, most shared tags first: not equivalents.
 */
function nearestServices(
  catalogue: ExitCatalogue,
  service: ServiceT,
  sameCategory: ReadonlyMap<string, readonly ServiceT[]>,
): ExitNearestT[] {
  const tags = new Set(service.tags ?? []);
  return (sameCategory.get(service.category) ?? [])
    .filter((other) => other.slug !== service.slug)
    .map((other) => ({ other, shared: (other.tags ?? []).filter((tag) => tags.has(tag)) }))
    .filter(({ shared }) => shared.length >= NEAREST_FLOOR)
    .sort(
      (a, b) =>
        b.shared.length - a.shared.length ||
        (a.other.lifecycle ? 1 : 0) - (b.other.lifecycle ? 1 : 0) ||
        a.other.name.localeCompare(b.other.name, "en") ||
        a.other.slug.localeCompare(b.other.slug),
    )
    .slice(0, 3)
    .map(({ other, shared }) => ({
      slug: other.slug,
      name: other.name,
      providerId: other.providerId,
      providerName: catalogue.providerById.get(other.providerId)!.provider.name,
      kind: "same-category" as const,
      sharedTags: shared,
      reason: `Same category (${service.category})${shared.length > 0 ? `, shares the tags ${shared.join(", ")}` : ""}${other.lifecycle ? ", in preview" : ""}; not an equivalent: evaluate before relying on it.`,
    }));
}
