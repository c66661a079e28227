/**
 * Serves built files from dist/ the way a CDN would, through @fastify/static: streamed from disk
 * (never read whole per request), the precompressed .br/.gz chosen from Accept-Encoding
 * (`preCompressed`), Range, HEAD; here the strong ETag from the build manifest's sha256 (304 on
 * If-None-Match), Cache-Control and the content types of catalogue/static.ts. A build served at
 * other URLs than it was built for (a mirror, a moved deployment) has those URLs rewritten in its
 * text files, read once for all the requests that ask for one at the same time. Streamed files
 * count against the process's budget of answers in flight (response-budget.ts).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import negotiate from "@fastify/accept-negotiator";
import send from "@fastify/send";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { CachePolicy } from "../catalogue/endpoint.ts";
import { ASSET_CACHE_SECONDS, READ_CACHE_SECONDS } from "../catalogue/limits.ts";
import { rewriteAtom, rewriteCalendar } from "../catalogue/render/feeds.ts";
import { CONTENT_TYPES, contentTypeOf } from "../catalogue/static.ts";
import { STREAM_CHUNK_BYTES, streamBudget } from "./response-budget.ts";

export const READ_CACHE_CONTROL = `public, max-age=${READ_CACHE_SECONDS}`;
/** The site's hashed assets never change under one name. */
export const IMMUTABLE_CACHE_CONTROL = `public, max-age=${ASSET_CACHE_SECONDS}, immutable`;
/**
 * DESIGN "Hosts": Accept alone picks the rendering; User-Agent would split caches per browser.
 * COLUMNS (a terminal's width, which browsers never send) sets the width of ANSI and plain text.
 */
export const TEXT_VARY = "Accept, Accept-Encoding, COLUMNS";

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

// @fastify/send types files by extension (the `mime` package): the build's own types win.
const extensionsByType: Record<string, string[]> = {};
for (const [extension, type] of Object.entries(CONTENT_TYPES))
  (extensionsByType[type.replace(/;.*$/, "")] ??= []).push(extension.slice(1));
send.mime.define(extensionsByType, true);

/** The precompressed siblings the build writes, in @fastify/static's order of preference. */
const ENCODINGS = [
  ["br", ".br"],
  ["gzip", ".gz"],
] as const;

type Encoding = (typeof ENCODINGS)[number][0];

interface Rewritten {
  readonly body: Buffer;
  readonly etag: string;
}

/** Text files whose URLs a served build rewrites. */
const REWRITTEN = /\.(json|html|md|ansi|txt|xml|webmanifest|atom|ics)$/;

type SendFileOptions = Parameters<FastifyReply["sendFile"]>[2];

export class BuiltFiles {
  readonly distDir: string;
  /** Paths relative to dist/ → the first 32 hex digits of their sha256, from dist/api/manifest.json. */
  private readonly hashes: ReadonlyMap<string, string>;
  /** URLs the build baked in → the ones this server answers on (a mirror, a moved deployment). */
  private readonly rewrite: readonly (readonly [RegExp, string])[];
  /** Rewritten files being read, and those some answer still holds (the collector frees the rest). */
  private readonly reading = new Map<string, Promise<Rewritten | undefined>>();
  private readonly held = new Map<string, WeakRef<Rewritten>>();

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

  has(path: string): boolean {
    return this.hashes.has(path);
  }

  /**
   * Registers @fastify/static on `app` for `send` (reply.sendFile), serving no route of its own.
   * Its ETag, Last-Modified and Cache-Control are off: the manifest's hash and the row's policy say them.
   */
  async register(app: FastifyInstance): Promise<void> {
    await app.register(fastifyStatic, {
      root: this.distDir,
      serve: false,
      preCompressed: true,
      etag: false,
      lastModified: false,
      cacheControl: false,
      // The file @fastify/static chose (a .br or .gz sibling, or the file itself) names the ETag.
      setHeaders: (reply, path) => {
        const file = relative(this.distDir, path);
        const encoding = ENCODINGS.find(([, suffix]) => file.endsWith(suffix));
        const plain = encoding ? file.slice(0, -encoding[1].length) : file;
        const hash = this.hashes.get(plain);
        if (hash) reply.header("etag", etagOf(hash, encoding?.[0]));
      },
    });
  }

  /** The encoding @fastify/static will choose for this request among the build's siblings of `path`. */
  private encodingFor(request: FastifyRequest, path: string): Encoding | undefined {
    const present = ENCODINGS.filter(([, suffix]) => this.hashes.has(`${path}${suffix}`)).map(([name]) => name);
    return acceptedEncoding(request.headers["accept-encoding"], present);
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
    const rewritten = this.rewrite.length > 0 && REWRITTEN.test(path) ? await this.rewritten(path) : undefined;
    const encoding = rewritten ? undefined : this.encodingFor(request, path);
    const etag = rewritten?.etag ?? etagOf(hash, encoding);
    reply
      .header("content-type", contentTypeOf(path))
      .header("cache-control", /^site\/client\/_astro\//.test(path) ? IMMUTABLE_CACHE_CONTROL : READ_CACHE_CONTROL)
      .header("etag", etag)
      .header("vary", "Accept-Encoding")
      .headers(extraHeaders);
    if (status !== 200) reply.header("cache-control", "no-store");
    if (status === 200 && etagMatches(request.headers["if-none-match"], etag)) {
      await reply.code(304).send();
      return true;
    }
    reply.code(status);
    if (rewritten) {
      await reply.send(rewritten.body);
      return true;
    }
    // A file the build did not compress is small or does not compress: @fastify/compress would
    // only make it chunked and its HEAD unlike its GET (x-no-compression is its opt-out).
    if (!encoding && !ENCODINGS.some(([, suffix]) => this.hashes.has(`${path}${suffix}`)))
      request.headers["x-no-compression"] = "1";
    // Its turn on the connection and a slot of the process's budget (response-budget.ts): a client
    // that does not read holds one file's chunks, not one per request it pipelined.
    const release = await streamBudget.acquire(reply.raw, request.raw.socket);
    if (!release) return true;
    // Not awaited: the reply's promise settles when the file has been written, or fails when the
    // client goes away first; the route returns the reply and Fastify finishes it.
    // @fastify/static passes its options on to @fastify/send, which reads with this chunk size
    // (its types do not list the option).
    void reply.sendFile(path, this.distDir, { highWaterMark: STREAM_CHUNK_BYTES } as SendFileOptions);
    return true;
  }

  /**
   * A text file with this server's URLs in place of the build's, and its ETag. Requests for one
   * file share one read while it is read, and its bytes while any answer still holds them.
   */
  private rewritten(path: string): Promise<Rewritten | undefined> {
    const held = this.held.get(path)?.deref();
    if (held) return Promise.resolve(held);
    let reading = this.reading.get(path);
    if (!reading) {
      reading = readFile(join(this.distDir, path)).then(
        (body) => {
          const text = body.toString("utf8");
          const replace = (part: string) => this.rewrite.reduce((result, [from, to]) => result.replace(from, to), part);
          // Feed ids and calendar UIDs stay the origin's: they name entries, not places.
          const changed = path.endsWith(".ics")
            ? rewriteCalendar(text, replace)
            : path.endsWith(".atom")
              ? rewriteAtom(text, replace)
              : replace(text);
          if (changed === text) return undefined;
          const bytes = Buffer.from(changed);
          const rewritten = {
            body: bytes,
            etag: etagOf(createHash("sha256").update(bytes).digest("hex").slice(0, 32)),
          };
          this.held.set(path, new WeakRef(rewritten));
          return rewritten;
        },
        () => undefined,
      );
      this.reading.set(path, reading);
      void reading.finally(() => this.reading.delete(path));
    }
    return reading;
  }
}

/**
 * The encoding among `available` that @fastify/static and @fastify/compress choose for an
 * Accept-Encoding header (both negotiate with @fastify/accept-negotiator, "*" standing for gzip),
 * so that an answer's ETag can name its encoding before it is sent.
 */
export function acceptedEncoding<E extends string>(
  header: string | string[] | undefined,
  available: readonly E[],
): E | undefined {
  if (typeof header !== "string" || available.length === 0) return undefined;
  return (negotiate.negotiate(header.toLowerCase().replace(/\*|x-gzip/g, "gzip"), [...available]) ?? undefined) as
    E | undefined;
}

/**
 * The one strong ETag scheme, for built files and computed answers alike: the first 32 hex digits
 * of the sha256 of the identity bytes, and the encoding, each being its own representation.
 */
export function etagOf(hash: string, encoding?: Encoding): string {
  return encoding ? `"${hash}-${encoding === "br" ? "br" : "gz"}"` : `"${hash}"`;
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
