/**
 * The fresh sample of issue 112's "Shown by": 30 services of the big three (10 each) and 10 of
 * European providers, drawn with a seeded generator so a reader can draw the same sample again
 * (scripts/maintenance/locations-sample.ts prints the seed), each with its kind of place, source and date, for
 * a person to grade against the vendor's page. Retired services run nowhere and are not drawn.
 */
import type { Catalogue } from "../load/load.ts";
import type { ServicePlacementT } from "../schema/index.ts";

/** mulberry32: a small seeded generator, the same numbers for the same seed on every machine. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SampledService {
  readonly slug: string;
  readonly group: "big three" | "European";
  readonly placement: ServicePlacementT;
  readonly regions: readonly string[];
}

/** `count` of `slugs`, drawn without replacement in a seeded order. */
function draw(slugs: readonly string[], count: number, next: () => number): string[] {
  const pool = [...slugs];
  const drawn: string[] = [];
  while (drawn.length < count && pool.length > 0) drawn.push(...pool.splice(Math.floor(next() * pool.length), 1));
  return drawn;
}

/** The sample for a seed: 10 of each of AWS, Azure and Google Cloud, then 10 of the EU/EEA/CH-based providers. */
export function locationsSample(catalogue: Catalogue, seed: number): SampledService[] {
  const next = seeded(seed);
  const placed = (providerIds: ReadonlySet<string>) =>
    [...catalogue.bySlug.values()]
      .filter((record) => providerIds.has(record.service.providerId) && record.placement)
      .map((record) => record.service.slug)
      .sort();
  const european = new Set(
    catalogue.providers
      .filter((provider) => provider.jurisdiction === "EU" || provider.jurisdiction === "CH")
      .map((provider) => provider.id),
  );
  const picks = [
    ...["aws", "azure", "gcp"].flatMap((id) =>
      draw(placed(new Set([id])), 10, next).map((slug) => ({ slug, group: "big three" as const })),
    ),
    ...draw(placed(european), 10, next).map((slug) => ({ slug, group: "European" as const })),
  ];
  return picks.map(({ slug, group }) => {
    const record = catalogue.bySlug.get(slug)!;
    return { slug, group, placement: record.placement!, regions: record.regions.map((region) => region.id) };
  });
}
