/**
 * Exit plans (issue 55): an approved list mapped onto the providers a team could move to. One pure
 * function, exitPlan(), answers POST /v1/exit-plan, GET /v1/lists/{id}/exit-plan, the text host's
 * /lists/{slug}/exit-plan and the site's "Plan an exit".
 *
 * The target resolves to a set of allowed providers: those meeting every criterion given
 * (providers, sovereignOption, euResidentOnly, jurisdictions — the derived provider properties of
 * load.ts), less `exclude`. Then, per approved service:
 * - stays: its provider is allowed and it is open to new customers (active or preview);
 * - mapped: its equivalence-group peers on allowed providers that are open to new customers,
 *   ranked; deprecated, sunset and retired peers are never candidates (listed as closedPeers);
 * - no-equivalent: none, a gap; up to three same-category services on allowed providers are
 *   listed as `nearest`, marked as not equivalent.
 * The proposed list takes every service that stays and each mapped service's rank-1 candidate. The
 * providers are chosen by greedy set cover (see COVER_METHOD), so the list tends to the fewest
 * providers; the candidates are then ranked with that choice first. Exposure before and after is
 * exposureReport(), the function GET /v1/exposure answers with.
 */
import { exposureReport, type ExposureCatalogue } from "./exposure.ts";
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
  readonly bySlug: ReadonlyMap<string, Pick<ServiceRecord, "service" | "groupIds">>;
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
  "Greedy set cover: the providers of the services that stay are used first; then, while a service with a candidate is not placed, the allowed provider with candidates for the most of them is added (ties: the provider id). Only the best tier of each service's candidates counts (generally available, or preview where none is). Greedy, so the provider count is small but not guaranteed minimal. Each mapped service then takes its rank-1 candidate.";

export const EXIT_PLAN_NOTES = [
  "Equivalence means the services do the same job at the same layer (catalogue/data/README.md); it does not mean feature parity, the same APIs, prices or limits. Check each mapping against the vendors' documentation before planning a migration.",
  "Deprecated, sunset and retired services are never proposed; preview services only where no generally available equivalent exists on the allowed providers, and they are labelled.",
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
      `No provider of the catalogue meets every criterion given (${describeTarget(to)}); widen it.`,
    );
  return allowed;
}

/** The target in words: "sovereign option, jurisdictions EU or CH, not stackit". */
export function describeTarget(to: ExitTargetT): string {
  const parts: string[] = [];
  if (to.providers) parts.push(`providers ${to.providers.join(", ")}`);
  if (to.sovereignOption === true) parts.push("sovereign option");
  if (to.euResidentOnly === true) parts.push("EU-resident-only");
  if (to.jurisdictions) parts.push(`jurisdiction ${to.jurisdictions.join(" or ")}`);
  if (to.exclude) parts.push(`not ${to.exclude.join(", ")}`);
  return parts.join("; ");
}

interface Peer {
  readonly service: ServiceT;
  /** The groups it shares with the service it would replace, in the service's group order. */
  readonly groups: string[];
}

interface Moving {
  readonly index: number;
  readonly open: Peer[];
  /** The candidates that count for the cover: GA ones, or preview ones where no GA one is. */
  readonly best: Peer[];
}

type Approved = Pick<ServiceRecord, "service" | "groupIds">;

/** What every phase of a plan reads: the catalogue, the allowed providers and the groups by id. */
interface PlanContext {
  readonly catalogue: ExitCatalogue;
  readonly allowed: readonly string[];
  readonly allowedSet: ReadonlySet<string>;
  readonly groupById: ReadonlyMap<string, EquivalenceGroup>;
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

/**
 * The exit plan of an approved list for a target (see the head of this file). The phases: resolve
 * the services, place each (stays, or its open and closed peers), choose the providers by greedy
 * set cover, then rank each moving service's candidates with that choice and assemble the answer.
 */
export function exitPlan(catalogue: ExitCatalogue, approvedServiceIds: readonly string[], to: ExitTargetT): ExitPlanT {
  const allowed = allowedProviders(catalogue, to);
  const ids = [...new Set(approvedServiceIds)];
  const services = resolveServices(catalogue, ids);
  const context: PlanContext = {
    catalogue,
    allowed,
    allowedSet: new Set(allowed),
    groupById: new Map(catalogue.groups.map((group) => [group.id, group])),
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
  return assemblePlan(context, to, ids, plans, targetIds);
}

/** The approved services, in list order; a 400 on the first unknown id. */
function resolveServices(catalogue: ExitCatalogue, ids: readonly string[]): Approved[] {
  return ids.map((id) => {
    const record = catalogue.bySlug.get(id);
    if (!record) throw new HttpError(400, "Unknown service ids", `Not in the catalogue: ${id.slice(0, 80)}`);
    return record;
  });
}

/** A service's equivalence-group peers on the allowed providers, each with the groups it shares. */
function peersOn(context: PlanContext, { service, groupIds }: Approved): Peer[] {
  const peers = new Map<string, Peer>();
  for (const groupId of groupIds) {
    for (const slug of context.groupById.get(groupId)?.services ?? []) {
      if (slug === service.slug) continue;
      const peer = context.catalogue.bySlug.get(slug)?.service;
      if (!peer || !context.allowedSet.has(peer.providerId)) continue;
      const known = peers.get(slug);
      if (known) known.groups.push(groupId);
      else peers.set(slug, { service: peer, groups: [groupId] });
    }
  }
  return [...peers.values()];
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
    const ga = open.filter((peer) => !peer.service.lifecycle);
    moving.push({ index, open, best: ga.length > 0 ? ga : open });
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

/**
 * A group's breadth, its number of providers (memoised): the broadest group of a service is its
 * mainstream job (EC2's is virtual machines, not Mac instances).
 */
function groupBreadth(context: PlanContext): (groupId: string) => number {
  const breadths = new Map<string, number>();
  return (groupId) => {
    let size = breadths.get(groupId);
    if (size === undefined) {
      const members = context.groupById.get(groupId)?.services ?? [];
      size = new Set(members.map((slug) => context.catalogue.bySlug.get(slug)?.service.providerId)).size;
      breadths.set(groupId, size);
    }
    return size;
  };
}

/** Whether a peer is in one of the broadest groups of the service it would replace. */
function inBroadestOf(context: RankContext, serviceGroups: readonly string[]): (peer: Peer) => boolean {
  const broadest = Math.max(...serviceGroups.map(context.breadth));
  return (peer) => peer.groups.some((id) => context.breadth(id) === broadest);
}

/**
 * A moving service's open candidates, best first: generally available, on a chosen provider, in
 * more of its groups, in its broadest group, in its category, on a provider of wider reach; then
 * by name and slug.
 */
function sortCandidates(
  context: RankContext,
  replaced: ServiceT,
  inBroadest: (peer: Peer) => boolean,
  open: readonly Peer[],
): Peer[] {
  const key = (peer: Peer) => [
    peer.service.lifecycle ? 1 : 0,
    context.chosen.has(peer.service.providerId) ? 0 : 1,
    -peer.groups.length,
    inBroadest(peer) ? 0 : 1,
    peer.service.category === replaced.category ? 0 : 1,
    -(context.reach.get(peer.service.providerId) ?? 0),
  ];
  const keys = new Map(open.map((peer) => [peer, key(peer)]));
  return [...open].sort((a, b) => {
    const [x, y] = [keys.get(a)!, keys.get(b)!];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return a.service.name.localeCompare(b.service.name, "en") || a.service.slug.localeCompare(b.service.slug);
  });
}

/** Why a candidate ranks where it does, in the order of the ranking's keys. */
function candidateReason(
  context: RankContext,
  replaced: ServiceT,
  serviceGroups: readonly string[],
  peer: Peer,
  inBroadest: boolean,
): string {
  const { service } = peer;
  const name = providerNameOf(context.catalogue, service.providerId);
  const groupNames = peer.groups.map((id) => context.groupById.get(id)?.name ?? id);
  const reasons = [
    service.lifecycle ? "In preview, ranked after generally available candidates" : "Generally available",
    serviceGroups.length > 1
      ? `in ${peer.groups.length} of its ${serviceGroups.length} equivalence groups (${groupNames.join(", ")})${inBroadest ? ", its broadest among them" : ", not its broadest"}`
      : `in its equivalence group ${groupNames[0]}`,
    ...(service.category === replaced.category ? [] : [`in another category (${service.category})`]),
    context.chosen.has(service.providerId)
      ? `on ${name}, a provider the proposed list uses`
      : `${name} would add a provider to the proposed list`,
    `${name} has candidates for ${context.reach.get(service.providerId) ?? 0} of the ${context.movingCount} services to move`,
  ];
  return `${reasons.join("; ")}.`;
}

/** A moving service's open candidates, ranked, the first proposed. */
function rankCandidates(
  context: RankContext,
  replaced: ServiceT,
  serviceGroups: readonly string[],
  open: readonly Peer[],
): ExitCandidateT[] {
  const inBroadest = inBroadestOf(context, serviceGroups);
  return sortCandidates(context, replaced, inBroadest, open).map((peer, i) => ({
    slug: peer.service.slug,
    name: peer.service.name,
    providerId: peer.service.providerId,
    providerName: providerNameOf(context.catalogue, peer.service.providerId),
    lifecycle: peer.service.lifecycle ? "preview" : "active",
    rank: i + 1,
    groups: peer.groups,
    proposed: i === 0,
    reason: candidateReason(context, replaced, serviceGroups, peer, inBroadest(peer)),
  }));
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
  const candidates = rankCandidates(context, service, groupIds, entry.open);
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
        plan.outcome === "stays" ? [plan.slug] : plan.candidates.slice(0, 1).map((c) => c.slug),
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
    exposure: { before: exposureReport(catalogue, ids), after: exposureReport(catalogue, targetIds) },
    notes: [...EXIT_PLAN_NOTES],
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

/** Up to three open same-category services on allowed providers, most shared tags first: not equivalents. */
function nearestServices(
  catalogue: ExitCatalogue,
  service: ServiceT,
  sameCategory: ReadonlyMap<string, readonly ServiceT[]>,
): ExitNearestT[] {
  const tags = new Set(service.tags ?? []);
  return (sameCategory.get(service.category) ?? [])
    .filter((other) => other.slug !== service.slug)
    .map((other) => ({ other, shared: (other.tags ?? []).filter((tag) => tags.has(tag)) }))
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
