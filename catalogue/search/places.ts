/**
 * What a query asks beyond matching: the alternatives to the services it names (those sharing an
 * equivalence group with them, on other providers or on the providers named), and the services
 * in the place it names (a provider based there or under its jurisdictions first, then one with a
 * region there).
 *
 * This module must stay free of Node APIs: the site bundles it.
 */
import type { SearchData, SearchDoc, SearchProvider } from "./data.ts";
import type { Place } from "./words.ts";

export class SearchPlaces {
  private readonly docIndex = new Map<string, number>();
  private readonly providerById = new Map<string, SearchProvider>();
  private readonly providerSize = new Map<string, number>();

  private readonly data: SearchData;

  constructor(data: SearchData) {
    this.data = data;
    data.docs.forEach((doc, i) => this.docIndex.set(doc.id, i));
    for (const provider of data.providers) {
      this.providerById.set(provider.id, provider);
      this.providerSize.set(provider.id, provider.size);
    }
  }

  /**
   * Services of other providers that do the job of these (sharing an equivalence group), the
   * surest first (more groups shared, then the data's prior); one per provider first, the largest
   * portfolios first, unless providers are named.
   */
  alternativesTo(slugs: readonly string[], providers?: ReadonlySet<string>): string[] {
    const from = slugs.map((slug) => this.docBySlug(slug));
    const own = new Set(from.map((doc) => doc.provider));
    const groups = new Set(from.flatMap((doc) => doc.groups));
    const size = (provider: string) => this.providerSize.get(provider) ?? 0;
    const candidates = this.data.docs
      .map((doc, i) => ({ doc, i, shared: doc.groups.filter((g) => groups.has(g)).length }))
      .filter(({ doc, shared }) => shared > 0 && (providers ? providers.has(doc.provider) : !own.has(doc.provider)))
      .sort(
        (a, b) =>
          b.shared - a.shared || b.doc.prior - a.doc.prior || size(b.doc.provider) - size(a.doc.provider) || a.i - b.i,
      );
    if (providers) return candidates.map(({ doc }) => doc.id);
    const leaders = new Map<string, (typeof candidates)[number]>();
    for (const candidate of candidates)
      if (!leaders.has(candidate.doc.provider)) leaders.set(candidate.doc.provider, candidate);
    const first = [...leaders.values()].sort(
      (a, b) => b.shared - a.shared || size(b.doc.provider) - size(a.doc.provider) || a.i - b.i,
    );
    const chosen = new Set(first);
    return [...first, ...candidates.filter((candidate) => !chosen.has(candidate))].map(({ doc }) => doc.id);
  }

  /** The results in a place: providers based there (or under its jurisdictions) first, then those with a region there. */
  inPlace(slugs: readonly string[], place: Place | undefined): string[] {
    if (!place) return [...slugs];
    const tiers = slugs.map((slug) => ({ slug, tier: this.serviceTier(slug, place) }));
    return [2, 1].flatMap((tier) => tiers.filter((entry) => entry.tier === tier).map(({ slug }) => slug));
  }

  /** A service's tier in a place: a region place holds the services running there (2), else its provider's tier. */
  serviceTier(slug: string, place: Place | undefined): number {
    if (place?.region) return this.docBySlug(slug).placeRegions?.includes(place.region) ? 2 : 0;
    return this.placeTier(this.docBySlug(slug).provider, place);
  }

  /** 2: the provider is based in the place (or under its jurisdictions); 1: it has a region there; 0: neither. */
  placeTier(providerId: string, place: Place | undefined): number {
    if (!place) return 2;
    const provider = this.providerById.get(providerId)!;
    if (place.jurisdictions) return place.jurisdictions.includes(provider.jurisdiction) ? 2 : 0;
    if (provider.country === place.country) return 2;
    return provider.regions.includes(place.country ?? "") ? 1 : 0;
  }

  docBySlug(slug: string): SearchDoc {
    return this.data.docs[this.indexOf(slug)]!;
  }

  /** The position of a slug's doc in the search data. */
  indexOf(slug: string): number {
    return this.docIndex.get(slug)!;
  }
}
