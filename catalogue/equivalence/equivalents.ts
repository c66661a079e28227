/**
 * The equivalence matrix: one row per equivalence group (data/equivalents.yaml), its members by
 * provider, the providers with the broadest portfolio first and, within a provider, the flagship
 * first (the search's prior: catalogue/search/search.ts). Pure functions; the API's static files, the text
 * host and the site's /equivalents/ page read the same.
 */
import type { Catalogue } from "../load/load.ts";
import type { EquivalenceGroupDetailT, EquivalenceMatrixT, EquivalenceGroupRowT, ServiceT } from "../schema/index.ts";
import { roundedPrior } from "../search/data.ts";
import { keyDifferences, protocolReader } from "../capabilities/capabilities.ts";

/** How many of the largest providers the matrix shows when none are chosen. */
export const DEFAULT_MATRIX_PROVIDERS = 3;

const sizes = new WeakMap<Catalogue, ReadonlyMap<string, number>>();
function portfolio(catalogue: Catalogue): ReadonlyMap<string, number> {
  let size = sizes.get(catalogue);
  if (!size) {
    const counted = new Map<string, number>();
    for (const service of catalogue.services)
      counted.set(service.providerId, (counted.get(service.providerId) ?? 0) + 1);
    sizes.set(catalogue, (size = counted));
  }
  return size;
}

const priors = new WeakMap<Catalogue, ReadonlyMap<string, number>>();
/**
 * Each service's flagship prior, as the search ships it (roundedPrior, the same numbers), once per
 * catalogue: read from the search's index, each matrix row rebuilt a map of every service (175 rows
 * × 1,706 services: 0.2–0.5 s a matrix), and a thread without the index built it first (3 s).
 */
function priorOf(catalogue: Catalogue): ReadonlyMap<string, number> {
  let prior = priors.get(catalogue);
  if (!prior)
    priors.set(
      catalogue,
      (prior = new Map(
        catalogue.services.map((service) => [service.slug, roundedPrior(catalogue.bySlug.get(service.slug)!)]),
      )),
    );
  return prior;
}

/** Provider ids, largest portfolio first (ties by id). */
export function providersBySize(catalogue: Catalogue): string[] {
  const size = portfolio(catalogue);
  return catalogue.providers
    .map((provider) => provider.id)
    .sort((a, b) => (size.get(b) ?? 0) - (size.get(a) ?? 0) || a.localeCompare(b));
}

/** The members of a group by provider, largest portfolio first, flagship (highest prior) first. */
function membersOf(catalogue: Catalogue, slugs: readonly string[]): { providerId: string; services: ServiceT[] }[] {
  const prior = priorOf(catalogue);
  const byProvider = new Map<string, ServiceT[]>();
  for (const slug of slugs) {
    const service = catalogue.bySlug.get(slug)!.service;
    const list = byProvider.get(service.providerId) ?? [];
    list.push(service);
    byProvider.set(service.providerId, list);
  }
  return providersBySize(catalogue)
    .filter((id) => byProvider.has(id))
    .map((providerId) => ({
      providerId,
      services: byProvider
        .get(providerId)!
        .sort((a, b) => prior.get(b.slug)! - prior.get(a.slug)! || a.name.localeCompare(b.name, "en")),
    }));
}

/** A group's category: the one most of its members are in (ties: the category list's order), as the matrix shows it. */
export function groupCategory(catalogue: Catalogue, slugs: readonly string[]): string {
  const count = new Map<string, number>();
  for (const slug of slugs) {
    const category = catalogue.bySlug.get(slug)!.service.category;
    count.set(category, (count.get(category) ?? 0) + 1);
  }
  const order = catalogue.categories.map((category) => category.id);
  return [...count].sort((a, b) => b[1] - a[1] || order.indexOf(a[0]) - order.indexOf(b[0]))[0]![0];
}

function row(catalogue: Catalogue, group: Catalogue["groups"][number]): EquivalenceGroupRowT {
  return {
    id: group.id,
    name: group.name,
    category: group.category ?? groupCategory(catalogue, group.services),
    members: membersOf(catalogue, group.services).map(({ providerId, services }) => ({
      providerId,
      services: services.map(({ slug, name, shortName, lifecycle }) => {
        const { compatibility, lineage } = catalogue.bySlug.get(slug)!;
        return {
          slug,
          name,
          ...(shortName ? { shortName } : {}),
          ...(lifecycle ? { lifecycle } : {}),
          ...(compatibility.length > 0 ? { compatibility: compatibility.map((claim) => claim.id) } : {}),
          ...(lineage ? { lineageOrigin: lineage.origin } : {}),
        };
      }),
    })),
  };
}

const matrices = new WeakMap<Catalogue, EquivalenceMatrixT>();

/**
 * GET /v1/equivalents: every group with its members by provider, and the possible columns. Made
 * once per catalogue (a pure function of it) and shared by every caller: read it, never change it.
 */
export function equivalenceMatrix(catalogue: Catalogue): EquivalenceMatrixT {
  let matrix = matrices.get(catalogue);
  if (!matrix) matrices.set(catalogue, (matrix = makeMatrix(catalogue)));
  return matrix;
}

function makeMatrix(catalogue: Catalogue): EquivalenceMatrixT {
  const size = portfolio(catalogue);
  return {
    providers: providersBySize(catalogue).map((id) => ({
      id,
      shortName: catalogue.providerById.get(id)!.provider.shortName,
      services: size.get(id) ?? 0,
    })),
    data: catalogue.groups.map((group) => row(catalogue, group)),
  };
}

/** GET /v1/equivalents/{id}: one group, its members in full; undefined when there is no such group. */
export function equivalenceGroup(catalogue: Catalogue, id: string): EquivalenceGroupDetailT | undefined {
  const group = catalogue.groups.find((candidate) => candidate.id === id);
  if (!group) return undefined;
  return {
    ...row(catalogue, group),
    members: membersOf(catalogue, group.services),
  };
}

/**
 * The matrix's columns: the providers asked for (known ids, in the order given, duplicates
 * dropped), else the DEFAULT_MATRIX_PROVIDERS largest.
 */
export function matrixColumns(catalogue: Catalogue, asked: readonly string[]): string[] {
  const known = [...new Set(asked)].filter((id) => catalogue.providerById.has(id));
  return known.length > 0 ? known : providersBySize(catalogue).slice(0, DEFAULT_MATRIX_PROVIDERS);
}

/**
 * Equivalent services in the catalogue's own order: every provider's flagship (highest prior)
 * before any provider's second, and among the flagships the largest portfolio first, as the
 * matrix ranks them; so the first few name the big providers' counterparts, not the first ids.
 */
export function rankedEquivalents<T extends { slug: string; providerId: string; name: string }>(
  catalogue: Catalogue,
  services: readonly T[],
): T[] {
  const prior = priorOf(catalogue);
  const size = portfolio(catalogue);
  const byPrior = [...services].sort(
    (a, b) => (prior.get(b.slug) ?? 0) - (prior.get(a.slug) ?? 0) || a.name.localeCompare(b.name, "en"),
  );
  const rankInProvider = new Map<string, number>();
  const seen = new Map<string, number>();
  for (const service of byPrior) {
    const rank = seen.get(service.providerId) ?? 0;
    rankInProvider.set(service.slug, rank);
    seen.set(service.providerId, rank + 1);
  }
  return byPrior.sort(
    (a, b) =>
      rankInProvider.get(a.slug)! - rankInProvider.get(b.slug)! ||
      (size.get(b.providerId) ?? 0) - (size.get(a.providerId) ?? 0) ||
      a.providerId.localeCompare(b.providerId),
  );
}

/** How close an equivalent is to the service it stands in for, the closest first (closerThan). */
interface Closeness {
  readonly open: boolean;
  readonly spoken: number;
  readonly overlap: number;
  readonly capabilities: number;
}

const closerThan = (a: Closeness, b: Closeness) =>
  Number(b.open) - Number(a.open) || b.spoken - a.spoken || b.overlap - a.overlap || b.capabilities - a.capabilities;

const closest = new WeakMap<Catalogue, Map<string, readonly string[]>>();

/**
 * A service's equivalents, the closest stand-ins first: the one ranking a service page's
 * equivalents table shows and its "Compare with" picks from (issue 123: /aws/msk linked HDInsight
 * and Pub/Sub while its table said Event Hubs and Managed Kafka still speak Kafka). Open before
 * deprecated, sunset or retired; then more of the service's protocols and APIs still spoken (a
 * part counts half); then the larger share of jobs in common (shared groups over all the groups of
 * both: Event Hubs shares both of MSK's, Pub/Sub one of four); then more of its recorded
 * capabilities kept than lost; then, among equally close ones, the catalogue's own order
 * (rankedEquivalents: flagships, the largest portfolios first).
 */
export function closestEquivalents(catalogue: Catalogue, slug: string): readonly string[] {
  let cache = closest.get(catalogue);
  if (!cache) closest.set(catalogue, (cache = new Map<string, readonly string[]>()));
  const known = cache.get(slug);
  if (known) return known;
  const record = catalogue.bySlug.get(slug);
  if (!record) return [];
  const groupsOf = (other: string) => catalogue.bySlug.get(other)?.groupIds ?? [];
  const protocols = protocolReader(catalogue);
  const mine = new Set(record.groupIds);
  const closeness = new Map<string, Closeness>();
  for (const other of record.equivalentSlugs) {
    const theirs = groupsOf(other);
    const shared = theirs.filter((group) => mine.has(group)).length;
    const rows = keyDifferences(catalogue.capabilities, groupsOf, slug, other, protocols);
    // The protocols are the same on every row (they are the service's, not a job's): the first says.
    const spoken = rows[0]?.compatibility;
    const status = catalogue.bySlug.get(other)!.service.lifecycle?.status;
    closeness.set(other, {
      open: status === undefined || status === "preview",
      spoken: spoken ? spoken.kept.length + spoken.partial.length / 2 : 0,
      overlap: shared / (mine.size + theirs.length - shared),
      capabilities: rows.reduce((sum, row) => sum + row.kept.length - row.lost.length, 0),
    });
  }
  // Equally close ones in the catalogue's own order, ranked among themselves: Event Hubs is Azure's
  // first Kafka speaker for MSK although HDInsight is Azure's flagship of the whole list.
  const byCloseness = [...record.equivalentSlugs].sort((a, b) => closerThan(closeness.get(a)!, closeness.get(b)!));
  const ranked: string[] = [];
  for (let start = 0; start < byCloseness.length;) {
    let end = start + 1;
    while (
      end < byCloseness.length &&
      closerThan(closeness.get(byCloseness[start]!)!, closeness.get(byCloseness[end]!)!) === 0
    )
      end++;
    const tied = byCloseness.slice(start, end).map((other) => catalogue.bySlug.get(other)!.service);
    ranked.push(...rankedEquivalents(catalogue, tied).map((service) => service.slug));
    start = end;
  }
  cache.set(slug, ranked);
  return ranked;
}
