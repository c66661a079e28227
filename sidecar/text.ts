/**
 * The text host: the same catalogue at short paths (/, /{provider}, /{provider}/{service},
 * /category/{id}, /lifecycle, /compare/{a,b,…}), negotiated per request (DESIGN "Hosts"):
 * ?format=ansi|md|html wins; else Accept: text/markdown → Markdown; Accept: text/html → HTML (the
 * site); anything else → ANSI text, plain with ?color=never or NO_COLOR. Errors come in the same
 * format. TEXT_HOST_LIMIT requests a minute per IP.
 */
import { existsSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { LIST_LIFETIME_DAYS, MAX_BODY_BYTES, TEXT_HOST_LIMIT } from "../catalogue/limits.ts";
import type { Catalogue } from "../catalogue/load.ts";
import { parseIdList, UnknownIdsError } from "../catalogue/ids.ts";
import { HttpError } from "../catalogue/problem.ts";
import { heading, paragraph, stripControl, type Doc } from "../catalogue/render/doc.ts";
import { comparePage, savedListPage } from "../catalogue/render/pages.ts";
import { renderDoc, textPageFor, textPages, type TextFormat } from "../catalogue/static.ts";
import { fastifyOptions, type AppOptions } from "./app.ts";
import { READ_CACHE_CONTROL, safeRelativePath, splitRequestUrl } from "./files.ts";
import type { BuiltFiles } from "./files.ts";
import securityHeaders from "./plugins/security-headers.ts";
import textSiteRoutes, { limitPage } from "./text-site.ts";
import { THEME_SCRIPT_HASH } from "../site/src/lib/theme.ts";
import type { Store } from "./store/store.ts";

export type Rendering = TextFormat | "html";

export interface TextAppOptions {
  readonly config: AppOptions["config"] & { NO_COLOR?: string | undefined };
  readonly catalogue: Catalogue;
  readonly store: Store;
  readonly files?: BuiltFiles;
  /** Requests per minute per IP; the contract's 60 unless a test needs more. */
  readonly perMinute?: number;
  /** The API app: the text host answers /v1/* through it, so the site calls its API same-origin. */
  readonly api?: FastifyInstance;
  /** The site's on-demand handler (dist/site/server/entry.mjs), for /lists/{id} in HTML. */
  readonly siteHandler?: SiteHandler;
}

export type SiteHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
  locals: object,
) => void | Promise<void>;

/** Loads the built site's on-demand handler, if the build has one. */
export async function loadSiteHandler(distDir: string): Promise<SiteHandler | undefined> {
  const entry = join(distDir, "site", "server", "entry.mjs");
  if (!existsSync(entry)) return undefined;
  const module = (await import(pathToFileURL(entry).href)) as { handler?: SiteHandler };
  return module.handler;
}

const CONTENT_TYPE: Record<Rendering, string> = {
  md: "text/markdown; charset=utf-8",
  ansi: "text/plain; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  html: "text/html; charset=utf-8",
};

/** The rendering a request asks for. */
export function negotiate(request: FastifyRequest, noColor: boolean): Rendering {
  // Fastify answers malformed URLs before parsing the query: there is none then.
  const query = (request.query ?? {}) as Record<string, unknown>;
  const plain = noColor || query.color === "never";
  const format = typeof query.format === "string" ? query.format.toLowerCase() : undefined;
  if (format === "md" || format === "markdown") return "md";
  if (format === "html") return "html";
  if (format === "ansi" || format === "text" || format === "txt") return plain || format === "txt" ? "txt" : "ansi";
  const accept = String(request.headers.accept ?? "").toLowerCase();
  if (accept.includes("text/markdown")) return "md";
  if (accept.includes("text/html")) return "html";
  return plain ? "txt" : "ansi";
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A page in the requested rendering; HTML here is only for errors and pages the site lacks. */
function render(doc: Doc, rendering: Rendering): string {
  if (rendering !== "html") return renderDoc(doc, rendering);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(stripControl(doc.title))}</title></head><body><main><pre>${escapeHtml(renderDoc(doc, "txt"))}</pre></main></body></html>\n`;
}

function errorDoc(status: number, title: string, detail: string): Doc {
  return { title, blocks: [heading(1, `${status} ${title}`), paragraph(detail)] };
}

export async function buildTextApp(options: TextAppOptions): Promise<FastifyInstance> {
  const app = Fastify(
    fastifyOptions(options.config, (error, request, reply) => {
      const status = error.statusCode === 414 ? 414 : 400;
      void sendError(
        request,
        reply,
        status,
        status === 414 ? "URI too long" : "Bad request",
        "The address is malformed or too long.",
      );
    }),
  );
  const noColor = options.config.NO_COLOR !== undefined;
  const { catalogue, files } = options;
  const pageDocs = new Map([...textPages(catalogue)].map(({ page, doc }) => [page, doc]));

  const sendText = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    rendering: Rendering,
    body: string,
    cacheable = true,
  ) =>
    reply
      .code(status)
      .header("content-type", CONTENT_TYPE[rendering])
      .header("vary", "Accept, User-Agent")
      .header("cache-control", status === 200 && cacheable ? READ_CACHE_CONTROL : "no-store")
      .send(request.method === "HEAD" ? undefined : body);

  const sendError = (request: FastifyRequest, reply: FastifyReply, status: number, title: string, detail: string) =>
    sendText(
      request,
      reply,
      status,
      negotiate(request, noColor),
      render(errorDoc(status, title, detail), negotiate(request, noColor)),
    );

  await app.register(securityHeaders, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The hash allows the site's one inline script, which applies the saved theme before first paint.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", THEME_SCRIPT_HASH],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  await app.register(rateLimit, {
    max: options.perMinute ?? TEXT_HOST_LIMIT.max,
    timeWindow: TEXT_HOST_LIMIT.windowMs,
    skipOnError: true,
    keyGenerator: (request) => request.ip,
    // The site's assets come with every page view (a CDN serves them in production): not counted.
    // /v1/* is the API's, limited by its own buckets.
    allowList: (request) => /^\/(_astro|pagefind|v1)\/|^\/favicon\.svg$/.test(request.url),
    store: class {
      incr(
        key: string,
        callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
        timeWindow: number,
      ) {
        options.store
          .hit("text", key, timeWindow)
          .then((hit) => callback(null, { current: hit.count, ttl: hit.resetMs }), callback);
      }
      child() {
        return this;
      }
    } as never,
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

  app.setErrorHandler(async (error, request, reply) => {
    const e = error as { statusCode?: number; retryAfter?: number; message?: string };
    if (e.statusCode === 429) {
      reply.header("retry-after", String(e.retryAfter ?? 60));
      const page = negotiate(request, noColor) === "html" && (await limitPage(files, e.message, e.retryAfter ?? 60));
      if (page)
        return reply.code(429).header("content-type", CONTENT_TYPE.html).header("cache-control", "no-store").send(page);
      return sendError(
        request,
        reply,
        429,
        "Too many requests",
        `${e.message ?? ""} Try again in ${e.retryAfter ?? 60} seconds.`,
      );
    }
    const status = e.statusCode && e.statusCode >= 400 && e.statusCode < 500 ? e.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, "text request failed");
    return sendError(
      request,
      reply,
      status,
      status === 500 ? "Internal error" : "Bad request",
      status === 500 ? "Something went wrong." : "The request could not be understood.",
    );
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, 404, "Not found", "No page here. Try / for the list of providers."),
  );
  await app.register(textSiteRoutes, {
    catalogue,
    store: options.store,
    files,
    negotiate: (r) => negotiate(r, noColor),
  });

  /** Sends a file of the built site; false when there is none. */
  const sendSite = async (
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    status = 200,
  ): Promise<boolean> => {
    if (!files || !files.has(`site/client/${path}`)) return false;
    if (status !== 200) reply.code(status);
    return files.send(request, reply, `site/client/${path}`, { vary: "Accept, User-Agent" }, status);
  };
  const notFound = async (request: FastifyRequest, reply: FastifyReply, detail: string) => {
    if (negotiate(request, noColor) === "html" && (await sendSite(request, reply, "404.html", 404))) return reply;
    return sendError(request, reply, 404, "Not found", detail);
  };

  const api = options.api;
  if (api) {
    // Same-origin API for the site's interactive parts (and for mirrors served under one host).
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: MAX_BODY_BYTES + 1 }, (_request, body, done) =>
        done(null, body),
      );
      scope.all("/v1/*", { config: { rateLimit: false } }, async (request, reply) => {
        const headers = { ...request.headers };
        delete headers["content-length"];
        const response = await api.inject({
          method: request.method as "GET",
          url: request.url,
          headers,
          remoteAddress: request.ip,
          ...(request.body ? { payload: request.body as Buffer } : {}),
        });
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined && !["content-length", "transfer-encoding", "connection"].includes(name))
            reply.header(name, value);
        }
        return reply.code(response.statusCode).send(response.rawPayload);
      });
    });
  }

  app.get<{ Params: { ids: string } }>("/compare/:ids", async (request, reply) => {
    const rendering = negotiate(request, noColor);
    // The site's compare page names unknown ids itself and shows the rest.
    if (rendering === "html" && (await sendSite(request, reply, "compare/index.html"))) return reply;
    let ids: string[];
    try {
      ids = parseIdList(catalogue, request.params.ids, Number.MAX_SAFE_INTEGER);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      // The ids are the path here: unknown ones name no page.
      const status = error instanceof UnknownIdsError ? 404 : error.statusCode;
      return sendError(request, reply, status, error.message, error.details ?? "");
    }
    return sendText(request, reply, 200, rendering, render(comparePage(catalogue, ids), rendering));
  });

  app.get<{ Params: { id: string } }>("/lists/:id", async (request, reply) => {
    const rendering = negotiate(request, noColor);
    if (rendering === "html" && options.siteHandler) {
      // The site's on-demand page, given the same catalogue and store as the API.
      reply.hijack();
      // Hijacked, Fastify writes none of the reply's headers (security, CORS): copy them over.
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) reply.raw.setHeader(name, value);
      reply.raw.setHeader("vary", "Accept, User-Agent");
      reply.raw.setHeader("cache-control", "no-store");
      try {
        await options.siteHandler(request.raw, reply.raw, () => undefined, { catalogue, store: options.store });
      } catch (error) {
        // The reply is hijacked: answer here, or the client would wait forever.
        request.log.error({ err: error }, "list page failed");
        if (!reply.raw.headersSent) reply.raw.writeHead(500, { "content-type": "text/html; charset=utf-8" });
        reply.raw.end();
      }
      return reply;
    }
    let list;
    try {
      list = await options.store.getList(request.params.id, new Date());
    } catch {
      return sendError(request, reply, 503, "Service unavailable", "Storage is unreachable; try again shortly.");
    }
    if (!list)
      return notFound(
        request,
        reply,
        `No saved list has this address; lists expire ${LIST_LIFETIME_DAYS} days after they are saved.`,
      );
    // Saved lists expire: not for shared caches.
    return sendText(request, reply, 200, rendering, render(savedListPage(catalogue, list), rendering), false);
  });

  app.get("/*", async (request, reply) => {
    const rendering = negotiate(request, noColor);
    const { pathname } = splitRequestUrl(request.url);
    const decoded = safeRelativePath(pathname);
    if (decoded === undefined) return notFound(request, reply, "No page here. Try / for the list of providers.");
    // Site assets (CSS, JS, the search index) whatever the Accept header says.
    if (/\.[a-z0-9_]+$/i.test(decoded) && (await sendSite(request, reply, decoded.slice(1)))) return reply;
    const page = textPageFor(catalogue, pathname);
    if (rendering === "html") {
      const dir = decoded.replace(/^\/+|\/+$/g, "");
      if (await sendSite(request, reply, dir ? `${dir}/index.html` : "index.html")) return reply;
      if (!page) return notFound(request, reply, `Nothing at ${pathname.slice(0, 200)}.`);
    }
    if (!page)
      return notFound(request, reply, `Nothing at ${pathname.slice(0, 200)}. Try / for the list of providers.`);
    if (
      rendering !== "html" &&
      files &&
      (await files.send(request, reply, `text/${page}.${rendering}`, { vary: "Accept, User-Agent" }))
    )
      return reply;
    return sendText(request, reply, 200, rendering, render(pageDocs.get(page)!(), rendering));
  });
  return app;
}
