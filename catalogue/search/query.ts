/**
 * Reads over a Catalogue: the services listing (filters, search — the one ranking of search.ts —,
 * pages) and service detail. Pure functions; the build and the sidecar call the same ones.
 */
import { keyDifferences, protocolReader } from "../capabilities/capabilities.ts";
import type { Catalogue, ServiceRecord } from "../load/load.ts";
import { HttpError } from "../base/problem.ts";
import type { ServiceDetailT, ServiceListT, ServicesQueryT, ServiceT } from "../schema/index.ts";
import { serviceSearch } from "./search.ts";
import { matchAll, placesAnswer } from "./location-filters.ts";
import { readServiceFilters } from "./filter-table.ts";
import type { ComplianceFilterScope } from "../schema/vocabulary.ts";
import { complianceHeld, providerWideProgrammes, scopeKeeps, type ComplianceHeld } from "../compliance/compliance.ts";
import { serviceVersionsOf } from "../versions/versions.ts";

/** A comma-separated filter's values: trimmed, empty ones dropped, each once, in the order given. */
export function listItems(raw: string | undefined): string[] {
  return [
    ...new Set(
      (raw ?? "")
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ];
}

/** ?complianceScope=, own by default; a 400 without ?compliance=, whose holding it says to answer. */
function complianceScopeOf(scope: ComplianceFilterScope | undefined, compliance: readonly string[]) {
  if (scope && compliance.length === 0)
    throw new HttpError(
      400,
      "Invalid query",
      `complianceScope applies with compliance only: it says whose holding of the programmes in compliance= to answer; give compliance too (compliance=iso-27001&complianceScope=${scope}).`,
    );
  return scope ?? "own";
}

/**
 * GET /v1/services: the filters read as the filter table says (search/filter-table.ts: ids and names
 * case-insensitively, an unknown or empty value a 400), the search's ranking, the page.
 */
export function listServices(catalogue: Catalogue, query: ServicesQueryT): ServiceListT {
  const filters = readServiceFilters(catalogue, query);
  const { compliance, regions, countries, providers, categories, lifecycle, jurisdictions } = filters;
  const scope = complianceScopeOf(filters.complianceScope, compliance);
  const placed = regions.length > 0 || countries.length > 0;
  const q = query.q?.trim();
  const outcome = q ? serviceSearch(catalogue).search(q) : undefined;
  const ordered = outcome ? outcome.slugs.map((slug) => catalogue.bySlug.get(slug)!.service) : catalogue.services;
  const filtered = ordered.filter(
    (service) =>
      (!providers || providers.has(service.providerId)) &&
      (!categories || categories.has(service.category)) &&
      (query.freeTier !== true || service.hasFreeTier === true) &&
      (!lifecycle || lifecycle.has(service.lifecycle?.status ?? "active")) &&
      (!jurisdictions ||
        jurisdictions.has(catalogue.providerById.get(service.providerId)?.provider.jurisdiction ?? "")),
  );
  const matchOf = new Map(
    placed ? filtered.map(({ slug }) => [slug, matchAll(catalogue, slug, [regions, countries])] as const) : [],
  );
  // Compliance last: both holdings are counted over every other filter, whichever the scope keeps.
  const held = new Map(compliance.length > 0 ? filtered.map((s) => [s.slug, heldBy(catalogue, s, compliance)]) : []);
  const kept = compliance.length === 0 ? filtered : filtered.filter((s) => scopeKeeps(scope, held.get(s.slug)));
  // Provider-level services only may run in the places: listed apart from data, never as running there.
  const runsThere = ({ slug }: ServiceT) =>
    !placed || matchOf.get(slug) === "service" || matchOf.get(slug) === "global";
  const matches = kept.filter(runsThere);
  const providerLevel = kept.filter(({ slug }) => matchOf.get(slug) === "provider-level").map(({ slug }) => slug);
  const start = (query.page - 1) * query.limit;
  const data = matches.slice(start, start + query.limit);
  const subServices = Object.fromEntries(
    data.flatMap(({ slug }) => (outcome?.subServices[slug] ? [[slug, outcome.subServices[slug]]] : [])),
  );
  return {
    data,
    ...(filters.notes.length > 0 ? { filtersRead: [...filters.notes] } : {}),
    pagination: {
      page: query.page,
      limit: query.limit,
      total: matches.length,
      totalPages: Math.ceil(matches.length / query.limit),
    },
    ...(placed
      ? {
          places: {
            asked: placesAnswer([...regions, ...countries]),
            global: data.filter(({ slug }) => matchOf.get(slug) === "global").map(({ slug }) => slug),
            providerLevel: { total: providerLevel.length, services: providerLevel },
          },
        }
      : {}),
    ...(compliance.length > 0
      ? {
          compliance: {
            ...complianceAnswer(catalogue, compliance, data),
            scope,
            counts: countsOf(new Map(filtered.filter(runsThere).map(({ slug }) => [slug, held.get(slug)]))),
          },
        }
      : {}),
    ...(outcome
      ? {
          search: {
            closest: outcome.closest,
            ...(outcome.suggestion ? { didYouMean: outcome.suggestion } : {}),
            ...(Object.keys(subServices).length > 0 ? { subServices } : {}),
            // A dead end says what missed and where to look instead (filters aside: only when the search found nothing).
            ...(outcome.unmatched ? { unmatchedWords: [...outcome.unmatched] } : {}),
            ...(outcome.nearestJobs ? { nearestJobs: outcome.nearestJobs.map(({ id, name }) => ({ id, name })) } : {}),
            ...(outcome.otherProduct
              ? {
                  otherProduct: {
                    ...outcome.otherProduct,
                    kinds: outcome.otherProduct.kinds.map((kind) => ({ ...kind })),
                  },
                }
              : {}),
          },
        }
      : {}),
  };
}

/** The programmes of ids a service holds provider-wide only: its provider's, not named by its own list. */
function providerWideOf(catalogue: Catalogue, service: ServiceT, ids: readonly string[]): string[] {
  const provider = catalogue.providerById.get(service.providerId)?.provider;
  if (!provider) return [];
  const own = service.compliance ?? [];
  const wide = providerWideProgrammes(provider, service);
  return ids.filter((id) => !own.includes(id) && wide.includes(id));
}

/** How a service holds every programme asked: its own, provider-wide (in part), or not (undefined). */
function heldBy(catalogue: Catalogue, service: ServiceT, ids: readonly string[]): ComplianceHeld | undefined {
  return complianceHeld(service.compliance ?? [], providerWideOf(catalogue, service, ids), ids);
}

/** The services holding the programmes as their own and, apart, those holding one only provider-wide. */
function countsOf(held: ReadonlyMap<string, ComplianceHeld | undefined>) {
  const counts = { own: 0, provider: 0 };
  for (const how of held.values()) if (how) counts[how]++;
  return counts;
}

/**
 * For ?compliance=: the programmes and, per service on the page, the sources that back them, the
 * scope lists that name the service (a source with programmes names it only for those); and the
 * programmes it holds provider-wide only, so a face labels them so. `id` and `name` are the first
 * programme's, as they were when one could be asked (1.10.0).
 */
function complianceAnswer(catalogue: Catalogue, ids: readonly string[], data: readonly ServiceT[]) {
  const ownOf = (slug: string) => catalogue.bySlug.get(slug)!.service.compliance ?? [];
  const sources = Object.fromEntries(
    data.map(({ slug }) => [
      slug,
      catalogue.bySlug.get(slug)!.sources.filter(
        (source) =>
          source.backs.includes("compliance") &&
          // A source without programmes names the service for its own programmes only: never
          // for one it holds provider-wide.
          (source.programmes ?? ownOf(slug)).some((programme) => ids.includes(programme)),
      ),
    ]),
  );
  const providerWide = Object.fromEntries(
    data.flatMap((service) => {
      const wide = providerWideOf(catalogue, service, ids);
      return wide.length > 0 ? [[service.slug, wide]] : [];
    }),
  );
  const programmes = ids.map((id) => ({ id, name: catalogue.compliance.get(id) ?? id }));
  return { ...programmes[0]!, programmes, sources, providerWide };
}

/** Number of pages of the unfiltered listing at a page size (at least one, even if empty). */
export function pageCount(catalogue: Catalogue, limit: number): number {
  return Math.max(1, Math.ceil(catalogue.services.length / limit));
}

/** What moving this service to each equivalent keeps and loses (capabilities.yaml); absent when nothing is recorded. */
function keyDifferencesOf(catalogue: Catalogue, slug: string, equivalents: readonly string[]) {
  const groupsOf = (other: string) => catalogue.bySlug.get(other)?.groupIds ?? [];
  const rows = equivalents.flatMap((other) =>
    keyDifferences(catalogue.capabilities, groupsOf, slug, other, protocolReader(catalogue)),
  );
  return rows.length > 0 ? { keyDifferences: rows } : {};
}

export function serviceDetail(catalogue: Catalogue, slug: string): ServiceDetailT | undefined {
  const record = catalogue.bySlug.get(slug);
  if (!record) return undefined;
  const provider = catalogue.providerById.get(record.service.providerId)?.provider;
  const providerWide = provider ? providerWideProgrammes(provider, record.service) : [];
  return {
    ...record.service,
    subServices: [...record.subServices],
    ...(providerWide.length > 0 ? { providerWideCompliance: providerWide } : {}),
    equivalents: record.equivalentSlugs.map((other) => catalogue.bySlug.get(other)!.service),
    ...keyDifferencesOf(catalogue, record.service.slug, record.equivalentSlugs),
    policyIdentifiers: record.policyIdentifiers,
    ...(record.terraformResources.length > 0 ? { terraformResources: [...record.terraformResources] } : {}),
    ...(record.sources.length > 0 ? { sources: [...record.sources] } : {}),
    ...(record.dependencies.length > 0 ? { dependencies: [...record.dependencies] } : {}),
    ...(record.compatibility.length > 0
      ? {
          compatibility: record.compatibility.map((claim) => ({
            id: claim.id,
            name: catalogue.compatibilityById.get(claim.id)?.name ?? claim.id,
            ...(claim.scope ? { scope: claim.scope } : {}),
            source: claim.source,
          })),
        }
      : {}),
    ...(record.notCompatible.length > 0 ? { notCompatible: [...record.notCompatible] } : {}),
    ...(record.lineage ? { lineage: record.lineage } : {}),
    ...(record.regions.length > 0 ? { regions: [...record.regions] } : {}),
    ...(record.placement ? { placement: { ...record.placement } } : {}),
    ...versionsOf(record.versions, catalogue.lastUpdated.slice(0, 10)),
  };
}

/** ServiceDetail.versions, statuses as of the catalogue's day (the static file's and the sidecar's alike). */
function versionsOf(families: ServiceRecord["versions"], asOf: string): Pick<ServiceDetailT, "versions"> {
  const versions = serviceVersionsOf(families, asOf);
  return versions ? { versions } : {};
}
