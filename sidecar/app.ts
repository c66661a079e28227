/**
 * buildApp(options) builds the API host's Fastify app and never listens (server.ts does). It
 * serves dist/api files when given the build, and computes everything else — or everything, when
 * given no build — from the catalogue through the routes registered from the contract table.
 */
import compress from "@fastify/compress";
import cors from "@fastify/cors";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type onRequestAsyncHookHandler,
} from "fastify";
import { ENDPOINTS } from "../catalogue/contract.ts";
import type { Endpoint, PublicUrls } from "../catalogue/endpoint.ts";
import { MAX_BODY_BYTES, MAX_PARAM_LENGTH } from "../catalogue/limits.ts";
import type { Catalogue } from "../catalogue/load.ts";
import { serviceSearch } from "../catalogue/search.ts";
import { staticFileFor } from "../catalogue/static.ts";
import type { ConfigT } from "./config.ts";
import { clientErrorHandler } from "./client-errors.ts";
import { loggerOptions, logsRequests } from "./logging.ts";
import { cacheControl, splitRequestUrl, type BuiltFiles } from "./files.ts";
import { timeoutOptions, type HttpTimeouts } from "./http-limits.ts";
import errors, { sendError, toErrorBody } from "./plugins/errors.ts";
import { clientAddress, trustedProxy } from "./plugins/limit-store.ts";
import rateLimit from "./plugins/rate-limit.ts";
import securityHeaders from "./plugins/security-headers.ts";
import apiRoutes from "./routes/api.ts";
import { Replay } from "./replay.ts";
import { StatusSampler } from "./status.ts";
import type { Store } from "./store/store.ts";

export interface AppOptions {
  readonly config: Pick<ConfigT, "TRUST_PROXY" | "LOG_LEVEL"> & { readonly timeouts?: Partial<HttpTimeouts> };
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
}

type FrameworkErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;

/** Options both hosts share; `onFrameworkError` answers malformed URLs and over-long path parameters. */
export function fastifyOptions(
  config: AppOptions["config"],
  onFrameworkError: FrameworkErrorHandler,
  host: "api" | "text" = "api",
) {
  return {
    ...timeoutOptions(config.timeouts),
    clientErrorHandler: clientErrorHandler(host),
    // One access line per request, written asynchronously (logging.ts).
    ...loggerOptions(config.LOG_LEVEL),
    bodyLimit: MAX_BODY_BYTES,
    // TRUST_PROXY unset: the socket address is the client. Set: only the listed proxies may speak for it.
    trustProxy: config.TRUST_PROXY && config.TRUST_PROXY.length > 0 ? trustedProxy(config.TRUST_PROXY) : false,
    // The text host's /compare/{a,b,…} takes up to ten slugs in one parameter.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH[host], ignoreTrailingSlash: true },
    onProtoPoisoning: "error" as const,
    onConstructorPoisoning: "error" as const,
    return503OnClosing: true,
    forceCloseConnections: true,
    // Fastify answers these before routing, outside the app's error handler.
    frameworkErrors: onFrameworkError,
  };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const table = options.table ?? ENDPOINTS;
  const files = options.files;
  // Built files and pure answers sent again from memory before Fastify routes the request (replay.ts).
  const replay = new Replay(table, {
    log: logsRequests(options.config.LOG_LEVEL),
    clientOf: clientAddress(options.config.TRUST_PROXY),
  });
  const app = Fastify({
    ...fastifyOptions(options.config, (error, _request, reply) => void sendError(reply, toErrorBody(error))),
    serverFactory: replay.serverFactory,
  });
  replay.attach(app);
  // Build the search index now rather than on the first query.
  serviceSearch(options.catalogue);
  const status = new StatusSampler(options.catalogue, options.store, options.now);
  if (options.sampleStatus) status.start();
  app.addHook("onClose", async () => status.stop());

  await app.register(errors);
  // DESIGN: a POST body that is not JSON is 415; Fastify would parse text/plain as a string.
  app.removeContentTypeParser("text/plain");
  await app.register(securityHeaders, {
    crossOriginResourcePolicy: { policy: "cross-origin" },
    contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    https: options.urls.apiUrl.startsWith("https:"),
  });
  await app.register(cors, {
    origin: "*",
    methods: ["GET", "HEAD", "POST", "OPTIONS"],
    allowedHeaders: ["Content-Type", "X-API-Key", "If-None-Match", "Idempotency-Key"],
    maxAge: 86400,
    // An OPTIONS without preflight headers gets 204 too, not a text/plain 400.
    strictPreflight: false,
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ["br", "gzip"] });
  await app.register(rateLimit, { store: options.store });

  if (files) {
    // A static row's built file answers before its handler, as a CDN or nginx would in production.
    // Only GET and HEAD routes have built files, so only they get the hook (a hook costs each request).
    const sendBuiltFile: onRequestAsyncHookHandler = async (request, reply) => {
      const { pathname, query } = splitRequestUrl(request.url);
      const found = staticFileFor(table, pathname, query);
      if (found && (await files.send(request, reply, found.path, { "cache-control": cacheControl(found.row.cache) })))
        return reply;
      return undefined;
    };
    app.addHook("onRoute", (route) => {
      const methods = [route.method].flat();
      if (methods.includes("GET") || methods.includes("HEAD"))
        route.onRequest = [...[route.onRequest ?? []].flat(), sendBuiltFile];
    });
  }

  await app.register(apiRoutes, {
    catalogue: options.catalogue,
    store: options.store,
    urls: options.urls,
    status,
    table,
    now: options.now ?? (() => new Date()),
    startedAt: Date.now(),
  });
  return app;
}
