/**
 * The one page table: every page of the text host and the site, with its path, the renderings it
 * answers in, what it reads, whether the build has it or a sidecar computes it, the files of
 * site/src/pages/ that render its HTML, and its sections. It drives the text host's routes
 * (sidecar/text/routes.ts gives each routed row its handler), the build's text pages and the path →
 * page lookup (static.ts `textPages`, `textPageFor`), nginx's text-host locations
 * (scripts/deploy-config.ts), and tests/catalogue/page-table.test.ts holds every site page file to a
 * row. The API's endpoints have their own table (contract/).
 */
import type { CachePolicy } from "../contract/endpoint.ts";
import { FILE_SEGMENT } from "../contract/endpoint.ts";
import { MAX_TEMPLATE_BODY_BYTES } from "../base/limits.ts";
import type { Catalogue } from "../load/load.ts";
import type { RecordStore } from "../contract/ports.ts";
import type { Doc } from "../format/doc.ts";
import { equivalentsDoc } from "../render/equivalents.ts";
import { categoryPage, homePage, lifecyclePage, providerPage } from "../render/pages.ts";
import { SERVICE_SECTIONS } from "../render/sections.ts";
import { servicePage } from "../render/service-page.ts";
import { PAGE_PATHS, servicePath, type PageId, type PublicUrls } from "../base/urls.ts";

export type PageFormat = "ansi" | "txt" | "md" | "html";

/**
 * Where a page's answer comes from, which decides nginx's location: `static` — the build has it
 * (nginx's generic location serves dist/text and the site, a sidecar what is missing);
 * `static+computed` — the build has the plain request's answer, a query is computed by a sidecar;
 * `computed` — always a sidecar.
 */
export type PageServing = "static" | "static+computed" | "computed";

/** The text pages the build writes for a row: one per key, each Doc made when asked. */
export interface BuiltTextPages {
  /** Every page: its key (the path without extension, e.g. "aws/s3") and its Doc. */
  readonly pages: (
    catalogue: Catalogue,
    /** The public URLs, for what a page offers at an absolute address (its calendar feeds: render/calendar.ts). */
    urls?: PublicUrls,
  ) => Iterable<{ readonly page: string; readonly doc: () => Doc }>;
  /** The key a request path names, from the row's `:params` (each a file segment); undefined for none. */
  readonly pageAt?: (catalogue: Catalogue, params: Readonly<Record<string, string>>) => string | undefined;
}

export interface PageRow {
  readonly id: string;
  /** Fastify's path (`:name` a segment, `*` the rest), from ../base/urls.ts; trailing slashes are ignored. */
  readonly path: string;
  /** GET answers HEAD too. */
  readonly methods: readonly ("GET" | "POST")[];
  /** The renderings it answers in (by Accept or ?format). */
  readonly formats: readonly PageFormat[];
  /** The rate-limit bucket it is counted in: the text host's page limit, or the API's relaxed or strict one. */
  readonly bucket: "text" | "relaxed" | "strict";
  /** Reads that find nothing (404) are counted in this API bucket (sidecar/plugins/miss-limit.ts). */
  readonly missBucket?: "misses";
  readonly cache: CachePolicy;
  readonly serving: PageServing;
  /** Takes a form-encoded body (the no-JavaScript forms). */
  readonly form?: boolean;
  /**
   * Reads its body as text, whatever its type, up to this many bytes (the deployment check: a
   * template posted as it is, which curl --data-binary labels form-encoded). A form row still.
   */
  readonly rawBodyLimit?: number;
  /** What the page reads to answer. */
  readonly reads: string;
  /** The files of site/src/pages/ that render its HTML face, prerendered or on demand. */
  readonly site: readonly string[];
  /** The text pages the build writes for it. */
  readonly text?: BuiltTextPages;
  /** Its sections in order, walked by both renderers (render/sections.ts). */
  readonly sections?: readonly string[];
}

const ALL: readonly PageFormat[] = ["ansi", "txt", "md", "html"];
const HTML: readonly PageFormat[] = ["html"];

const one = (page: string, doc: (catalogue: Catalogue, urls?: PublicUrls) => Doc): BuiltTextPages => ({
  pages: (catalogue, urls) => [{ page, doc: () => doc(catalogue, urls) }],
  pageAt: () => page,
});

/** The service a /{provider}/{service} path names: the slug with or without its provider prefix. */
function servicePageAt(catalogue: Catalogue, { provider, service: segment }: Readonly<Record<string, string>>) {
  if (!provider || !segment || !catalogue.providerById.has(provider)) return undefined;
  const slug = segment.startsWith(`${provider}-`) && catalogue.bySlug.has(segment) ? segment : `${provider}-${segment}`;
  const service = catalogue.bySlug.get(slug)?.service;
  return service && service.providerId === provider ? servicePath(service).slice(1) : undefined;
}

const CATEGORY_TEXT: BuiltTextPages = {
  pages: (catalogue) =>
    catalogue.categories.map((category) => ({
      page: `category/${category.id}`,
      doc: () => categoryPage(catalogue, category.id),
    })),
  pageAt: (catalogue, { id }) => (id && catalogue.categoryById.has(id) ? `category/${id}` : undefined),
};

const PROVIDER_TEXT: BuiltTextPages = {
  pages: (catalogue, urls) =>
    catalogue.providers.map((provider) => ({
      page: `${provider.id}/index`,
      doc: () => providerPage(catalogue, provider.id, urls),
    })),
  pageAt: (catalogue, { provider }) =>
    provider && catalogue.providerById.has(provider) ? `${provider}/index` : undefined,
};

const SERVICE_TEXT: BuiltTextPages = {
  pages: (catalogue) =>
    catalogue.services.map((service) => ({
      page: servicePath(service).slice(1),
      doc: () => servicePage(catalogue, service.slug),
    })),
  pageAt: servicePageAt,
};

/** The matrix with its default columns (GET /equivalents without a query), built like the rest. */
const EQUIVALENTS_TEXT: BuiltTextPages = {
  pages: (catalogue) => [{ page: "equivalents", doc: () => equivalentsDoc(catalogue, []) }],
};

/** A row's id and its path, which ../base/urls.ts keeps (a leaf, so every link is built from it). */
const at = <Id extends PageId>(id: Id) => ({ id, path: PAGE_PATHS[id] });

const SERVICE_SECTION_IDS = SERVICE_SECTIONS.map((section) => section.id);

// One row a page, read as a table. `static` rows are answered by `/*` (last, nginx's generic
// location); the others are the text host's own routes.
// prettier-ignore
export const PAGES = [
  { ...at("home"), methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static", reads: "the catalogue", site: ["index.astro"], text: one("index", homePage) },
  { ...at("lifecycle"), methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static", reads: "the catalogue; ?within, status, provider and kind filter the text renderings as of today", site: ["lifecycle.astro"], text: one("lifecycle", (catalogue, urls) => lifecyclePage(catalogue, undefined, {}, urls)) },
  { ...at("category"), methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static", reads: "the catalogue", site: ["category/[id].astro"], text: CATEGORY_TEXT },
  { ...at("provider"), methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static", reads: "the catalogue", site: ["[provider]/index.astro"], text: PROVIDER_TEXT },
  { ...at("service"), methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static", reads: "the catalogue", site: ["[provider]/[service].astro"], text: SERVICE_TEXT, sections: SERVICE_SECTION_IDS },
  { ...at("exit-planner"), methods: ["GET"], formats: ALL, bucket: "text", cache: "no-store", serving: "static+computed", reads: "the list in the browser's storage, planned there over /exit-catalogue.json; without JavaScript, the form's ?ids and target (?sovereignOption…), planned on the server; ?list, the saved list the form is filled with", site: ["list/exit.astro", "exit-catalogue.json.ts", "on-demand/doc.astro", "on-demand/exit.astro"] },
  { ...at("feedback-sent"), methods: ["GET"], formats: HTML, bucket: "text", cache: "public", serving: "static", reads: "nothing", site: ["feedback/thanks.astro"] },
  { ...at("compare-ids"), methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "computed", reads: "the catalogue and the ids in the path", site: ["on-demand/compare.astro"] },
  { ...at("compare"), methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static+computed", reads: "the catalogue and ?ids", site: ["compare/index.astro", "on-demand/compare.astro"] },
  { ...at("search"), methods: ["GET"], formats: ALL, bucket: "text", cache: "no-store", serving: "computed", reads: "the catalogue's search and ?q", site: ["search/index.astro", "on-demand/search.astro", "search-index.json.ts"] },
  { ...at("equivalents"), methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static+computed", reads: "the catalogue and ?providers, ?category", site: ["equivalents/index.astro", "on-demand/equivalents.astro"], text: EQUIVALENTS_TEXT },
  { ...at("equivalence-group"), methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "computed", reads: "the catalogue", site: ["equivalents/[id].astro", "on-demand/doc.astro"] },
  { ...at("feedback"), methods: ["POST"], formats: ALL, bucket: "relaxed", cache: "no-store", serving: "computed", form: true, reads: "the form; writes to the store", site: ["feedback/index.astro", "on-demand/feedback.astro"] },
  { ...at("exposure"), methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static+computed", reads: "the catalogue and ?ids, or the store's saved list ?list", site: ["exposure/index.astro", "on-demand/exposure.astro"] },
  { ...at("list-builder"), methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static+computed", reads: "the catalogue and ?ids, or the store's saved list ?list", site: ["list/index.astro", "on-demand/list.astro", "list-catalogue.json.ts"] },
  { ...at("list-file"), methods: ["GET"], formats: ALL, bucket: "strict", cache: "no-store", serving: "computed", reads: "the catalogue and ?ids: a policy or an export, to download", site: [] },
  { ...at("save-list"), methods: ["POST"], formats: ALL, bucket: "strict", cache: "no-store", serving: "computed", form: true, reads: "the form; writes to the store", site: [] },
  { ...at("saved-list"), methods: ["GET"], formats: ALL, bucket: "text", missBucket: "misses", cache: "no-store", serving: "computed", reads: "the store and the catalogue", site: ["lists/[id].astro"] },
  { ...at("exit-plan"), methods: ["GET"], formats: ALL, bucket: "text", missBucket: "misses", cache: "no-store", serving: "computed", reads: "the store, the catalogue and the target (?provider, ?sovereignOption…)", site: ["on-demand/doc.astro"] },
  { ...at("register"), methods: ["GET"], formats: ALL, bucket: "text", missBucket: "misses", cache: "no-store", serving: "computed", reads: "the store, the catalogue, the entity's fields, places and exit target (?lei, ?allowedLocations, ?jurisdictions…): the list's DORA register", site: ["on-demand/doc.astro"] },
  { ...at("deployment-check"), methods: ["POST"], formats: ALL, bucket: "strict", cache: "no-store", serving: "computed", form: true, rawBodyLimit: MAX_TEMPLATE_BODY_BYTES, reads: "the template posted (the body, or the form's template field) and ?ids or ?list: the deployment check", site: ["on-demand/doc.astro"] },
  { ...at("built"), methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static", reads: "dist/: the text pages above and the site's files", site: [] },
] as const satisfies readonly PageRow[];

/** The site's error pages, which answer for any path (site/src/pages/, by status). */
export const ERROR_PAGES = [
  { status: 404, site: ["404.astro"] },
  { status: 429, site: ["429.astro", "on-demand/429.astro"] },
] as const;

/** A page of site/src/pages/on-demand/ the text host renders, by its file's name: from the tables' `site` columns. */
export type OnDemandPage =
  (typeof PAGES)[number]["site"][number] | (typeof ERROR_PAGES)[number]["site"][number] extends infer File
  ? File extends `on-demand/${infer Name}.astro`
    ? Name
    : never
  : never;

/**
 * What the text host hands a page it renders on demand beside the catalogue and store: what the page
 * cannot read from its URL. One type for both sides: sidecar/text/site-page.ts sends it, the site's
 * pages read it as Astro.locals (site/src/env.d.ts).
 */
export interface SitePageData {
  /** The feedback form posted without JavaScript and refused: why, and what it held. */
  readonly refusedFeedback?: { readonly problem: string; readonly message: string; readonly email: string };
  /** Over a rate limit: what was limited and when to retry. */
  readonly limited?: string;
  /** A page the text host describes as a Doc (a kind of service, a saved list's exit plan). */
  readonly doc?: Doc;
  readonly docPage?: { readonly description?: string; readonly noindex?: boolean };
}

/** Every page rendered on demand gets these (Astro.locals): the running server's data and URLs. */
export interface SiteLocals extends SitePageData {
  readonly catalogue: Catalogue;
  readonly store: RecordStore;
  readonly apiUrl?: string | undefined;
  /** The text host's public URL, which pages name (never the request's Host). */
  readonly textUrl?: string | undefined;
}

/** A row's path as a regular expression over the request's path (nginx reads the same one). */
export function pathPattern(path: string): string {
  const body = path
    .replace(/\/$/, "")
    .split("/")
    .map((segment) => (segment === "*" ? ".*" : segment.startsWith(":") ? "[^/]+" : segment))
    .join("/");
  return path === "/*" ? "^/.*$" : `^${body}/?$`;
}

/** Every text page the build writes: its key (the path without extension, e.g. "aws/s3") and its Doc. */
export function* textPages(catalogue: Catalogue, urls?: PublicUrls): Generator<{ page: string; doc: () => Doc }> {
  for (const row of PAGES as readonly PageRow[]) if (row.text) yield* row.text.pages(catalogue, urls);
}

/** The rows with text pages a path can name, with their paths' segments. */
const LOOKUP = (PAGES as readonly PageRow[]).flatMap((row) =>
  row.serving === "static" && row.text?.pageAt
    ? [{ row, pageAt: row.text.pageAt, segments: row.path.split("/").slice(1).filter(Boolean) }]
    : [],
);

/** The text page a path names, as textPages' key, or undefined (/aws/s3 and /aws/aws-s3 are one page). */
export function textPageFor(catalogue: Catalogue, pathname: string): string | undefined {
  const segments = pathname.replace(/\/+$/, "").split("/").slice(1);
  if (segments.some((segment) => !FILE_SEGMENT.test(segment))) return undefined;
  for (const { pageAt, segments: pattern } of LOOKUP) {
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) =>
      part.startsWith(":") ? ((params[part.slice(1)] = segments[i]!), true) : part === segments[i],
    );
    const page = matches ? pageAt(catalogue, params) : undefined;
    if (page) return page;
  }
  return undefined;
}
