/**
 * One parameter, one row (STYLE §33; issue 123): every query parameter of GET /v1/services,
 * GET /v1/lifecycle, GET /v1/exposure and the text host's equivalence matrix, declared once — its
 * name, the API's schema (type and description, which OpenAPI shows), what its values read (a
 * vocabulary of ids and names, places, slugs, words, a number), how an unknown or empty value is
 * refused, and how each face takes it: the API's query (`filterQuery`), the text host's pages
 * (`textFilterNames`), the site's search form (`siteFilters`) and the MCP tools' arguments
 * (`mcpFilterInput`, `mcpFilterQuery`). A face that ignores a parameter is then impossible to
 * write by accident; tests/sidecar/filter-table.test.ts asks every row of every face.
 */
import { z } from "zod";
import { MAX_APPROVED_IDS, MAX_EXPOSURE_IDS, MAX_ID_LENGTH, MAX_URL_LENGTH } from "../base/limits.ts";
import type { ErrorTitle } from "../base/error-catalogue.ts";
import { HttpError } from "../base/problem.ts";
import type { Catalogue } from "../load/load.ts";
import type { Place } from "../locations/places.ts";
import {
  idListPattern,
  LifecycleQuery,
  placesShaped,
  ServicesQuery,
  type LifecycleQueryT,
} from "../schema/requests.ts";
import { COMPLIANCE_FILTER_SCOPES, type ComplianceFilterScope } from "../schema/vocabulary.ts";
import { emptyFilter, filterItems, readFilter, type FilterNote, type FilterVocabulary } from "./filter-values.ts";
import { placesOf } from "./location-filters.ts";
import { parseIdList } from "./ids.ts";

export type FilterEndpoint = "services" | "lifecycle" | "exposure" | "equivalents";
export const FILTER_FACES = ["api", "text", "site", "mcp"] as const;
export type FilterFace = (typeof FILTER_FACES)[number];

/** What a parameter's value reads. */
export type FilterReads = FilterVocabulary | "places" | "slugs" | "words" | "number" | "flag" | "choices" | "days";

/** A face that does not take a parameter says why (a test reads it); `true` takes it as the API does. */
type Omitted = { readonly omitted: string };

export interface FilterRow {
  readonly name: string;
  readonly endpoint: FilterEndpoint;
  /** The API's schema (its description is the parameter's in OpenAPI); absent where only pages take it. */
  readonly api?: z.ZodType;
  readonly reads: FilterReads;
  /** The 400's title for an unknown value ("Invalid query" where the value's form is wrong). */
  readonly unknown: ErrorTitle;
  /** An empty value (`?region=`) is a 400: every filter; not q (no words) nor page and limit (defaults). */
  readonly refusesEmpty: boolean;
  readonly text: true | Omitted;
  /** The site's control for it on its page (search, exposure, matrix). */
  readonly site:
    { readonly control: "words" | "select" | "place" | "checkbox" | "paging"; readonly label: string } | Omitted;
  /** The MCP argument: its name and JSON schema (lists as arrays, flags as booleans). */
  readonly mcp: { readonly argument: string; readonly schema: z.ZodType } | Omitted;
}

/** search_services's page size: the API pages up to 200; 25 rows are what fit beside an assistant's work. */
export const MCP_SEARCH_LIMIT = { default: 20, max: 25 } as const;

/** Values of one list filter an MCP argument takes: more than a vocabulary holds is a mistake. */
export const MAX_LIST_FILTER = 64;
const names = (description: string) =>
  z.array(z.string().min(1).max(MAX_ID_LENGTH)).min(1).max(MAX_LIST_FILTER).optional().meta({ description });
const oneName = (description: string) => z.string().min(1).max(MAX_ID_LENGTH).optional().meta({ description });

const Q = ServicesQuery.shape;
const L = LifecycleQuery.shape;

const SERVICES: readonly FilterRow[] = [
  {
    name: "provider",
    endpoint: "services",
    api: Q.provider,
    reads: "providers",
    unknown: "Unknown provider",
    refusesEmpty: true,
    text: true,
    site: { control: "select", label: "Provider" },
    mcp: {
      argument: "provider",
      schema: oneName(
        'Provider id (aws, azure, gcp, ovhcloud, …) or its name ("Amazon", "Google Cloud", "OVH" resolve), or several comma-separated; an unknown one is refused with the nearest',
      ),
    },
  },
  {
    name: "category",
    endpoint: "services",
    api: Q.category,
    reads: "categories",
    unknown: "Unknown category",
    refusesEmpty: true,
    text: true,
    site: { control: "select", label: "Category" },
    mcp: {
      argument: "category",
      schema: oneName(
        'Category id (e.g. storage, databases, security-identity) or its name ("identity" resolves); an unknown one is refused with the nearest',
      ),
    },
  },
  {
    name: "q",
    endpoint: "services",
    api: Q.q,
    reads: "words",
    unknown: "Invalid query",
    refusesEmpty: false,
    text: true,
    site: { control: "words", label: "Search services" },
    mcp: {
      argument: "query",
      schema: z.string().max(MAX_URL_LENGTH).optional().meta({ description: Q.q.description! }),
    },
  },
  {
    name: "freeTier",
    endpoint: "services",
    api: Q.freeTier,
    reads: "flag",
    unknown: "Invalid query",
    refusesEmpty: true,
    text: true,
    site: { control: "checkbox", label: "Free tier" },
    mcp: {
      argument: "freeTier",
      schema: z.boolean().optional().meta({ description: "true: only services with a free tier" }),
    },
  },
  {
    name: "lifecycle",
    endpoint: "services",
    api: Q.lifecycle,
    reads: "lifecycle",
    unknown: "Invalid query",
    refusesEmpty: true,
    text: true,
    site: { control: "select", label: "Lifecycle" },
    mcp: { argument: "lifecycle", schema: oneName(Q.lifecycle.description!) },
  },
  {
    name: "compliance",
    endpoint: "services",
    api: Q.compliance,
    reads: "compliance",
    unknown: "Unknown compliance programme",
    refusesEmpty: true,
    text: true,
    site: { control: "select", label: "Compliance" },
    mcp: {
      argument: "compliance",
      schema: names(
        'Compliance programme ids or names, case-insensitive (e.g. ["secnumcloud"], ["c5", "hds"]): only services a provider-published scope list names for every one of them (complianceScope widens it to provider-wide holdings; compliance.counts gives both); an unknown one is refused with the nearest',
      ),
    },
  },
  {
    name: "complianceScope",
    endpoint: "services",
    api: Q.complianceScope,
    reads: "complianceScope",
    unknown: "Invalid query",
    refusesEmpty: true,
    text: true,
    site: { control: "select", label: "Held" },
    mcp: {
      argument: "complianceScope",
      schema: z.enum(COMPLIANCE_FILTER_SCOPES).optional().meta({ description: Q.complianceScope.description! }),
    },
  },
  {
    name: "jurisdiction",
    endpoint: "services",
    api: Q.jurisdiction,
    reads: "jurisdictions",
    unknown: "Unknown jurisdiction",
    refusesEmpty: true,
    text: true,
    site: { control: "select", label: "Jurisdiction" },
    mcp: {
      argument: "jurisdiction",
      schema: names(
        'Head-office jurisdictions as the catalogue records them (ISO 3166-1 alpha-2, EU for an EU/EEA member state) or their names (Switzerland, European Union), case-insensitive, e.g. ["EU", "CH"]: only services of providers in any of them; an unknown one is refused with the nearest',
      ),
    },
  },
  {
    name: "region",
    endpoint: "services",
    api: Q.region,
    reads: "places",
    unknown: "Unknown region",
    refusesEmpty: true,
    text: true,
    site: { control: "place", label: "Region or place" },
    mcp: {
      argument: "region",
      schema: names(
        'Places, case-insensitive: region ids (e.g. ["eu-central-1"]; provider:region for one named like a group, country or metro, e.g. "heroku:eu"), country codes or names, "EU", "EEA", vendors\' multi-regions ("NAM4", "gcp:US"), metro areas by name ("Frankfurt") or "global": only services that run there by their own regions or are global there; services whose own regions are not known are listed apart in places.providerLevel; an unknown place is refused with the nearest',
      ),
    },
  },
  {
    name: "country",
    endpoint: "services",
    api: Q.country,
    reads: "places",
    unknown: "Unknown country",
    refusesEmpty: true,
    text: true,
    // The site's one place picker writes region=, which takes countries too; a country= of a URL is kept.
    site: { omitted: "the place picker (region=) takes countries; a URL's country= is carried as it is" },
    mcp: {
      argument: "country",
      schema: names(
        'Countries (ISO 3166-1 alpha-2 or a name, e.g. ["DE"], ["Germany"]) or any place region takes: only services running there, read as region is; both given, each must hold; an unknown place is refused with the nearest',
      ),
    },
  },
  {
    name: "page",
    endpoint: "services",
    api: Q.page,
    reads: "number",
    unknown: "Invalid query",
    refusesEmpty: false,
    text: true,
    site: { control: "paging", label: "Page" },
    mcp: { argument: "page", schema: Q.page },
  },
  {
    name: "limit",
    endpoint: "services",
    api: Q.limit,
    reads: "number",
    unknown: "Invalid query",
    refusesEmpty: false,
    text: true,
    site: { omitted: "the page shows twenty at a time, with More results and page links" },
    // 25 rows are what fit beside an assistant's work (mcp/fit.ts); the API pages up to 200.
    mcp: {
      argument: "limit",
      schema: z
        .number()
        .int()
        .min(1)
        .max(MCP_SEARCH_LIMIT.max)
        .default(MCP_SEARCH_LIMIT.default)
        .meta({
          description: `Page size, 1 to ${MCP_SEARCH_LIMIT.max} (default ${MCP_SEARCH_LIMIT.default}); page for more`,
        }),
    },
  },
];

const LIFECYCLE: readonly FilterRow[] = [
  {
    name: "within",
    endpoint: "lifecycle",
    api: L.within,
    reads: "days",
    unknown: "Invalid query",
    refusesEmpty: true,
    text: true,
    site: { control: "select", label: "Within" },
    mcp: { argument: "withinDays", schema: z.number().int().min(0).optional() },
  },
  {
    name: "status",
    endpoint: "lifecycle",
    api: L.status,
    reads: "choices",
    unknown: "Invalid query",
    refusesEmpty: true,
    text: true,
    site: { control: "select", label: "Status" },
    mcp: { argument: "status", schema: L.status },
  },
  {
    name: "provider",
    endpoint: "lifecycle",
    api: L.provider,
    reads: "providers",
    unknown: "Unknown provider",
    refusesEmpty: true,
    text: true,
    site: { control: "select", label: "Provider" },
    mcp: { argument: "provider", schema: oneName("Provider id or name, or several comma-separated") },
  },
  {
    name: "ids",
    endpoint: "lifecycle",
    api: L.ids,
    reads: "slugs",
    unknown: "Unknown service ids",
    refusesEmpty: true,
    text: true,
    site: { omitted: "the lifecycle page lists every service; a saved list's calendar takes its ids" },
    mcp: { argument: "ids", schema: names("Only these services' entries: slugs") },
  },
  {
    name: "kind",
    endpoint: "lifecycle",
    api: L.kind,
    reads: "choices",
    unknown: "Invalid query",
    refusesEmpty: true,
    text: true,
    site: { control: "select", label: "Kind" },
    mcp: { argument: "kind", schema: L.kind },
  },
];

/** The text renderings of /exposure point to the API; the scorecard itself is the site's page (site face). */
const EXPOSURE_TEXT =
  "the scorecard is a page of the site (its face reads ids and regions); the text renderings of /exposure point to GET /v1/exposure";

/** A comma-separated list of service slugs, as compare and exposure take it. */
export const slugList = (max: number) =>
  z.string().meta({
    description: `Comma-separated service slugs (1 to ${max}, duplicates counted); trimmed, empty items and duplicates dropped`,
    example: "aws-s3,gcp-cloud-storage",
    pattern: idListPattern(max),
  });

const EXPOSURE: readonly FilterRow[] = [
  {
    name: "ids",
    endpoint: "exposure",
    api: slugList(MAX_EXPOSURE_IDS),
    reads: "slugs",
    unknown: "Unknown service ids",
    refusesEmpty: true,
    text: { omitted: EXPOSURE_TEXT },
    site: { control: "select", label: "Services" },
    mcp: { argument: "ids", schema: names("Service slugs") },
  },
  {
    name: "regions",
    endpoint: "exposure",
    api: placesShaped().meta({
      description:
        "Where the data sits: places, comma-separated, case-insensitive: region ids (provider:region for one named like a group, a country or a metro, e.g. heroku:eu), ISO country codes or country names, EU, EEA, vendors' multi-regions (NAM4, EUR4, gcp:US), metro areas by name (Frankfurt; since 1.13.0) or global (since 1.11.0; every kind of place since 1.12.0). Each regional service's regionCountries become the countries of the asked regions it runs in (dataRegions); a global service's are those of the region its vendor names for it (placement global); a provider-level service, whose own regions are not known, is listed apart in providerLevel with its provider's regions there as possibleRegions. byRegionCountry counts them, notInRegions names services in none; the jurisdiction figures do not change, an operator whose region's entity the catalogue cannot name is not named, and the disclaimer says the parent company's jurisdiction still reaches the data. An unknown place is a 400 Unknown region naming the nearest; an empty one a 400 (since 1.13.0)",
      example: "EU,eusc-de-east-1",
    }),
    reads: "places",
    unknown: "Unknown region",
    refusesEmpty: true,
    text: { omitted: EXPOSURE_TEXT },
    site: { control: "place", label: "Where the data sits" },
    mcp: { argument: "regions", schema: names("Where the data sits: places") },
  },
];

const EQUIVALENTS: readonly FilterRow[] = [
  {
    name: "providers",
    endpoint: "equivalents",
    reads: "providers",
    unknown: "Unknown provider",
    refusesEmpty: true,
    text: true,
    site: { control: "select", label: "Providers" },
    mcp: { omitted: "get_service answers a service's equivalents (equivalentsProviders); the matrix is a page" },
  },
  {
    name: "category",
    endpoint: "equivalents",
    reads: "categories",
    unknown: "Unknown category",
    refusesEmpty: true,
    text: true,
    site: { control: "select", label: "Category" },
    mcp: { omitted: "the matrix is a page; search_services takes category" },
  },
];

/** Every row, by endpoint. */
export const FILTER_TABLE: Readonly<Record<FilterEndpoint, readonly FilterRow[]>> = {
  services: SERVICES,
  lifecycle: LIFECYCLE,
  exposure: EXPOSURE,
  equivalents: EQUIVALENTS,
};

/** Whether a face takes the row. */
export function takes(row: FilterRow, face: FilterFace): boolean {
  if (face === "api") return row.api !== undefined;
  const spec = face === "text" ? row.text : face === "site" ? row.site : row.mcp;
  return spec === true || !("omitted" in spec);
}

/** The API's query schema of an endpoint, from its rows. */
export function filterQuery(endpoint: FilterEndpoint) {
  const shape: Record<string, z.ZodType> = {};
  for (const row of FILTER_TABLE[endpoint]) if (row.api) shape[row.name] = row.api;
  return z.object(shape);
}

/**
 * The API's queries, from the rows: GET /v1/services's and GET /v1/exposure's (each row's schema is
 * the one named in its row, so the object is the one the contract declares, typed as such;
 * tests/sidecar/filter-table.test.ts holds them equal).
 */
export const SERVICES_QUERY = filterQuery("services") as unknown as typeof ServicesQuery;
export const EXPOSURE_QUERY = filterQuery("exposure") as unknown as z.ZodObject<{
  ids: ReturnType<typeof slugList>;
  regions: z.ZodOptional<z.ZodString>;
}>;

/** The parameters a text host page of the endpoint reads, in the table's order. */
export const textFilterNames = (endpoint: FilterEndpoint): string[] =>
  FILTER_TABLE[endpoint].filter((row) => row.text === true).map((row) => row.name);

/** The site's controls of an endpoint's page, in the table's order. */
export const siteFilters = (endpoint: FilterEndpoint) =>
  FILTER_TABLE[endpoint].flatMap((row) => ("control" in row.site ? [{ name: row.name, ...row.site }] : []));

/** An MCP tool's arguments for an endpoint's rows (its own arguments beside them are the tool's). */
export function mcpFilterInput(endpoint: FilterEndpoint): Record<string, z.ZodType> {
  return Object.fromEntries(
    FILTER_TABLE[endpoint].flatMap((row) => ("argument" in row.mcp ? [[row.mcp.argument, row.mcp.schema]] : [])),
  );
}

/** An MCP tool's arguments as the API's query: lists joined with commas, flags as words, arguments by parameter name. */
export function mcpFilterQuery(
  endpoint: FilterEndpoint,
  args: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const query: Record<string, string> = {};
  for (const row of FILTER_TABLE[endpoint]) {
    if (!("argument" in row.mcp)) continue;
    const value = args[row.mcp.argument];
    if (value === undefined) continue;
    // Arguments are strings, numbers or booleans (the rows' MCP schemas); anything else as JSON.
    const word = (item: unknown) =>
      typeof item === "string" || typeof item === "number" || typeof item === "boolean"
        ? String(item)
        : JSON.stringify(item);
    query[row.name] = Array.isArray(value)
      ? value.map(word).join(",")
      : row.reads === "days"
        ? `${word(value)}d`
        : word(value);
  }
  return query;
}

/** GET /v1/services's filters as read: each vocabulary's ids, the places, and the names read as ids. */
export interface ServiceFilters {
  readonly providers?: ReadonlySet<string>;
  readonly categories?: ReadonlySet<string>;
  readonly lifecycle?: ReadonlySet<string>;
  readonly compliance: readonly string[];
  readonly complianceScope?: ComplianceFilterScope;
  readonly jurisdictions?: ReadonlySet<string>;
  readonly regions: readonly Place[];
  readonly countries: readonly Place[];
  readonly notes: readonly FilterNote[];
}

/** A place filter's values, every item a place (an empty one is the 400 every filter answers). */
function placeFilter(catalogue: Catalogue, raw: string | undefined, row: FilterRow): Place[] {
  if (raw === undefined) return [];
  const title = row.unknown === "Unknown country" ? "Unknown country" : "Unknown region";
  return placesOf(catalogue, filterItems(raw, row.name), row.name, title);
}

/** Reads GET /v1/services's filters as the table's rows say; a 400 for an unknown or empty value. */
export function readServiceFilters(
  catalogue: Catalogue,
  query: Readonly<Record<string, string | boolean | number | undefined>>,
): ServiceFilters {
  const notes: FilterNote[] = [];
  const read: Record<string, ReadonlySet<string> | string[]> = {};
  const places: Record<string, Place[]> = {};
  for (const row of SERVICES) {
    const raw = query[row.name];
    if (raw === undefined || typeof raw !== "string") continue;
    if (row.reads === "places") places[row.name] = placeFilter(catalogue, raw, row);
    else if (row.reads === "words" || row.reads === "number" || row.reads === "flag") continue;
    else {
      const { values, notes: named } = readFilter(catalogue, row.reads as FilterVocabulary, raw, row.name);
      notes.push(...named);
      read[row.name] = row.name === "compliance" ? values : new Set(values);
    }
  }
  if (read.complianceScope && [...read.complianceScope].length > 1)
    throw new HttpError(400, "Invalid query", "complianceScope: one of own, provider or all, not a list");
  const scope = read.complianceScope ? [...read.complianceScope][0] : undefined;
  return {
    ...(read.provider ? { providers: read.provider as ReadonlySet<string> } : {}),
    ...(read.category ? { categories: read.category as ReadonlySet<string> } : {}),
    ...(read.lifecycle ? { lifecycle: read.lifecycle as ReadonlySet<string> } : {}),
    compliance: (read.compliance as string[] | undefined) ?? [],
    ...(scope ? { complianceScope: scope as ComplianceFilterScope } : {}),
    ...(read.jurisdiction ? { jurisdictions: read.jurisdiction as ReadonlySet<string> } : {}),
    regions: places.region ?? [],
    countries: places.country ?? [],
    notes,
  };
}

/** GET /v1/exposure's regions= (and the site's exposure page): the places, none when absent; empty refused. */
export function exposureRegions(catalogue: Catalogue, raw: string | undefined): Place[] | undefined {
  if (raw === undefined) return undefined;
  return placeFilter(catalogue, raw, EXPOSURE[1]!);
}

/** The text host's matrix (?providers=, ?category=): ids read as the services filters read them. */
export function matrixFilters(
  catalogue: Catalogue,
  params: URLSearchParams,
): { providers: string[]; category: string | undefined; notes: FilterNote[] } {
  const notes: FilterNote[] = [];
  const at = (name: string) => (params.has(name) ? params.getAll(name).join(",") : undefined);
  const providersRaw = at("providers");
  const categoryRaw = at("category");
  const providers = providersRaw === undefined ? [] : readFilter(catalogue, "providers", providersRaw, "providers");
  const category = categoryRaw === undefined ? undefined : readFilter(catalogue, "categories", categoryRaw, "category");
  if (category && category.values.length > 1)
    throw new HttpError(400, "Invalid query", "category: one category at a time for the matrix");
  if (!Array.isArray(providers)) notes.push(...providers.notes);
  if (category) notes.push(...category.notes);
  return {
    providers: Array.isArray(providers) ? [] : providers.values,
    category: category?.values[0],
    notes,
  };
}

/** GET /v1/lifecycle's query (and its feeds', and the text host's /lifecycle): provider names read as ids, ids as slugs. */
export function readLifecycleFilters<Q extends LifecycleQueryT>(
  catalogue: Catalogue,
  query: Q,
): { query: Q; slugs?: string[]; notes: FilterNote[] } {
  // Slugs are lower case: AWS-LAMBDA names aws-lambda (since 1.12.0). Read first: an empty list is
  // the list's own 400, before any provider is looked up.
  const slugs = query.ids === undefined ? undefined : parseIdList(catalogue, query.ids.toLowerCase(), MAX_APPROVED_IDS);
  const provider =
    query.provider === undefined ? undefined : readFilter(catalogue, "providers", query.provider, "provider");
  return {
    query: provider ? { ...query, provider: provider.values.join(",") } : query,
    ...(slugs ? { slugs } : {}),
    notes: provider?.notes ?? [],
  };
}

export { emptyFilter };
