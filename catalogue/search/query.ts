/**
 * Reads over a Catalogue: the services listing (filters, search — the one ranking of search.ts —,
 * pages) and service detail. Pure functions; the build and the sidecar call the same ones.
 */
import type { Catalogue } from "../load/load.ts";
import type { ServiceDetailT, ServiceListT, ServicesQueryT } from "../schema/index.ts";
import { serviceSearch } from "./search.ts";

export function listServices(catalogue: Catalogue, query: ServicesQueryT): ServiceListT {
  const q = query.q?.trim();
  const outcome = q ? serviceSearch(catalogue).search(q) : undefined;
  const ordered = outcome ? outcome.slugs.map((slug) => catalogue.bySlug.get(slug)!.service) : catalogue.services;
  const matches = ordered.filter(
    (service) =>
      (!query.provider || service.providerId === query.provider) &&
      (!query.category || service.category === query.category) &&
      (query.freeTier !== true || service.hasFreeTier === true) &&
      (!query.lifecycle || (service.lifecycle?.status ?? "active") === query.lifecycle) &&
      (!query.compliance || (service.compliance ?? []).includes(query.compliance)),
  );
  const start = (query.page - 1) * query.limit;
  const data = matches.slice(start, start + query.limit);
  const subServices = Object.fromEntries(
    data.flatMap(({ slug }) => (outcome?.subServices[slug] ? [[slug, outcome.subServices[slug]]] : [])),
  );
  return {
    data,
    pagination: {
      page: query.page,
      limit: query.limit,
      total: matches.length,
      totalPages: Math.ceil(matches.length / query.limit),
    },
    ...(query.compliance ? { compliance: complianceAnswer(catalogue, query.compliance, data) } : {}),
    ...(outcome
      ? {
          search: {
            closest: outcome.closest,
            ...(outcome.suggestion ? { didYouMean: outcome.suggestion } : {}),
            ...(Object.keys(subServices).length > 0 ? { subServices } : {}),
            // A dead end says what missed and where to look instead (filters aside: only when the search found nothing).
            ...(outcome.unmatched ? { unmatchedWords: [...outcome.unmatched] } : {}),
            ...(outcome.nearestJobs ? { nearestJobs: outcome.nearestJobs.map(({ id, name }) => ({ id, name })) } : {}),
          },
        }
      : {}),
  };
}

/**
 * For ?compliance=: the programme and, per service on the page, the sources that back it, the scope
 * lists that name the service (a source with programmes names it only for those).
 */
function complianceAnswer(catalogue: Catalogue, id: string, data: readonly { slug: string }[]) {
  const sources = Object.fromEntries(
    data.map(({ slug }) => [
      slug,
      catalogue.bySlug
        .get(slug)!
        .sources.filter(
          (source) => source.backs.includes("compliance") && (!source.programmes || source.programmes.includes(id)),
        ),
    ]),
  );
  return { id, name: catalogue.compliance.get(id) ?? id, sources };
}

/** Number of pages of the unfiltered listing at a page size (at least one, even if empty). */
export function pageCount(catalogue: Catalogue, limit: number): number {
  return Math.max(1, Math.ceil(catalogue.services.length / limit));
}

export function serviceDetail(catalogue: Catalogue, slug: string): ServiceDetailT | undefined {
  const record = catalogue.bySlug.get(slug);
  if (!record) return undefined;
  return {
    ...record.service,
    subServices: [...record.subServices],
    equivalents: record.equivalentSlugs.map((other) => catalogue.bySlug.get(other)!.service),
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
  };
}
