/**
 * buildApp(options) builds the API host's Fastify app and never listens (server.ts does). It
 * serves dist/api files when given the build, and computes everything else — or everything, when
 * given no build — from the catalogue through the routes registered from the contract table.
 */
import cors from "@fastify/cors";
import Fastify, { type FastifyInstance, type RouteHandlerMethod } from "fastify";
import { ENDPOINTS } from "../catalogue/contract/index.ts";
import type { Endpoint } from "../catalogue/contract/endpoint.ts";
import type { PublicUrls } from "../catalogue/base/urls.ts";
import type { Catalogue } from "../catalogue/load/load.ts";
import { serviceSearch } from "../catalogue/search/search.ts";
import { staticFileFor } from "../catalogue/outputs/static.ts";
import { answerBeforeIdleClose, answerConnect, answerExpectation, requireHost } from "./client-errors.ts";
import { stampDeadlines } from "./deadline.ts";
import { DOT_SEGMENT_DETAILS, refuseDotSegments } from "./dot-segments.ts";
import { answerMcp } from "../mcp/answer.ts";
import { guardMcpOrigin, mcpOriginPolicy } from "./mcp-origin.ts";
import { HeavyWorker, type CatalogueSource } from "./worker/pool.ts";
import { TemplateReader, UnreadBody } from "./threads/reader.ts";
import { gateUploads } from "./upload-gate.ts";
import type { Slots } from "./threads/slots.ts";
import { refuseDeepJson } from "./json-depth.ts";
import { duplicateKey, duplicateKeyDetails } from "./json-keys.ts";
import { lingerAfterRefusal } from "./linger.ts";
import { refuseRepeatedParameters } from "./repeated-params.ts";
import { cacheControl, splitRequestUrl, type BuiltFiles } from "./files.ts";
import { httpTimeouts, limitPipelining } from "./http-limits.ts";
import { fastifyOptions, PIPELINE_DETAILS, registerCompression, type HostConfig } from "./host-options.ts";
import errors, { errorBody, HttpError, sendError, toErrorBody } from "./plugins/errors.ts";
import { limitMisses } from "./plugins/miss-limit.ts";
import rateLimit from "./plugins/rate-limit.ts";
import securityHeaders from "./plugins/security-headers.ts";
import apiRoutes, { fastifyPath } from "./routes/api.ts";
import { StatusSampler } from "./status.ts";
import type { Store } from "./store/store.ts";

export interface AppOptions {
  readonly config: HostConfig;
  readonly catalogue: Catalogue;
  readonly store: Store;
  readonly urls: PublicUrls;
  /** The build in dist/; without it every read is computed. */
  readonly files?: BuiltFiles;
  readonly now?: () => Date;
  /** Start the status sampler (off in most tests). */
  readonly sampleStatus?: boolean;
  /** The contract table to serve; tests add rows to it. */
  readonly table?: readonly Endpoint[];
  /**
   * Where `catalogue` was loaded from: given, the heavy rows run in a worker thread that loads the
   * same (worker/pool.ts); absent (a catalogue made in memory), on the main thread, one at a time.
   */
  readonly catalogueSource?: CatalogueSource;
  /** Index the catalogue for search on the first query, not before: `npm run dev` swaps apps on each edit. */
  readonly searchIndexOnFirstQuery?: boolean;
  /** The heavy rows' thread, when the caller shares it (with the text host's pages: server.ts). */
  readonly heavyWorker?: HeavyWorker;
  /** The template readers, when the caller shares them (with the text host: server.ts); else the app's own. */
  readonly templateReader?: TemplateReader;
  /** The large uploads' slots, when the caller shares them (with the text host: server.ts); else the app's own. */
  readonly uploadSlots?: Slots;
}

/** Fastify's own errors for an empty or malformed JSON body (plugins/errors.ts words them). */
const fastifyError = (code: string) => Object.assign(new Error(code), { code, statusCode: 400 });

/**
 * A JSON body as Fastify's parser reads it, but nesting past MAX_JSON_DEPTH is a 400 (json-depth.ts),
 * so is a key given twice in one object (json-keys.ts, naming its path), and a prototype key is a
 * 400 naming it as an unknown key. JSON.parse makes "__proto__" an own property (it never sets the prototype); it is then found
 * and refused before any handler sees the object.
 */
export function parseJsonBody(text: string): unknown {
  if (text.length === 0) throw fastifyError("FST_ERR_CTP_EMPTY_JSON_BODY");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fastifyError("FST_ERR_CTP_INVALID_JSON_BODY");
  }
  refuseDeepJson(value);
  // A key twice in one object: JSON.parse kept the last silently (json-keys.ts).
  const twice = duplicateKey(text);
  if (twice !== undefined) throw new HttpError(400, "Invalid body", duplicateKeyDetails(twice));
  if (/__proto__|prototype/.test(text)) {
    const key = prototypeKey(value);
    if (key) throw new HttpError(400, "Invalid body", `body: unknown key "${key}"; no request body takes such a key`);
  }
  return value;
}

/** The first "__proto__" key, or "constructor" holding "prototype", anywhere in a parsed JSON value. */
function prototypeKey(value: unknown): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key === "__proto__") return key;
    if (key === "constructor" && inner !== null && typeof inner === "object" && Object.hasOwn(inner, "prototype"))
      return "constructor.prototype";
    const found = prototypeKey(inner);
    if (found) return found;
  }
  return undefined;
}

/**
 * The Fastify app with the plugin stack every API answer passes through: access log, time limits,
 * Host check, pipelining cap, the Error shape, security headers, CORS and compression. buildApp adds
 * the rate limits, the built files and the routes; the bench's reference (scripts/bench/stack.ts)
 * answers one kept body through it alone, which tells the routes' own cost from the stack's.
 */
export async function apiStack(
  config: HostConfig,
  options: { readonly https: boolean; readonly table?: readonly Endpoint[] },
): Promise<FastifyInstance> {
  const app = Fastify(fastifyOptions(config, (error, _request, reply) => void sendError(reply, toErrorBody(error))));
  answerConnect(app.server, "api");
  answerExpectation(app.server, "api");
  answerBeforeIdleClose(app.server, "api");
  stampDeadlines(app, httpTimeouts(config.timeouts).deadlineMs);
  requireHost(app, (_request, reply, { status, error, details }) =>
    sendError(reply, errorBody(status, error, details)),
  );
  refuseDotSegments(app, (_request, reply) => sendError(reply, errorBody(404, "Not found", DOT_SEGMENT_DETAILS)));
  refuseRepeatedParameters(app, (_request, reply, details) =>
    sendError(reply, errorBody(400, "Invalid query", details)),
  );
  limitPipelining(app, (_request, reply) => sendError(reply, errorBody(503, "Service unavailable", PIPELINE_DETAILS)));
  lingerAfterRefusal(app);
  // Its 404 handler answers 405 with Allow on the table's paths.
  await app.register(errors, { table: options.table ?? ENDPOINTS });
  // docs/design.md: a POST body that is not JSON is 415; Fastify would parse text/plain as a string.
  app.removeContentTypeParser("text/plain");
  // A "__proto__" key (or constructor.prototype) is refused as the unknown key it is, not as "not valid JSON".
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    // A template-reading row's body (4 MiB) is parsed in a reader process (threads/reader.ts), not here.
    if ((request.routeOptions.config as { readsTemplate?: boolean }).readsTemplate)
      return done(null, new UnreadBody(body as string));
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  await app.register(securityHeaders, {
    crossOriginResourcePolicy: { policy: "cross-origin" },
    contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    https: options.https,
  });
  await app.register(cors, {
    origin: "*",
    methods: ["GET", "HEAD", "POST", "OPTIONS"],
    // The MCP headers: a browser's MCP client sends Mcp-Protocol-Version on every request after initialize.
    allowedHeaders: [
      "Content-Type",
      "X-API-Key",
      "If-None-Match",
      "Idempotency-Key",
      "Mcp-Protocol-Version",
      "Mcp-Session-Id",
      "Last-Event-ID",
    ],
    // What cross-origin JavaScript may read beyond the CORS-safelisted headers.
    // Only headers the API sends (its rate limits report the bucket's limit alone); /mcp adds the
    // MCP transport's below, which a browser's MCP client reads.
    exposedHeaders: API_EXPOSED_HEADERS,
    maxAge: 86400,
    // An OPTIONS without preflight headers gets 204 too, not a text/plain 400.
    strictPreflight: false,
  });
  // A callback hook: an async one on every request costs each its own microtask hops.
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.routeOptions.url === "/mcp")
      reply.header("access-control-expose-headers", [...API_EXPOSED_HEADERS, ...MCP_EXPOSED_HEADERS].join(", "));
    done(null, payload);
  });
  await registerCompression(app);
  return app;
}

const API_EXPOSED_HEADERS = ["X-RateLimit-Limit", "Retry-After", "ETag"];
const MCP_EXPOSED_HEADERS = ["Mcp-Protocol-Version", "Mcp-Session-Id"];

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const table = options.table ?? ENDPOINTS;
  const files = options.files;
  const app = await apiStack(options.config, { https: options.urls.apiUrl.startsWith("https:"), table });
  // Build the search index now rather than on the first query (unless asked: dev's reload).
  if (!options.searchIndexOnFirstQuery) serviceSearch(options.catalogue);
  const status = new StatusSampler(options.catalogue, options.store, options.now);
  if (options.sampleStatus) status.start();
  app.addHook("onClose", async () => status.stop());
  guardMcpOrigin(app, mcpOriginPolicy(options.urls, options.config.MCP_ALLOWED_ORIGINS));
  await app.register(rateLimit, { store: options.store });
  limitMisses(app, options.store, "api");

  if (files) {
    await files.register(app);
    // A static row's built file answers instead of its handler, as a CDN or nginx would in production.
    // Only the routes of static rows look for one: a computed read (a search, a compare) does not.
    app.addHook("onRoute", (route) => {
      const methods = [route.method].flat();
      if (!methods.includes("GET") && !methods.includes("HEAD")) return;
      const rows = table.filter((row) => row.static && row.method === "GET" && fastifyPath(row) === route.url);
      if (rows.length === 0) return;
      const computed = route.handler;
      route.handler = async function (this: FastifyInstance, request, reply) {
        const { pathname, query } = splitRequestUrl(request.url);
        const found = staticFileFor(rows, pathname, query);
        const headers = { "cache-control": cacheControl(found?.row.cache ?? "public") };
        const asBuilt = found?.row.static?.asBuilt === true;
        if (found && (await files.send(request, reply, found.path, headers, 200, { asBuilt }))) return reply;
        return (computed as (...args: Parameters<RouteHandlerMethod>) => unknown).call(this, request, reply);
      };
    });
  }

  const heavyWorker =
    options.heavyWorker ??
    (options.catalogueSource ? new HeavyWorker(options.catalogueSource, options.urls, options.store) : undefined);
  if (heavyWorker) app.addHook("onClose", () => heavyWorker.close());
  const templateReader = options.templateReader ?? new TemplateReader();
  if (!options.templateReader) app.addHook("onClose", () => templateReader.close());
  gateUploads(
    app,
    (route) => (route.config as { readsTemplate?: boolean } | undefined)?.readsTemplate === true,
    httpTimeouts(options.config.timeouts),
    options.uploadSlots,
  );
  await app.register(apiRoutes, {
    ...(heavyWorker ? { heavyWorker } : {}),
    catalogue: options.catalogue,
    store: options.store,
    urls: options.urls,
    status,
    table,
    now: options.now ?? (() => new Date()),
    startedAt: Date.now(),
    answerMcp,
    templateReader,
  });
  return app;
}
