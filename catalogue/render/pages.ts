/**
 * The text host's pages as Docs: home, provider, category, lifecycle and compare (the service page is
 * service-page.ts); and the
 * Markdown export of an approved list. Paths are the text host's: /{provider}/{service} with the
 * service slug's provider prefix left off.
 */
import { keyDifferences, protocolReader } from "../capabilities/capabilities.ts";
import {
  addDays,
  daysBetween,
  filterQuery,
  isFiltered,
  lifecycleList,
  type LifecycleFilter,
} from "../lifecycle/lifecycle.ts";
import {
  CALENDAR_ALARMS,
  LIFECYCLE_SOON_DAYS,
  LIFECYCLE_YEAR_DAYS,
  LIST_LIFECYCLE_WARNING_DAYS,
  LIST_LIFETIME_DAYS,
  MAX_TEXT_COMPARE_SHOWN,
} from "../base/limits.ts";
import { listPath, resolveList, type StoredList } from "../lists/lists.ts";
import type { ListCatalogue } from "../lists/list-catalogue.ts";
import type { Catalogue } from "../load/load.ts";
import { holdingText, ownComplianceText, providerHoldings } from "../compliance/compliance.ts";
import type { ServiceLifecycleT, ServiceT } from "../schema/index.ts";
import { heading, link, paragraph, strong, type Block, type Doc, type Inline } from "../format/doc.ts";
import { categoryPath, href, listCalendarPath, providerPath, servicePath, type PublicUrls } from "../base/urls.ts";
import { calendarBlocks } from "./calendar.ts";
import { relativeDays } from "./relative.ts";

export { relativeDays } from "./relative.ts";
// The paths live in urls.ts (a leaf, so lifecycle.ts can name them); the text host imports them here.
export { categoryPath, providerPath, servicePath } from "../base/urls.ts";

export function lifecycleLabel(lifecycle: ServiceLifecycleT | undefined): string {
  if (!lifecycle) return "active";
  return lifecycle.sunsetDate ? `${lifecycle.status} ${lifecycle.sunsetDate}` : lifecycle.status;
}

export function lifecycleNote(catalogue: Catalogue, lifecycle: ServiceLifecycleT): Block {
  const successor = lifecycle.successorSlug ? catalogue.bySlug.get(lifecycle.successorSlug)?.service : undefined;
  const parts: Inline[] = [strong(lifecycle.status.toUpperCase())];
  if (lifecycle.status === "sunset") parts.push(` — retires on ${lifecycle.sunsetDate}.`);
  else if (lifecycle.status === "retired") parts.push(` — retired on ${lifecycle.sunsetDate}.`);
  else if (lifecycle.status === "preview")
    parts.push(` — public preview${lifecycle.gaTarget ? `, GA target ${lifecycle.gaTarget}` : ""}.`);
  else parts.push(" — the vendor recommends migrating away.");
  if (lifecycle.note) parts.push(` ${lifecycle.note}`);
  if (successor) parts.push(" Successor: ", link(successor.name, servicePath(successor)), ".");
  if (lifecycle.announcementUrl) parts.push(" ", link("Announcement", lifecycle.announcementUrl));
  return { kind: "note", tone: lifecycle.status === "preview" ? "info" : "warning", parts };
}

/** Compliance programme names for ids, in the order given (an id the vocabulary lacks shows as itself). */
export const programmeNames = (catalogue: Catalogue, ids: readonly string[]) =>
  ids.map((id) => catalogue.compliance.get(id) ?? id).join(", ");

/**
 * A service's compliance as field rows: its own programmes (those whose provider-published scope
 * names it), or "not known"; then, apart and worded as the provider's, what the provider holds
 * with the page listing the services in scope (catalogue/compliance/compliance.ts decides which).
 */
export function complianceRows(catalogue: Catalogue, service: ServiceT): [string, Inline[]][] {
  const provider = catalogue.providerById.get(service.providerId)!.provider;
  const names = (ids: readonly string[]) => programmeNames(catalogue, ids);
  const rows: [string, Inline[]][] = [["Compliance (this service)", [ownComplianceText(service, names)]]];
  for (const holding of providerHoldings(provider, service)) {
    const text = holdingText(provider, holding, names(holding.programmes));
    rows.push([
      `Provider (${provider.shortName})`,
      holding.url ? [`${text} `, link(holding.url, holding.url)] : [text],
    ]);
  }
  return rows;
}

export const serviceRow = (service: ServiceT, extra: Inline[] = []): Inline[] => [
  link(service.name, servicePath(service)),
  service.providerId,
  lifecycleLabel(service.lifecycle),
  ...extra,
];

export function homePage(catalogue: Catalogue): Doc {
  const counts = new Map<string, number>();
  for (const service of catalogue.services) counts.set(service.providerId, (counts.get(service.providerId) ?? 0) + 1);
  const categoryCounts = new Map<string, number>();
  for (const service of catalogue.services)
    categoryCounts.set(service.category, (categoryCounts.get(service.category) ?? 0) + 1);
  const upcoming = catalogue.services
    .filter((service) => service.lifecycle?.status === "sunset")
    .sort((a, b) => a.lifecycle!.sunsetDate!.localeCompare(b.lifecycle!.sunsetDate!));
  return {
    title: "Cloud Services Catalogue",
    blocks: [
      heading(1, "Cloud Services Catalogue"),
      paragraph(
        `${catalogue.services.length} cloud services across ${catalogue.providers.length} providers, with equivalents, compliance, lifecycle and jurisdiction. Try /aws, /gcp/cloud-storage, /category/databases, /compare/aws-s3,gcp-cloud-storage or /lifecycle.`,
      ),
      heading(2, "Providers"),
      {
        kind: "table",
        head: ["Provider", "Id", "Head office", "Services"],
        rows: catalogue.providers.map((provider) => [
          link(provider.name, providerPath(provider.id)),
          provider.id,
          provider.headOffice?.country ?? "",
          String(counts.get(provider.id) ?? 0),
        ]),
      },
      heading(2, "Categories"),
      {
        kind: "table",
        head: ["Category", "Id", "Services"],
        rows: catalogue.categories.map((category) => [
          link(category.name, categoryPath(category.id)),
          category.id,
          String(categoryCounts.get(category.id) ?? 0),
        ]),
      },
      heading(2, "Upcoming sunsets"),
      upcoming.length > 0
        ? {
            kind: "table",
            head: ["Service", "Provider", "Retires"],
            rows: upcoming.map((service) => [
              link(service.name, servicePath(service)),
              service.providerId,
              service.lifecycle!.sunsetDate!,
            ]),
          }
        : paragraph("No announced sunsets."),
    ],
  };
}

export function providerPage(catalogue: Catalogue, providerId: string, urls?: PublicUrls): Doc {
  const record = catalogue.providerById.get(providerId)!;
  const { provider, file } = record;
  const services = catalogue.services.filter((service) => service.providerId === providerId);
  const blocks: Block[] = [
    heading(1, provider.name),
    {
      kind: "fields",
      rows: [
        ["Head office", [`${file.headOffice.city}, ${file.headOffice.country} (${file.headOffice.company})`]],
        ["Jurisdiction", [file.jurisdiction]],
        ["Controlled from", [file.controllingCountry]],
        ["Sovereign option", [record.sovereignOption ? "yes" : "no"]],
        ["EU-resident-only", [record.euResidentOnly ? "yes" : "no"]],
        ["Documentation", [link(file.documentationBaseUrl, file.documentationBaseUrl)]],
        [`${file.shortName} holds`, [programmeNames(catalogue, file.defaultCompliance) || "none listed"]],
        ...(file.complianceScope ?? []).map((scope): [string, Inline[]] => [
          "Services in scope",
          [`of ${programmeNames(catalogue, scope.programmes)}: `, link(scope.url, scope.url)],
        ]),
        ["Services", [String(services.length)]],
      ],
    },
  ];
  for (const category of catalogue.categories) {
    const inCategory = services.filter((service) => service.category === category.id);
    if (inCategory.length === 0) continue;
    blocks.push(heading(2, category.name), {
      kind: "table",
      head: ["Service", "Slug", "Lifecycle"],
      rows: inCategory.map((service) => [
        link(service.name, servicePath(service)),
        service.slug,
        lifecycleLabel(service.lifecycle),
      ]),
    });
  }
  // The market column only for providers that split their regions into markets (see Region.market).
  const markets = file.regions.some((region) => region.market);
  blocks.push(heading(2, `Regions (${file.regions.length})`), {
    kind: "table",
    head: ["Region", "Name", "City", "Country", ...(markets ? ["Market"] : [])],
    rows: file.regions.map((region) => [
      region.id,
      region.name,
      region.city ?? "",
      region.country,
      ...(markets ? [region.market ?? ""] : []),
    ]),
  });
  blocks.push(
    heading(2, "Lifecycle calendar"),
    ...calendarBlocks({
      url: `${urls?.apiUrl ?? ""}/v1/lifecycle.ics?provider=${encodeURIComponent(providerId)}`,
      what: `the lifecycle dates of ${file.shortName}'s services, their versions and tiers`,
    }),
  );
  return { title: provider.name, blocks };
}

/**
 * A category page's tables: one per equivalence group with members in the category, then the
 * services in none. A service in two groups is a row of each, so `services` (distinct) and `rows`
 * differ then; `summary` says both, so the count matches the rows a reader sees.
 */
export function categoryTables(catalogue: Catalogue, categoryId: string) {
  const services = catalogue.services.filter((service) => service.category === categoryId);
  const groups = catalogue.groups
    .map((group) => ({
      group,
      services: group.services
        .map((slug) => catalogue.bySlug.get(slug)!.service)
        .filter((service) => service.category === categoryId),
    }))
    .filter((entry) => entry.services.length > 0);
  const placed = new Set(groups.flatMap((entry) => entry.services.map((service) => service.slug)));
  const rest = services.filter((service) => !placed.has(service.slug));
  const rows = groups.reduce((sum, entry) => sum + entry.services.length, 0) + rest.length;
  const repeated = new Set(
    groups
      .flatMap((entry) => entry.services.map((service) => service.slug))
      .filter((slug, i, all) => all.indexOf(slug) !== i),
  ).size;
  const summary =
    `${services.length} service${services.length === 1 ? "" : "s"}, grouped by equivalents across providers` +
    (repeated === 0
      ? "."
      : `; ${repeated} of them ${repeated === 1 ? "is" : "are"} listed under more than one group, so the tables have ${rows} rows.`);
  return { services, groups, rest, rows, summary };
}

export function categoryPage(catalogue: Catalogue, categoryId: string): Doc {
  const category = catalogue.categoryById.get(categoryId)!;
  const { groups, rest, summary } = categoryTables(catalogue, categoryId);
  const blocks: Block[] = [heading(1, category.name)];
  if (category.description) blocks.push(paragraph(category.description));
  blocks.push(paragraph(summary));
  for (const { group, services: members } of groups) {
    blocks.push(heading(2, group.name), {
      kind: "table",
      head: ["Service", "Provider", "Lifecycle"],
      rows: members.map((service) => serviceRow(service)),
    });
  }
  if (rest.length > 0) {
    blocks.push(heading(2, "Other services"), {
      kind: "table",
      head: ["Service", "Provider", "Lifecycle"],
      rows: rest.map((service) => serviceRow(service)),
    });
  }
  return { title: category.name, blocks };
}

/** The lifecycle page's groups, by how far a date is from today. */
export const LIFECYCLE_GROUPS = [
  { id: "soon", title: `Next ${LIFECYCLE_SOON_DAYS} days` },
  { id: "year", title: "Within a year" },
  { id: "later", title: "Later" },
  { id: "undated", title: "Deprecated or in preview, no date announced" },
  { id: "past", title: "Past: retired or past their date" },
] as const;
export type LifecycleGroupId = (typeof LIFECYCLE_GROUPS)[number]["id"];

/** Which group of the lifecycle page an entry falls in, as of a day. */
export function lifecycleGroup(sunsetDate: string | undefined, today: string): LifecycleGroupId {
  if (!sunsetDate) return "undated";
  const days = daysBetween(today, sunsetDate);
  if (days < 0) return "past";
  if (days <= LIFECYCLE_SOON_DAYS) return "soon";
  return days <= LIFECYCLE_YEAR_DAYS ? "year" : "later";
}

/** A filter's lists in words: "status sunset or retired". */
const listWords = (what: string, values: ReadonlySet<string> | undefined) =>
  values ? `, ${what} ${[...values].join(" or ")}` : "";

/**
 * The lifecycle page: entries grouped by upcoming date (next 90 days, within a year, later,
 * undated, then past), as of a day; with `within` the dates from today to today + n days, headed
 * "Next n days"; the feed and JSON links ask for the same filter.
 */
export function lifecyclePage(
  catalogue: Catalogue,
  today: string = catalogue.lastUpdated.slice(0, 10),
  filter: LifecycleFilter = {},
  /** The public URLs: the calendar is offered at its absolute address (render/calendar.ts). */
  publicUrls?: PublicUrls,
): Doc {
  const urls = { apiUrl: "", textUrl: "" };
  const entries = lifecycleList(catalogue, urls, today, filter).data;
  const filtered = isFiltered(filter);
  const query = filterQuery(filter);
  const withQuery = (path: string) => (query ? `${path}?${query}` : path);
  const blocks: Block[] = [
    heading(1, "Lifecycle"),
    paragraph(
      filtered
        ? `${entries.length} entries${filter.withinDays !== undefined ? ` with a date from ${today} to ${addDays(today, filter.withinDays)}` : ""}${listWords("status", filter.statuses)}${listWords("provider", filter.providerIds)}${listWords("kind", filter.kinds)}.`
        : `Services in preview, deprecated, sunsetting or retired, and the dates of their versions' and tiers' phases, as the vendors announced them, by upcoming date as of ${today}. Filter with ?within=90 (days), ?status=, ?provider= or ?kind=version (lists comma-separated).`,
    ),
    paragraph(
      "Subscribe: ",
      link("Atom feed", withQuery("/v1/lifecycle.atom")),
      ", ",
      link("calendar (iCalendar)", withQuery("/v1/lifecycle.ics")),
      ", ",
      link("JSON", withQuery("/v1/lifecycle")),
      ".",
    ),
    ...calendarBlocks({
      url: `${publicUrls?.apiUrl ?? ""}${withQuery("/v1/lifecycle.ics")}`,
      what: filtered ? "these dates" : "every lifecycle date of the catalogue",
    }),
  ];
  // Within a window every entry has a date from today to today + n: one group, named by the window.
  const groups =
    filter.withinDays === undefined
      ? LIFECYCLE_GROUPS.map((group) => ({
          ...group,
          members: entries.filter((entry) => lifecycleGroup(entry.sunsetDate, today) === group.id),
        }))
      : [
          {
            id: "window",
            title: `Next ${filter.withinDays} day${filter.withinDays === 1 ? "" : "s"}`,
            members: entries,
          },
        ];
  for (const { title, members } of groups) {
    if (members.length === 0) continue;
    blocks.push(heading(2, `${title} (${members.length})`), {
      kind: "table",
      head: ["Service", "Provider", "Status", "Date", "Successor"],
      rows: members.map((entry) => {
        const service = catalogue.bySlug.get(entry.slug)!.service;
        const successor = entry.successorSlug ? catalogue.bySlug.get(entry.successorSlug)?.service : undefined;
        // A version entry names its version and which date it is (e.g. "Node.js 20 (nodejs20.x): Deprecation").
        const label = entry.version
          ? `${entry.name} ${entry.version.name ? `${entry.version.name} (${entry.version.id})` : `${entry.version.familyName} ${entry.version.id}`}: ${entry.version.endName}`
          : entry.name;
        return [
          link(label, servicePath(service)),
          entry.providerId,
          entry.status,
          entry.sunsetDate
            ? `${entry.sunsetDate} (${relativeDays(daysBetween(today, entry.sunsetDate))})`
            : (entry.gaTarget ?? ""),
          successor ? link(successor.name, servicePath(successor)) : "",
        ];
      }),
    });
  }
  if (entries.length === 0) blocks.push(paragraph("Nothing matches."));
  return { title: "Lifecycle", blocks };
}

/** Services of a list that need attention: deprecated, or with a date within the warning window (past included). */
export function listLifecycleWarnings(services: readonly ServiceT[], today: string): ServiceT[] {
  const horizon = addDays(today, LIST_LIFECYCLE_WARNING_DAYS);
  return services.filter((service) => {
    const lifecycle = service.lifecycle;
    if (!lifecycle || lifecycle.status === "preview") return false;
    if (lifecycle.status === "deprecated") return true;
    return lifecycle.sunsetDate !== undefined && lifecycle.sunsetDate <= horizon;
  });
}

export function comparePage(catalogue: Catalogue, slugs: readonly string[]): Doc {
  const shown = slugs.slice(0, MAX_TEXT_COMPARE_SHOWN).map((slug) => catalogue.bySlug.get(slug)!.service);
  const blocks: Block[] = [heading(1, "Compare")];
  if (slugs.length > MAX_TEXT_COMPARE_SHOWN) {
    blocks.push({
      kind: "note",
      tone: "info",
      parts: [
        `Showing the first ${MAX_TEXT_COMPARE_SHOWN} of ${slugs.length} services; the text host compares at most ${MAX_TEXT_COMPARE_SHOWN}.`,
      ],
    });
  }
  for (const service of shown) {
    const provider = catalogue.providerById.get(service.providerId)!;
    blocks.push(heading(2, service.name), {
      kind: "fields",
      rows: [
        ["Provider", [link(provider.provider.name, providerPath(provider.provider.id))]],
        // Names, as the service pages show them: the category's and (complianceRows) the programmes'.
        ["Category", [link(catalogue.categoryById.get(service.category)!.name, categoryPath(service.category))]],
        ["Lifecycle", [lifecycleLabel(service.lifecycle)]],
        ["Pricing model", [service.pricingModel ?? "unknown"]],
        ["Free tier", [service.hasFreeTier ? "yes" : "not listed"]],
        ["Head office", [provider.file.headOffice.country]],
        ["Region countries", [provider.regionCountries.join(", ")]],
        ...complianceRows(catalogue, service),
        ["Details", [link(servicePath(service), servicePath(service))]],
      ],
    });
  }
  // What moving one to another keeps and loses (issue 98), from the exit plan's own function.
  const groupsOf = (slug: string) => catalogue.bySlug.get(slug)?.groupIds ?? [];
  const differences = shown.flatMap((from) =>
    shown
      .filter((to) => to.slug !== from.slug)
      .flatMap((to) => keyDifferences(catalogue.capabilities, groupsOf, from.slug, to.slug, protocolReader(catalogue))),
  );
  if (differences.length > 0)
    blocks.push(heading(2, "Key differences"), {
      kind: "table",
      head: ["From", "To", "Job", "What moving keeps and loses"],
      rows: differences.map((row) => [
        catalogue.bySlug.get(row.from)!.service.name,
        catalogue.bySlug.get(row.to)!.service.name,
        catalogue.groups.find((group) => group.id === row.group)?.name ?? row.group,
        row.words,
      ]),
    });
  return { title: "Compare", blocks };
}

/** A saved list on the text host (/lists/{id}): its services with lifecycle warnings. */
export function savedListPage(
  catalogue: Catalogue,
  list: Pick<StoredList, "name" | "slug" | "id" | "approvedServiceIds" | "expiresAt">,
  today: string = new Date().toISOString().slice(0, 10),
  /** The API's public URL: the list's calendar is offered at its absolute address (render/calendar.ts). */
  apiUrl?: string,
): Doc {
  const { services, missingServiceIds: missing } = resolveList(catalogue, list);
  const warnings = listLifecycleWarnings(services, today);
  const doc = approvedListDoc(
    catalogue,
    services.map((service) => service.slug),
    list.name ?? "Saved list",
  );
  const [title, ...rest] = doc.blocks;
  return {
    title: doc.title,
    blocks: [
      title!,
      ...(warnings.length > 0
        ? [
            {
              kind: "note",
              tone: "warning",
              parts: [
                `Lifecycle warnings (deprecated, retired or sunset within ${LIST_LIFECYCLE_WARNING_DAYS} days): ${warnings.map((s) => `${s.name} (${lifecycleLabel(s.lifecycle)})`).join(", ")}.`,
              ],
            } satisfies Block,
          ]
        : []),
      ...rest,
      paragraph(
        `Calendar of this list's sunset dates, with reminders ${CALENDAR_ALARMS.defaultDays.join(", ")} days before (?alarms=30,7 for others, ?alarms=none for none; ?within=365d for the next year's): `,
        link(listCalendarPath(list), listCalendarPath(list)),
      ),
      ...calendarBlocks({ url: `${apiUrl ?? ""}${listCalendarPath(list)}`, what: "this list's sunset dates" }),
      paragraph(
        `Address ${listPath(list)}; expires ${list.expiresAt.slice(0, 10)} (${LIST_LIFETIME_DAYS} days after it is last read: reading it renews it).`,
      ),
      ...(missing.length > 0 ? [paragraph(`No longer in the catalogue: ${missing.join(", ")}.`)] : []),
    ],
  };
}

/** POST /v1/export/markdown: the approved list for runbooks, grouped by provider, lifecycle shown. */
export function approvedListDoc(
  catalogue: ListCatalogue,
  ids: readonly string[],
  title = "Approved cloud services",
): Doc {
  const services = [...new Set(ids)].map((id) => catalogue.bySlug.get(id)!.service);
  const blocks: Block[] = [
    heading(1, title),
    paragraph(`${services.length} approved service${services.length === 1 ? "" : "s"}.`),
  ];
  const flagged = services.filter((service) => service.lifecycle);
  if (flagged.length > 0) {
    blocks.push({
      kind: "note",
      tone: "warning",
      parts: [
        `${flagged.length} approved service${flagged.length === 1 ? " is" : "s are"} not generally available: ${flagged.map((s) => `${s.name} (${lifecycleLabel(s.lifecycle)})`).join(", ")}.`,
      ],
    });
  }
  for (const provider of catalogue.providers) {
    const own = services.filter((service) => service.providerId === provider.id);
    if (own.length === 0) continue;
    blocks.push(heading(2, provider.name), {
      kind: "table",
      head: ["Service", "Id", "Category", "Lifecycle", "Documentation"],
      rows: own.map((service) => [
        service.name,
        service.slug,
        service.category,
        lifecycleLabel(service.lifecycle) +
          (service.lifecycle?.successorSlug ? ` → ${service.lifecycle.successorSlug}` : ""),
        service.documentationUrl ? link("docs", service.documentationUrl) : "",
      ]),
    });
  }
  return { title, blocks };
}

/** The link of a search page: the query, its filters, and the page when not the first. */
export function searchHref(query: string, filters: Readonly<Record<string, string>>, page = 1): string {
  return href("search", { q: query, ...filters, ...(page > 1 ? { page: String(page) } : {}) });
}
