/**
 * What a request-dependent page was asked for, read from its URL's query: the same reading for the
 * text host's Markdown and ANSI answers and for the site's pages rendered on demand
 * (site/src/pages/on-demand/), so the two renderings of one URL never disagree.
 */
import { LIST_LIFETIME_DAYS, MAX_APPROVED_IDS, MAX_TEXT_COMPARE_SHOWN, TEXT_SEARCH_RESULTS } from "../base/limits.ts";
import { readList } from "../contract/read-list.ts";
import { StoreUnavailableError, type RecordStore } from "../contract/ports.ts";
import type { StoredList } from "../lists/lists.ts";
import type { Catalogue } from "../load/load.ts";
import { listServices } from "../search/query.ts";
import { lifecycleLabel, searchHref } from "../render/pages.ts";
import type { ServiceListT } from "../schema/index.ts";
import { HttpError } from "../base/problem.ts";
import { unknownParameters } from "../schema/unknown-keys.ts";
import { matrixFilters, SERVICES_QUERY, siteFilters, textFilterNames } from "../search/filter-table.ts";
import { LIFECYCLE_FILTER_VALUES } from "../search/filter-values.ts";
import { COMPLIANCE_SCOPE_LABELS } from "../compliance/compliance.ts";
import { COMPLIANCE_FILTER_SCOPES } from "../schema/vocabulary.ts";
import { invalid } from "../contract/run.ts";

/** Every value of `name`, repeated keys and comma-separated lists alike, trimmed, blanks dropped. */
export function listParam(params: URLSearchParams, name: string, max = 40): string[] {
  return params
    .getAll(name)
    .flatMap((value) => value.split(","))
    .map((value) => value.trim().slice(0, 100))
    .filter(Boolean)
    .slice(0, max);
}

/** The first value of `name`, trimmed; undefined when blank. */
export function textParam(params: URLSearchParams, name: string): string | undefined {
  return params.get(name)?.trim().slice(0, 200) || undefined;
}

export { searchHref };

export interface SearchRequest {
  /** The words searched for ("" when none). */
  readonly query: string;
  /**
   * The filters chosen (every row of the filter table the text host takes, search/filter-table.ts),
   * each as read: ids for names given ("AWS" → aws), places as given.
   */
  readonly filters: Readonly<Record<string, string>>;
  readonly found: ServiceListT;
  /** The page of results shown (1-based; `limit` a page, TEXT_SEARCH_RESULTS by default) and how many there are. */
  readonly page: number;
  readonly pages: number;
  /** What the search understood, in words ("" when nothing to say). */
  readonly hint: string;
  /** A respelt query to offer as a link ("Did you mean …?"), when a word was respelt. */
  readonly didYouMean?: string;
  /** The column the page's rows are sorted by (?sort=, ?dir=), when one was asked; else the API's order. */
  readonly sort?: { readonly sort: SearchSort; readonly dir: "asc" | "desc" };
}

/** What the search understood, in words: names read as ids, nothing found, or only the closest matches. */
function searchHint(found: ServiceListT): string {
  const read = (found.filtersRead ?? []).map(({ parameter, given, value }) => `${parameter} "${given}" as ${value}`);
  return [
    read.length > 0 ? `Read ${read.join(", ")}.` : "",
    found.pagination.total === 0 ? "Nothing in the catalogue matches; try another name or fewer words." : "",
    found.search?.closest && found.pagination.total > 0 ? "No service matches every word; these are the closest." : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/** The text host's own parameters of every page (the rendering and the terminal's width), beside a page's filters. */
export const TEXT_PAGE_PARAMETERS: readonly string[] = ["format", "color", "width"];

/**
 * The search page's columns, by which its rows may be sorted (?sort=provider&dir=desc): the page's
 * own presentation, not a filter (the API orders by relevance); the page sorts the rows it shows.
 */
export const SEARCH_SORTS = ["service", "provider", "category", "lifecycle", "jurisdiction", "free-tier"] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
/**
 * What the site's forms send beside their fields (via=form): an HTML form sends every control, an
 * untouched one empty, so a form's empty field means "not chosen"; anywhere else an empty filter is
 * refused as the API refuses it (issue 123). The one exception, and said so in the URL.
 */
export const FORM_MARKER = { name: "via", value: "form" } as const;

/** The parameters as a page reads them: a form's empty fields (FORM_MARKER) left out, the marker too. */
export function formParams(params: URLSearchParams): URLSearchParams {
  if (params.get(FORM_MARKER.name) !== FORM_MARKER.value) return params;
  return new URLSearchParams([...params].filter(([name, value]) => name !== FORM_MARKER.name && value.trim() !== ""));
}

/** The search page's own parameters beside the filters: the rendering's, and the sort. */
export const SEARCH_PAGE_PARAMETERS: readonly string[] = [...TEXT_PAGE_PARAMETERS, "sort", "dir"];

/** A row's value in a sort column, as the page shows it. */
export function sortValue(catalogue: Catalogue, service: ServiceListT["data"][number], sort: SearchSort): string {
  const record = catalogue.providerById.get(service.providerId);
  switch (sort) {
    case "service":
      return service.name;
    case "provider":
      return record?.provider.shortName ?? service.providerId;
    case "category":
      return catalogue.categoryById.get(service.category)?.name ?? service.category;
    case "lifecycle":
      return lifecycleLabel(service.lifecycle);
    case "jurisdiction":
      return record?.file.jurisdiction ?? "";
    case "free-tier":
      return service.hasFreeTier ? "yes" : "no";
  }
}

/** ?sort= and ?dir= of the search page: a column and a direction, or undefined; another value is a 400. */
function sortOf(params: URLSearchParams): { sort: SearchSort; dir: "asc" | "desc" } | undefined {
  const sort = params.get("sort");
  const dir = params.get("dir") ?? "asc";
  if (sort === null) return undefined;
  const column = SEARCH_SORTS.find((name) => name === sort);
  if (!column || (dir !== "asc" && dir !== "desc"))
    throw new HttpError(
      400,
      "Invalid query",
      `sort: one of ${SEARCH_SORTS.join(", ")}, with dir asc or desc; "${sort.slice(0, 40)}", "${dir.slice(0, 10)}" was given`,
    );
  return { sort: column, dir };
}

/** A page's parameters as one object, a repeated one joined with commas (the no-JS forms' checkboxes). */
const paramsOf = (params: URLSearchParams, names: readonly string[]): Record<string, string> =>
  Object.fromEntries(names.flatMap((name) => (params.has(name) ? [[name, params.getAll(name).join(",")]] : [])));

/**
 * The filters as the answer shows them: each value given by a name written as the id it was read
 * as (filtersRead), so links and the form keep the reading.
 */
function shownFilters(raw: Readonly<Record<string, string>>, found: ServiceListT): Record<string, string> {
  const read = found.filtersRead ?? [];
  return Object.fromEntries(
    Object.entries(raw).map(([name, value]) => [
      name,
      value
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean)
        .map((item) => read.find((note) => note.parameter === name && note.given === item)?.value ?? item)
        .join(","),
    ]),
  );
}

/**
 * /search?q=…&<every filter of GET /v1/services>: the API's filters read as the API reads them (the
 * filter table's rows; an unknown or empty value, or a parameter the page does not take, the API's
 * 400), the API's ranking, `limit` results a page (TEXT_SEARCH_RESULTS by default); a place filter
 * lists provider-level services apart, as the API does.
 */
export function searchRequest(catalogue: Catalogue, given: URLSearchParams): SearchRequest {
  const params = formParams(given);
  const names = textFilterNames("services");
  const unknown = [...new Set(params.keys())].filter(
    (name) => !names.includes(name) && !SEARCH_PAGE_PARAMETERS.includes(name),
  );
  const sorted = sortOf(params);
  if (unknown.length > 0) throw new HttpError(400, "Invalid query", `query: ${unknownParameters(unknown, names)}`);
  const { q: words, page: pageRaw, limit: limitRaw, ...raw } = paramsOf(params, names);
  const query = words?.trim().slice(0, 200) ?? "";
  const parsed = SERVICES_QUERY.safeParse({ ...raw, page: pageRaw ?? "1", limit: limitRaw ?? TEXT_SEARCH_RESULTS });
  if (!parsed.success) throw invalid(parsed.error, "query");
  const limit = parsed.data.limit;
  const search = (page: number) =>
    listServices(catalogue, { ...parsed.data, ...(query ? { q: query } : {}), page, limit });
  const asked = Math.min(1000, parsed.data.page);
  const answer = search(asked);
  const pages = Math.max(1, Math.ceil(answer.pagination.total / limit));
  // Searched again only for a page past the last, which shows the last.
  const page = Math.min(asked, pages);
  const unsorted = page === asked ? answer : search(page);
  const found = sorted ? { ...unsorted, data: sortRows(catalogue, unsorted.data, sorted) } : unsorted;
  const didYouMean = found.search?.didYouMean;
  const filters = {
    ...shownFilters(raw, found),
    ...(limitRaw !== undefined && limit !== TEXT_SEARCH_RESULTS ? { limit: String(limit) } : {}),
  };
  return {
    query,
    filters,
    found,
    page,
    pages,
    hint: searchHint(found),
    ...(didYouMean ? { didYouMean } : {}),
    ...(sorted ? { sort: sorted } : {}),
  };
}

/** The page's rows by a column, in English order ("v10" after "v9"); ties keep the API's order. */
function sortRows(
  catalogue: Catalogue,
  rows: ServiceListT["data"],
  { sort, dir }: { sort: SearchSort; dir: "asc" | "desc" },
): ServiceListT["data"] {
  const sign = dir === "desc" ? -1 : 1;
  return [...rows].sort(
    (a, b) =>
      sign * sortValue(catalogue, a, sort).localeCompare(sortValue(catalogue, b, sort), "en", { numeric: true }),
  );
}

/** Whether a search request asks anything: words, or a filter. */
export const searchAsks = (request: Pick<SearchRequest, "query" | "filters"> | undefined): boolean =>
  Boolean(request && (request.query || Object.keys(request.filters).some((name) => name !== "limit")));

export interface CompareRequest {
  /** The ids asked for, deduplicated, in order. */
  readonly asked: readonly string[];
  /** Those the catalogue knows, as many as are shown. */
  readonly known: readonly string[];
  /** Unknown ids named, and how many are shown ("" when nothing to say). */
  readonly note: string;
}

/** A comparison of `ids` (from /compare/a,b or ?ids=): what is compared and a note on the rest. */
export function compareRequest(catalogue: Catalogue, ids: readonly string[]): CompareRequest {
  const asked = [...new Set(ids.map((value) => value.trim()).filter(Boolean))].slice(0, 50);
  const known = asked.filter((slug) => catalogue.bySlug.has(slug)).slice(0, MAX_TEXT_COMPARE_SHOWN);
  const unknown = asked.filter((slug) => !catalogue.bySlug.has(slug));
  const note = [
    // Worded as the site's script words it, which replaces this note once it runs.
    unknown.length > 0
      ? `Not in the catalogue: ${unknown.join(", ").slice(0, 300)}.${known.length > 0 ? " Comparing the rest." : ""}`
      : "",
    asked.length - unknown.length > MAX_TEXT_COMPARE_SHOWN
      ? `Showing the first ${MAX_TEXT_COMPARE_SHOWN} services.`
      : "",
  ]
    .filter(Boolean)
    .join(" ");
  return { asked, known, note };
}

/**
 * /equivalents?providers=a,b&category=id: the matrix's chosen columns and category, ids and names
 * read as every filter reads them (the filter table's equivalents rows; an unknown one the 400).
 */
export function matrixRequest(
  catalogue: Catalogue,
  params: URLSearchParams,
): { providers: string[]; category: string | undefined } {
  const { providers, category } = matrixFilters(catalogue, params);
  return { providers, category };
}

/** The list builder's ?ids= (the form without JavaScript): the known ids once each, and the others. */
export function listBuilderRequest(
  catalogue: Catalogue,
  params: URLSearchParams,
): { known: string[]; unknown: string[] } {
  const asked = listParam(params, "ids", MAX_APPROVED_IDS);
  const known = [...new Set(asked.filter((id) => catalogue.bySlug.has(id)))];
  return { known, unknown: asked.filter((id) => !catalogue.bySlug.has(id)) };
}

/** The services a page that takes a list was given: ?ids=, else the saved list ?list= (issue 126). */
export interface AddressList {
  /** The known ids once each, in order. */
  readonly known: string[];
  /** Ids the catalogue does not know (a saved list may hold one it has since dropped). */
  readonly unknown: string[];
  /** The saved list ?list= named, read as the API reads it (the read renews it). */
  readonly saved?: StoredList;
  /** ?list= named no saved list (expired or never saved), or the store could not be reached. */
  readonly problem?: "missing" | "unavailable";
}

/**
 * What a page that takes a list (the builder, the scorecard, the exit planner) was given, so that it
 * is filled on the server and works without JavaScript: ?ids= when the address names services,
 * else the saved list ?list= names, read from the store as GET /v1/lists/{id} reads it.
 */
export async function addressList(
  catalogue: Catalogue,
  store: Pick<RecordStore, "getList" | "renewList">,
  params: URLSearchParams,
  now: Date,
): Promise<AddressList> {
  const id = textParam(params, "list");
  if (params.has("ids") || !id) return listBuilderRequest(catalogue, params);
  let saved: StoredList | undefined;
  try {
    saved = await readList(store, id, now);
  } catch (error) {
    if (error instanceof StoreUnavailableError) return { known: [], unknown: [], problem: "unavailable" };
    throw error;
  }
  if (!saved) return { known: [], unknown: [], problem: "missing" };
  const known = [...new Set(saved.approvedServiceIds.filter((slug) => catalogue.bySlug.has(slug)))];
  return { known, unknown: saved.approvedServiceIds.filter((slug) => !catalogue.bySlug.has(slug)), saved };
}

/** What a page says of a ?list= it could not read. */
export const ADDRESS_LIST_PROBLEM: Record<NonNullable<AddressList["problem"]>, string> = {
  missing: `No saved list has this address; lists expire ${LIST_LIFETIME_DAYS} days after they are saved or last read.`,
  unavailable: "Saved lists cannot be read right now; try again shortly.",
};
/** One control of the site's search form, from a row of the filter table (search/filter-table.ts). */
export interface SearchField {
  readonly name: string;
  readonly label: string;
  readonly control: "words" | "select" | "place" | "checkbox" | "paging";
  /** A select's choices ("" is the default, labelled `empty`), or a place's suggestions. */
  readonly options: readonly { readonly value: string; readonly label: string }[];
  readonly empty?: string;
  /** The value the request chose, as read (ids for names given). */
  readonly value: string;
}

/** What a place may be named in the picker: the metros, the countries with a region, EU, EEA, global. */
export function placeOptions(catalogue: Catalogue): { value: string; label: string }[] {
  const name = (code: string) => {
    try {
      return new Intl.DisplayNames(["en"], { type: "region", fallback: "code" }).of(code) ?? code;
    } catch {
      return code;
    }
  };
  const countries = [
    ...new Set(catalogue.providers.flatMap((provider) => provider.regions?.map((r) => r.country) ?? [])),
  ];
  return [
    ...catalogue.metros.map((metro) => ({
      value: metro.name,
      label: `${metro.name}: ${metro.regions.length} regions`,
    })),
    { value: "EU", label: "EU: the 27 member states" },
    { value: "EEA", label: "EEA: the EU, Iceland, Liechtenstein, Norway" },
    ...countries
      .map((code) => ({ value: code, label: name(code) }))
      .sort((a, b) => a.label.localeCompare(b.label, "en")),
    { value: "global", label: "global: a vendor's global endpoint" },
  ];
}

/**
 * The site's search form, control by control, generated from the filter table's services rows that
 * the site takes (their `site` control), each with its vocabulary's choices and the request's value:
 * the form then sends the API's parameters, whatever the table holds.
 */
export function searchFields(catalogue: Catalogue, request: SearchRequest | undefined): SearchField[] {
  const chosen = (name: string) => (name === "q" ? (request?.query ?? "") : (request?.filters[name] ?? ""));
  const choices = (name: string): { options: { value: string; label: string }[]; empty?: string } => {
    switch (name) {
      case "provider":
        return {
          options: [...catalogue.providers]
            .sort((a, b) => a.shortName.localeCompare(b.shortName, "en"))
            .map((p) => ({ value: p.id, label: p.shortName })),
        };
      case "category":
        return { options: catalogue.categories.map((c) => ({ value: c.id, label: c.name })) };
      case "lifecycle":
        return { options: LIFECYCLE_FILTER_VALUES.map((value) => ({ value, label: value })) };
      case "compliance":
        return { options: [...catalogue.compliance].map(([value, label]) => ({ value, label })) };
      case "complianceScope":
        // Own by default; provider-wide holdings only when asked (docs/decisions.md#compliance-own).
        return {
          empty: COMPLIANCE_SCOPE_LABELS.own,
          options: COMPLIANCE_FILTER_SCOPES.filter((scope) => scope !== "own").map((value) => ({
            value,
            label: COMPLIANCE_SCOPE_LABELS[value],
          })),
        };
      case "jurisdiction":
        return {
          options: [...new Set(catalogue.providers.flatMap(({ jurisdiction }) => (jurisdiction ? [jurisdiction] : [])))]
            .sort()
            .map((value) => ({ value, label: value === "EU" ? "EU (an EU/EEA state)" : value })),
        };
      case "region":
        return { options: placeOptions(catalogue) };
      default:
        return { options: [] };
    }
  };
  return siteFilters("services").map(({ name, label, control }) => {
    const { options, empty } = choices(name);
    const value = chosen(name);
    // A value the choices lack (a list, provider=aws,gcp): offered as it is, so the form sends it again.
    const kept = control === "select" && value && !options.some((option) => option.value === value);
    return {
      name,
      label,
      control,
      options: kept ? [...options, { value, label: value }] : options,
      ...(empty ? { empty } : {}),
      value,
    };
  });
}
