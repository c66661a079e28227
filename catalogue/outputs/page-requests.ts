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
import { searchHref } from "../render/pages.ts";
import { COMPLIANCE_FILTER_SCOPES, type ComplianceFilterScope, type ServiceListT } from "../schema/index.ts";

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
   * The filters chosen: provider, category, lifecycle and the places region and country as given;
   * compliance and complianceScope as read.
   */
  readonly filters: Readonly<Record<string, string>>;
  readonly found: ServiceListT;
  /** The page of results shown (1-based; TEXT_SEARCH_RESULTS a page) and how many there are. */
  readonly page: number;
  readonly pages: number;
  /** What the search understood, in words ("" when nothing to say). */
  readonly hint: string;
  /** A respelt query to offer as a link ("Did you mean …?"), when a word was respelt. */
  readonly didYouMean?: string;
}

/** What the search understood, in words: nothing or only the closest matches (a respelling is a link of its own). */
function searchHint(found: ServiceListT): string {
  return [
    found.pagination.total === 0 ? "Nothing in the catalogue matches; try another name or fewer words." : "",
    found.search?.closest && found.pagination.total > 0 ? "No service matches every word; these are the closest." : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/**
 * The search form's compliance filter, as the API reads it: the known programmes of ?compliance=
 * (case-insensitive; an unknown one is named in the hint, not an error page) and ?complianceScope=
 * (own, provider or all; only with a programme). The form offers only known values.
 */
function complianceFilters(catalogue: Catalogue, params: URLSearchParams) {
  const asked = listParam(params, "compliance").map((id) => id.toLowerCase());
  const known = asked.filter((id) => catalogue.compliance.has(id));
  const unknown = asked.filter((id) => !catalogue.compliance.has(id));
  const scope = textParam(params, "complianceScope");
  const valid = COMPLIANCE_FILTER_SCOPES.find((value) => value === scope);
  return {
    filters: {
      ...(known.length > 0 ? { compliance: known.join(",") } : {}),
      ...(known.length > 0 && valid && valid !== "own" ? { complianceScope: valid } : {}),
    },
    unknown:
      unknown.length > 0 ? `Not a compliance programme the catalogue knows: ${unknown.join(", ").slice(0, 200)}.` : "",
  };
}

/**
 * /search?q=…&provider=…&category=…&lifecycle=…&region=…&country=…&compliance=…: the API's ranking,
 * its first TEXT_SEARCH_RESULTS; a place filter lists provider-level services apart, as the API does
 * (an unknown place is the API's 400).
 */
export function searchRequest(catalogue: Catalogue, params: URLSearchParams): SearchRequest {
  const query = textParam(params, "q") ?? "";
  const compliance = complianceFilters(catalogue, params);
  const filters: Record<string, string> = {
    ...Object.fromEntries(
      (["provider", "category", "lifecycle", "region", "country"] as const).flatMap((key) => {
        const value = textParam(params, key);
        return value ? [[key, value]] : [];
      }),
    ),
    ...compliance.filters,
  };
  // Paging without JavaScript: ?page=N, within the results (a page past the last shows the last).
  const asked = Math.max(1, Math.min(1000, Number.parseInt(textParam(params, "page") ?? "1", 10) || 1));
  const search = (page: number) =>
    listServices(catalogue, {
      ...(query ? { q: query } : {}),
      ...filters,
      complianceScope: filters.complianceScope as ComplianceFilterScope | undefined,
      page,
      limit: TEXT_SEARCH_RESULTS,
    });
  const answer = search(asked);
  const pages = Math.max(1, Math.ceil(answer.pagination.total / TEXT_SEARCH_RESULTS));
  // Searched again only for a page past the last, which shows the last.
  const page = Math.min(asked, pages);
  const found = page === asked ? answer : search(page);
  const didYouMean = found.search?.didYouMean;
  const hint = [compliance.unknown, searchHint(found)].filter(Boolean).join(" ");
  return { query, filters, found, page, pages, hint, ...(didYouMean ? { didYouMean } : {}) };
}

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

/** /equivalents?providers=a,b&category=id: the matrix's chosen columns and category. */
export function matrixRequest(params: URLSearchParams): { providers: string[]; category: string | undefined } {
  return { providers: listParam(params, "providers"), category: listParam(params, "category")[0] };
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
