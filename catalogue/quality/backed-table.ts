/**
 * Issue 128's figures per provider, the table docs/data.md carries between its markers (`npm run
 * docs:coverage` writes it; tests/catalogue/backed-table.test.ts fails when the committed one is
 * not what the data says today): descriptions backed in full, of them those whose every source
 * with claims cites a copy whose passages are vendored (so each quote is proven in a file,
 * tests/catalogue/backed-copies.test.ts), description claims backed and by kind of term, identity
 * claims, and the vendored copies the provider's sources cite.
 */
import type { Catalogue } from "../load/load.ts";
import { CLAIM_TERM_KINDS } from "../load/claim-terms.ts";
import { backedClaims } from "./backed-claims.ts";

export const BACKED_TABLE_START = "<!-- backed-table:start (npm run docs:coverage writes this table) -->";
export const BACKED_TABLE_END = "<!-- backed-table:end -->";

export interface ProviderBacked {
  readonly providerId: string;
  readonly descriptions: number;
  readonly backed: number;
  /** Backed descriptions whose every description source with claims cites an excerpted copy. */
  readonly proven: number;
  /** Excerpted copies the provider's sources cite. */
  readonly copies: number;
}

/** Per provider, then `all`: what issue 128 counts, with `excerpted` the vendored copies' `via`s. */
export function backedByProvider(catalogue: Catalogue, excerpted: ReadonlySet<string>): ProviderBacked[] {
  const rows = new Map<string, { descriptions: number; backed: number; proven: number; copies: Set<string> }>();
  for (const service of catalogue.services) {
    const row = rows.get(service.providerId) ?? { descriptions: 0, backed: 0, proven: 0, copies: new Set() };
    rows.set(service.providerId, row);
    const sources = catalogue.bySlug.get(service.slug)!.sources;
    for (const source of sources) if (source.via && excerpted.has(source.via)) row.copies.add(source.via);
    if (!service.description) continue;
    row.descriptions++;
    if (!service.descriptionBacked) continue;
    row.backed++;
    const claiming = sources.filter((source) => source.backs.includes("description") && source.claims?.length);
    if (claiming.every((source) => source.via !== undefined && excerpted.has(source.via))) row.proven++;
  }
  const out = [...rows].map(([providerId, row]) => ({ providerId, ...row, copies: row.copies.size }));
  out.sort((a, b) => a.providerId.localeCompare(b.providerId));
  const sum = (pick: (row: ProviderBacked) => number) => out.reduce((total, row) => total + pick(row), 0);
  return [
    ...out,
    {
      providerId: "all",
      descriptions: sum((row) => row.descriptions),
      backed: sum((row) => row.backed),
      proven: sum((row) => row.proven),
      copies: sum((row) => row.copies),
    },
  ];
}

const share = ({ backed, claims }: { backed: number; claims: number }) =>
  claims === 0 ? "–" : `${backed}/${claims} (${((100 * backed) / claims).toFixed(1)} %)`;

/** The Markdown table: one row per provider, then all. */
export function backedTable(catalogue: Catalogue, excerpted: ReadonlySet<string>): string {
  const providers = backedClaims(catalogue).providers;
  const claims = new Map(providers.map((row) => [row.providerId, row]));
  const summed = (pick: (row: (typeof providers)[number]) => { backed: number; claims: number }) => ({
    backed: providers.reduce((sum, row) => sum + pick(row).backed, 0),
    claims: providers.reduce((sum, row) => sum + pick(row).claims, 0),
  });
  const all = {
    counts: { description: summed((row) => row.counts.description), identity: summed((row) => row.counts.identity) },
    kinds: Object.fromEntries(CLAIM_TERM_KINDS.map((kind) => [kind, summed((row) => row.kinds[kind])])),
  };
  const header = `| provider | descriptions backed | proven in excerpted copies | description claims backed | ${CLAIM_TERM_KINDS.join(" | ")} | identity claims backed | excerpted copies cited |`;
  const rule = `| --- | ---: | ---: | ---: | ${CLAIM_TERM_KINDS.map(() => "---:").join(" | ")} | ---: | ---: |`;
  const lines = backedByProvider(catalogue, excerpted).map((row) => {
    const figures = claims.get(row.providerId) ?? all;
    const kinds = CLAIM_TERM_KINDS.map((kind) => share(figures.kinds[kind]));
    return `| ${row.providerId} | ${row.backed}/${row.descriptions} | ${row.proven} | ${share(figures.counts.description)} | ${kinds.join(" | ")} | ${share(figures.counts.identity)} | ${row.copies} |`;
  });
  return [header, rule, ...lines].join("\n");
}

/** `markdown` with the table between its markers. */
export function withBackedTable(markdown: string, table: string): string {
  const start = markdown.indexOf(BACKED_TABLE_START);
  const end = markdown.indexOf(BACKED_TABLE_END);
  if (start < 0 || end < start) throw new Error(`docs/data.md: no ${BACKED_TABLE_START} … ${BACKED_TABLE_END} markers`);
  return `${markdown.slice(0, start + BACKED_TABLE_START.length)}\n\n${table}\n\n${markdown.slice(end)}`;
}
