/**
 * What changed between two lists of an inventory's items (npm run inventory:refresh): items added,
 * items removed, and the likely renames among them, so a release starts from the vendor's diff.
 */
import { normaliseItems, type InventorySourceT } from "./inventory.ts";
import { editDistance } from "../base/edit-distance.ts";

export interface ItemsDiff {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** A removed item and the added one that most likely replaces it (each item in one pair at most). */
  readonly renames: readonly { readonly from: string; readonly to: string }[];
}

/** Lowercase letters and digits only: `AWS::IoT1Click::Device` and `aws_iot1click_device` compare equal. */
const bare = (item: string) => item.toLowerCase().replace(/[^a-z0-9]/g, "");

/** 1 for the same bare name, falling with the edit distance; one name containing the other scores 0.8. */
export function similarity(a: string, b: string): number {
  const x = bare(a);
  const y = bare(b);
  if (x === y) return 1;
  if (x.length >= 3 && y.length >= 3 && (x.includes(y) || y.includes(x))) return 0.8;
  return 1 - editDistance(x, y) / Math.max(x.length, y.length, 1);
}

/** Renames are pairs scoring at least this (two edits in a ten-letter name). */
export const RENAME_THRESHOLD = 0.75;

export function diffItems(before: Iterable<string>, after: Iterable<string>): ItemsDiff {
  const old = new Set(before);
  const next = new Set(after);
  const added = normaliseItems([...next].filter((item) => !old.has(item)));
  const removed = normaliseItems([...old].filter((item) => !next.has(item)));
  const pairs = removed
    .flatMap((from) => added.map((to) => ({ from, to, score: similarity(from, to) })))
    .filter((pair) => pair.score >= RENAME_THRESHOLD)
    .sort((a, b) => b.score - a.score || a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
  const used = new Set<string>();
  const renames: { from: string; to: string }[] = [];
  for (const { from, to } of pairs) {
    if (used.has(from) || used.has(to)) continue;
    used.add(from);
    used.add(to);
    renames.push({ from, to });
  }
  return { added, removed, renames: renames.sort((a, b) => a.from.localeCompare(b.from)) };
}

/** The lines the refresh script prints. */
export function diffLines(id: string, diff: ItemsDiff): string[] {
  return [
    `${id}: ${diff.added.length} added, ${diff.removed.length} removed, ${diff.renames.length} likely renames`,
    ...diff.added.map((item) => `  + ${item}`),
    ...diff.removed.map((item) => `  - ${item}`),
    ...diff.renames.map(({ from, to }) => `  ~ ${from} -> ${to}`),
  ];
}

/** items.txt as the refresh script writes it: a header naming the origin, then the sorted items. */
export function itemsFileText(id: string, source: InventorySourceT, items: Iterable<string>): string {
  const origin = [source.repository, source.path, source.commit ?? source.version].filter(Boolean).join(" ");
  return [
    `# ${id}: ${source.title} (${source.itemKind}, one per line)`,
    `# origin: ${origin}, as of ${source.asOf}; licence ${source.licence}`,
    "# written by npm run inventory:refresh; do not edit by hand",
    ...normaliseItems(items),
    "",
  ].join("\n");
}
