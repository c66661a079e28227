/**
 * Ids a model can find: provider and category arguments resolved from the names a model would
 * guess ("amazon", "Google Cloud", "digital-ocean", "identity") as every face's filters read them
 * (catalogue/search/filter-values.ts), an unresolvable one refused with the nearest, unknown
 * slugs answered with the nearest slugs; the nearest key for an unknown argument (./schemas.ts).
 */
import type { Catalogue } from "../catalogue/load/load.ts";
import { stripControl } from "../catalogue/format/doc.ts";
import { editDistance } from "../catalogue/base/edit-distance.ts";
import { categoryId, providerId } from "../catalogue/search/filter-values.ts";

/** Letters and digits only, lower case: "digital-ocean" and "DigitalOcean" compare equal. */
const compact = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");

/** The `count` candidates nearest `value`: those containing it (or in it) first, then by edit distance. */
export function nearest(value: string, candidates: readonly string[], count: number): string[] {
  const wanted = compact(value);
  return candidates
    .map((candidate) => {
      const other = compact(candidate);
      // Whole containment ("aws-rds" in "aws-rds-mysql") beats any edit: the shortest such first.
      const contains = other.includes(wanted) || wanted.includes(other);
      return {
        candidate,
        score: contains ? Math.abs(other.length - wanted.length) - 1000 : editDistance(wanted, other),
      };
    })
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map((entry) => entry.candidate);
}

export const shown = (value: string) => {
  const clean = stripControl(value);
  return clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
};

/** A provider id from an id or a name, read as the provider filter reads it (search/filter-values.ts); its 400 else. */
export const resolveProvider = (catalogue: Catalogue, value: string): string => providerId(catalogue, value);

/** A category id from an id or a name, read as the category filter reads it; its 400 else. */
export const resolveCategory = (catalogue: Catalogue, value: string): string => categoryId(catalogue, value);

/** The slugs nearest each unknown one, for the text of a refusal. */
export function nearestSlugs(catalogue: Catalogue, unknown: readonly string[]): string {
  const slugs = catalogue.services.map((service) => service.slug);
  return unknown
    .slice(0, 5)
    .map((slug) => `"${shown(slug)}": did you mean ${nearest(slug, slugs, 5).join(", ")}?`)
    .join("\n");
}
