/**
 * Loads and runs the built site's on-demand handler (@astrojs/node) for one request of the text host. The
 * reply is hijacked, so this answers every path itself: the handler's `next()` (no page matched,
 * or it failed) ends the request with a 404 or 500 page, and a handler that throws gets a 500 —
 * a hijacked request nobody answers would hold its socket until the client gives up.
 */
import { existsSync } from "node:fs";
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyReply, FastifyRequest } from "fastify";

/** The built site's on-demand handler (@astrojs/node). */
export type SiteHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
  locals: object,
) => void | Promise<void>;

/**
 * The built site's on-demand handler, if the build has one. Its bundle is imported on the first
 * saved-list page asked for, not at start: a server that never renders one does not keep it in
 * memory (issue 20, RSS).
 */
export async function loadSiteHandler(distDir: string): Promise<SiteHandler | undefined> {
  const entry = join(distDir, "site", "server", "entry.mjs");
  if (!existsSync(entry)) return undefined;
  let loading: Promise<SiteHandler> | undefined;
  const load = () =>
    (loading ??= import(pathToFileURL(entry).href).then(({ handler }: { handler?: SiteHandler }) => {
      if (!handler) throw new Error(`${entry} exports no handler`);
      return handler;
    }));
  return async (request, response, next, locals) => (await load())(request, response, next, locals);
}

/** "." and ".." (also percent-encoded): dot segments a URL parser resolves to another page. */
export function isDotSegment(param: string): boolean {
  return param === "." || param === "..";
}

export async function serveSitePage(
  request: FastifyRequest,
  reply: FastifyReply,
  handler: SiteHandler,
  locals: object,
  headers: Record<string, string>,
  errorPage: (status: 404 | 500) => string,
): Promise<FastifyReply> {
  reply.hijack();
  const raw = reply.raw;
  // Hijacked, Fastify writes none of the reply's headers (security, CORS): copy them over.
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
  for (const [name, value] of Object.entries(headers)) raw.setHeader(name, value);
  // The standard reason phrase whatever the handler passes (Astro's 404 page came as "404 OK").
  const writeHead = raw.writeHead.bind(raw) as (status: number, ...rest: unknown[]) => typeof raw;
  raw.writeHead = ((status: number, ...rest: unknown[]) => {
    if (typeof rest[0] === "string") rest.shift();
    raw.statusMessage = STATUS_CODES[status] ?? "";
    return writeHead(status, ...rest);
  }) as typeof raw.writeHead;
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
      request.raw,
      raw,
      (error?: unknown) => {
        if (error) request.log.error({ err: error }, "list page failed");
        answer(error ? 500 : 404);
      },
      locals,
    );
  } catch (error) {
    request.log.error({ err: error }, "list page failed");
    answer(500);
  }
  return reply;
}
