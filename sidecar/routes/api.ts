/**
 * Registers every row of a contract table (catalogue/contract/) on the API host. The one
 * generic handler validates query, params and body against the row's zod schemas (400 in the
 * Error shape), calls the row's handler, and sends the answer with the row's cache policy.
 * Static rows are registered too and computed on the fly: the build writes the same bytes.
 */
import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { LRUCache } from "lru-cache";
import { answerRow, rowInput, type RowInput } from "../../catalogue/contract/run.ts";
import type { Deployment } from "../../catalogue/templates/read.ts";
import {
  serializeJson,
  type Endpoint,
  type OperationContext,
  type Result,
  type TemplateReading,
} from "../../catalogue/contract/endpoint.ts";
import { MAX_BODY_BYTES, type BucketName } from "../../catalogue/base/limits.ts";
import { acceptedEncoding, cacheControl, compress, etagMatches, etagOf } from "../files.ts";
import type { HeavyWorker, WorkerResult } from "../worker/pool.ts";
import { TemplateReader, UnreadBody, type ReadOptions, type ReadTemplate } from "../threads/reader.ts";
import { httpError } from "../worker/messages.ts";
import { Slots } from "../threads/slots.ts";
import { beforeDeadline, deadlineOf } from "../deadline.ts";
import { HttpError } from "../plugins/errors.ts";
import { clientKey } from "../plugins/limit-store.ts";
import { bucketConfig, countIn } from "../plugins/rate-limit.ts";
import type { Store } from "../store/store.ts";

/** Fastify's route syntax for an OpenAPI path template; a rest parameter becomes the wildcard. */
export function fastifyPath(row: Endpoint): string {
  const path = row.path.replace(/\{(\w+)\}/g, ":$1");
  return row.restParam ? path.replace(/:\w+$/, "*") : path;
}

/** A response ready to send: computed once, then possibly served again from the cache. */
export interface Prepared<B extends Buffer | string = Buffer | string> {
  /** Epoch ms after which a kept copy must not be served. */
  readonly until: number;
  readonly status: number;
  readonly contentType: string;
  /** Content-Disposition, for an answer that is a file to save (CSV). */
  readonly disposition: string | undefined;
  /**
   * A kept answer's body is encoded once, so that it is not re-encoded to UTF-8 on every send. An
   * answer sent once stays text: Node then writes it with the headers as one string.
   */
  readonly body: B;
  /** The body's hash, whose ETag each encoding names (files.ts etagOf); GET answers only. */
  readonly hash: string | undefined;
  /**
   * A kept answer's compressed forms, each made on its first request (`send`): the promise is kept,
   * so requests that arrive while it is being made wait for it rather than each compress the body
   * again (1,600 pipelined requests for one answer took the process past 1 GB).
   */
  readonly encoded: Partial<Record<(typeof COMPRESSED)[number], Buffer | Promise<Buffer>>>;
}

/** @fastify/compress's threshold and encodings (app.ts): smaller answers are sent as they are. */
const COMPRESS_MIN_BYTES = 1024;
const COMPRESSED = ["br", "gzip"] as const;

const until = (result: Result) => result.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;

/**
 * Whether a row's answers carry an ETag: a GET's that a cache may keep. A `no-store` answer (health,
 * status) is never kept, so nothing would revalidate it: its body is not hashed for each request.
 */
const revalidated = (row: Endpoint) => row.method === "GET" && row.cache !== "no-store";

/**
 * Whether a row's answers are kept here, so that a repeated request costs a lookup: a pure row's,
 * and a GET's with an expiry (a saved list and what derives from it). A `no-store` GET that is not
 * pure (health, status) is computed for each request and never looked up: its input is not
 * serialised for a key, nor its answer shared with the requests beside it.
 */
const mayKeep = (row: Endpoint) =>
  row.pure === true || (row.cache !== "no-store" && (row.cache === "until-expiry" || row.method === "GET"));

function prepare<B extends Buffer | string>(row: Endpoint, result: Result, encode: (text: string) => B): Prepared<B> {
  // A binary answer (the register's report package) is sent as its bytes, never as text.
  const body =
    "bytes" in result && result.bytes
      ? (Buffer.from(result.bytes) as B)
      : encode("text" in result ? result.text : serializeJson(result.body));
  return {
    until: until(result),
    status: result.status ?? row.response.status,
    contentType: "contentType" in result ? result.contentType : "application/json; charset=utf-8",
    disposition: "filename" in result && result.filename ? `attachment; filename="${result.filename}"` : undefined,
    body,
    hash: revalidated(row) ? createHash("sha256").update(body).digest("hex").slice(0, 32) : undefined,
    encoded: {},
  };
}

/**
 * Sends a prepared answer. A kept one (a Buffer) is compressed once per encoding and kept beside
 * its body: @fastify/compress compresses every answer again, synchronously, and that made the
 * repeated dynamic GETs 5-30x slower (BENCHMARKS.md); it lets an answer that has its
 * Content-Encoding pass. Others are left to @fastify/compress.
 */
async function send(request: FastifyRequest, reply: FastifyReply, row: Endpoint, prepared: Prepared, now: number) {
  reply.code(prepared.status).header("cache-control", cacheControl(row.cache, prepared.until, now));
  const body = prepared.body;
  const size = typeof body === "string" ? Buffer.byteLength(body) : body.length;
  // An accepted message with nothing to say (an MCP notification's 202) has no body to type.
  if (size === 0 && prepared.status === 202) return reply.send();
  reply.type(prepared.contentType);
  if (prepared.disposition) reply.header("content-disposition", prepared.disposition);
  // What the answer depends on besides the URL, whichever representation this request gets: the
  // Accept of a negotiated row (an exit plan as JSON, Markdown or CSV), and Accept-Encoding when
  // it is large enough to be compressed.
  const vary = [
    ...(row.response.alternates?.length ? ["Accept"] : []),
    ...(size >= COMPRESS_MIN_BYTES ? ["Accept-Encoding"] : []),
  ];
  if (vary.length > 0) reply.header("vary", vary.join(", "));
  const encoding =
    size >= COMPRESS_MIN_BYTES ? acceptedEncoding(request.headers["accept-encoding"], COMPRESSED) : undefined;
  if (prepared.hash) {
    // Each encoding is its own representation: its own strong ETag, as for the built files.
    const etag = etagOf(prepared.hash, encoding);
    reply.header("etag", etag);
    if (etagMatches(request.headers["if-none-match"], etag)) return reply.code(304).send();
  }
  if (!encoding || typeof body === "string") return reply.send(body);
  const encoded = await (prepared.encoded[encoding] ??= compress(encoding, body));
  return reply.header("content-encoding", encoding).send(encoded);
}

export const RESPONSE_CACHE_BYTES = 16 * 1024 * 1024;
/** Kept answers larger than RESPONSE_CACHE_BYTES (the catalogue dump is the one the contract has). */
const LARGE_ANSWERS_KEPT = 2;
/** What the URLs remembered with the key of their kept answer hold at most (characters of both). */
const URL_KEYS_SIZE = 2 * 1024 * 1024;

/** Computations of heavy rows run one at a time; beyond this many waiting, 503. */
export const HEAVY_WAITING_MAX = 256;
/**
 * Off-thread rows' requests (/mcp) in the worker at once: enough to hide the round trip between
 * the threads; the rest wait here (up to HEAVY_WAITING_MAX, then 503), already read and parsed.
 */
export const OFF_THREAD_SLOTS = 8;

/**
 * A row whose answer is computed at some cost (a policy, an export, an exit plan, a saved list's
 * exit plan): those the contract counts in a bucket, but for the writes, whose cost is the store's.
 */
export const isHeavy = (row: Endpoint) => row.bucket !== undefined && (row.pure === true || row.method === "GET");

const computationsBusy = () =>
  Object.assign(
    new HttpError(503, "Service unavailable", "Too many computations are waiting; retry in a few seconds."),
    { retryAfter: 5 },
  );

/** The kept answers, the key of each by the URL that asked for it, and the answers being computed. */
export function keptAnswers() {
  // Answers of pure rows (and saved lists, until a read would renew them) are kept, so a repeated query costs a lookup.
  // Room for the compressed forms too (a fraction of the body each), made after the answer is kept.
  const sizeOf = (value: Prepared<Buffer>, key: string) =>
    value.body.length + (value.body.length >> 1) + key.length + 64;
  const small = new LRUCache<string, Prepared<Buffer>>({ maxSize: RESPONSE_CACHE_BYTES, sizeCalculation: sizeOf });
  // An answer too large for that cache (the 24 MB catalogue dump, computed while `npm start` builds
  // dist/) is kept apart: computed and compressed again for each request, 200 pipelining readers
  // took the process past 2 GB.
  const large = new LRUCache<string, Prepared<Buffer>>({ max: LARGE_ANSWERS_KEPT });
  const kept = {
    get: (key: string) => small.get(key) ?? large.get(key),
    set: (key: string, value: Prepared<Buffer>) =>
      void (sizeOf(value, key) > RESPONSE_CACHE_BYTES ? large : small).set(key, value),
  };
  // A GET whose input is its URL alone (no header is an input) finds its kept answer's key by
  // its URL, without validating and serialising its query again: the key of a URL that was valid.
  const keyByUrl = new LRUCache<string, string>({
    maxSize: URL_KEYS_SIZE,
    sizeCalculation: (key, url) => key.length + url.length + 64,
  });
  // Requests for an answer being computed wait for that computation rather than start another.
  const computing = new Map<string, Promise<Prepared<Buffer> | undefined>>();
  return { kept, keyByUrl, computing };
}

export default fp(
  async (
    app: FastifyInstance,
    context: OperationContext & { readonly heavyWorker?: HeavyWorker; readonly templateReader?: TemplateReader },
  ) => {
    const { kept, keyByUrl, computing } = keptAnswers();
    // Both take their waiting clients in turn; one client holds at most half of /mcp's slots.
    const heavy = new Slots(1, HEAVY_WAITING_MAX, computationsBusy);
    const offThread = new Slots(OFF_THREAD_SLOTS, HEAVY_WAITING_MAX, computationsBusy, {
      perClient: OFF_THREAD_SLOTS / 2,
    });
    const reader = context.templateReader ?? new TemplateReader();
    if (!context.templateReader) app.addHook("onClose", () => reader.close());
    for (const row of context.table) {
      const keep = mayKeep(row);
      app.route({
        method: row.method,
        url: fastifyPath(row),
        bodyLimit: row.bodyLimit ?? MAX_BODY_BYTES,
        // missBucket: plugins/miss-limit.ts meters the row's misses.
        config: {
          ...(row.bucket ? bucketConfig(row.bucket) : {}),
          ...(row.missBucket ? { missBucket: row.missBucket } : {}),
          ...(row.readsTemplate ? { readsTemplate: true } : {}),
        },
        handler: async (request, reply) => {
          const byUrl = keep && row.method === "GET" && !row.headers ? `${row.operationId}\0${request.url}` : undefined;
          const known = byUrl === undefined ? undefined : keyByUrl.get(byUrl);
          if (known !== undefined) {
            const now = context.now().getTime();
            const hit = kept.get(known);
            if (hit && hit.until > now) return send(request, reply, row, hit, now);
          }
          const params = row.restParam ? renameRest(row, request.params) : request.params;
          const deadline = deadlineOf(request); // every wait below ends at it with a 503 (../deadline.ts)
          const client = clientKey(request.ip);
          // Only a template left unread waits for its reader; any other body is as parsed.
          const { body, deployment, refusal }: ReadTemplate =
            request.body instanceof UnreadBody
              ? await readBody(request.body, reader, { deadline, client })
              : { body: request.body };
          const input = rowInput(row, { query: request.query, params, body, headers: request.headers });
          if (refusal) throw httpError(refusal);
          const now = context.now().getTime();
          const key = keep ? `${row.operationId}\0${JSON.stringify(input)}` : undefined;
          if (byUrl !== undefined && key !== undefined) keyByUrl.set(byUrl, key);
          const hit = key ? kept.get(key) : undefined;
          if (hit && hit.until > now) return send(request, reply, row, hit, now);
          const shared = key && computing.has(key) ? await beforeDeadline(computing.get(key)!, deadline) : undefined;
          if (shared && shared.until > now) return send(request, reply, row, shared, now);
          const handle = rowRunner(row, context, reader, request, { input, deployment, client, deadline });
          const queue = isHeavy(row) ? heavy : row.offThread ? offThread : undefined;
          const computed = queue ? queue.run(handle, { deadline, client }) : handle();
          // A pure row's answer is kept; another's only while it has an expiry (a saved list).
          const keeping =
            key === undefined
              ? undefined
              : Promise.resolve(computed).then((result) =>
                  row.pure === true || until(result) !== Number.POSITIVE_INFINITY
                    ? prepare(row, result, (text) => Buffer.from(text))
                    : undefined,
                );
          if (key !== undefined && keeping) {
            computing.set(key, keeping);
            void keeping.then(
              (prepared) => {
                if (prepared) kept.set(key, prepared);
                computing.delete(key);
              },
              () => computing.delete(key),
            );
            const prepared = await keeping;
            if (prepared) return send(request, reply, row, prepared, now);
          }
          const result: WorkerResult = await computed;
          // An off-thread row's answer is a Buffer, so that send uses the form the worker compressed.
          const prepared = prepare(row, result, (text) => (row.offThread ? Buffer.from(text) : text));
          if (result.encoded) prepared.encoded[result.encoded.encoding] = result.encoded.body;
          return send(request, reply, row, prepared, now);
        },
      });
    }
  },
  { name: "api-routes", dependencies: ["errors", "rate-limit"] },
);

/**
 * A readsTemplate row's body was left unread (app.ts): its template is read in a reader process,
 * and its refusal thrown once the rest of the body is valid.
 */
async function readBody(body: UnreadBody, reader: TemplateReader, options: ReadOptions): Promise<ReadTemplate> {
  // Taken from the request: once the reader has it, the server holds no copy of the 4 MiB text.
  return reader.read({ body: body.take() }, options);
}

/**
 * What computes a row's answer for a request: the heavy thread's job when the row runs there, else
 * its handler here. A template the row is given unread (MCP's check_deployment) is read by the
 * readers, in this request's turn.
 */
function rowRunner(
  row: Endpoint,
  context: OperationContext & { readonly heavyWorker?: HeavyWorker },
  reader: TemplateReader,
  request: FastifyRequest,
  {
    input,
    deployment,
    client,
    deadline,
  }: { input: RowInput; deployment: Deployment | undefined; client: string; deadline: number | undefined },
): () => Promise<WorkerResult> | Result | Promise<Result> {
  const pooled = (isHeavy(row) || row.offThread) && context.heavyWorker?.runs(row) ? context.heavyWorker : undefined;
  const counter = (bucket: BucketName) => countIn(context.store as Store, bucket, request.ip);
  // An off-thread row's answer, new for each request, is compressed there too.
  const encoding = row.offThread ? acceptedEncoding(request.headers["accept-encoding"], COMPRESSED) : undefined;
  const compressed = encoding ? { encoding, minBytes: COMPRESS_MIN_BYTES } : undefined;
  const readTemplate = templateReading(reader, { deadline, client });
  return () => {
    const worker = pooled && (row.offThread || pooled.running) ? pooled : undefined;
    // A heavy row that finds the thread ended after its idle time runs here (at most 0.34 s of this
    // thread, one at a time), the thread started for those after it (issue 125: the first answer
    // after idle waited seconds for the thread to load the catalogue). /mcp's stay in the thread.
    if (pooled && !worker) pooled.warm();
    return worker
      ? worker.run(row.operationId, { ...input, client, deployment }, context.now(), counter, compressed, {
          deadline,
          readTemplate,
        })
      : answerRow(row, { ...context, readTemplate }, input, { client, countIn: counter, deployment });
  };
}

/** Reads a template given unread in the readers (for `deadline` and `client`): its deployment, or the refusal thrown. */
function templateReading(reader: TemplateReader, options: ReadOptions): TemplateReading {
  return async (what) => {
    const read = await reader.read(what, options);
    if (read.refusal) throw httpError(read.refusal);
    if (!read.deployment) throw new HttpError(400, "Invalid template", "The template could not be read.");
    return read.deployment;
  };
}

/** Fastify names a wildcard "*"; the row names it after its last path parameter. */
function renameRest(row: Endpoint, params: unknown): Record<string, unknown> {
  const { "*": rest, ...named } = params as Record<string, unknown>;
  const last = /\{(\w+)\}$/.exec(row.path)?.[1] ?? "path";
  return { ...named, [last]: rest };
}
