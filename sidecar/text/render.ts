/**
 * The text host's negotiation and replies (docs/design.md "Hosts and how a request is served"): ?format=ansi|md|html wins; else
 * Accept, weighed by q-value (preferredType): text/markdown → Markdown; text/html → HTML (the
 * site); anything else → ANSI text, plain with ?color=never or NO_COLOR. Errors come in the request's own rendering, or in the
 * API's Error shape under /v1/. ANSI and plain text are 80 columns wide unless ?width= or a
 * COLUMNS header asks for another width (terminalWidth).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ErrorTitle, StatusOf } from "../../catalogue/base/error-catalogue.ts";
import { httpErrorOf } from "../../catalogue/base/problem.ts";
import { LIST_LIFETIME_DAYS, TEXT_WIDTH } from "../../catalogue/base/limits.ts";
import { heading, paragraph, type Doc } from "../../catalogue/format/doc.ts";
import { preferredMediaType } from "../../catalogue/base/media-type.ts";
import { contentTypeOf, renderDoc } from "../../catalogue/outputs/static.ts";
import { renderHtml } from "../../catalogue/format/html.ts";
import { READ_CACHE_CONTROL, TEXT_VARY, type BuiltFiles } from "../files.ts";
import { errorBody, isApiPath, sendError as sendApiError } from "../plugins/errors.ts";
import { readList } from "../../catalogue/contract/read-list.ts";
import type { Store, StoredList } from "../store/store.ts";

import type { Computed, Rendering } from "./computed-shapes.ts";

export type { Rendering };

const CONTENT_TYPE: Record<Rendering, string> = {
  md: "text/markdown; charset=utf-8",
  ansi: "text/plain; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  html: "text/html; charset=utf-8",
};

/**
 * The site's public files (site/public: the icon every page's frame links), which a build copies
 * as they are: with no build yet (npm start's first minute) they are sent from the sources, so a
 * page's frame is whole from the first request on (issue 126). Read when first asked; none when the
 * folder is not there (the CLI's package).
 */
const SOURCE_PUBLIC_DIR = fileURLToPath(new URL("../../site/public/", import.meta.url));
let sourcePublic: Map<string, Buffer> | undefined;

function sendSourceFile(reply: FastifyReply, path: string): boolean {
  sourcePublic ??= new Map(
    (() => {
      try {
        return readdirSync(SOURCE_PUBLIC_DIR).map(
          (name) => [name, readFileSync(join(SOURCE_PUBLIC_DIR, name))] as const,
        );
      } catch {
        return [];
      }
    })(),
  );
  const body = sourcePublic.get(path);
  if (!body) return false;
  // Short-lived: the build's copy, with its ETag, replaces it within minutes.
  void reply.code(200).header("content-type", contentTypeOf(path)).header("cache-control", "no-cache").send(body);
  return true;
}

/** The rendering a request asks for. */
export function negotiate(request: FastifyRequest, noColor: boolean): Rendering {
  // Fastify answers malformed URLs before parsing the query: there is none then.
  const query = (request.query ?? {}) as Record<string, unknown>;
  const plain = noColor || query.color === "never";
  const format = typeof query.format === "string" ? query.format.toLowerCase() : undefined;
  if (format === "md" || format === "markdown") return "md";
  if (format === "html") return "html";
  if (format === "ansi" || format === "text" || format === "txt") return plain || format === "txt" ? "txt" : "ansi";
  const chosen = preferredType(String(request.headers.accept ?? ""));
  if (chosen === "text/markdown") return "md";
  if (chosen === "text/html") return "html";
  return plain ? "txt" : "ansi";
}

/**
 * The terminal width an ANSI or plain-text answer is wrapped to: ?width= (a whole number from
 * TEXT_WIDTH.min to TEXT_WIDTH.max) wins, else a COLUMNS header (a whole number, brought into that
 * range: the terminal is as wide as it is), else 80. A string says what is wrong: a 400.
 */
export function terminalWidth(request: FastifyRequest): number | string {
  // Fastify answers malformed URLs before parsing the query: there is none then.
  const query = (request.query ?? {}) as Record<string, unknown>;
  const range = `${TEXT_WIDTH.min} to ${TEXT_WIDTH.max}`;
  if (query.width !== undefined) {
    const width = typeof query.width === "string" && /^\d{1,4}$/.test(query.width) ? Number(query.width) : NaN;
    if (!(width >= TEXT_WIDTH.min && width <= TEXT_WIDTH.max))
      return `width must be given once, as a whole number of columns from ${range}.`;
    return width;
  }
  const columns = request.headers.columns;
  if (columns === undefined) return TEXT_WIDTH.default;
  if (typeof columns !== "string" || !/^\s*\d{1,6}\s*$/.test(columns))
    return `The COLUMNS header must be one whole number of columns (answers are ${range} wide).`;
  return Math.min(TEXT_WIDTH.max, Math.max(TEXT_WIDTH.min, Number(columns)));
}

/** The width to render with: the request's when it is valid, else the default (its 400 says why). */
export function widthOf(request: FastifyRequest): number {
  const width = terminalWidth(request);
  return typeof width === "number" ? width : TEXT_WIDTH.default;
}

/** What the text host offers, in the order a tie at equal q goes to. */
const OFFERS = ["text/markdown", "text/html", "text/plain"] as const;
type Offer = (typeof OFFERS)[number];

/**
 * The offer an Accept header prefers (preferredMediaType): the highest q > 0 wins; a tie goes to
 * Markdown, then HTML (what the text host has always preferred); *\/* stands for plain text, the
 * host's default. Nothing acceptable (e.g. only `text/markdown;q=0`) → plain text too: the design
 * gives every other request the ANSI rendering rather than a 406.
 */
export function preferredType(accept: string): Offer {
  return preferredMediaType(accept, OFFERS, "text/plain") ?? "text/plain";
}

/** A page in the requested rendering; HTML here is only for errors and pages the site lacks. */
export function render(doc: Doc, rendering: Rendering, width: number = TEXT_WIDTH.default): string {
  // HTML with its links (a mirror's search, compare and matrix pages, paging included), not a <pre>.
  return rendering === "html" ? renderHtml(doc) : renderDoc(doc, rendering, width);
}

export function errorDoc(status: number, title: string, detail: string): Doc {
  return { title, blocks: [heading(1, `${status} ${title}`), paragraph(detail)] };
}

/** How the text host answers: a page, an error, a file of the built site, a 404. */
export class TextReplies {
  private readonly noColor: boolean;
  private readonly files: BuiltFiles | undefined;
  /** Called when a page of the built site is sent (a browser is on the site). */
  private readonly onSitePage: (() => void) | undefined;

  constructor(noColor: boolean, files: BuiltFiles | undefined, onSitePage?: () => void) {
    this.noColor = noColor;
    this.files = files;
    this.onSitePage = onSitePage;
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
      .header(
        "cache-control",
        status === 200 && cacheable && !this.replacedByBuild(rendering) ? READ_CACHE_CONTROL : "no-store",
      )
      .send(request.method === "HEAD" ? undefined : body);
  }

  /**
   * HTML answered with no build at all (npm start's first minute, from the sources) is the text
   * host's own rendering, which the site's page replaces once built: no cache may keep it.
   */
  private replacedByBuild(rendering: Rendering): boolean {
    return rendering === "html" && this.files === undefined;
  }

  /** A computed page (computed.ts): its body, or its error, in the request's rendering. */
  computed(request: FastifyRequest, reply: FastifyReply, rendering: Rendering, computed: Computed, cacheable = true) {
    if ("body" in computed) return this.text(request, reply, 200, rendering, computed.body, cacheable);
    // The worker's error, as the catalogue titles it.
    const error = httpErrorOf(computed.status, computed.title);
    return this.error<ErrorTitle>(request, reply, error.statusCode, error.title, computed.detail);
  }

  error<T extends ErrorTitle>(
    request: FastifyRequest,
    reply: FastifyReply,
    status: StatusOf<T>,
    title: T,
    detail: string,
  ) {
    if (isApiPath(request.url)) return sendApiError(reply, errorBody(status, title, detail));
    const rendering = this.rendering(request);
    return this.text(
      request,
      reply,
      status,
      rendering,
      render(errorDoc(status, title, detail), rendering, widthOf(request)),
    );
  }

  /** Sends a file of the built site (with no build, one of the site's public files: sourceFile); false when there is none. */
  async site(request: FastifyRequest, reply: FastifyReply, path: string, status = 200): Promise<boolean> {
    const files = this.files;
    if (!files) return status === 200 && sendSourceFile(reply, path);
    if (!files.has(`site/client/${path}`)) return false;
    if (status !== 200) reply.code(status);
    if (status === 200 && path.endsWith(".html")) this.onSitePage?.();
    return files.send(request, reply, `site/client/${path}`, { vary: TEXT_VARY }, status);
  }

  /** Sends a built text rendering (dist/text, 80 columns); false when there is none or another width is asked. */
  async built(request: FastifyRequest, reply: FastifyReply, path: string): Promise<boolean> {
    const files = this.files;
    if (!files || !files.has(`text/${path}`)) return false;
    if (!path.endsWith(".md") && widthOf(request) !== TEXT_WIDTH.default) return false;
    return files.send(request, reply, `text/${path}`, { vary: TEXT_VARY });
  }

  /** The site's 404 page to a browser, else a 404 in the request's rendering. */
  /**
   * The saved list at `id`, or the answer already sent when there is none (404: expired or never
   * saved) or the store cannot be reached (503). Both text-host list pages read a list this way.
   */
  async savedList(
    store: Pick<Store, "getList" | "renewList">,
    id: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ list: StoredList } | { answered: FastifyReply }> {
    let list;
    try {
      list = await readList(store, id, new Date());
    } catch {
      return {
        answered: await this.error(
          request,
          reply,
          503,
          "Service unavailable",
          "Storage is unreachable; try again shortly.",
        ),
      };
    }
    if (list) return { list };
    return {
      answered: await this.notFound(
        request,
        reply,
        `No saved list has this address; lists expire ${LIST_LIFETIME_DAYS} days after they are saved or last read.`,
      ),
    };
  }

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
