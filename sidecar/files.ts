/**
 * Serves built files from dist/ the way a CDN would: strong ETag from the build manifest's sha256
 * (304 on If-None-Match), Cache-Control, the precompressed .br/.gz chosen from Accept-Encoding,
 * CORS, HEAD. Files read are kept in memory up to a budget (FILE_CACHE_BYTES), the most recently
 * used first: the files a server answers most often stay in memory, and a crawl of every page of a
 * large build does not hold all of it.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { CachePolicy } from "../catalogue/endpoint.ts";
import { ASSET_CACHE_SECONDS, READ_CACHE_SECONDS } from "../catalogue/limits.ts";
import { rewriteAtom, rewriteCalendar } from "../catalogue/render/feeds.ts";
import { contentTypeOf } from "../catalogue/static.ts";
import { LRUCache } from "lru-cache";
import { SeenKeys } from "./seen-keys.ts";

export const READ_CACHE_CONTROL = `public, max-age=${READ_CACHE_SECONDS}`;
/** The site's hashed assets never change under one name. */
export const IMMUTABLE_CACHE_CONTROL = `public, max-age=${ASSET_CACHE_SECONDS}, immutable`;
/** DESIGN "Hosts": Accept alone picks the rendering; User-Agent would split caches per browser. */
export const TEXT_VARY = "Accept, Accept-Encoding";

/** The Cache-Control header of a row's cache policy; `until` (epoch ms) bounds `until-expiry`. */
export function cacheControl(policy: CachePolicy, until = Number.POSITIVE_INFINITY, now = Date.now()): string {
  switch (policy) {
    case "public":
      return READ_CACHE_CONTROL;
    case "revalidate":
      return "no-cache";
    case "until-expiry": {
      const seconds = Math.min(READ_CACHE_SECONDS, Math.floor((until - now) / 1000));
      return seconds > 0 ? `public, max-age=${seconds}` : "no-store";
    }
    case "no-store":
      return "no-store";
  }
}

interface Variant {
  readonly body: Buffer;
  readonly etag: string;
}

const FILE_CACHE_BYTES = 16 * 1024 * 1024;
const READ_ONCE_SLOTS = 4096;

export class BuiltFiles {
  /** Files read, by path; a file of the manifest that could not be read is kept as `{}`. */
  private readonly cache = new LRUCache<string, Variant | { body?: undefined }>({
    maxSize: FILE_CACHE_BYTES,
    sizeCalculation: (variant, path) => (variant.body?.length ?? 0) + path.length + 64,
  });
  /**
   * Files read once: a file is kept from its second read. A crawl or a mirror reads each file once,
   * and filled the cache with what nobody asked for again (an evicted Buffer's memory stays in the
   * process until V8 collects it); a file asked for often is answered from the replay cache anyway.
   */
  private readonly readOnce = new SeenKeys(READ_ONCE_SLOTS);

  readonly distDir: string;
  /** Paths relative to dist/ → sha256 (or its first 32 hex digits, all the ETag uses), from dist/api/manifest.json. */
  private readonly hashes: ReadonlyMap<string, string>;

  /** URLs the build baked in → the ones this server answers on (a mirror, a moved deployment). */
  private readonly rewrite: readonly (readonly [RegExp, string])[];
  /** Files whose text was rewritten: their precompressed variants are stale. */
  private readonly rewritten = new Set<string>();

  constructor(
    distDir: string,
    hashes: ReadonlyMap<string, string>,
    rewrite: readonly (readonly [string, string])[] = [],
  ) {
    this.distDir = distDir;
    this.hashes = hashes;
    // A URL is replaced only where it ends (not "…:8080" inside "…:80801" or a longer host name).
    this.rewrite = rewrite
      .filter(([from, to]) => from !== to)
      .map(
        ([from, to]) => [new RegExp(`${from.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}(?![\\w.:-])`, "g"), to] as const,
      );
  }

  static async open(
    distDir: string,
    options: { rewrite?: readonly (readonly [string, string])[] } = {},
  ): Promise<BuiltFiles> {
    const raw = await readFile(join(distDir, "api", "manifest.json"));
    // Not validated against BuildManifest here: the build wrote it (a mirror checks it when it fetches
    // it), and copying 22,000 entries through zod would leave its garbage in the server's heap.
    const manifest = JSON.parse(raw.toString("utf8")) as { files?: { path: string; sha256: string }[] };
    const hashes = new Map<string, string>();
    for (const file of manifest.files ?? []) hashes.set(file.path, file.sha256.slice(0, 32));
    hashes.set("api/manifest.json", createHash("sha256").update(raw).digest("hex").slice(0, 32));
    return new BuiltFiles(distDir, hashes, options.rewrite);
  }

  /** The body with the build's URLs replaced by this server's, in text files; else as it is. */
  private rewriteBody(path: string, body: Buffer): Buffer | undefined {
    if (this.rewrite.length === 0 || !/\.(json|html|md|ansi|txt|xml|webmanifest|atom|ics)$/.test(path))
      return undefined;
    const text = body.toString("utf8");
    const replace = (part: string) => this.rewrite.reduce((result, [from, to]) => result.replace(from, to), part);
    // Feed ids and calendar UIDs stay the origin's: they name entries, not places.
    const changed = path.endsWith(".ics")
      ? rewriteCalendar(text, replace)
      : path.endsWith(".atom")
        ? rewriteAtom(text, replace)
        : replace(text);
    return changed === text ? undefined : Buffer.from(changed);
  }

  has(path: string): boolean {
    return this.hashes.has(path);
  }

  private async variant(path: string): Promise<Variant | null> {
    const hash = this.hashes.get(path);
    // Only the build's files are looked up and kept: any other path a client asks for is not.
    if (!hash) return null;
    const cached = this.cache.get(path);
    if (cached) return cached.body ? (cached as Variant) : null;
    let variant: Variant | null;
    try {
      const body = await readFile(join(this.distDir, path));
      const changed = this.rewriteBody(path, body);
      if (changed) this.rewritten.add(path);
      variant = changed
        ? { body: changed, etag: `"${createHash("sha256").update(changed).digest("hex").slice(0, 32)}"` }
        : { body, etag: `"${hash.slice(0, 32)}"` };
    } catch {
      variant = null;
    }
    if (!variant || this.readOnce.seen(path)) this.cache.set(path, variant ?? {});
    return variant;
  }

  /** Sends dist/<path>; false when the build has no such file. */
  async send(
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    extraHeaders: Record<string, string> = {},
    status = 200,
  ): Promise<boolean> {
    const hash = this.hashes.get(path);
    if (!hash) return false;
    // Only reading a file tells whether this server rewrites its URLs (its precompressed forms are
    // then stale); without rewriting, a compressed answer needs no read of the plain body, which
    // is several times its size.
    const identity = this.rewrite.length > 0 ? await this.variant(path) : undefined;
    if (identity === null) return false;
    const etag = identity?.etag ?? `"${hash}"`;
    const accepted = parseAcceptEncoding(request.headers["accept-encoding"]);
    let chosen: Variant | undefined;
    let encoding: string | undefined;
    for (const [name, suffix] of [
      ["br", ".br"],
      ["gzip", ".gz"],
    ] as const) {
      if (!accepted.has(name) || this.rewritten.has(path)) continue;
      const encoded = await this.variant(`${path}${suffix}`);
      if (encoded) {
        chosen = { body: encoded.body, etag: `${etag.slice(0, -1)}-${suffix.slice(1)}"` };
        encoding = name;
        break;
      }
    }
    chosen ??= identity ?? (await this.variant(path)) ?? undefined;
    if (!chosen) return false;
    reply
      .header("content-type", contentTypeOf(path))
      .header("cache-control", /^site\/client\/_astro\//.test(path) ? IMMUTABLE_CACHE_CONTROL : READ_CACHE_CONTROL)
      .header("etag", chosen.etag)
      .header("vary", "Accept-Encoding")
      .headers(extraHeaders);
    if (encoding) reply.header("content-encoding", encoding);
    if (status === 200 && etagMatches(request.headers["if-none-match"], chosen.etag)) {
      await reply.code(304).send();
      return true;
    }
    reply.header("content-length", String(chosen.body.length));
    if (status !== 200) reply.header("cache-control", "no-store");
    // Node writes no body for HEAD; sending it keeps Content-Length the GET's.
    await reply.code(status).send(chosen.body);
    return true;
  }
}

/** Encodings the client accepts (q > 0). */
export function parseAcceptEncoding(header: string | string[] | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of String(header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  return accepted;
}

export function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const value = Array.isArray(header) ? header.join(",") : header;
  return value.trim() === "*" || value.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}

/**
 * A request URL's path and query (without its "?"), taken apart without `new URL()`, which rejects a
 * path such as "//" and silently resolves dot segments. Both stay percent-encoded.
 */
export function splitRequestUrl(url: string): { pathname: string; query: string } {
  const mark = url.indexOf("?");
  return mark < 0 ? { pathname: url, query: "" } : { pathname: url.slice(0, mark), query: url.slice(mark + 1) };
}

/** The decoded path inside a served folder, or undefined when it is malformed or climbs out (".."). */
export function safeRelativePath(encoded: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  const segments = path.split("/");
  return segments.includes("..") || segments.includes(".") || path.includes("\0") ? undefined : path;
}
