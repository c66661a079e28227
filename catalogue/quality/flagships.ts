/**
 * Issue 128's flagships, whose descriptions must be backed in full first: the service each
 * equivalence group ranks first (its largest provider's flagship, as the matrix orders members:
 * ../equivalence/equivalents.ts), and the 20 services of highest flagship prior of each of the 12
 * providers with the largest portfolios. Retired and sunset services are left out: no one chooses
 * them. `check:data` prints how many are backed and names the others.
 */
import { equivalenceGroup, providersBySize } from "../equivalence/equivalents.ts";
import type { Catalogue } from "../load/load.ts";
import { roundedPrior } from "../search/data.ts";

export const FLAGSHIP_PROVIDERS = 12;
export const FLAGSHIPS_PER_PROVIDER = 20;

export interface Flagship {
  readonly slug: string;
  /** Why it is one: the groups it ranks first in, and/or its place in its provider's top 20. */
  readonly why: readonly string[];
}

const chosen = (catalogue: Catalogue, slug: string) => {
  const status = catalogue.bySlug.get(slug)!.service.lifecycle?.status;
  return status !== "retired" && status !== "sunset";
};

export function flagships(catalogue: Catalogue): Flagship[] {
  const why = new Map<string, string[]>();
  const add = (slug: string, reason: string) => why.set(slug, [...(why.get(slug) ?? []), reason]);
  for (const group of catalogue.groups) {
    const first = equivalenceGroup(catalogue, group.id)
      ?.members.flatMap((member) => member.services)
      .find((service) => chosen(catalogue, service.slug));
    if (first) add(first.slug, `rank 1 of ${group.id}`);
  }
  for (const providerId of providersBySize(catalogue).slice(0, FLAGSHIP_PROVIDERS)) {
    const top = catalogue.services
      .filter((service) => service.providerId === providerId && chosen(catalogue, service.slug))
      .map((service) => ({ slug: service.slug, prior: roundedPrior(catalogue.bySlug.get(service.slug)!) }))
      .sort((a, b) => b.prior - a.prior || a.slug.localeCompare(b.slug))
      .slice(0, FLAGSHIPS_PER_PROVIDER);
    top.forEach(({ slug }, index) => add(slug, `${providerId}'s top ${FLAGSHIPS_PER_PROVIDER} (#${index + 1})`));
  }
  return [...why].map(([slug, reasons]) => ({ slug, why: reasons })).sort((a, b) => a.slug.localeCompare(b.slug));
}

/** The lines check:data prints: flagships backed in full, and the others with why each is one. */
export function flagshipLines(catalogue: Catalogue): string[] {
  const all = flagships(catalogue);
  const unbacked = all.filter(({ slug }) => !catalogue.services.find((s) => s.slug === slug)?.descriptionBacked);
  return [
    `flagships backed in full: ${all.length - unbacked.length}/${all.length}`,
    ...unbacked.map(({ slug, why }) => `  not yet: ${slug} (${why.join("; ")})`),
  ];
}
