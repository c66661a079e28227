/**
 * The text host's negotiation and replies (DESIGN "Hosts"): ?format=ansi|md|html wins; else
 * Accept: text/markdown → Markdown; Accept: text/html → HTML (the site); anything else → ANSI
 * text, plain with ?color=never or NO_COLOR. Errors come in the request's own rendering, or in the
 * API's Error shape under /v1/.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { heading, paragraph, stripControl, type Doc } from "../../catalogue/render/doc.ts";
import { renderDoc, type TextFormat } from "../../catalogue/static.ts";
import { READ_CACHE_CONTROL, TEXT_VARY, type BuiltFiles } from "../files.ts";
import { errorBody, isApiPath, sendError as sendApiError } from "../plugins/errors.ts";

export type Rendering = TextFormat | "html";

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
export function render(doc: Doc, rendering: Rendering): string {
  if (rendering !== "html") return renderDoc(doc, rendering);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(stripControl(doc.title))}</title></head><body><main><pre>${escapeHtml(renderDoc(doc, "txt"))}</pre></main></body></html>\n`;
}

export function errorDoc(status: number, title: string, detail: string): Doc {
  return { title, blocks: [heading(1, `${status} ${title}`), paragraph(detail)] };
}

/** How the text host answers: a page, an error, a file of the built site, a 404. */
export class TextReplies {
  private readonly noColor: boolean;
  private readonly files: BuiltFiles | undefined;

  constructor(noColor: boolean, files: BuiltFiles | undefined) {
    this.noColor = noColor;
    this.files = files;
  }

  rendering(request: FastifyRequest): Rendering {
    return negotiate(request, this.noColor);
  }

  text(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    rendering: Rendering,
    body: string,
    cacheable = true,
  ) {
    return reply
      .code(status)
      .header("content-type", CONTENT_TYPE[rendering])
      .header("vary", TEXT_VARY)
      .header("cache-control", status === 200 && cacheable ? READ_CACHE_CONTROL : "no-store")
      .send(request.method === "HEAD" ? undefined : body);
  }

  error(request: FastifyRequest, reply: FastifyReply, status: number, title: string, detail: string) {
    if (isApiPath(request.url)) return sendApiError(reply, errorBody(status, title, detail));
    const rendering = this.rendering(request);
    return this.text(request, reply, status, rendering, render(errorDoc(status, title, detail), rendering));
  }

  /** Sends a file of the built site; false when there is none. */
  async site(request: FastifyRequest, reply: FastifyReply, path: string, status = 200): Promise<boolean> {
    const files = this.files;
    if (!files || !files.has(`site/client/${path}`)) return false;
    if (status !== 200) reply.code(status);
    return files.send(request, reply, `site/client/${path}`, { vary: TEXT_VARY }, status);
  }

  /** Sends a built text rendering (dist/text); false when there is none. */
  async built(request: FastifyRequest, reply: FastifyReply, path: string): Promise<boolean> {
    const files = this.files;
    if (!files || !files.has(`text/${path}`)) return false;
    return files.send(request, reply, `text/${path}`, { vary: TEXT_VARY });
  }

  /** The site's 404 page to a browser, else a 404 in the request's rendering. */
  async notFound(request: FastifyRequest, reply: FastifyReply, detail: string) {
    if (
      !isApiPath(request.url) &&
      this.rendering(request) === "html" &&
      (await this.site(request, reply, "404.html", 404))
    )
      return reply;
    return this.error(request, reply, 404, "Not found", detail);
  }
}
