/**
 * What the static build writes and the servers answer for read requests: one function per kind of
 * resource returns the exact bytes, and one mapping turns a request URL into its file. The build
 * writes these bodies; the sidecar answers the same requests by calling the same functions, so a
 * static file and a computed response cannot differ.
 */
import { changelog } from "./changelog.ts";
import { API_VERSION, DEFAULT_PAGE_SIZE } from "./contract.ts";
import type { Catalogue } from "./load.ts";
import { discoveryDocument, openApiDocument, type PublicUrls } from "./openapi.ts";
import { listServices, pageCount, serviceDetail } from "./query.ts";
import { renderAnsi } from "./render/ansi.ts";
import type { Doc } from "./render/doc.ts";
import { renderMarkdown } from "./render/markdown.ts";
import { categoryPage, homePage, lifecyclePage, providerPage, servicePage, servicePath } from "./render/pages.ts";

/** JSON as every API response serialises it. */
export const serializeJson = (value: unknown): string => JSON.stringify(value);

export interface StaticFile {
  /** Path relative to dist/api or dist/text. */
  readonly file: string;
  readonly body: string;
}

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".json": "application/json; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".ansi": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webmanifest": "application/manifest+json",
  ".wasm": "application/wasm",
  ".pf_meta": "application/octet-stream",
  ".pf_index": "application/octet-stream",
  ".pf_fragment": "application/octet-stream",
  ".pagefind": "application/octet-stream",
  ".xml": "application/xml; charset=utf-8",
};

export function contentTypeOf(file: string): string {
  const dot = file.lastIndexOf(".");
  return (dot >= 0 && CONTENT_TYPES[file.slice(dot)]) || "application/octet-stream";
}

// ---------------------------------------------------------------------------------------------
// The API host

export const apiBodies = {
  discovery: (urls: PublicUrls) => serializeJson(discoveryDocument(urls)),
  openapi: (urls: PublicUrls) => serializeJson(openApiDocument(urls)),
  providers: (catalogue: Catalogue) => serializeJson(catalogue.providers),
  categories: (catalogue: Catalogue) => serializeJson(catalogue.categories),
  changelog: () => serializeJson(changelog(API_VERSION)),
  servicesPage: (catalogue: Catalogue, page: number) =>
    serializeJson(listServices(catalogue, { page, limit: DEFAULT_PAGE_SIZE })),
  serviceDetail: (catalogue: Catalogue, slug: string) => serializeJson(serviceDetail(catalogue, slug)),
  /** Everything in one file, for mirrors and scripts. */
  dump: (catalogue: Catalogue) =>
    serializeJson({
      providers: catalogue.providers,
      categories: catalogue.categories,
      services: catalogue.services.map((service) => serviceDetail(catalogue, service.slug)),
      equivalenceGroups: catalogue.groups,
    }),
};

const servicesPageFile = (page: number) => (page === 1 ? "v1/services.json" : `v1/services/pages/${page}.json`);

export function* apiFiles(catalogue: Catalogue, urls: PublicUrls): Generator<StaticFile> {
  yield { file: "index.json", body: apiBodies.discovery(urls) };
  yield { file: "openapi.json", body: apiBodies.openapi(urls) };
  yield { file: "v1/providers.json", body: apiBodies.providers(catalogue) };
  yield { file: "v1/categories.json", body: apiBodies.categories(catalogue) };
  yield { file: "v1/changelog.json", body: apiBodies.changelog() };
  for (let page = 1; page <= pageCount(catalogue, DEFAULT_PAGE_SIZE); page++) {
    yield { file: servicesPageFile(page), body: apiBodies.servicesPage(catalogue, page) };
  }
  for (const service of catalogue.services) {
    yield { file: `v1/services/${service.slug}.json`, body: apiBodies.serviceDetail(catalogue, service.slug) };
  }
  yield { file: "catalogue.json", body: apiBodies.dump(catalogue) };
  // The validated data itself, from which a mirror re-assembles the Catalogue (`cloud-catalogue serve`).
  yield { file: "catalogue-source.json", body: serializeJson(catalogue.source) };
}

const SLUG_SEGMENT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The dist/api file that answers a GET for this URL, or undefined when the sidecar must compute
 * it. `/v1/services` is static with no query, or with only `page` (and `limit` at its default).
 */
export function apiFileFor(pathname: string, search: URLSearchParams): string | undefined {
  const plain = [...search.keys()].length === 0;
  switch (pathname) {
    case "/":
      return plain ? "index.json" : undefined;
    case "/openapi.json":
      return "openapi.json";
    case "/catalogue.json":
      return "catalogue.json";
    case "/manifest.json":
      return "manifest.json";
    case "/v1/providers":
      return "v1/providers.json";
    case "/v1/categories":
      return "v1/categories.json";
    case "/v1/changelog":
      return "v1/changelog.json";
    case "/v1/services": {
      const keys = new Set(search.keys());
      const limit = search.get("limit");
      if (limit !== null && limit !== String(DEFAULT_PAGE_SIZE)) return undefined;
      keys.delete("limit");
      const page = search.get("page");
      keys.delete("page");
      if (keys.size > 0) return undefined;
      if (page === null) return servicesPageFile(1);
      return /^[1-9]\d{0,5}$/.test(page) ? servicesPageFile(Number(page)) : undefined;
    }
  }
  const match = /^\/v1\/services\/([^/]+)$/.exec(pathname);
  if (match && SLUG_SEGMENT.test(match[1]!)) return `v1/services/${match[1]}.json`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The text host

export type TextFormat = "md" | "ansi" | "txt";
export const TEXT_FORMATS: readonly TextFormat[] = ["md", "ansi", "txt"];

export function renderDoc(doc: Doc, format: TextFormat): string {
  if (format === "md") return renderMarkdown(doc);
  return renderAnsi(doc, format === "ansi");
}

/** Every static text-host page: its path without extension (e.g. "aws/s3") and its Doc. */
export function* textPages(catalogue: Catalogue): Generator<{ page: string; doc: () => Doc }> {
  yield { page: "index", doc: () => homePage(catalogue) };
  yield { page: "lifecycle", doc: () => lifecyclePage(catalogue) };
  for (const provider of catalogue.providers)
    yield { page: `${provider.id}/index`, doc: () => providerPage(catalogue, provider.id) };
  for (const category of catalogue.categories)
    yield { page: `category/${category.id}`, doc: () => categoryPage(catalogue, category.id) };
  for (const service of catalogue.services)
    yield { page: servicePath(service).slice(1), doc: () => servicePage(catalogue, service.slug) };
}

export function* textFiles(catalogue: Catalogue): Generator<StaticFile> {
  for (const { page, doc } of textPages(catalogue)) {
    const built = doc();
    for (const format of TEXT_FORMATS) yield { file: `${page}.${format}`, body: renderDoc(built, format) };
  }
}

/**
 * The text-host page a path names, as the page key used by textPages, or undefined. Accepts
 * /{provider}/{service} with or without the provider prefix on the service slug.
 */
export function textPageFor(catalogue: Catalogue, pathname: string): string | undefined {
  const segments = pathname.replace(/\/+$/, "").split("/").slice(1);
  if (segments.length === 0 || (segments.length === 1 && segments[0] === "")) return "index";
  if (segments.some((segment) => !SLUG_SEGMENT.test(segment))) return undefined;
  const [first, second] = segments;
  if (segments.length === 1) {
    if (first === "lifecycle") return "lifecycle";
    return catalogue.providerById.has(first!) ? `${first}/index` : undefined;
  }
  if (segments.length !== 2) return undefined;
  if (first === "category") return catalogue.categoryById.has(second!) ? `category/${second}` : undefined;
  if (!catalogue.providerById.has(first!)) return undefined;
  const slug = second!.startsWith(`${first}-`) && catalogue.bySlug.has(second!) ? second! : `${first}-${second}`;
  const service = catalogue.bySlug.get(slug)?.service;
  return service && service.providerId === first ? servicePath(service).slice(1) : undefined;
}
