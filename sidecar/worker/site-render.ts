/**
 * The built site's on-demand handler (@astrojs/node, dist/site/server/entry.mjs) run in the heavy
 * computations' thread (./worker.ts) for one page of the text host: it is handed the request as
 * the few fields it reads (URL, method, headers, socket), and writes to a response that collects
 * the answer, which crosses back to the main thread whole (a page is tens of KB).
 */
import { EventEmitter } from "node:events";
import { pathToFileURL } from "node:url";
import type { SiteAnswer, SiteJob } from "../text/computed-shapes.ts";
import { errorDoc, render } from "../text/render.ts";
import type { SiteHandler, SiteLocals } from "../text/site-page.ts";

let loading: Promise<SiteHandler> | undefined;

/** The handler, imported on the first page asked for (a thread that renders none does not hold the bundle). */
export function loadSiteHandler(entry: string): Promise<SiteHandler> {
  return (loading ??= import(pathToFileURL(entry).href).then(({ handler }: { handler?: SiteHandler }) => {
    if (!handler) throw new Error(`${entry} exports no handler`);
    return handler;
  }));
}

type HeaderValue = string | string[];

/** What Astro's writeResponse (astro/app/node) calls on a response, collected. */
class CollectedResponse extends EventEmitter {
  statusCode = 200;
  statusMessage = "";
  headersSent = false;
  writableEnded = false;
  private readonly headers: Record<string, HeaderValue> = {};
  private readonly chunks: Buffer[] = [];
  private settle!: (answer: SiteAnswer) => void;
  readonly answer = new Promise<SiteAnswer>((resolve) => (this.settle = resolve));

  setHeader(name: string, value: HeaderValue | number): this {
    this.headers[name.toLowerCase()] = typeof value === "number" ? String(value) : value;
    return this;
  }

  getHeader(name: string): HeaderValue | undefined {
    return this.headers[name.toLowerCase()];
  }

  writeHead(status: number, ...rest: unknown[]): this {
    this.statusCode = status;
    const headers = typeof rest[0] === "string" ? rest[1] : rest[0];
    const pairs = Array.isArray(headers)
      ? (headers as [string, HeaderValue][])
      : Object.entries((headers ?? {}) as Record<string, HeaderValue | number | undefined>);
    for (const [name, value] of pairs) if (value !== undefined) this.setHeader(name, value);
    this.headersSent = true;
    return this;
  }

  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    this.headersSent = true;
    this.chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk));
    const callback = rest.find((argument) => typeof argument === "function") as (() => void) | undefined;
    callback?.();
    return true;
  }

  end(chunk?: unknown, ...rest: unknown[]): this {
    if (this.writableEnded) return this;
    if (typeof chunk === "string" || chunk instanceof Uint8Array) this.write(chunk);
    this.headersSent = true;
    this.writableEnded = true;
    this.settle({ status: this.statusCode, headers: this.headers, body: Buffer.concat(this.chunks) });
    this.emit("finish");
    this.emit("close");
    const callback = [chunk, ...rest].find((argument) => typeof argument === "function") as (() => void) | undefined;
    callback?.();
    return this;
  }

  destroy(): this {
    return this.end();
  }

  /** No page matched (404), or the page failed (500): the text host's own HTML error page. */
  fail(status: 404 | 500): void {
    if (this.writableEnded) return;
    const body = render(
      errorDoc(status, status === 404 ? "Not found" : "Internal server error", "No page here."),
      "html",
    );
    this.statusCode = status;
    for (const name of Object.keys(this.headers)) delete this.headers[name];
    this.chunks.length = 0;
    this.setHeader("content-type", "text/html; charset=utf-8");
    this.end(body);
  }
}

export async function renderSitePage(entry: string, job: SiteJob, locals: SiteLocals): Promise<SiteAnswer> {
  const handler = await loadSiteHandler(entry);
  const request = Object.assign(new EventEmitter(), {
    url: job.url,
    method: "GET",
    headers: job.headers,
    // Read for the protocol and the client's address; no `on`: no abort to wire (the page is computed whole).
    socket: { encrypted: false, remoteAddress: "127.0.0.1" },
  });
  const response = new CollectedResponse();
  try {
    await handler(
      request as never,
      response as never,
      (error?: unknown) => {
        if (error) console.error("site page failed", error);
        response.fail(error ? 500 : 404);
      },
      locals,
    );
  } catch (error) {
    console.error("site page failed", error);
    response.fail(500);
  }
  // A handler that returned without ending its response: nothing will.
  if (!response.writableEnded) response.fail(500);
  return response.answer;
}
