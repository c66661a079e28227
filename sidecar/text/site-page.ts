/**
 * Loads and runs the built site's on-demand handler (@astrojs/node) for one request of the text
 * host: the saved list at its own path, and the pages of site/src/pages/on-demand/ for requests
 * whose answer depends on their query (compare, search, the matrix, a refused form, a 429). The
 * reply is hijacked, so this answers every path itself: the handler's `next()` (no page matched,
 * or it failed) ends the request with a 404 or 500 page, and a handler that throws gets a 500 —
 * a hijacked request nobody answers would hold its socket until the client gives up.
 */
import { existsSync } from "node:fs";
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { OnDemandPage, SiteLocals, SitePageData } from "../../catalogue/outputs/pages.ts";
import { errorDoc, render } from "./render.ts";
import { waitFor, type PagesComputer, type SiteAnswer } from "./computed-shapes.ts";

/** The built site's on-demand handler (@astrojs/node). */
export type SiteHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
  locals: SiteLocals,
) => void | Promise<void>;

/**
 * The built site's on-demand handler, if the build has one. Its bundle is imported on the first
 * saved-list page asked for, not at start: a server that never renders one does not keep it in
 * memory (decisions.md#memory-rss, RSS).
 */
export async function loadSiteHandler(distDir: string): Promise<SiteHandler | undefined> {
  const entry = siteEntry(distDir);
  if (!existsSync(entry)) return undefined;
  let loading: Promise<SiteHandler> | undefined;
  const load = () =>
    (loading ??= import(pathToFileURL(entry).href).then(({ handler }: { handler?: SiteHandler }) => {
      if (!handler) throw new Error(`${entry} exports no handler`);
      return handler;
    }));
  return async (request, response, next, locals) => (await load())(request, response, next, locals);
}

/** The built site's on-demand handler's module. */
export const siteEntry = (distDir: string) => join(distDir, "site", "server", "entry.mjs");

/** "." and ".." (also percent-encoded): dot segments a URL parser resolves to another page. */
export function isDotSegment(param: string): boolean {
  return param === "." || param === "..";
}

export type { SiteLocals };

export interface SitePageRequest {
  /**
   * The page of site/src/pages/on-demand/ to render, with the query it reads; absent: the request's
   * own path (the saved list, /lists/{id}).
   */
  readonly page?: { readonly name: OnDemandPage; readonly search: string };
  /** Beside the catalogue and store: what the page cannot read from the URL. */
  readonly locals?: SitePageData;
  readonly headers: Record<string, string>;
}

/**
 * The site's pages rendered on demand for this host's requests, by the built site's handler; a
 * build without one (a mirror, a test's fake build) renders nothing and the caller answers in its
 * own HTML.
 */
export class SitePages {
  private readonly handler: SiteHandler | undefined;
  private readonly locals: SiteLocals;
  private readonly computed: PagesComputer | undefined;
  /** `computed`: with a worker, pages render there (computed.ts), off this thread's event loop. */
  constructor(handler: SiteHandler | undefined, locals: SiteLocals, computed?: PagesComputer) {
    this.handler = handler;
    this.locals = locals;
    this.computed = computed;
  }

  get available(): boolean {
    return this.handler !== undefined;
  }

  /** Renders the page; false (nothing sent) when the build has no on-demand handler. */
  async render(request: FastifyRequest, reply: FastifyReply, page: SitePageRequest): Promise<boolean> {
    if (!this.handler) return false;
    if (this.computed?.rendersSite) {
      const url = page.page ? `/on-demand/${page.page.name}${page.page.search}` : (request.raw.url ?? "/");
      // A page of its query alone is kept (a saved list's reads the store; a 429 or a refused form, its
      // locals); pages print the configured public URL, never the Host, so the Host is not in the key.
      const key = page.page && !page.locals ? url : undefined;
      const job = {
        url,
        headers: request.headers,
        locals: page.locals ?? {},
        apiUrl: this.locals.apiUrl,
        textUrl: this.locals.textUrl,
      };
      sendSiteAnswer(reply, await this.computed.site(job, key, waitFor(request)), page.headers);
      return true;
    }
    // The page is chosen by the URL Astro is handed: the public one stays in the browser.
    const raw = page.page ? withUrl(request.raw, `/on-demand/${page.page.name}${page.page.search}`) : request.raw;
    await serveSitePage(request, reply, raw, this.handler, { ...this.locals, ...page.locals }, page.headers);
    return true;
  }
}

/** A page rendered in the worker: the caller's headers, then the page's own, as Astro wrote them. */
function sendSiteAnswer(reply: FastifyReply, answer: SiteAnswer, headers: Record<string, string>): FastifyReply {
  reply.headers(headers);
  for (const [name, value] of Object.entries(answer.headers))
    if (!["content-length", "transfer-encoding", "connection", "keep-alive"].includes(name)) reply.header(name, value);
  const body = Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
  return reply.code(answer.status).send(body);
}

/** The request as Astro's handler reads it, at another URL and as a GET (a form's body is read already). */
function withUrl(raw: IncomingMessage, url: string): IncomingMessage {
  return new Proxy(raw, {
    get: (target, key) =>
      key === "url" ? url : key === "method" ? "GET" : (Reflect.get(target, key, target) as unknown),
  });
}

const errorPage = (status: 404 | 500) =>
  render(errorDoc(status, status === 404 ? "Not found" : "Internal server error", "No page here."), "html");

async function serveSitePage(
  request: FastifyRequest,
  reply: FastifyReply,
  rawRequest: IncomingMessage,
  handler: SiteHandler,
  locals: SiteLocals,
  headers: Record<string, string>,
): Promise<FastifyReply> {
  reply.hijack();
  const raw = reply.raw;
  // Hijacked, Fastify writes none of the reply's headers (security, CORS): copy them over.
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
  for (const [name, value] of Object.entries(headers)) raw.setHeader(name, value);
  standardReasons(raw);
  const answer = (status: 404 | 500) => {
    if (raw.writableEnded) return;
    if (!raw.headersSent) {
      const body = errorPage(status);
      raw.writeHead(status, {
        "content-type": "text/html; charset=utf-8",
        "content-length": String(Buffer.byteLength(body)),
      });
      raw.end(request.method === "HEAD" ? undefined : body);
    } else raw.end();
  };
  try {
    await handler(
      rawRequest,
      raw,
      (error?: unknown) => {
        if (error) request.log.error({ err: error }, "site page failed");
        answer(error ? 500 : 404);
      },
      locals,
    );
  } catch (error) {
    request.log.error({ err: error }, "site page failed");
    answer(500);
  }
  return reply;
}

/** The standard reason phrase whatever the handler passes (Astro's 404 page came as "404 OK"). */
function standardReasons(raw: ServerResponse): void {
  const writeHead = raw.writeHead.bind(raw) as (status: number, ...rest: unknown[]) => typeof raw;
  raw.writeHead = (status: number, ...rest: unknown[]) => {
    if (typeof rest[0] === "string") rest.shift();
    raw.statusMessage = STATUS_CODES[status] ?? "";
    return writeHead(status, ...rest);
  };
}
