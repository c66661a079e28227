/**
 * The lifecycle watch: every lifecycle entry ordered by its next relevant date, the `within`
 * filter, and the two feeds (Atom 1.0, RFC 4287; iCalendar, RFC 5545). Days are UTC calendar days
 * (YYYY-MM-DD), compared as strings.
 */
import { CALENDAR_ALARMS, DAY_MS } from "../base/limits.ts";
import type { Catalogue, ServiceRecord } from "../load/load.ts";
import {
  atomInstant,
  foldLine,
  icsAlarm,
  icsInstant,
  icsText,
  renderAtom,
  tagAuthority,
  tagUri,
} from "../format/feeds.ts";
import { HttpError } from "../base/problem.ts";
import type {
  VERSION_DATES,
  LifecycleEntryT,
  LifecycleKind,
  LifecycleListT,
  LifecycleQueryT,
  ListCalendarQueryT,
  ServiceT,
  VersionPhase,
} from "../schema/index.ts";
import { href, servicePath, type PublicUrls } from "../base/urls.ts";
import { phaseOn, statusOfPhase, termOf, versionPhases } from "../versions/versions.ts";

export interface LifecycleFilter {
  /** Only entries whose sunsetDate is between asOf and asOf + withinDays, both included. */
  readonly withinDays?: number | undefined;
  /** Only entries with one of these statuses (?status=sunset,retired). */
  readonly statuses?: ReadonlySet<string> | undefined;
  /** Only these providers' entries (?provider=azure,gcp: known ids, the caller's case aside). */
  readonly providerIds?: ReadonlySet<string> | undefined;
  /** Only entries of these kinds (LIFECYCLE_KINDS). */
  readonly kinds?: ReadonlySet<LifecycleKind> | undefined;
  /** Only these services' entries (?ids=, known slugs: the caller checked them). */
  readonly slugs?: ReadonlySet<string> | undefined;
}

/** VERSION_DATES, in its order (the type says so): the browser loads this module, and zod stays out. */
const DATES: typeof VERSION_DATES = ["standardEnd", "blockCreate", "blockUpdate", "extendedEnd"];

/** The values of a comma-separated list, trimmed, in order, each once. */
const listValues = (raw: string | undefined): string[] | undefined =>
  raw === undefined
    ? undefined
    : [
        ...new Set(
          raw
            .split(",")
            .map((item) => item.trim())
            .filter(Boolean),
        ),
      ];

/** A set of a list's values, or undefined for no list. */
const setOf = <T extends string>(values: readonly T[] | undefined): ReadonlySet<T> | undefined =>
  values === undefined ? undefined : new Set(values);

/**
 * A validated lifecycle query as a filter; an unknown provider is a 400. Lists are comma-separated
 * (provider=azure,gcp, status=deprecated,preview, kind=service,version), as the error for a
 * repeated parameter tells a client to write them; provider ids are read case-insensitively.
 * `slugs` are the services of ?ids=, already checked against the catalogue by the caller
 * (search/ids.ts parseIdList, one floor up from here, refuses unknown ones as every id list is refused).
 */
export function lifecycleFilterOf(
  catalogue: Catalogue,
  query: LifecycleQueryT,
  slugs?: readonly string[],
): LifecycleFilter {
  const providers = listValues(query.provider)?.map((id) => id.toLowerCase());
  if (providers !== undefined) {
    const unknown = providers.filter((id) => !catalogue.providerById.has(id));
    if (unknown.length > 0 || providers.length === 0)
      throw new HttpError(
        400,
        "Unknown provider",
        `No provider has the id${unknown.length > 1 ? "s" : ""} ${(unknown.length > 0
          ? unknown
          : [query.provider ?? ""]
        )
          .slice(0, 5)
          .map((id) => `"${id.slice(0, 100)}"`)
          .join(", ")}; see GET /v1/providers.`,
      );
  }
  return {
    withinDays: query.within === undefined ? undefined : Number(query.within.replace(/d$/, "")),
    statuses: setOf(listValues(query.status)),
    providerIds: setOf(providers),
    kinds: setOf(listValues(query.kind) as LifecycleKind[] | undefined),
    slugs: slugs === undefined ? undefined : new Set(slugs),
  };
}

/** A saved list's calendar query as a filter (within and kind; the list already chose the services). */
export const listCalendarFilterOf = (query: ListCalendarQueryT): LifecycleFilter => ({
  withinDays: query.within === undefined ? undefined : Number(query.within.replace(/d$/, "")),
  kinds: query.kind === undefined ? undefined : new Set([query.kind]),
});

/** Whether a filter filters anything. */
export const isFiltered = (filter: LifecycleFilter): boolean =>
  Object.values(filter).some((value) => value !== undefined);

/** What an entry is the lifecycle of: a service's own status, or an end date of one of its versions. */
export const kindOf = (entry: LifecycleEntryT): LifecycleKind => entry.kind;

/** The UTC day of an instant. */
export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);
/** A day plus n days. */
export const addDays = (day: string, days: number): string =>
  dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
/** Whole days from one day to another (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

const UNDATED_ORDER = ["deprecated", "preview", "sunset", "retired"];

/** A lifecycle entry's verification: the copy's date when the source gives one (never the day an older copy was read), with both dates. */
function verification(source: { readonly retrieved: string; readonly asOf?: string | undefined } | undefined) {
  if (!source) return {};
  return {
    lifecycleVerified: source.asOf ?? source.retrieved,
    ...(source.asOf ? { sourceAsOf: source.asOf } : {}),
    sourceRetrieved: source.retrieved,
  };
}

/** Of a service's sources backing its lifecycle, the one whose copy is newest (asOf, else the reading day). */
function lifecycleSource(catalogue: Catalogue, service: ServiceT) {
  const sources = catalogue.bySlug.get(service.slug)?.sources ?? [];
  let best: (typeof sources)[number] | undefined;
  for (const source of sources)
    if (
      source.backs.includes("lifecycle") &&
      (!best || (source.asOf ?? source.retrieved) > (best.asOf ?? best.retrieved))
    )
      best = source;
  return best;
}

/**
 * An event's revision: how many times its date changed in the recorded dates (catalogue/releases/
 * event-dates.txt), one more when the current date is not the last recorded.
 */
export function revisionOf(recorded: readonly string[] | undefined, date: string): number {
  if (!recorded || recorded.length === 0) return 0;
  return recorded.length - 1 + (recorded.at(-1) === date ? 0 : 1);
}

function entryOf(catalogue: Catalogue, urls: PublicUrls, service: ServiceT): LifecycleEntryT {
  const lifecycle = service.lifecycle!;
  const successor = lifecycle.successorSlug ? catalogue.bySlug.get(lifecycle.successorSlug)?.service : undefined;
  const entry: LifecycleEntryT = {
    slug: service.slug,
    name: service.name,
    providerId: service.providerId,
    providerName: catalogue.providerById.get(service.providerId)!.provider.shortName,
    status: lifecycle.status,
    sunsetDate: lifecycle.sunsetDate,
    gaTarget: lifecycle.gaTarget,
    successorSlug: lifecycle.successorSlug,
    successorName: successor?.name,
    note: lifecycle.note,
    announcementUrl: lifecycle.announcementUrl,
    lastVerified: service.lastVerified,
    ...verification(lifecycleSource(catalogue, service)),
    url: `${urls.textUrl}${servicePath(service)}`,
    kind: "service",
  };
  return withoutUndefined(entry);
}

function withoutUndefined(entry: LifecycleEntryT): LifecycleEntryT {
  for (const key of Object.keys(entry) as (keyof LifecycleEntryT)[]) if (entry[key] === undefined) delete entry[key];
  return entry;
}

/**
 * One entry per published date of each version of a service (data/versions/): its standard end,
 * the days creating and updating are blocked, its extended end; sunset while the date is to come,
 * retired once it has passed, as of a day; the phase each date leads into, with what the family
 * says it means; the family's source is the announcement. Statuses and phases are computed from
 * the dates, never read from the data.
 */
function versionEntriesOf(catalogue: Catalogue, urls: PublicUrls, record: ServiceRecord, asOf: string) {
  const { service } = record;
  return record.versions.flatMap((family) => {
    const successor = family.successorSlug ? catalogue.bySlug.get(family.successorSlug)?.service : undefined;
    return family.versions.flatMap((version) => {
      const phases = versionPhases(version, family);
      const now: VersionPhase = phaseOn(phases, asOf);
      return DATES.flatMap((end) => {
        const date = version[end];
        if (date === undefined) return [];
        const phase = phases.find((entry) => entry.from === end)!.phase;
        const info = phase === "supported" ? undefined : family.phases?.[phase];
        const entry: LifecycleEntryT = {
          slug: service.slug,
          name: service.name,
          providerId: service.providerId,
          providerName: catalogue.providerById.get(service.providerId)!.provider.shortName,
          status: date >= asOf ? "sunset" : "retired",
          sunsetDate: date,
          successorSlug: successor?.slug,
          successorName: successor?.name,
          note: version.note ?? family.note,
          // The page the date was read in: a phase's own copy of its dates (Lambda's blocks), else the family's.
          announcementUrl: (info?.datesSource ?? family.source).url,
          lastVerified: service.lastVerified,
          ...verification(info?.datesSource ?? family.source),
          url: `${urls.textUrl}${servicePath(service)}`,
          kind: "version",
          version: {
            family: family.id,
            familyName: family.name,
            id: version.id,
            ...(version.name ? { name: version.name } : {}),
            end,
            endName: termOf(family, end),
            phase,
            ...(info?.paid !== undefined ? { paid: info.paid } : {}),
            status: statusOfPhase(now),
          },
        };
        return [withoutUndefined(entry)];
      });
    });
  });
}

/**
 * Entries by next relevant date as of a day: dated on or after it (soonest first), then undated
 * (deprecated, then preview, by name), then dated before it (most recent first).
 */
export function byNextDate(asOf: string) {
  const rank = (entry: LifecycleEntryT) => (!entry.sunsetDate ? 1 : entry.sunsetDate >= asOf ? 0 : 2);
  return (a: LifecycleEntryT, b: LifecycleEntryT): number => {
    const ra = rank(a);
    const rb = rank(b);
    if (ra !== rb) return ra - rb;
    if (ra === 0 && a.sunsetDate !== b.sunsetDate) return a.sunsetDate!.localeCompare(b.sunsetDate!);
    if (ra === 2 && a.sunsetDate !== b.sunsetDate) return b.sunsetDate!.localeCompare(a.sunsetDate!);
    if (ra === 1 && a.status !== b.status) return UNDATED_ORDER.indexOf(a.status) - UNDATED_ORDER.indexOf(b.status);
    return (
      a.name.localeCompare(b.name, "en") ||
      a.slug.localeCompare(b.slug) ||
      // A service's own entry before its versions'; versions by family, then as the vendor lists them.
      (a.version?.family ?? "").localeCompare(b.version?.family ?? "") ||
      (a.version?.id ?? "").localeCompare(b.version?.id ?? "", "en", { numeric: true })
    );
  };
}

/** Every lifecycle entry (of the given services, or of the whole catalogue), by next date as of a day. */
export function lifecycleEntries(
  catalogue: Catalogue,
  urls: PublicUrls,
  asOf: string,
  slugs?: ReadonlySet<string>,
): LifecycleEntryT[] {
  const chosen = catalogue.services.filter((service) => !slugs || slugs.has(service.slug));
  return [
    ...chosen.filter((service) => service.lifecycle).map((service) => entryOf(catalogue, urls, service)),
    ...chosen.flatMap((service) => versionEntriesOf(catalogue, urls, catalogue.bySlug.get(service.slug)!, asOf)),
  ].sort(byNextDate(asOf));
}

/** Whether an entry passes a filter as of a day. */
export function matchesFilter(entry: LifecycleEntryT, asOf: string, filter: LifecycleFilter): boolean {
  if (filter.statuses && !filter.statuses.has(entry.status)) return false;
  if (filter.providerIds && !filter.providerIds.has(entry.providerId)) return false;
  if (filter.kinds && !filter.kinds.has(kindOf(entry))) return false;
  if (filter.slugs && !filter.slugs.has(entry.slug)) return false;
  if (filter.withinDays !== undefined) {
    if (!entry.sunsetDate) return false;
    if (entry.sunsetDate < asOf || entry.sunsetDate > addDays(asOf, filter.withinDays)) return false;
  }
  return true;
}

/** GET /v1/lifecycle: the entries passing a filter, as of a day. */
export function lifecycleList(
  catalogue: Catalogue,
  urls: PublicUrls,
  asOf: string,
  filter: LifecycleFilter = {},
): LifecycleListT {
  return { asOf, data: lifecycleEntries(catalogue, urls, asOf).filter((entry) => matchesFilter(entry, asOf, filter)) };
}

/** The day the unfiltered list (and its static file) is ordered from: the catalogue's last update. */
export const catalogueDay = (catalogue: Catalogue): string => catalogue.lastUpdated.slice(0, 10);

// ---------------------------------------------------------------------------------------------
// The feeds

const STATUS_PHRASE: Record<string, (date?: string) => string> = {
  preview: () => "in preview",
  deprecated: (date) => (date ? `deprecated, ends ${date}` : "deprecated"),
  sunset: (date) => `sunsets on ${date}`,
  retired: (date) => `retired on ${date}`,
};

/** A version entry's title: "AWS Lambda Node.js 20 (nodejs20.x) (AWS): Deprecation 2026-04-30". */
function versionTitle(entry: LifecycleEntryT, version: NonNullable<LifecycleEntryT["version"]>): string {
  const label = version.name ? `${version.name} (${version.id})` : `${version.familyName} ${version.id}`;
  return `${entry.name} ${label} (${entry.providerName}): ${version.endName} ${entry.sunsetDate}`;
}

const entryTitle = (entry: LifecycleEntryT) =>
  entry.version
    ? versionTitle(entry, entry.version)
    : `${entry.name} (${entry.providerName}) ${STATUS_PHRASE[entry.status]!(entry.sunsetDate)}`;

/** What an entry's dates are verified as of: "Verified 2026-08-16 (the page's copy of that day, read 2026-11-28)". */
export function verifiedText(entry: Pick<LifecycleEntryT, "lifecycleVerified" | "sourceAsOf" | "sourceRetrieved">) {
  if (!entry.lifecycleVerified) return undefined;
  return entry.sourceAsOf
    ? `Verified ${entry.lifecycleVerified} (the vendor page as of that day, read ${entry.sourceRetrieved ?? entry.lifecycleVerified}).`
    : `Verified ${entry.lifecycleVerified} (the day the vendor page was read).`;
}

/** What the phase a version entry's date leads into means and costs, as its family describes it. */
function phaseInfoOf(catalogue: Catalogue, entry: LifecycleEntryT) {
  const version = entry.version;
  if (!version || version.phase === "supported") return undefined;
  const family = catalogue.bySlug.get(entry.slug)?.versions.find((candidate) => candidate.id === version.family);
  return family?.phases?.[version.phase];
}

function entrySummary(catalogue: Catalogue, entry: LifecycleEntryT): string {
  const parts = [`${entryTitle(entry)}.`];
  const info = phaseInfoOf(catalogue, entry);
  if (info)
    parts.push(
      `${info.consequence}${/[.!?]$/.test(info.consequence) ? "" : "."}${info.price ? ` Price: ${info.price}.` : info.paid ? " Paid." : ""}`,
    );
  if (entry.gaTarget) parts.push(`GA target: ${entry.gaTarget}.`);
  if (entry.note) parts.push(entry.note);
  if (entry.successorName) parts.push(`Successor: ${entry.successorName}.`);
  const verified = verifiedText(entry);
  if (verified) parts.push(verified);
  if (entry.announcementUrl) parts.push(`Announcement: ${entry.announcementUrl}`);
  return parts.join(" ");
}

/**
 * GET /v1/lifecycle.atom: one entry per announcement (a service's current status and date). The id
 * is derived from slug, status and date, so it stays the same across builds and changes only when
 * the announcement does; `updated` is the day the catalogue last verified the service.
 */
export function lifecycleAtom(catalogue: Catalogue, urls: PublicUrls, filtered?: FilteredFeed): string {
  const asOf = filtered?.asOf ?? catalogueDay(catalogue);
  const entries = lifecycleEntries(catalogue, urls, asOf).filter(
    (entry) => !filtered || matchesFilter(entry, asOf, filtered.filter),
  );
  return renderAtom({
    // A filtered feed is a feed of its own: its id and self link carry its query.
    id: tagUri(urls, filtered ? `lifecycle?${filtered.query}` : "lifecycle"),
    title: "Cloud Services Catalogue: lifecycle",
    subtitle: "Cloud services in preview, deprecated, sunsetting or retired, as the vendors announced them.",
    self: `${urls.apiUrl}/v1/lifecycle.atom${filtered ? `?${filtered.query}` : ""}`,
    // The text host's page with the same filter (issue 113: links follow the filters).
    alternate: `${urls.textUrl}${href("lifecycle")}${filtered ? `?${filtered.query}` : ""}`,
    author: { name: "Cloud Services Catalogue", uri: urls.textUrl },
    fallbackUpdated: catalogue.lastUpdated.replace(/\.\d+Z$/, "Z"),
    entries: entries.map((entry) => ({
      id: tagUri(urls, `lifecycle/${eventKey(entry, "/")}/${entry.status}/${entry.sunsetDate ?? "undated"}`),
      title: entryTitle(entry),
      // What the announcement behind the entry is verified as of (its copy's date), not the newest reading of any source.
      updated: atomInstant(entry.lifecycleVerified ?? catalogueDay(catalogue)),
      link: entry.url,
      related: entry.announcementUrl,
      category: entry.status,
      summary: entrySummary(catalogue, entry),
    })),
  });
}

/**
 * What names an entry's event in ids: the slug, and for a version entry its family, version and
 * which of its dates (a version id's other characters, a tier's space, made hyphens). No date: a
 * calendar UID made of it stays the event's when its date moves.
 */
const eventKey = (entry: LifecycleEntryT, separator: string): string =>
  entry.version
    ? [entry.slug, entry.version.family, entry.version.id.replace(/[^A-Za-z0-9.-]/g, "-"), entry.version.end].join(
        separator,
      )
    : entry.slug;

/**
 * Each dated event's key (its calendar UID before the @) and its date now: what `npm run release`
 * records in catalogue/releases/event-dates.txt, from which each event's revision is counted.
 */
export function currentEventDates(catalogue: Catalogue): Map<string, string> {
  const urls = { apiUrl: "", textUrl: "" };
  const entries = lifecycleEntries(catalogue, urls, catalogueDay(catalogue)).filter((entry) => entry.sunsetDate);
  return new Map(entries.map((entry) => [eventKey(entry, "."), entry.sunsetDate!]));
}

/** What a reminder says: the event, and how far off it is. */
const alarmText = (title: string, days: number) =>
  `${title} (${days === 0 ? "today" : days === 1 ? "tomorrow" : `in ${days} days`}).`;

const icsDate = (day: string) => day.replace(/-/g, "");
/** UTC as a VTIMEZONE (RFC 5545 §3.6.5): one STANDARD observance with a zero offset. */
const UTC_TIMEZONE = [
  "BEGIN:VTIMEZONE",
  "TZID:UTC",
  "BEGIN:STANDARD",
  "DTSTART:19700101T000000",
  "TZOFFSETFROM:+0000",
  "TZOFFSETTO:+0000",
  "TZNAME:UTC",
  "END:STANDARD",
  "END:VTIMEZONE",
] as const;
export interface CalendarOptions {
  readonly name: string;
  readonly description: string;
  /** Only these services; the whole catalogue when absent. */
  readonly slugs?: ReadonlySet<string>;
  /** Only the entries passing a filter (?status=, ?provider=, ?within=), as of a day. */
  readonly filtered?: FilteredFeed;
  /**
   * Reminders on each event, days before it, most first, each only while its day is still to come
   * on the calendar's day; CALENDAR_ALARMS.defaultDays when absent, none when empty.
   */
  readonly alarms?: readonly number[] | undefined;
  /**
   * The calendar's day, from which reminders still to come and `within` are reckoned: `filtered.asOf`
   * when filtered, else this, else the catalogue's last update (the built file's, so builds are
   * byte-identical).
   */
  readonly asOf?: string;
}

/** How often a subscribed calendar should be fetched again (RFC 7986 §5.7; X-PUBLISHED-TTL for older clients). */
export const CALENDAR_REFRESH = "P1D";

/** A feed asked with a query: the filter, the day `within` counts from, and the query as asked (normalised). */
export interface FilteredFeed {
  readonly filter: LifecycleFilter;
  readonly asOf: string;
  readonly query: string;
}

/** A filter as the query that asks for it, normalised (status, provider, within, kind, ids); "" for none. */
export function filterQuery(filter: LifecycleFilter): string {
  const list = (values: ReadonlySet<string> | undefined) => (values ? [...values].join(",") : undefined);
  return new URLSearchParams(
    Object.entries({
      status: list(filter.statuses),
      provider: list(filter.providerIds),
      within: filter.withinDays === undefined ? undefined : `${filter.withinDays}d`,
      kind: list(filter.kinds),
      ids: list(filter.slugs),
    }).filter((pair): pair is [string, string] => pair[1] !== undefined),
  ).toString();
}

/** The feed's filter for a validated query; undefined for no filter (the static feed). */
export function filteredFeed(
  catalogue: Catalogue,
  query: LifecycleQueryT,
  now: Date,
  slugs?: readonly string[],
): FilteredFeed | undefined {
  const filter = lifecycleFilterOf(catalogue, query, slugs);
  if (!isFiltered(filter)) return undefined;
  return { filter, asOf: dayOf(now), query: filterQuery(filter) };
}

/**
 * An iCalendar of lifecycle dates: one all-day VEVENT per service sunset and per version date.
 * A UID names the event (service, or service, family, version and which date), never its date, so
 * a date that moves updates the event in place; SEQUENCE counts the date's changes in the recorded
 * event dates (revisionOf). DTSTAMP is the catalogue's last update, so the same data gives the
 * same bytes. A reminder (VALARM) is kept only while its own day is still to come on the calendar's
 * day (the built file: the catalogue's day; a request with a query: the request's day), as a
 * reminder of a day gone by would only nag. REFRESH-INTERVAL and X-PUBLISHED-TTL ask subscribers
 * to fetch it daily.
 */
export function lifecycleCalendar(catalogue: Catalogue, urls: PublicUrls, options: CalendarOptions): string {
  const stamp = icsInstant(catalogue.lastUpdated);
  const host = tagAuthority(urls);
  const { filtered } = options;
  const asOf = filtered?.asOf ?? options.asOf ?? catalogueDay(catalogue);
  const entries = lifecycleEntries(catalogue, urls, asOf, options.slugs)
    .filter((entry) => entry.sunsetDate && (!filtered || matchesFilter(entry, asOf, filtered.filter)))
    .sort((a, b) => a.sunsetDate!.localeCompare(b.sunsetDate!) || a.slug.localeCompare(b.slug));
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Cloud Services Catalogue//Lifecycle//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${icsText(options.name)}`,
    `X-WR-CALDESC:${icsText(options.description)}`,
    `REFRESH-INTERVAL;VALUE=DURATION:${CALENDAR_REFRESH}`,
    `X-PUBLISHED-TTL:${CALENDAR_REFRESH}`,
  ];
  const alarms = options.alarms ?? CALENDAR_ALARMS.defaultDays;
  for (const entry of entries) {
    const title = entryTitle(entry);
    lines.push(
      "BEGIN:VEVENT",
      `UID:${eventKey(entry, ".")}@${host}`,
      `SEQUENCE:${revisionOf(catalogue.eventDates.get(eventKey(entry, ".")), entry.sunsetDate!)}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;VALUE=DATE:${icsDate(entry.sunsetDate!)}`,
      `DTEND;VALUE=DATE:${icsDate(addDays(entry.sunsetDate!, 1))}`,
      `SUMMARY:${icsText(title)}`,
      `DESCRIPTION:${icsText(entrySummary(catalogue, entry))}`,
      `URL:${entry.url}`,
      `CATEGORIES:${icsText(entry.status)}`,
      "TRANSP:TRANSPARENT",
      ...alarms
        .filter((days) => addDays(entry.sunsetDate!, -days) >= asOf)
        .flatMap((days) => icsAlarm(days, alarmText(title, days))),
      "END:VEVENT",
    );
  }
  // RFC 5545 §3.6 requires at least one component. With no dated service (a saved list of undated
  // services), the calendar carries a VTIMEZONE defining UTC: a component every parser accepts and
  // no client shows, so the calendar stays truthfully empty. Not an informational VEVENT (it would
  // claim a day), not a VTODO or VJOURNAL (clients list those as tasks or notes). Our values are
  // all UTC or floating dates, so the definition contradicts nothing.
  if (entries.length === 0) lines.push(...UTC_TIMEZONE);
  lines.push("END:VCALENDAR");
  return `${lines.map(foldLine).join("\r\n")}\r\n`;
}
