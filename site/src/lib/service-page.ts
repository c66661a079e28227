/**
 * Data shaping for a service page (kept out of the .astro file): the names page-text search
 * (Pagefind) should weigh most, the kinds (equivalence groups) it belongs to with a weight by
 * prominence, and the equivalents compared by default.
 */
import { MAX_TEXT_COMPARE_SHOWN } from "../../../catalogue/base/limits.ts";
import type { Catalogue } from "../../../catalogue/load/load.ts";
import { closestEquivalents } from "../../../catalogue/equivalence/equivalents.ts";

/** Providers most people compare against; their equivalents are compared by default. */
const DEFAULT_COMPARE_PROVIDERS = ["aws", "azure", "gcp"];

export function servicePageFacts(catalogue: Catalogue, slug: string) {
  const record = catalogue.bySlug.get(slug)!;
  const { service } = record;
  const names = [...new Set([service.shortName, ...(service.aliases ?? [])])].filter(
    (name): name is string => Boolean(name) && name !== service.name,
  );
  // Pagefind (the second tier of the site's search: page text) weighs a page's kind line by the
  // provider's portfolio size, as the search (catalogue/search/search.ts) orders a kind's providers: 6 for
  // the smallest portfolio, 10 for the largest.
  const portfolio = new Map<string, number>();
  for (const other of catalogue.services) portfolio.set(other.providerId, (portfolio.get(other.providerId) ?? 0) + 1);
  const largest = Math.max(...portfolio.values());
  const weight = String(Math.round((6 + (4 * portfolio.get(service.providerId)!) / largest) * 10) / 10);
  const kinds = record.groupIds.map((id) => ({ name: catalogue.groups.find((g) => g.id === id)!.name, weight }));
  // Compare with the big three's closest equivalents when there are any, else the closest ones;
  // never with the service itself. One a provider, in the ranking the page's equivalents table
  // shows (catalogue/equivalence/equivalents.ts closestEquivalents): Event Hubs and Managed Kafka
  // for MSK, which still speak Kafka, not HDInsight; S3 rather than Glacier (closed to new
  // customers) for Blob Storage, which shares both object and archive groups.
  const ranked = closestEquivalents(catalogue, slug);
  const providerOf = (other: string) => catalogue.bySlug.get(other)!.service.providerId;
  const bigThree = ranked.filter(
    (other, i) =>
      DEFAULT_COMPARE_PROVIDERS.includes(providerOf(other)) &&
      ranked.findIndex((first) => providerOf(first) === providerOf(other)) === i,
  );
  const compareWith = (bigThree.length > 0 ? bigThree : ranked.slice(0, 3)).slice(0, MAX_TEXT_COMPARE_SHOWN - 1);
  return { names, kinds, compareWith };
}
