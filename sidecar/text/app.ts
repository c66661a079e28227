/**
 * buildTextApp(options) builds the text host: the same catalogue at short paths, negotiated per
 * request (render.ts), its routes (the rows of routes.ts), the API same-origin under /v1/
 * (api-forward.ts), security headers and TEXT_HOST_LIMIT requests a minute per client.
 */
import { mcpOriginPolicy } from "../mcp-origin.ts";
import { TemplateReader } from "../threads/reader.ts";
import type { Slots } from "../threads/slots.ts";
import { uploadSlots } from "../upload-gate.ts";
import { ERRORS, titleOfStatus, type ErrorTitle } from "../../catalogue/base/error-catalogue.ts";
import { isHttpError } from "../../catalogue/base/problem.ts";
import { createHash } from "node:crypto";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import type { PublicUrls } from "../../catalogue/contract/endpoint.ts";
import { TEXT_HOST_LIMIT } from "../../catalogue/base/limits.ts";
import type { Catalogue } from "../../catalogue/load/load.ts";
import { JS_ONLY_SCRIPT, THEME_SCRIPT } from "../../catalogue/render/theme.ts";
import { fastifyOptions, PIPELINE_DETAILS, registerCompression, type HostConfig } from "../host-options.ts";
import { answerBeforeIdleClose, answerConnect, answerExpectation, requireHost } from "../client-errors.ts";
import { stampDeadlines } from "../deadline.ts";
import { DOT_SEGMENT_DETAILS, refuseDotSegments } from "../dot-segments.ts";
import type { BuiltFiles } from "../files.ts";
import { httpTimeouts, limitPipelining } from "../http-limits.ts";
import { lingerAfterRefusal } from "../linger.ts";
import { refuseRepeatedParameters } from "../repeated-params.ts";
import {
  allowedMethods as apiAllowedMethods,
  isApiPath,
  sendError,
  sendMethodNotAllowed,
  toErrorBody,
} from "../plugins/errors.ts";
import { clientKey, limitStore } from "../plugins/limit-store.ts";
import { limitMisses } from "../plugins/miss-limit.ts";
import securityHeaders from "../plugins/security-headers.ts";
import type { Store } from "../store/store.ts";
import { forwardApi } from "./api-forward.ts";
import { ComputedPages, type PageWorker } from "./computed.ts";
import { terminalWidth, TextReplies } from "./render.ts";
import type { TextContext } from "./context.ts";
import { allowedMethods, bucketOf, registerTextRoutes } from "./routes.ts";
import { SitePages, type SiteHandler } from "./site-page.ts";
import { limitPage } from "./site.ts";

export { loadSiteHandler, siteEntry, type SiteHandler } from "./site-page.ts";

export interface TextAppOptions {
  readonly config: HostConfig & { NO_COLOR?: string | undefined };
  readonly catalogue: Catalogue;
  readonly store: Store;
  readonly files?: BuiltFiles;
  /** Requests per minute per IP; the contract's TEXT_HOST_LIMIT unless a test needs more. */
  readonly perMinute?: number;
  /** The API app: the text host answers /v1/* through it, so the site calls its API same-origin. */
  readonly api?: FastifyInstance;
  /** The public URLs: https turns on HSTS; the site's on-demand pages link the API's. */
  readonly urls?: PublicUrls;
  /**
   * The thread computed pages run in (the API's heavy computations' thread, given the site's
   * entry); without it they run on this thread, one at a time (computed.ts).
   */
  readonly pageWorker?: PageWorker;
  /** The site's on-demand handler (dist/site/server/entry.mjs), for /lists/{id} in HTML. */
  readonly siteHandler?: SiteHandler;
  /** The template readers, when the caller shares them (with the API host: server.ts); else the host's own. */
  readonly templateReader?: TemplateReader;
  /** The large uploads' slots, when the caller shares them (with the API host: server.ts); else the host's own. */
  readonly uploadSlots?: Slots;
}

/**
 * The pages' list parameters that the site's no-JS forms send once per ticked checkbox (compare's
 * ids, the matrix's providers): joined as one comma-separated list, never refused as repeated.
 */
// "width" is refused when repeated by its own check (render.ts terminalWidth), which says how to give it.
const FORM_LIST_PARAMETERS: ReadonlySet<string> = new Set(["ids", "providers", "width", "jurisdictions", "exclude"]);

/** The CSP source expression that allows the site's one inline script, THEME_SCRIPT. */
const THEME_SCRIPT_HASH = `'sha256-${createHash("sha256").update(THEME_SCRIPT).digest("base64")}'`;
/** And the one that puts JavaScript-only controls in place (JS_ONLY_SCRIPT, site/src/components/JsOnly.astro). */
const JS_ONLY_SCRIPT_HASH = `'sha256-${createHash("sha256").update(JS_ONLY_SCRIPT).digest("base64")}'`;

/**
 * Not counted against the limit: the site's assets come with every page view (a CDN serves them in
 * production), and so do the list builder's, the exit planner's and the search's data files
 * (/search-index.json, which the search page fetches: it was counted, issue 101); /v1/* is the API's,
 * limited by its own buckets; and routes counted in another bucket (routes.ts).
 */
const NOT_COUNTED =
  /^\/(_astro|pagefind|v1)\/|^\/(favicon\.svg|list-catalogue\.json|exit-catalogue\.json|search-index\.json)(\?|$)/;

export async function buildTextApp(options: TextAppOptions): Promise<FastifyInstance> {
  const replies = new TextReplies(options.config.NO_COLOR !== undefined, options.files, () =>
    options.pageWorker?.warmSite?.(),
  );
  const computed = new ComputedPages(options.catalogue, options.pageWorker);
  const site = new SitePages(
    options.siteHandler,
    {
      catalogue: options.catalogue,
      store: options.store,
      ...(options.urls?.apiUrl ? { apiUrl: options.urls.apiUrl } : {}),
      // The footer's "curl <url>/aws": the configured URL, never the request's Host (a shared cache keeps these pages).
      ...(options.urls?.textUrl ? { textUrl: options.urls.textUrl } : {}),
    },
    computed,
  );
  const app = Fastify(
    fastifyOptions(
      options.config,
      (error, request, reply) => {
        const status = error.statusCode === 414 ? 414 : 400;
        const title = status === 414 ? "URI too long" : "Bad request";
        void replies.error(request, reply, status, title, "The address is malformed or too long.");
      },
      "text",
    ),
  );
  answerConnect(app.server, "text");
  answerExpectation(app.server, "text");
  answerBeforeIdleClose(app.server, "text");
  // First: /v1/ is the API's, through the API's own handler and hooks (Host, repeated parameters…).
  if (options.api) await forwardApi(app, options.api);
  stampDeadlines(app, httpTimeouts(options.config.timeouts).deadlineMs);
  requireHost(app, (request, reply, { status, error, details }) =>
    replies.error(request, reply, status, error, details),
  );
  refuseDotSegments(app, (request, reply) => replies.error(request, reply, 404, "Not found", DOT_SEGMENT_DETAILS));
  // The pages' list parameters may repeat (forms send them so).
  refuseRepeatedParameters(
    app,
    (request, reply, details) =>
      replies.error(request, reply, 400, isApiPath(request.url) ? "Invalid query" : "Bad request", details),
    FORM_LIST_PARAMETERS,
  );
  limitPipelining(app, (request, reply) => replies.error(request, reply, 503, "Service unavailable", PIPELINE_DETAILS));
  lingerAfterRefusal(app);
  if (options.files) await options.files.register(app);
  await registerHeadersAndLimit(app, options);
  limitMisses(app, options.store, "text");
  // The computed pages (a search, equivalents with a selection, a saved list, an exit plan) are
  // compressed as the API's answers are; built files keep their precompressed siblings, and /v1/
  // was handed to the API app above, which compresses its own.
  await registerCompression(app);

  // ?width= and COLUMNS shape every text answer (render.ts): a bad one is a 400 in the
  // request's rendering, whichever page it was asked of.
  // A callback hook: an async one would put every request's handler behind a microtask hop.
  app.addHook("preHandler", (request, reply, done) => {
    const width = isApiPath(request.url) ? undefined : terminalWidth(request);
    if (typeof width !== "string") return done();
    void replies.error(request, reply, 400, "Bad request", width);
  });
  app.setErrorHandler(textErrorHandler(replies, site));
  app.setNotFoundHandler(notFoundHandler(replies, options));

  const context: TextContext = {
    catalogue: options.catalogue,
    store: options.store,
    files: options.files,
    replies,
    site,
    computed,
    templateReader: options.templateReader ?? new TemplateReader(),
    uploadSlots: options.uploadSlots ?? uploadSlots(),
    ...(options.urls ? { hosts: mcpOriginPolicy(options.urls, options.config.MCP_ALLOWED_ORIGINS) } : {}),
    textUrl: options.urls?.textUrl,
    apiUrl: options.urls?.apiUrl,
    timeouts: httpTimeouts(options.config.timeouts),
  };
  if (!options.templateReader) app.addHook("onClose", () => context.templateReader.close());
  await app.register(registerTextRoutes(context));
  return app;
}

/** Security headers (a CSP allowing the site's one inline script) and this host's page limit. */
async function registerHeadersAndLimit(app: FastifyInstance, options: TextAppOptions) {
  await app.register(securityHeaders, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The hash allows the site's one inline script, which applies the saved theme before first paint.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", THEME_SCRIPT_HASH, JS_ONLY_SCRIPT_HASH],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    https: options.urls?.textUrl.startsWith("https:") ?? false,
  });
  await app.register(rateLimit, {
    max: options.perMinute ?? TEXT_HOST_LIMIT.max,
    timeWindow: TEXT_HOST_LIMIT.windowMs,
    skipOnError: true,
    keyGenerator: (request) => clientKey(request.ip),
    allowList: (request) => NOT_COUNTED.test(request.url) || (bucketOf(request) ?? "text") !== "text",
    store: limitStore(options.store, "text"),
    addHeaders: {
      "x-ratelimit-limit": true,
      "x-ratelimit-remaining": false,
      "x-ratelimit-reset": false,
      "retry-after": true,
    },
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      retryAfter: Math.ceil(context.ttl / 1000),
      message: `This host's pages (HTML, Markdown and text) are limited to ${context.max} requests per minute per IP.`,
    }),
  });
}

function textErrorHandler(replies: TextReplies, site: SitePages) {
  return async (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const e = error as { statusCode?: number; retryAfter?: number; message?: string };
    if (e.statusCode === 429) {
      const retryAfter = e.retryAfter ?? TEXT_HOST_LIMIT.windowMs / 1000;
      reply.header("retry-after", String(retryAfter));
      // A browser gets the site's styled 429 page, saying what was limited and when to retry (the
      // built one, which says a minute, from a build without its server bundle).
      if (replies.rendering(request) === "html") {
        if (await limitPage(site, request, reply, e.message, retryAfter)) return reply;
        if (await replies.site(request, reply, "429/index.html", 429)) return reply;
      }
      const detail = `${e.message ?? ""} Try again in ${retryAfter} seconds.`;
      return replies.error(request, reply, 429, "Too many requests", detail);
    }
    // The API's paths: its Error shape with its own titles (e.g. 413 "Payload too large").
    if (isApiPath(request.url)) {
      const body = toErrorBody(error, request.routeOptions.bodyLimit);
      if (body.status >= 500) request.log.error({ err: error }, "text request failed");
      if (body.status === 503 && e.retryAfter !== undefined) reply.header("retry-after", String(e.retryAfter));
      return sendError(reply, body);
    }
    // 503: the server's bound on files in flight (response-budget.ts) was reached; it says when to retry.
    if (e.statusCode === 503) {
      if (e.retryAfter !== undefined) reply.header("retry-after", String(e.retryAfter));
      return replies.error(request, reply, 503, "Service unavailable", (error as { details?: string }).details ?? "");
    }
    const status = e.statusCode && e.statusCode >= 400 && e.statusCode < 500 ? e.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, "text request failed");
    if (status === 500) return replies.error(request, reply, 500, "Internal server error", "Something went wrong.");
    // The refusal's own title where it has one (Unknown provider), as the API says it; else the status's.
    const title = isHttpError(error) && error.statusCode === status ? error.title : titleOfStatus(status);
    // The API's wording of the same refusal (a body over the limit says what the limit is).
    const { details = "The request could not be understood." } = toErrorBody(error, request.routeOptions.bodyLimit);
    return replies.error<ErrorTitle>(request, reply, ERRORS[title].status, title, details);
  };
}

/** A known page asked with another method: 405 naming the ones it answers (RFC 9110 §15.5.6); else 404. */
function notFoundHandler(replies: TextReplies, options: TextAppOptions) {
  // The API's paths answer as the API host does (PROPFIND /v1/lists: 405 with Allow, not 404).
  const apiAllowed = apiAllowedMethods(ENDPOINTS);
  return (request: FastifyRequest, reply: FastifyReply) => {
    if (isApiPath(request.url)) {
      const pathname = request.url.split("?")[0]!;
      const allowed = apiAllowed(request.method, pathname);
      if (allowed) return sendMethodNotAllowed(reply, request.method, pathname, allowed);
    }
    const allow = allowedMethods(options.catalogue, options.files, request.url);
    if (!allow)
      return replies.error(request, reply, 404, "Not found", "No page here. Try / for the list of providers.");
    reply.header("allow", allow.join(", "));
    if (request.method === "OPTIONS") return reply.code(204).header("cache-control", "no-store").send();
    const detail = `${request.method.slice(0, 20)} is not answered here; this address answers ${allow.join(", ")}.`;
    return replies.error(request, reply, 405, "Method not allowed", detail);
  };
}
