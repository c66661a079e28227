/**
 * Serves built files from dist/ the way a CDN would. A small file (MEMORY_FILE_BYTES or less, each
 * of its precompressed .br/.gz siblings counted on its own) is answered from memory: read once into
 * a cache bounded by MEMORY_CACHE_BYTES, its headers computed once, so that a read makes no
 * file-system call. A larger file and a Range request are streamed from disk through
 * @fastify/static (never read whole per request), counting against the process's budget of answers
 * in flight (response-budget.ts). Both choose the precompressed .br/.gz from Accept-Encoding, give
 * the strong ETag of the build manifest's sha256 (304 on If-None-Match), Cache-Control and the
 * content types of catalogue/outputs/static.ts, and answer HEAD. A build served at other URLs than it was
 * built for (another port, a mirror, a moved deployment) has those URLs rewritten in its text
 * files when they are read, and those compressed again: the build's siblings hold the old URLs.
 * `asBuilt` sends a file byte for byte whatever the URLs (/mirror/: the manifest's hashes name it).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from "node:zlib";
import negotiate from "@fastify/accept-negotiator";
import send from "@fastify/send";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import type { CachePolicy } from "../catalogue/contract/endpoint.ts";
import { ASSET_CACHE_SECONDS, READ_CACHE_SECONDS } from "../catalogue/base/limits.ts";
import { rewriteAtom, rewriteCalendar } from "../catalogue/format/feeds.ts";
import { webcalUrl } from "../catalogue/render/calendar.ts";
import { CONTENT_TYPES, contentTypeOf } from "../catalogue/outputs/static.ts";
import { STREAM_CHUNK_BYTES, streamBudget } from "./response-budget.ts";

export const READ_CACHE_CONTROL = `public, max-age=${READ_CACHE_SECONDS}`;
/** The site's hashed assets never change under one name. */
export const IMMUTABLE_CACHE_CONTROL = `public, max-age=${ASSET_CACHE_SECONDS}, immutable`;
/**
 * docs/design.md "Hosts and how a request is served": Accept alone picks the rendering; User-Agent would split caches per browser.
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

/** A file of this size or less (in the representation sent) is answered from memory. */
export const MEMORY_FILE_BYTES = 1024 * 1024;
/** What the cache of small files holds at most (bodies; their headers are a few hundred bytes each). */
export const MEMORY_CACHE_BYTES = 32 * 1024 * 1024;

interface Rewritten {
  readonly body: Buffer;
  readonly etag: string;
}

/** A representation of a small file held in memory, with the headers of its 200 answer. */
interface Held {
  readonly body: Buffer;
  readonly etag: string;
  /** The identity bytes' hash (rewritten or as built), which each encoding's ETag names. */
  readonly hash: string;
  /** Whether the body is the build's text with this server's URLs in place of the build's. */
  readonly rewritten: boolean;
  readonly headers: Readonly<Record<string, string>>;
}

/** Text files whose URLs a served build rewrites. */
const REWRITTEN = /\.(json|html|md|ansi|txt|xml|webmanifest|atom|ics)$/;

type SendFileOptions = Parameters<FastifyReply["sendFile"]>[2];

export class BuiltFiles {
  readonly distDir: string;
  /** Paths relative to dist/ → the first 32 hex digits of their sha256, from dist/api/manifest.json. */
  private readonly hashes: ReadonlyMap<string, string>;
  /** Paths relative to dist/ → their size in bytes, from the same manifest. */
  private readonly sizes: ReadonlyMap<string, number>;
  /** URLs the build baked in → the ones this server answers on (a mirror, a moved deployment). */
  private readonly rewrite: readonly (readonly [RegExp, string])[];
  /** The build's URLs as bytes: a file that holds none of them is sent as built, never decoded. */
  private readonly builtUrls: readonly Buffer[];
  /** Rewritten large files being read, and those some answer still holds (the collector frees the rest). */
  private readonly reading = new Map<string, Promise<Rewritten | undefined>>();
  private readonly held = new Map<string, WeakRef<Rewritten>>();
  /** Large text files read once and found to name none of the build's URLs: sent as built. */
  private readonly unchanged = new Set<string>();
  /** Small files' representations ("path\0encoding"), and those being read (one read for concurrent requests). */
  private readonly memory = new LRUCache<string, Held>({
    maxSize: MEMORY_CACHE_BYTES,
    sizeCalculation: (held, key) => held.body.length + key.length + 256,
  });
  private readonly loading = new Map<string, Promise<Held | undefined>>();

  constructor(
    distDir: string,
    hashes: ReadonlyMap<string, string>,
    rewrite: readonly (readonly [string, string])[] = [],
    sizes: ReadonlyMap<string, number> = new Map(),
  ) {
    this.distDir = distDir;
    this.hashes = hashes;
    this.sizes = sizes;
    // A feed's webcal:// address (render/calendar.ts) names the same host: rewritten with it.
    rewrite = rewrite.flatMap((pair) => {
      const webcal = pair.map(webcalUrl) as [string, string];
      return webcal[0] === pair[0] ? [pair] : [pair, webcal];
    });
    this.builtUrls = rewrite.filter(([from, to]) => from !== to).map(([from]) => Buffer.from(from));
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
    const manifest = JSON.parse(raw.toString("utf8")) as {
      files?: { path: string; sha256: string; size?: number }[];
    };
    const hashes = new Map<string, string>();
    const sizes = new Map<string, number>();
    for (const file of manifest.files ?? []) {
      hashes.set(file.path, file.sha256.slice(0, 32));
      if (typeof file.size === "number") sizes.set(file.path, file.size);
    }
    hashes.set("api/manifest.json", createHash("sha256").update(raw).digest("hex").slice(0, 32));
    sizes.set("api/manifest.json", raw.length);
    return new BuiltFiles(distDir, hashes, options.rewrite, sizes);
  }

  has(path: string): boolean {
    return this.hashes.has(path);
  }

  /** The bytes the cache of small files holds (for tests). */
  get heldBytes(): number {
    return this.memory.calculatedSize;
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

  private rewrites(path: string): boolean {
    return this.rewrite.length > 0 && REWRITTEN.test(path);
  }

  /**
   * Sends dist/<path>; false when the build has no such file. `asBuilt`: its bytes as the build
   * wrote them, never with this server's URLs, which is what the manifest's hashes name (/mirror/).
   */
  async send(
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    extraHeaders: Record<string, string> = {},
    status = 200,
    { asBuilt = false }: { asBuilt?: boolean } = {},
  ): Promise<boolean> {
    const hash = this.hashes.get(path);
    if (!hash) return false;
    if (request.headers.range === undefined) {
      const encoding = this.encodingFor(request, path);
      const size = this.sizes.get(encoding ? `${path}${suffixOf(encoding)}` : path);
      // Most files settle at once: only a large rewritten one is awaited, read the first time.
      const holdable = size !== undefined && size <= MEMORY_FILE_BYTES && this.holdable(path, asBuilt);
      if (holdable === true || (holdable !== false && (await holdable))) {
        const held = await this.fromMemory(path, encoding, asBuilt);
        if (held) {
          sendHeld(request, reply, held, extraHeaders, status);
          return true;
        }
      }
    }
    return this.stream(request, reply, path, hash, extraHeaders, status, asBuilt);
  }

  /** Streams dist/<path> from disk through @fastify/static (a large file, a Range request). */
  private async stream(
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    hash: string,
    extraHeaders: Record<string, string>,
    status: number,
    asBuilt: boolean,
  ): Promise<boolean> {
    const rewritten =
      !asBuilt && this.rewrites(path) && !this.unchanged.has(path) ? await this.rewritten(path) : undefined;
    const encoding = rewritten ? undefined : this.encodingFor(request, path);
    const etag = rewritten?.etag ?? etagOf(hash, encoding);
    reply.headers(fileHeaders(path, etag)).headers(extraHeaders);
    if (status !== 200) reply.header("cache-control", "no-store");
    if (status === 200 && etagMatches(request.headers["if-none-match"], etag)) {
      await reply.code(304).send();
      return true;
    }
    reply.code(status);
    // A rewritten file is sent whole (its bytes are not the build's): no range to settle.
    if (request.headers.range !== undefined && !rewritten)
      this.settleRange(request, reply, etag, encoding ? `${path}${suffixOf(encoding)}` : path);
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
   * What @fastify/send leaves out of a Range request (issue 126): If-Range (RFC 9110 §13.1.5) is
   * settled here against this representation's strong ETag, which send cannot see (its own ETag
   * is off): the same ETag keeps the range (a resumed download resumes), anything else (another
   * ETag, a date: no Last-Modified is sent) asks for the whole file. And a range that names no byte
   * of the file gets its 416 with the file's length in Content-Range ("bytes *" and "/length", §15.5.17),
   * which send's error loses.
   */
  private settleRange(request: FastifyRequest, reply: FastifyReply, etag: string, served: string): void {
    const ifRange = request.headers["if-range"];
    if (ifRange !== undefined) {
      if (String(ifRange).trim() !== etag) delete request.headers.range;
      delete request.headers["if-range"];
    }
    const range = request.headers.range;
    const size = this.sizes.get(served);
    if (range !== undefined && size !== undefined && rangeUnsatisfiable(range, size))
      reply.header("content-range", `bytes */${size}`);
  }

  /**
   * Whether a small representation of `path` may be held. A rewritten file's encodings are
   * compressed from its identity text, so that must be small too (a 0.5 MB catalogue.json.br would
   * hold its 24 MB identity), unless the file names none of the build's URLs (read once to know).
   */
  private holdable(path: string, asBuilt: boolean): boolean | Promise<boolean> {
    if (asBuilt || !this.rewrites(path) || this.unchanged.has(path)) return true;
    if ((this.sizes.get(path) ?? Number.POSITIVE_INFINITY) <= MEMORY_FILE_BYTES) return true;
    return this.rewritten(path).then(() => this.unchanged.has(path));
  }

  /** A small file's representation from the cache, read on its first request; undefined when unreadable. */
  private fromMemory(path: string, encoding: Encoding | undefined, asBuilt = false): Promise<Held | undefined> | Held {
    // The build's own bytes of a rewritten file are held apart from its rewritten text.
    const rewrites = !asBuilt && this.rewrites(path) && !this.unchanged.has(path);
    const key = `${path}${encoding ? `\0${encoding}` : ""}${asBuilt && this.rewrites(path) ? "\0built" : ""}`;
    const held = this.memory.get(key);
    if (held) return held;
    let loading = this.loading.get(key);
    if (!loading) {
      loading = this.load(path, encoding, rewrites).then(
        (loaded) => {
          this.memory.set(key, loaded);
          return loaded;
        },
        () => undefined,
      );
      this.loading.set(key, loading);
      void loading.finally(() => this.loading.delete(key));
    }
    return loading;
  }

  private async load(path: string, encoding: Encoding | undefined, rewrites: boolean): Promise<Held> {
    const built = this.hashes.get(path)!;
    if (rewrites) {
      // The identity text decides: rewritten, each encoding is compressed from it.
      const plain = encoding ? await this.fromMemory(path, undefined) : await this.readRewritten(path, built);
      if (!plain) throw new Error(`${path} cannot be read`);
      if (!encoding) return plain;
      if (plain.rewritten) return held(path, await compress(encoding, plain.body), plain.hash, encoding, true);
    }
    const body = await readFile(join(this.distDir, encoding ? `${path}${suffixOf(encoding)}` : path));
    return held(path, body, built, encoding, false);
  }

  /** A text file read with this server's URLs in place of the build's. */
  private async readRewritten(path: string, built: string): Promise<Held> {
    const body = await readFile(join(this.distDir, path));
    const changed = this.rewriteText(path, body);
    if (changed === undefined) return held(path, body, built, undefined, false);
    const bytes = Buffer.from(changed);
    return held(path, bytes, createHash("sha256").update(bytes).digest("hex").slice(0, 32), undefined, true);
  }

  /** `text` with this server's URLs in place of the build's; undefined when it names none of them. */
  private rewriteText(path: string, body: Buffer): string | undefined {
    // Most files name no URL (a service's JSON, the 11 MB catalogue): a byte search settles it
    // without decoding them into a string and copying them through the replacements.
    if (!this.builtUrls.some((url) => body.includes(url))) return undefined;
    const text = body.toString("utf8");
    const replace = (part: string) => this.rewrite.reduce((result, [from, to]) => result.replace(from, to), part);
    // Feed ids and calendar UIDs stay the origin's: they name entries, not places.
    const changed = path.endsWith(".ics")
      ? rewriteCalendar(text, replace)
      : path.endsWith(".atom")
        ? rewriteAtom(text, replace)
        : replace(text);
    return changed === text ? undefined : changed;
  }

  /**
   * A large text file with this server's URLs in place of the build's, and its ETag. Requests for
   * one file share one read while it is read, and its bytes while any answer still holds them.
   */
  private rewritten(path: string): Promise<Rewritten | undefined> {
    const held = this.held.get(path)?.deref();
    if (held) return Promise.resolve(held);
    let reading = this.reading.get(path);
    if (!reading) {
      reading = readFile(join(this.distDir, path)).then(
        (body) => {
          const changed = this.rewriteText(path, body);
          if (changed === undefined) {
            this.unchanged.add(path);
            return undefined;
          }
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

const suffixOf = (encoding: Encoding) => (encoding === "br" ? ".br" : ".gz");

/** The headers every answer of a built file carries (a row or a host may add or replace some). */
function fileHeaders(path: string, etag: string): Record<string, string> {
  return {
    "content-type": contentTypeOf(path),
    "cache-control": /^site\/client\/_astro\//.test(path) ? IMMUTABLE_CACHE_CONTROL : READ_CACHE_CONTROL,
    etag,
    vary: "Accept-Encoding",
  };
}

function held(path: string, body: Buffer, hash: string, encoding: Encoding | undefined, rewritten: boolean): Held {
  const etag = etagOf(hash, encoding);
  const headers: Record<string, string> = { ...fileHeaders(path, etag), "content-length": String(body.length) };
  if (encoding) headers["content-encoding"] = encoding;
  return { body, etag, hash, rewritten, headers: Object.freeze(headers) };
}

/** Answers with a held representation: its headers as computed when it was read, then the caller's. */
function sendHeld(
  request: FastifyRequest,
  reply: FastifyReply,
  held: Held,
  extraHeaders: Record<string, string>,
  status: number,
): void {
  // The body is final: @fastify/compress must neither compress it again nor chunk it.
  request.headers["x-no-compression"] = "1";
  reply.headers(held.headers).headers(extraHeaders);
  if (status !== 200) {
    reply.code(status).header("cache-control", "no-store").send(held.body);
    return;
  }
  if (etagMatches(request.headers["if-none-match"], held.etag)) {
    reply.removeHeader("content-length");
    reply.removeHeader("content-encoding");
    reply.code(304).send();
    return;
  }
  reply.send(held.body);
}

/** Larger answers (a 500-service exit plan: 1 MB) are compressed on libuv's threads, not the event loop. */
const COMPRESS_OFF_THREAD_BYTES = 64 * 1024;
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** An answer's body compressed once to be kept (a computed answer, a rewritten file): brotli at quality 4. */
export function compress(encoding: Encoding, body: Buffer): Buffer | Promise<Buffer> {
  const brotli = { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } };
  if (body.length < COMPRESS_OFF_THREAD_BYTES)
    return encoding === "br" ? brotliCompressSync(body, brotli) : gzipSync(body);
  return encoding === "br" ? brotliAsync(body, brotli) : gzipAsync(body);
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
  // Clients send a handful of distinct headers: each is negotiated once per set of encodings.
  const key = `${available.join(",")}\0${header}`;
  const known = negotiated.get(key);
  if (known !== undefined || negotiated.has(key)) return known as E | undefined;
  const chosen = negotiate.negotiate(header.toLowerCase().replace(/\*|x-gzip/g, "gzip"), [...available]) ?? undefined;
  if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
  negotiated.set(key, chosen);
  return chosen;
}

/** Accept-Encoding headers (and the encodings offered) → the encoding chosen; cleared when full. */
const negotiated = new Map<string, string | undefined>();
const NEGOTIATED_MAX = 256;

/**
 * The one strong ETag scheme, for built files and computed answers alike: the first 32 hex digits
 * of the sha256 of the identity bytes, and the encoding, each being its own representation.
 */
export function etagOf(hash: string, encoding?: Encoding): string {
  return encoding ? `"${hash}-${encoding === "br" ? "br" : "gz"}"` : `"${hash}"`;
}

/**
 * Whether a `bytes=` Range names no byte of a `size`-byte file, read as @fastify/send reads it
 * (its parseBytesRange): `a-b`, `a-` and `-n`, past the end or malformed, none satisfiable.
 */
export function rangeUnsatisfiable(range: string, size: number): boolean {
  if (!/^ *bytes=/.test(range)) return false;
  return range
    .slice(range.indexOf("=") + 1)
    .split(",")
    .every((spec) => {
      const dash = spec.indexOf("-");
      let start = Number.parseInt(dash < 0 ? spec : spec.slice(0, dash), 10);
      let end = dash < 0 ? Number.NaN : Number.parseInt(spec.slice(dash + 1), 10);
      if (Number.isNaN(start)) [start, end] = [size - end, size - 1];
      else if (Number.isNaN(end) || end > size - 1) end = size - 1;
      return !(start > -1 && start <= end);
    });
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
