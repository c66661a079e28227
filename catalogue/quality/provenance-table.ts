/**
 * Provenance coverage per provider and per kind of fact (printed by `npm run check:data`, and the
 * table `npm run docs:coverage` writes into docs/data.md): how many services list a source, how
 * many have a source for each kind of fact, how many carry programmes of their own, and how many
 * non-active lifecycle entries are backed by a source that is the vendor's announcement.
 */
import type { Catalogue } from "../load/load.ts";
import { SOURCE_BACKS } from "../schema/index.ts";

type Kind = (typeof SOURCE_BACKS)[number];

export interface ProviderProvenance {
  readonly providerId: string;
  readonly services: number;
  readonly withSources: number;
  /** Services with at least one source backing each kind of fact. */
  readonly byKind: Readonly<Record<Kind, number>>;
  /** Services listing at least one programme of their own (a provider's scope names them). */
  readonly withCompliance: number;
  /** Services in preview, deprecated, sunset or retired. */
  readonly lifecycleEntries: number;
  /** Of those, the ones whose announcementUrl is listed as a source backing lifecycle. */
  readonly lifecycleWithAnnouncementSource: number;
}

/** One row per provider, in the catalogue's provider order, then a row "all" summing them. */
export function provenanceByProvider(catalogue: Catalogue): ProviderProvenance[] {
  const rows = catalogue.providers.map((provider) => {
    const services = catalogue.services.filter((service) => service.providerId === provider.id);
    const byKind = Object.fromEntries(SOURCE_BACKS.map((kind) => [kind, 0])) as Record<Kind, number>;
    let withSources = 0;
    let withCompliance = 0;
    let lifecycleEntries = 0;
    let lifecycleWithAnnouncementSource = 0;
    for (const service of services) {
      const { sources } = catalogue.bySlug.get(service.slug)!;
      if (sources.length > 0) withSources++;
      for (const kind of SOURCE_BACKS) if (sources.some((source) => source.backs.includes(kind))) byKind[kind]++;
      if ((service.compliance ?? []).length > 0) withCompliance++;
      const lifecycle = service.lifecycle;
      if (!lifecycle) continue;
      lifecycleEntries++;
      const announced = sources.some(
        (source) => source.backs.includes("lifecycle") && source.url === lifecycle.announcementUrl,
      );
      if (announced) lifecycleWithAnnouncementSource++;
    }
    return {
      providerId: provider.id,
      services: services.length,
      withSources,
      byKind,
      withCompliance,
      lifecycleEntries,
      lifecycleWithAnnouncementSource,
    };
  });
  const sum = (pick: (row: ProviderProvenance) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const all: ProviderProvenance = {
    providerId: "all",
    services: sum((row) => row.services),
    withSources: sum((row) => row.withSources),
    byKind: Object.fromEntries(SOURCE_BACKS.map((kind) => [kind, sum((row) => row.byKind[kind])])) as Record<
      Kind,
      number
    >,
    withCompliance: sum((row) => row.withCompliance),
    lifecycleEntries: sum((row) => row.lifecycleEntries),
    lifecycleWithAnnouncementSource: sum((row) => row.lifecycleWithAnnouncementSource),
  };
  return [...rows, all];
}

/** The Markdown table of provenanceByProvider, one line per provider. */
export function provenanceTable(rows: readonly ProviderProvenance[]): string {
  const head = [
    "provider",
    "services",
    "with sources",
    ...SOURCE_BACKS.map((kind) => `${kind} sourced`),
    "own compliance",
    "lifecycle entries",
    "with vendor announcement as source",
  ];
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [
    line(head),
    line(head.map(() => "---")),
    ...rows.map((row) =>
      line([
        row.providerId,
        row.services,
        row.withSources,
        ...SOURCE_BACKS.map((kind) => row.byKind[kind]),
        row.withCompliance,
        row.lifecycleEntries,
        row.lifecycleWithAnnouncementSource,
      ]),
    ),
  ].join("\n");
}

export const TABLE_START = "<!-- provenance-table:start (npm run docs:coverage writes this table) -->";
export const TABLE_END = "<!-- provenance-table:end -->";

/**
 * docs/data.md with the table between its markers replaced by `table`; throws when the markers are
 * missing. The caller formats the result with Prettier (as `npm run check:format` wants it).
 */
export function withTable(markdown: string, table: string): string {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`docs/data.md: no ${TABLE_START} … ${TABLE_END} markers`);
  return `${markdown.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${markdown.slice(end)}`;
}
