/**
 * Vendor inventories (catalogue/inventory/data/<provider>/<inventory>/, README.md there): the files'
 * shapes and the pure reconciliation of one inventory's items against the catalogue's services.
 * Every item is mapped (a service's identifiers or map.yaml claim it), excluded (exclusions.yaml,
 * with a reason) or unreconciled; check:data fails on unreconciled items and on stale entries.
 */
import { z } from "zod";

export const INVENTORY_MAPPINGS = ["iam-prefix", "azure-type", "gcp-api", "terraform", "map-only"] as const;
export type InventoryMapping = (typeof INVENTORY_MAPPINGS)[number];

/** Why an item is not a service of its own (README.md explains each). */
export const EXCLUSION_REASONS = [
  "billing-or-console",
  "support",
  "feature",
  "networking",
  "sdk-or-tooling",
  "internal",
  "account",
  "retired",
  "not-in-catalogue",
  "not-placeable",
] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

const IsoDate = z.iso.date();
const Slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a catalogue service slug");

/** source.yaml: where the items come from. */
export const InventorySource = z
  .object({
    provider: Slug,
    title: z.string().min(1),
    itemKind: z.string().min(1),
    repository: z.url({ protocol: /^https$/ }),
    path: z.string().min(1).optional(),
    commit: z
      .string()
      .regex(/^[0-9a-f]{8,40}$/, "must be 8 to 40 hex digits")
      .optional(),
    version: z.string().min(1).optional(),
    asOf: IsoDate,
    retrieved: IsoDate,
    licence: z.string().min(1),
    mapping: z.enum(INVENTORY_MAPPINGS),
    /** Anything a reader should know about the artefact (how items were derived from it). */
    note: z.string().min(1).optional(),
  })
  .strict()
  .refine((source) => source.commit !== undefined || source.version !== undefined, {
    message: "needs a commit or a version",
  });
export type InventorySourceT = z.infer<typeof InventorySource>;

/** An item, or a pattern ending in one `*` that matches every item starting with what precedes it. */
const ItemOrPattern = z
  .string()
  .min(1)
  .refine((item) => !item.slice(0, -1).includes("*"), "may hold one * only, at the end");

export const InventoryExclusion = z
  .object({
    item: ItemOrPattern,
    reason: z.enum(EXCLUSION_REASONS),
    of: Slug.optional(),
    note: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((exclusion, context) => {
    if ((exclusion.reason === "feature" || exclusion.reason === "networking") && !exclusion.of)
      context.addIssue({ code: "custom", message: `reason ${exclusion.reason} needs of: <slug>` });
    if (exclusion.reason === "retired" && !exclusion.note)
      context.addIssue({ code: "custom", message: "reason retired needs a note with the date it ended" });
    if (exclusion.reason === "not-placeable" && !exclusion.note)
      context.addIssue({
        code: "custom",
        message: "reason not-placeable needs a note: why the item's regions cannot place the service",
      });
    if (exclusion.reason === "not-in-catalogue" && !exclusion.note)
      context.addIssue({
        code: "custom",
        message:
          "reason not-in-catalogue needs a note: the product's name and the vendor page found or what was searched",
      });
  });
export type InventoryExclusionT = z.infer<typeof InventoryExclusion>;

export const ExclusionsFile = z.array(InventoryExclusion);
/** map.yaml: item or pattern → the slug (or slugs) of the services that own it. */
export const MapFile = z.record(ItemOrPattern, z.union([Slug, z.array(Slug).min(1)]));

/** One inventory as read from its folder. */
export interface Inventory {
  /** "<provider>/<inventory>", e.g. aws/iam: the folder under catalogue/inventory. */
  readonly id: string;
  readonly source: InventorySourceT;
  readonly items: readonly string[];
  readonly exclusions: readonly InventoryExclusionT[];
  readonly map: Readonly<Record<string, string | readonly string[]>>;
}

/** What reconciliation needs of a service: its provider and the identifiers it names. */
export interface InventoryService {
  readonly slug: string;
  readonly providerId: string;
  readonly policyIdentifiers?:
    | {
        readonly iamPrefixes?: readonly string[] | undefined;
        readonly resourceTypes?: readonly string[] | undefined;
        readonly apiServices?: readonly { readonly name: string }[] | undefined;
      }
    | undefined;
  /** Terraform resource types the service owns (an optional service field; absent on most). */
  readonly terraformResources?: readonly string[] | undefined;
}

export interface InventoryReport {
  readonly id: string;
  readonly providerId: string;
  readonly items: number;
  readonly mapped: number;
  readonly excluded: number;
  readonly unreconciled: readonly string[];
  /** Per mapped item, the slugs of the services that own it. */
  readonly owners: ReadonlyMap<string, readonly string[]>;
  /** Per excluded item, its exclusion. */
  readonly exclusionOf: ReadonlyMap<string, InventoryExclusionT>;
  /** Stale entries, unknown slugs, contradictions: one line each, naming file and entry. */
  readonly problems: readonly string[];
}

/** Items of an items.txt: one per line, `#` lines are comments, blank lines ignored. */
export function parseItems(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/** Sorted (by code unit, as Array.prototype.sort does) and deduplicated. */
export const normaliseItems = (items: Iterable<string>): string[] => [...new Set(items)].sort();

/** Whether an item or `prefix*` pattern names the item. */
export function matchesItem(itemOrPattern: string, item: string): boolean {
  return itemOrPattern.endsWith("*") ? item.startsWith(itemOrPattern.slice(0, -1)) : itemOrPattern === item;
}

/** The service identifiers an inventory's mapping kind compares items with, per service slug. */
function serviceClaims(
  mapping: InventoryMapping,
  service: InventoryService,
): { exact: readonly string[]; namespaces: readonly string[] } {
  const ids = service.policyIdentifiers;
  switch (mapping) {
    case "iam-prefix":
      return { exact: ids?.iamPrefixes ?? [], namespaces: [] };
    case "azure-type": {
      // Azure is case-insensitive; an inventory of namespaces maps a namespace a service names a type in.
      const types = (ids?.resourceTypes ?? []).map((type) => type.toLowerCase());
      return { exact: types, namespaces: types.map((type) => type.split("/")[0]!) };
    }
    case "gcp-api":
      return { exact: (ids?.apiServices ?? []).map((api) => api.name), namespaces: [] };
    case "terraform":
      return { exact: service.terraformResources ?? [], namespaces: [] };
    case "map-only":
      return { exact: [], namespaces: [] };
  }
}

/**
 * Maps every item of an inventory to the services of its provider that claim it (their identifiers,
 * then map.yaml), else to its exclusion; reports what is left and every stale or wrong entry.
 */
export function reconcileInventory(
  inventory: Inventory,
  services: readonly InventoryService[],
  slugExists: (slug: string) => boolean = (slug) => services.some((service) => service.slug === slug),
): InventoryReport {
  const { id, source, items, exclusions, map } = inventory;
  const problems: string[] = [];
  const caseless = source.mapping === "azure-type";
  const key = (item: string) => (caseless ? item.toLowerCase() : item);
  const owners = new Map<string, string[]>();
  const claim = (item: string, slug: string) => {
    const list = owners.get(item) ?? [];
    if (!list.includes(slug)) list.push(slug);
    owners.set(item, list);
  };
  const byKey = new Map<string, string[]>();
  for (const item of items) byKey.set(key(item), [...(byKey.get(key(item)) ?? []), item]);
  for (const service of services) {
    if (service.providerId !== source.provider) continue;
    const { exact, namespaces } = serviceClaims(source.mapping, service);
    for (const identifier of [...exact, ...namespaces])
      for (const item of byKey.get(key(identifier)) ?? []) claim(item, service.slug);
  }
  for (const [pattern, owner] of Object.entries(map)) {
    const slugs = typeof owner === "string" ? [owner] : owner;
    for (const slug of slugs)
      if (!slugExists(slug)) problems.push(`${id}/map.yaml: ${pattern}: unknown service slug "${slug}"`);
    const named = items.filter((item) => matchesItem(pattern, item));
    if (named.length === 0) problems.push(`${id}/map.yaml: ${pattern}: names no item of items.txt (stale)`);
    for (const item of named) for (const slug of slugs) claim(item, slug);
  }
  const exclusionOf = new Map<string, InventoryExclusionT>();
  for (const exclusion of exclusions) {
    if (exclusion.of && !slugExists(exclusion.of))
      problems.push(`${id}/exclusions.yaml: ${exclusion.item}: unknown service slug "${exclusion.of}"`);
    const named = items.filter((item) => matchesItem(exclusion.item, item));
    if (named.length === 0)
      problems.push(`${id}/exclusions.yaml: ${exclusion.item}: names no item of items.txt (stale)`);
    const unowned = named.filter((item) => !owners.has(item));
    // An exact exclusion of an item a service claims contradicts it; a pattern only fills the gaps.
    if (!exclusion.item.endsWith("*") && unowned.length === 0 && named.length > 0)
      problems.push(
        `${id}/exclusions.yaml: ${exclusion.item}: is mapped to ${owners.get(named[0]!)!.join(", ")}; remove the exclusion or the mapping`,
      );
    for (const item of unowned) if (!exclusionOf.has(item)) exclusionOf.set(item, exclusion);
  }
  problems.push(...misfiledGapProblems(id, exclusions));
  const unreconciled = items.filter((item) => !owners.has(item) && !exclusionOf.has(item));
  return {
    id,
    providerId: source.provider,
    items: items.length,
    mapped: owners.size,
    excluded: exclusionOf.size,
    unreconciled,
    owners,
    exclusionOf,
    problems,
  };
}

/** Words by which a note says its item is a product the catalogue lacks, which `internal` and `sdk-or-tooling` are not. */
const GAP_WORDS = /not in the catalogue|the catalogue lacks|sold to|customers buy|paid product|billed per/i;

/**
 * A product customers buy that the catalogue lacks is a gap, not an internal identifier or a tool:
 * an `internal` or `sdk-or-tooling` exclusion whose note says so should be `not-in-catalogue`.
 */
export function misfiledGapProblems(id: string, exclusions: readonly InventoryExclusionT[]): string[] {
  return exclusions
    .filter((exclusion) => ["internal", "sdk-or-tooling"].includes(exclusion.reason))
    .filter((exclusion) => GAP_WORDS.test(exclusion.note ?? ""))
    .map(
      (exclusion) =>
        `${id}/exclusions.yaml: ${exclusion.item}: its note describes a product the catalogue lacks; use reason not-in-catalogue (with the page found or what was searched), not ${exclusion.reason}`,
    );
}

/** check:data's lines for a report: problems, then one line per unreconciled item. */
export function reportProblems(report: InventoryReport): string[] {
  return [
    ...report.problems,
    ...report.unreconciled.map(
      (item) =>
        `${report.id}: "${item}" is neither mapped to a service nor excluded (add it to a service's identifiers, map.yaml or exclusions.yaml)`,
    ),
  ];
}

const pct = (part: number, whole: number) => (whole === 0 ? "–" : `${((part / whole) * 100).toFixed(1)} %`);

/** One line per inventory: items, mapped (share), excluded, unreconciled. */
export function coverageLines(reports: readonly InventoryReport[]): string[] {
  return reports.map(
    (report) =>
      `${report.id}: ${report.items} items, ${report.mapped} mapped (${pct(report.mapped, report.items)}), ${report.excluded} excluded, ${report.unreconciled.length} unreconciled`,
  );
}

/**
 * Of a provider's current services (its slugs given), those owning none of an inventory's items:
 * products the inventory does not list. An exit gap could be called "not-sold" from an inventory
 * only if it listed every product its provider sells; one that misses a product the catalogue
 * holds is no proof that a product neither holds is not sold (issue 98: OTC's Terraform inventory
 * has no resource for AOM, Cloud Secret Management or DMS for RocketMQ, all sold).
 */
export const servicesWithoutItem = (report: InventoryReport, currentSlugs: readonly string[]): string[] => {
  const owning = new Set([...report.owners.values()].flat());
  return currentSlugs.filter((slug) => !owning.has(slug));
};

/** One line: how many Terraform inventories list every current service of their provider, fewest missing first. */
export function inventoryCompletenessLine(
  reports: readonly InventoryReport[],
  currentOf: (providerId: string) => readonly string[],
): string {
  const terraform = reports
    .filter((report) => report.id.endsWith("/terraform"))
    .map((report) => ({ report, missing: servicesWithoutItem(report, currentOf(report.providerId)) }))
    .sort((a, b) => a.missing.length - b.missing.length || a.report.id.localeCompare(b.report.id));
  const complete = terraform.filter((row) => row.missing.length === 0).length;
  const fewest = terraform
    .filter((row) => row.missing.length > 0)
    .slice(0, 5)
    .map((row) => `${row.report.providerId} ${row.missing.length} (${row.missing.slice(0, 3).join(", ")})`);
  // Complete against the catalogue proves nothing of a product neither lists (issue 114: bunny.net's is).
  return `Terraform inventories listing every current service of their provider: ${complete} of ${terraform.length}; none proves a job not sold, a product neither the catalogue nor the provider's Terraform lists being unseen (gapKind stays not-checked); fewest missing: ${fewest.join("; ") || "none"}`;
}

/** The Markdown table docs/data.md carries, one row per inventory. */
export function coverageTable(reports: readonly InventoryReport[], inventories: readonly Inventory[]): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(" | ")} |`;
  const head = ["inventory", "items", "source", "as of", "mapped", "excluded", "unreconciled"];
  return [
    line(head),
    line(head.map(() => "---")),
    ...reports.map((report) => {
      const source = inventories.find((inventory) => inventory.id === report.id)!.source;
      const origin = source.version ?? source.commit!.slice(0, 8);
      return line([
        report.id,
        report.items,
        `[${source.title}](${source.repository}) ${origin}`,
        source.asOf,
        `${report.mapped} (${pct(report.mapped, report.items)})`,
        report.excluded,
        report.unreconciled.length,
      ]);
    }),
  ].join("\n");
}

export const INVENTORY_TABLE_START = "<!-- inventory-table:start (npm run docs:coverage writes this table) -->";
export const INVENTORY_TABLE_END = "<!-- inventory-table:end -->";

/** docs/data.md with the inventory table between its markers replaced; throws when they are missing. */
export function withInventoryTable(markdown: string, table: string): string {
  const start = markdown.indexOf(INVENTORY_TABLE_START);
  const end = markdown.indexOf(INVENTORY_TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`docs/data.md: no ${INVENTORY_TABLE_START} … ${INVENTORY_TABLE_END} markers`);
  return `${markdown.slice(0, start + INVENTORY_TABLE_START.length)}\n\n${table}\n\n${markdown.slice(end)}`;
}
