/**
 * A service's plain fields as a table, as the page's sections are (render/sections.ts): one row a
 * field drives the data file's schema (data-files.ts ServiceEntry), the API's (resources.ts
 * Service, hence OpenAPI and the typed client), the loader's copy (load/assemble.ts), the
 * official-domain check of its URLs (load/entry-checks.ts, quality/community-sources.ts) and both
 * renderers' field lists (render/service-page.ts, site/src/components/service/Fields.astro).
 * Adding a field is one row here plus its data, and a line in the changelog entry of its `since`
 * version (tests/catalogue/service-fields.test.ts asks for it). Fields with rules of their own
 * (names, category, compliance, lifecycle, sources…) stay written out in those files.
 */
import { z } from "zod";
import { d, HttpsUrl, PRICING_MODELS, type OutboundKind } from "./vocabulary.ts";

/** How both renderers show a field: its label, and its value as text, a link, a list or a yes. */
export interface ServiceFieldShown {
  readonly label: string;
  readonly as: "text" | "link" | "list" | "yes";
  /** The site's `data-outbound` name for a link: a `kind` POST /v1/analytics/outbound accepts. */
  readonly outbound?: OutboundKind;
  /** What the site says when the field is absent; without it the site leaves the field out. */
  readonly missing?: string;
  /** The site shows it elsewhere on the page (not in the fields list). */
  readonly siteElsewhere?: true;
}

export interface ServiceFieldRow {
  /** The data file's schema for the field (validated by the loader). */
  readonly entry: z.ZodType;
  /** The API's schema, whose description lands in OpenAPI verbatim. */
  readonly api: z.ZodType;
  /** The contract version that added the field; its changelog entry names the field. */
  readonly since: `${number}.${number}.${number}`;
  /** A vendor URL: its host must be one of the provider's officialDomains. */
  readonly url?: true;
  /** Shown in both renderers' field lists, in the table's order. */
  readonly shown?: ServiceFieldShown;
}

// One row a field, in the order the API's Service and the renderers list them.
export const SERVICE_FIELDS = {
  description: {
    entry: z.string().min(1).optional(),
    api: z.string().optional().meta(d("One or two sentences on what it does")),
    since: "1.0.0",
  },
  logo: {
    entry: z.string().min(1).optional(),
    api: z.string().optional().meta(d("URL path to a logo")),
    since: "1.0.0",
  },
  pricingModel: {
    entry: z.enum(PRICING_MODELS).optional(),
    api: z.string().optional().meta(d("One of pay-as-you-go, subscription, free, included, quote")),
    since: "1.0.0",
    shown: { label: "Pricing model", as: "text", missing: "Not listed" },
  },
  hasFreeTier: {
    entry: z.boolean().optional(),
    api: z.boolean().optional().meta(d("True when the vendor offers a free tier; absent when not known to")),
    since: "1.0.0",
    shown: { label: "Free tier", as: "yes", missing: "Not listed" },
  },
  documentationUrl: {
    entry: HttpsUrl.optional(),
    api: z.string().optional().meta(d("Official documentation")),
    since: "1.0.0",
    url: true,
    shown: { label: "Documentation", as: "link", outbound: "documentation" },
  },
  pricingUrl: {
    entry: HttpsUrl.optional(),
    api: z.string().optional().meta(d("Official pricing page")),
    since: "1.0.0",
    url: true,
    shown: { label: "Pricing", as: "link", outbound: "pricing" },
  },
  aliases: {
    entry: z.array(z.string().min(1)).min(1).optional(),
    api: z
      .array(z.string())
      .optional()
      .meta(d("Other names people search for: the vendor's abbreviations and former names (e.g. EKS, GCS)")),
    since: "1.6.0",
  },
  tags: {
    entry: z.array(z.string().regex(/^[a-z0-9][a-z0-9 .+#/&-]*$/, "must be a lowercase keyword")).optional(),
    api: z.array(z.string()).optional().meta(d("Lowercase search keywords")),
    since: "1.0.0",
    shown: { label: "Tags", as: "list", siteElsewhere: true },
  },
} as const satisfies Readonly<Record<string, ServiceFieldRow>>;

export type ServiceFieldKey = keyof typeof SERVICE_FIELDS;
type Fields = typeof SERVICE_FIELDS;

/** The table's rows with their keys, in order. */
export const SERVICE_FIELD_ROWS = Object.entries(SERVICE_FIELDS).map(([key, row]) => ({
  key: key as ServiceFieldKey,
  ...(row as ServiceFieldRow),
}));

const shapeOf = <Side extends "entry" | "api">(side: Side) =>
  Object.fromEntries(SERVICE_FIELD_ROWS.map((row) => [row.key, row[side]])) as {
    [Key in ServiceFieldKey]: Fields[Key][Side];
  };

/** The data file's shape of the table's fields, spread into ServiceEntry. */
export const serviceEntryFields = () => shapeOf("entry");
/** The API's shape of the table's fields, spread into Service. */
export const serviceApiFields = () => shapeOf("api");

/** The table's fields of a data entry, copied into the API's Service as they are. */
export function copiedServiceFields<Entry extends { readonly [Key in ServiceFieldKey]?: unknown }>(
  entry: Entry,
): Pick<Entry, ServiceFieldKey> {
  return Object.fromEntries(SERVICE_FIELD_ROWS.map((row) => [row.key, entry[row.key]]));
}

/** The entry's vendor URLs of the table's `url` fields, with their field names. */
export function serviceFieldUrls(entry: { readonly [Key in ServiceFieldKey]?: unknown }): [string, string][] {
  return SERVICE_FIELD_ROWS.flatMap((row) => {
    const value = entry[row.key];
    return row.url && typeof value === "string" ? [[row.key, value] as [string, string]] : [];
  });
}

/** A shown field's value, as both renderers print it: undefined when absent (or false, for a yes). */
export function shownFieldValue(value: unknown, shown: ServiceFieldShown): string | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  if (shown.as === "yes") return "Yes";
  if (shown.as === "list") return Array.isArray(value) && value.length > 0 ? value.join(", ") : undefined;
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}
