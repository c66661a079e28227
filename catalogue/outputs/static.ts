/**
 * What the static build writes and how a request URL maps to a built file. API files come from the
 * static rows of the contract table: the build writes each row's files and the sidecar computes
 * the same answers through the same rows' handlers, from the same functions, so a static file and
 * a computed response cannot differ. Text-host pages (pages.ts lists them): one Doc per page, in
 * three renderings.
 */
import { ENDPOINTS } from "../contract/index.ts";
import {
  closesQuery,
  FILE_SEGMENT,
  type Endpoint,
  type PublicUrls,
  type StaticFile,
  type StaticSpec,
} from "../contract/endpoint.ts";
import type { Catalogue } from "../load/load.ts";
import { renderAnsi } from "../format/ansi.ts";
import type { Doc } from "../format/doc.ts";
import { renderMarkdown } from "../format/markdown.ts";
import { textPages } from "./pages.ts";
import { BUILD_PATH_PATTERN } from "../schema/index.ts";

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
  ".atom": "application/atom+xml",
  ".ics": "text/calendar; charset=utf-8",
};

export function contentTypeOf(file: string): string {
  const dot = file.lastIndexOf(".");
  return (dot >= 0 && CONTENT_TYPES[file.slice(dot)]) || "application/octet-stream";
}

// ---------------------------------------------------------------------------------------------
// The API host: the static rows of a contract table

/** Every file the build writes into dist/api: each static row's own. */
export function* apiFiles(
  catalogue: Catalogue,
  urls: PublicUrls,
  table: readonly Endpoint[] = ENDPOINTS,
): Generator<StaticFile> {
  for (const row of table) if (row.static?.files) yield* row.static.files(catalogue, urls, table);
}

interface StaticRoute {
  readonly row: Endpoint;
  readonly spec: StaticSpec;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

const routesByTable = new WeakMap<readonly Endpoint[], readonly StaticRoute[]>();

function staticRoutes(table: readonly Endpoint[]): readonly StaticRoute[] {
  let routes = routesByTable.get(table);
  if (!routes) {
    routes = table.flatMap((row) => {
      if (!row.static || row.method !== "GET") return [];
      const names: string[] = [];
      const source = row.path
        .split(/(\{\w+\})/)
        .map((part) => {
          const name = /^\{(\w+)\}$/.exec(part)?.[1];
          if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
          names.push(name);
          return row.restParam && names.length === (row.path.match(/\{/g) ?? []).length ? "(.+)" : "([^/]+)";
        })
        .join("");
      return [{ row, spec: row.static, pattern: new RegExp(`^${source}$`), names }];
    });
    routesByTable.set(table, routes);
  }
  return routes;
}

const PAGE = /^[1-9]\d{0,5}$/;

/** The query's first key when it is written plainly (no escapes, no "+"), else undefined. */
function plainFirstKey(query: string): string | undefined {
  for (let i = 0; i < query.length; i++) {
    const code = query.charCodeAt(i);
    if (code === 0x26 /* & */ || code === 0x3d /* = */) return query.slice(0, i);
    if (code === 0x25 /* % */ || code === 0x2b /* + */) return undefined;
  }
  return query;
}

/** The file a static row's spec names for a page (1 is the plain file), or undefined for other queries (raw, without "?"). */
function fileForQuery(spec: StaticSpec, query: string): string | undefined {
  if (query === "") return spec.file;
  // Most queries here are a computed answer's (a search's q=…): a first key other than limit and
  // page settles it without parsing the whole query, on every GET before routing.
  const first = plainFirstKey(query);
  if (first && first !== "limit" && first !== "page") return undefined;
  const search = new URLSearchParams(query);
  const keys = new Set(search.keys());
  if (keys.size === 0) return spec.file;
  if (!spec.pages) return undefined;
  const limit = search.get("limit");
  const page = search.get("page");
  keys.delete("limit");
  keys.delete("page");
  if (keys.size > 0 || (limit !== null && limit !== String(spec.pages.limit))) return undefined;
  if (page === null || page === "1") return spec.file;
  return PAGE.test(page) ? spec.pages.file.replace("{page}", page) : undefined;
}

/**
 * The built file (a path inside dist/) that answers a GET for this URL, with the row it belongs
 * to; undefined when the sidecar must compute the answer. A row with query parameters is static
 * only without one (or with a page it has a file for); so is a /v1/ row without any, whose handler
 * then refuses the parameter (docs/decisions.md#closed-queries); the downloads outside /v1/
 * ignore the query.
 */
export function staticFileFor(
  table: readonly Endpoint[],
  pathname: string,
  query: string,
): { row: Endpoint; path: string } | undefined {
  for (const { row, spec, pattern, names } of staticRoutes(table)) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    let file = row.query
      ? fileForQuery(spec, query)
      : closesQuery(row)
        ? fileForQuery({ file: spec.file }, query)
        : spec.file;
    if (file === undefined) return undefined;
    for (const [index, name] of names.entries()) {
      const raw = match[index + 1]!;
      const value = row.restParam && index === names.length - 1 ? decodedBuildPath(raw) : raw;
      if (value === undefined || (!(row.restParam && index === names.length - 1) && !FILE_SEGMENT.test(value)))
        return undefined;
      file = file.replace(`{${name}}`, value);
    }
    if (spec.withheld?.some((prefix) => file.startsWith(prefix))) return undefined;
    return { row, path: spec.root === "dist" ? file : `api/${file}` };
  }
  return undefined;
}

/** Whether a file of the build is published to mirrors (the manifest lists it, /mirror/ serves it). */
export function mirrored(path: string, table: readonly Endpoint[] = ENDPOINTS): boolean {
  return !table.some((row) => row.static?.root === "dist" && row.static.withheld?.some((p) => path.startsWith(p)));
}

/** A percent-encoded rest of a path, decoded, when it is a path a build can hold (no "..", "." or empty segments). */
function decodedBuildPath(encoded: string): string | undefined {
  try {
    const path = decodeURIComponent(encoded);
    return BUILD_PATH_PATTERN.test(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The text host

export type TextFormat = "md" | "ansi" | "txt";
export const TEXT_FORMATS: readonly TextFormat[] = ["md", "ansi", "txt"];

/** A Doc in a text format; `width` (terminal columns) shapes ANSI and plain text only. */
export function renderDoc(doc: Doc, format: TextFormat, width?: number): string {
  if (format === "md") return renderMarkdown(doc);
  return renderAnsi(doc, format === "ansi", width);
}

export function* textFiles(catalogue: Catalogue, urls?: PublicUrls): Generator<StaticFile> {
  for (const { page, doc } of textPages(catalogue, urls)) {
    const built = doc();
    for (const format of TEXT_FORMATS) yield { file: `${page}.${format}`, body: renderDoc(built, format) };
  }
}
