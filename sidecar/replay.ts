/**
 * Answers that cannot change, sent again from memory before Fastify routes the request: the built
 * files of the API host (what a CDN or nginx answers in production, DESIGN "Hosts"), the GET
 * answers of pure rows (which depend only on the catalogue and the URL, the same for the life of the
 * process) and the text host's built pages (negotiated by Accept, and counted against the client's
 * limit before each is sent: `admit`), at a fraction of the cost of Fastify's request cycle (hooks,
 * CORS, security headers, compress, validation, the access log line through Fastify's logger).
 *
 * The first two GETs of a URL in an encoding go through Fastify as any request does; the second's
 * status, headers and body are then kept, and later plain GETs of the same URL with the same
 * accepted encodings (and `varyOn` headers) get those bytes again. A URL asked for once (a client
 * that varies a parameter on every request) is only noted, so one-off URLs cost neither the copying
 * nor the memory. What is kept is what Fastify sent, so every header that plugins add stays exactly
 * as it was (but `perRequestHeaders`, which `admit` gives anew). Only requests with nothing else
 * that changes the answer are replayed: GET (not HEAD), no If-None-Match or Range, a URL that the
 * contract table maps to a built file or whose answer was marked (markReplayable), an answer of 200
 * that varies on Accept-Encoding and `varyOn` only and was sent as prepared. Everything else, and
 * the first two requests, go to Fastify.
 */
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from "node:http";
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyServerOptions,
  onResponseHookHandler,
  onSendHookHandler,
} from "fastify";
import { LRUCache } from "lru-cache";
import type { Endpoint } from "../catalogue/endpoint.ts";
import { staticFileFor } from "../catalogue/static.ts";
import { parseAcceptEncoding, splitRequestUrl } from "./files.ts";
import { SeenKeys } from "./seen-keys.ts";

interface Kept {
  /** Raw header pairs, as writeHead takes them: no Date (Node adds it), no connection headers. */
  readonly headers: string[];
  readonly body: Buffer;
  /** The access log with this answer's method, URL and status serialised once (a pino child's bindings). */
  readonly log: FastifyBaseLogger | undefined;
}

/** Headers Node writes per connection or per response itself. */
const PER_RESPONSE = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

const KEPT_BYTES = 8 * 1024 * 1024;
const SEEN_ONCE_SLOTS = 4096;
const ACCEPT_ENCODING_VALUES = 256;

/**
 * What this module notes on a request, as properties rather than in WeakMaps (a WeakMap's insert per
 * request showed in the profile): its key, computed once (building and hashing it again was 4–5 %
 * where every URL is new), whether its answer may be kept, and the body Fastify sent.
 */
const KEY = Symbol("replay key");
const REPLAYABLE = Symbol("replayable");
const PAYLOAD = Symbol("replay payload");
interface Noted extends IncomingMessage {
  [KEY]?: string | undefined;
  [REPLAYABLE]?: true;
  [PAYLOAD]?: Buffer;
}

export interface ReplayOptions {
  /** Whether replayed answers get an access line (the level logs requests). */
  readonly log: boolean;
  /** The client's address as Fastify's request.ip gives it (limit-store.ts clientAddress). */
  readonly clientOf: (request: IncomingMessage) => string;
  /** Request headers besides Accept-Encoding that answers may vary on (the text host's Accept): part of the key. */
  readonly varyOn?: readonly string[];
  /** Response headers that differ from one request to the next: not kept, `admit` gives them. */
  readonly perRequestHeaders?: readonly string[];
  /**
   * Asked before a kept answer is sent again: the per-request headers to add (raw name/value
   * pairs), or undefined to hand the request to Fastify. The text host counts the request against
   * its per-client limit here and gives its limiter's headers, so a replayed page is counted and
   * answered as any other.
   */
  readonly admit?: (request: IncomingMessage, client: string) => string[] | undefined;
}

/**
 * Marks a request whose answer depends on its URL and negotiated headers alone (a pure row's GET, a
 * built page), so it may be kept.
 */
export function markReplayable(request: IncomingMessage): void {
  (request as Noted)[REPLAYABLE] = true;
}

export class Replay {
  private readonly kept = new LRUCache<string, Kept>({
    maxSize: KEPT_BYTES,
    sizeCalculation: (value, key) => value.body.length + key.length + 256,
  });
  /** Keys answered once by Fastify: kept on their second answer. */
  private readonly seenOnce = new SeenKeys(SEEN_ONCE_SLOTS);
  private app: FastifyInstance | undefined;
  private readonly table: readonly Endpoint[];
  private readonly log: boolean;
  private readonly varyOn: readonly string[];
  private readonly admit: ReplayOptions["admit"];
  /** Headers Node writes itself, and those `admit` gives per request: not kept. */
  private readonly notKept: ReadonlySet<string>;
  private readonly clientOf: ReplayOptions["clientOf"];

  constructor(table: readonly Endpoint[], options: ReplayOptions) {
    this.table = table;
    this.log = options.log;
    this.varyOn = options.varyOn ?? [];
    this.admit = options.admit;
    this.notKept = new Set([...PER_RESPONSE, ...(options.perRequestHeaders ?? [])]);
    this.clientOf = options.clientOf;
  }

  /**
   * Fastify's `serverFactory`: an HTTP server that replays kept answers and hands the rest to Fastify.
   * The requests read in one poll phase of the event loop are answered together in the check phase
   * that follows (setImmediate), not each as soon as it is parsed: their responses then leave in one
   * burst, which finds the client's thread awake rather than waking it for nearly every response
   * (in this VM the wakeup's share of the server's time fell from 18 % to 6 %). Paired with the code
   * before: the embedded POST rows ×2.3–2.4, a new search URL ×2.2, replayed answers +22–25 %
   * (BENCHMARKS.md). No request waits for more than the batch it came with.
   */
  serverFactory = (
    handler: (request: IncomingMessage, response: ServerResponse) => void,
    options: FastifyServerOptions,
  ): Server => {
    let requests: IncomingMessage[] = [];
    let responses: ServerResponse[] = [];
    const answerBatch = () => {
      const [batchRequests, batchResponses] = [requests, responses];
      [requests, responses] = [[], []];
      for (let i = 0; i < batchRequests.length; i++)
        if (!this.replay(batchRequests[i]!, batchResponses[i]!)) handler(batchRequests[i]!, batchResponses[i]!);
    };
    const server = createServer((options as { http?: ServerOptions }).http ?? {}, (request, response) => {
      responses.push(response);
      if (requests.push(request) === 1) setImmediate(answerBatch);
    });
    // What Fastify sets on the servers it creates itself (fastify/lib/server.js).
    server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
    server.requestTimeout = options.requestTimeout ?? 0;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };

  /**
   * Starts keeping the static answers of `app`, whose server this is. Only GET answers are kept, so
   * the hooks go on GET routes alone: every hook a route has costs each of its requests a call.
   */
  attach(app: FastifyInstance): void {
    this.app = app;
    const onSend: onSendHookHandler = (request, _reply, payload, done) => {
      const raw = request.raw as Noted;
      if (payload instanceof Buffer && raw[KEY] !== undefined) raw[PAYLOAD] = payload;
      done(null, payload);
    };
    const onResponse: onResponseHookHandler = (request, reply, done) => {
      if ((request.raw as Noted)[PAYLOAD]) this.keep(request.raw, reply);
      done();
    };
    app.addHook("onRoute", (route) => {
      if (![route.method].flat().includes("GET")) return;
      route.onSend = [onSend, ...[route.onSend ?? []].flat()];
      route.onResponse = [onResponse, ...[route.onResponse ?? []].flat()];
    });
  }

  /** Accept-Encoding values seen → encodingsOf's answer: clients send few distinct values. */
  private readonly encodingsByHeader = new Map<string, string>();

  /** What files.ts chooses the encoding from: which of br and gzip the client accepts. */
  private encodingsOf(request: IncomingMessage): string {
    const header = request.headers["accept-encoding"];
    if (!header) return "";
    let encodings = this.encodingsByHeader.get(header);
    if (encodings === undefined) {
      const accepted = parseAcceptEncoding(header);
      encodings = `${accepted.has("br") ? "br" : ""}+${accepted.has("gzip") ? "gzip" : ""}`;
      if (this.encodingsByHeader.size >= ACCEPT_ENCODING_VALUES) this.encodingsByHeader.clear();
      this.encodingsByHeader.set(header, encodings);
    }
    return encodings;
  }

  /** The request's key in `kept`, or undefined when its answer is not to be kept or replayed. */
  private keyOf(request: IncomingMessage): string | undefined {
    const url = request.url;
    if (request.method !== "GET" || !url || !this.app) return undefined;
    const headers = request.headers;
    if (headers["if-none-match"] !== undefined || headers.range !== undefined) return undefined;
    let key = `${this.encodingsOf(request)} ${url}`;
    for (const name of this.varyOn) key += `\n${String(headers[name] ?? "")}`;
    return key;
  }

  /** Sends the kept answer for this request; false hands it to Fastify. Every request comes here first. */
  private replay(request: IncomingMessage, response: ServerResponse): boolean {
    const key = this.keyOf(request);
    (request as Noted)[KEY] = key;
    if (key === undefined) return false;
    const kept = this.kept.get(key);
    if (!kept) return false;
    const client = this.admit || kept.log ? this.clientOf(request) : "";
    const added = this.admit?.(request, client);
    if (this.admit && !added) return false;
    response.writeHead(200, added?.length ? kept.headers.concat(added) : kept.headers);
    response.end(kept.body);
    kept.log?.info({ ip: client }, "request");
    return true;
  }

  /** Keeps an answer Fastify sent, if it is a built file's that may be replayed. */
  private keep(request: Noted, reply: FastifyReply): void {
    const key = request[KEY];
    const body = request[PAYLOAD];
    if (key === undefined || body === undefined || reply.statusCode !== 200) return;
    if (!request[REPLAYABLE]) {
      const { pathname, query } = splitRequestUrl(request.url!);
      if (!staticFileFor(this.table, pathname, query)) return;
    }
    if (!this.seenOnce.seen(key)) return;
    const headers = reply.getHeaders();
    const vary = String(headers.vary ?? "").toLowerCase();
    const keyed = (name: string) => name === "accept-encoding" || this.varyOn.includes(name);
    if (vary.split(",").some((name) => name.trim() && !keyed(name.trim()))) return;
    // Sent as it was prepared: not transformed after this body was seen.
    if (Number(headers["content-length"]) !== body.length) return;
    const pairs: string[] = [];
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined || this.notKept.has(name.toLowerCase())) continue;
      for (const one of Array.isArray(value) ? value : [value]) pairs.push(name, String(one));
    }
    const log = this.log ? this.app!.log.child({ method: "GET", url: request.url, status: 200 }) : undefined;
    this.kept.set(key, { headers: pairs, body, log });
  }
}
