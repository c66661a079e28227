/**
 * Data shaping for a service page (kept out of the .astro file): the names search should weigh
 * most, the kinds (equivalence groups) it belongs to with a search weight by prominence, and the
 * equivalents compared by default.
 */
import { MAX_TEXT_COMPARE_SHOWN } from "../../../catalogue/limits.ts";
import type { Catalogue } from "../../../catalogue/load.ts";
import { searchIndex } from "../../../catalogue/query.ts";

/** Providers most people compare against; their equivalents are compared by default. */
const DEFAULT_COMPARE_PROVIDERS = ["aws", "azure", "gcp"];

export function servicePageFacts(catalogue: Catalogue, slug: string) {
  const record = catalogue.bySlug.get(slug)!;
  const { service } = record;
  const names = [...new Set([service.shortName, ...(service.aliases ?? [])])].filter(
    (name): name is string => Boolean(name) && name !== service.name,
  );
  // Pagefind cannot break ties the way the API does (catalogue/query.ts, prominence: the
  // provider's portfolio size here); weighing a page's kind line by it does the same among pages
  // that match a kind ("kubernetes") equally well: 6 for the smallest portfolio, 10 for the largest.
  const { prominence } = searchIndex(catalogue);
  const portfolio = (position: number) => Math.floor(prominence[position]! / 1000);
  const largest = Math.max(...catalogue.services.map((_, position) => portfolio(position)));
  const position = catalogue.services.indexOf(service);
  const weight = String(Math.round((6 + (4 * portfolio(position)) / largest) * 10) / 10);
  const kinds = record.groupIds.map((id) => ({ name: catalogue.groups.find((g) => g.id === id)!.name, weight }));
  // Compare with the big three's equivalents when there are any, else the most prominent ones;
  // never with the service itself.
  const ranked = [...record.equivalentSlugs].sort(
    (a, b) =>
      prominence[catalogue.services.indexOf(catalogue.bySlug.get(b)!.service)]! -
      prominence[catalogue.services.indexOf(catalogue.bySlug.get(a)!.service)]!,
  );
  const bigThree = ranked.filter((other) =>
    DEFAULT_COMPARE_PROVIDERS.includes(catalogue.bySlug.get(other)!.service.providerId),
  );
  const compareWith = (bigThree.length > 0 ? bigThree : ranked.slice(0, 3)).slice(0, MAX_TEXT_COMPARE_SHOWN - 1);
  // What the site's search needs to apply the API's exact-name rule to Pagefind's results
  // (scripts/search.ts): the core names, the brand words and the prominence, as Pagefind meta.
  const index = searchIndex(catalogue);
  const searchMeta = [
    `names:${index.coreNames[position]!.map((tokens) => tokens.join(" ")).join("|")}`,
    `brand:${[...index.brands[position]!].join(" ")}`,
    `prominence:${prominence[position]}`,
  ];
  return { names, kinds, compareWith, searchMeta };
}
