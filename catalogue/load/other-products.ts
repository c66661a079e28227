/**
 * data/other-products.yaml read and cross-checked: each kind a group or category of the catalogue,
 * a provider one it has, and no name (or word) a service's name or alias, which the search would
 * then find itself.
 */
import type { OtherProductsFileT } from "../schema/index.ts";

interface Known {
  readonly groups: ReadonlySet<string>;
  readonly categories: ReadonlySet<string>;
  readonly providers: ReadonlySet<string>;
  /** Every service's name, short name and alias, lowercased. */
  readonly serviceNames: ReadonlySet<string>;
}

/** One line per problem: file, entry, field, what is wrong. */
export function otherProductsProblems(file: OtherProductsFileT, at: string, known: Known): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  file.forEach((product, index) => {
    const where = `${at}: entry ${index + 1} (${product.name})`;
    for (const [i, kind] of product.kinds.entries())
      if (!known.groups.has(kind) && !known.categories.has(kind))
        problems.push(`${where}: field kinds.${i}: "${kind}" is neither an equivalence group nor a category`);
    if (product.provider && !known.providers.has(product.provider))
      problems.push(`${where}: field provider: "${product.provider}" is not a provider of the catalogue`);
    for (const word of [product.name, ...(product.words ?? [])].map((name) => name.toLowerCase())) {
      if (known.serviceNames.has(word))
        problems.push(`${where}: "${word}" is a service's name: the search finds that service, not a kind`);
      if (seen.has(word)) problems.push(`${where}: "${word}" is written twice in the file`);
      seen.add(word);
    }
  });
  return problems;
}
