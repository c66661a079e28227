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
import {
  ExitTarget,
  type CatalogueReleaseT,
  type ExitCandidateT,
  type ExitNearestT,
  type ExitPlanT,
  type ExitServicePlanT,
  type ExitTargetT,
  type ProviderT,
  type ServiceT,
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

/** The query form of an exit target (comma-separated lists, "true"/"false") as ExitTarget, or a 400. */
export function exitTargetOfQuery(query: {
  providers?: string | undefined;
  sovereignOption?: "true" | "false" | undefined;
  euResidentOnly?: "true" | "false" | undefined;
  jurisdictions?: string | undefined;
  exclude?: string | undefined;
}): ExitTargetT {
  const list = (raw: string | undefined) => {
    if (raw === undefined) return undefined;
    const items = [
      ...new Set(
        raw
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean),
      ),
    ];
    return items.length > 0 ? items : undefined;
  };
  const candidate = {
    providers: list(query.providers),
    sovereignOption: query.sovereignOption === undefined ? undefined : query.sovereignOption === "true",
    euResidentOnly: query.euResidentOnly === undefined ? undefined : query.euResidentOnly === "true",
    jurisdictions: list(query.jurisdictions)?.map((code) => code.toUpperCase()),
    exclude: list(query.exclude),
  };
  const parsed = ExitTarget.safeParse(
    Object.fromEntries(Object.entries(candidate).filter(([, value]) => value !== undefined)),
  );
  if (!parsed.success)
    throw new HttpError(
      400,
      "Invalid query",
      parsed.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
        .join("; "),
    );
  return parsed.data;
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

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function exitPlan(catalogue: ExitCatalogue, approvedServiceIds: readonly string[], to: ExitTargetT): ExitPlanT {
  const allowed = allowedProviders(catalogue, to);
  const allowedSet = new Set(allowed);
  const ids = [...new Set(approvedServiceIds)];
  const services = ids.map((id) => {
    const record = catalogue.bySlug.get(id);
    if (!record) throw new HttpError(400, "Unknown service ids", `Not in the catalogue: ${id.slice(0, 80)}`);
    return record;
  });
  const groupById = new Map(catalogue.groups.map((group) => [group.id, group]));
  const providerName = (id: string) => catalogue.providerById.get(id)!.provider.name;

  // Where each service can go.
  const stays = new Set<number>();
  const moving: Moving[] = [];
  const closedPeersOf = new Map<number, ServiceT[]>();
  services.forEach(({ service, groupIds }, index) => {
    if (allowedSet.has(service.providerId) && !isClosed(service)) {
      stays.add(index);
      return;
    }
    const peers = new Map<string, Peer>();
    for (const groupId of groupIds) {
      for (const slug of groupById.get(groupId)?.services ?? []) {
        if (slug === service.slug) continue;
        const peer = catalogue.bySlug.get(slug)?.service;
        if (!peer || !allowedSet.has(peer.providerId)) continue;
        const known = peers.get(slug);
        if (known) known.groups.push(groupId);
        else peers.set(slug, { service: peer, groups: [groupId] });
      }
    }
    const all = [...peers.values()];
    const open = all.filter((peer) => !isClosed(peer.service));
    closedPeersOf.set(
      index,
      all.filter((peer) => isClosed(peer.service)).map((peer) => peer.service),
    );
    const ga = open.filter((peer) => !peer.service.lifecycle);
    moving.push({ index, open, best: ga.length > 0 ? ga : open });
  });

  // Greedy set cover over the providers of each service's best candidates.
  const chosen = new Set([...stays].map((index) => services[index]!.service.providerId));
  const placeable = moving.filter((entry) => entry.best.length > 0);
  const covers = (entry: Moving, providerId: string) =>
    entry.best.some((peer) => peer.service.providerId === providerId);
  let unplaced = placeable.filter((entry) => ![...chosen].some((providerId) => covers(entry, providerId)));
  while (unplaced.length > 0) {
    let pick = "";
    let most = 0;
    for (const providerId of allowed) {
      if (chosen.has(providerId)) continue;
      const count = unplaced.filter((entry) => covers(entry, providerId)).length;
      if (count > most) [pick, most] = [providerId, count];
    }
    chosen.add(pick);
    unplaced = unplaced.filter((entry) => !covers(entry, pick));
  }

  // How many of the services to move each allowed provider has a candidate for.
  const reach = new Map<string, number>();
  for (const entry of placeable)
    for (const providerId of new Set(entry.open.map((peer) => peer.service.providerId)))
      reach.set(providerId, (reach.get(providerId) ?? 0) + 1);

  // A group's breadth, its number of providers: the broadest group of a service is its mainstream job
  // (EC2's is virtual machines, not Mac instances).
  const breadths = new Map<string, number>();
  const breadth = (groupId: string) => {
    let size = breadths.get(groupId);
    if (size === undefined) {
      const members = groupById.get(groupId)?.services ?? [];
      size = new Set(members.map((slug) => catalogue.bySlug.get(slug)?.service.providerId)).size;
      breadths.set(groupId, size);
    }
    return size;
  };
  const movingCount = moving.length;
  const rankCandidates = (replaced: ServiceT, serviceGroups: readonly string[], open: Peer[]): ExitCandidateT[] => {
    const broadest = Math.max(...serviceGroups.map(breadth));
    const inBroadest = (peer: Peer) => peer.groups.some((id) => breadth(id) === broadest);
    const key = (peer: Peer) => [
      peer.service.lifecycle ? 1 : 0,
      chosen.has(peer.service.providerId) ? 0 : 1,
      -peer.groups.length,
      inBroadest(peer) ? 0 : 1,
      peer.service.category === replaced.category ? 0 : 1,
      -(reach.get(peer.service.providerId) ?? 0),
    ];
    const keys = new Map(open.map((peer) => [peer, key(peer)]));
    const sorted = [...open].sort((a, b) => {
      const [x, y] = [keys.get(a)!, keys.get(b)!];
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
      return a.service.name.localeCompare(b.service.name, "en") || a.service.slug.localeCompare(b.service.slug);
    });
    return sorted.map((peer, i) => {
      const { service } = peer;
      const name = providerName(service.providerId);
      const groupNames = peer.groups.map((id) => groupById.get(id)?.name ?? id);
      const reasons = [
        service.lifecycle ? "In preview, ranked after generally available candidates" : "Generally available",
        serviceGroups.length > 1
          ? `in ${peer.groups.length} of its ${serviceGroups.length} equivalence groups (${groupNames.join(", ")})${inBroadest(peer) ? ", its broadest among them" : ", not its broadest"}`
          : `in its equivalence group ${groupNames[0]}`,
        ...(peer.service.category === replaced.category ? [] : [`in another category (${peer.service.category})`]),
        chosen.has(service.providerId)
          ? `on ${name}, a provider the proposed list uses`
          : `${name} would add a provider to the proposed list`,
        `${name} has candidates for ${reach.get(service.providerId) ?? 0} of the ${movingCount} services to move`,
      ];
      return {
        slug: service.slug,
        name: service.name,
        providerId: service.providerId,
        providerName: name,
        lifecycle: service.lifecycle ? "preview" : "active",
        rank: i + 1,
        groups: peer.groups,
        proposed: i === 0,
        reason: `${reasons.join("; ")}.`,
      };
    });
  };

  let sameCategory: Map<string, ServiceT[]> | undefined;
  const movingByIndex = new Map(moving.map((entry) => [entry.index, entry]));
  const plans: ExitServicePlanT[] = services.map(({ service, groupIds }, index) => {
    const base = {
      slug: service.slug,
      name: service.name,
      providerId: service.providerId,
      providerName: providerName(service.providerId),
      category: service.category,
      lifecycle: lifecycleOf(service),
    };
    if (stays.has(index))
      return {
        ...base,
        outcome: "stays",
        reason: `${base.providerName} is an allowed provider${service.lifecycle ? "; the service is in preview" : ""}.`,
        candidates: [],
        closedPeers: [],
        nearest: [],
      };
    const entry = movingByIndex.get(index)!;
    const closed = closedPeersOf.get(index)!;
    const closedPeers = closed.map((peer) => ({
      slug: peer.slug,
      name: peer.name,
      providerId: peer.providerId,
      status: peer.lifecycle!.status,
    }));
    const why = allowedSet.has(service.providerId)
      ? `It is ${service.lifecycle!.status} on ${base.providerName}, so it is replaced though its provider is allowed`
      : `${base.providerName} is not an allowed provider`;
    if (entry.open.length > 0) {
      const candidates = rankCandidates(service, groupIds, entry.open);
      return {
        ...base,
        outcome: "mapped",
        reason: `${why}; ${plural(candidates.length, "equivalent")} on the allowed providers${closed.length > 0 ? ` (${closed.length} more left out as closed to new customers)` : ""}.`,
        candidates,
        closedPeers,
        nearest: [],
      };
    }
    let gap: string;
    if (groupIds.length === 0) gap = "the catalogue names no equivalent of it on any provider";
    else if (closed.length > 0)
      gap = `its only equivalents on the allowed providers are closed to new customers: ${closed.map((peer) => `${peer.name} (${peer.lifecycle!.status})`).join(", ")}`;
    else {
      const elsewhere = new Set(
        groupIds.flatMap((id) =>
          (groupById.get(id)?.services ?? [])
            .map((slug) => catalogue.bySlug.get(slug)?.service.providerId)
            .filter((providerId) => providerId !== undefined && providerId !== service.providerId),
        ),
      );
      gap = `none of its equivalents (on ${plural(elsewhere.size, "other provider")}) runs on the allowed providers`;
    }
    return {
      ...base,
      outcome: "no-equivalent",
      reason: `${why}; ${gap}.`,
      candidates: [],
      closedPeers,
      nearest: nearestServices(catalogue, service, (sameCategory ??= openByCategory(catalogue, allowedSet))),
    };
  });

  const targetIds = [
    ...new Set(
      plans.flatMap((plan) =>
        plan.outcome === "stays" ? [plan.slug] : plan.candidates.slice(0, 1).map((c) => c.slug),
      ),
    ),
  ];
  const release = catalogue.changes.find((change) => change.released)?.release ?? null;
  return {
    target: { criteria: to, providers: allowed },
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
