/**
 * The text host's pages: /compare/{a,b,…}, /lists/{id} (the site's on-demand page in HTML) and
 * every static page (/, /{provider}, /{provider}/{service}, /category/{id}, /lifecycle), from the
 * build when there is one, else rendered on the fly. /lifecycle?within=… is filtered as of today.
 */
import type { FastifyInstance } from "fastify";
import { parseIdList, UnknownIdsError } from "../../catalogue/ids.ts";
import { dayOf, lifecycleFilterOf, LifecycleQuery } from "../../catalogue/lifecycle.ts";
import type { Catalogue } from "../../catalogue/load.ts";
import { HttpError } from "../../catalogue/problem.ts";
import { comparePage, lifecyclePage, savedListPage } from "../../catalogue/render/pages.ts";
import { textPageFor, textPages } from "../../catalogue/static.ts";
import { safeRelativePath, splitRequestUrl, TEXT_VARY, type BuiltFiles } from "../files.ts";
import { isDotSegment, serveSitePage, type SiteHandler } from "./site-page.ts";
import type { Store } from "../store/store.ts";
import { compareSitePage } from "./site.ts";
import { exitPlanPage } from "./exit-plan.ts";
import { errorDoc, render, widthOf, type TextReplies } from "./render.ts";

export interface TextRouteOptions {
  readonly catalogue: Catalogue;
  readonly store: Store;
  readonly files?: BuiltFiles | undefined;
  readonly replies: TextReplies;
  /** The site's on-demand handler, for /lists/{id} in HTML. */
  readonly siteHandler?: SiteHandler | undefined;
  /** Linked from the site's on-demand pages. */
  readonly apiUrl?: string | undefined;
}

/** ?within=90 (or 90d), status, provider: the API's lifecycle query. */
const LIFECYCLE_KEYS = ["within", "status", "provider"] as const;

export function textRoutes({ catalogue, store, files, replies, siteHandler, apiUrl }: TextRouteOptions) {
  const pageDocs = new Map([...textPages(catalogue)].map(({ page, doc }) => [page, doc]));

  return async (app: FastifyInstance) => {
    app.get<{ Params: { ids: string } }>("/compare/:ids", async (request, reply) => {
      const rendering = replies.rendering(request);
      if (rendering === "html") {
        // The site's compare page with the comparison filled in, so a shared link reads without
        // JavaScript; unknown ids are named there and the rest compared.
        const page = await compareSitePage(files, catalogue, request.params.ids.split(","));
        if (page !== undefined) return reply.header("vary", TEXT_VARY).type("text/html; charset=utf-8").send(page);
      }
      let ids: string[];
      try {
        ids = parseIdList(catalogue, request.params.ids, Number.MAX_SAFE_INTEGER);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        // The ids are the path here: unknown ones name no page.
        const status = error instanceof UnknownIdsError ? 404 : error.statusCode;
        return replies.error(request, reply, status, error.message, error.details ?? "");
      }
      return replies.text(
        request,
        reply,
        200,
        rendering,
        render(comparePage(catalogue, ids), rendering, widthOf(request)),
      );
    });

    app.get<{ Params: { id: string } }>("/lists/:id", async (request, reply) => {
      const rendering = replies.rendering(request);
      if (isDotSegment(request.params.id)) return replies.notFound(request, reply, "No page here.");
      if (rendering === "html" && siteHandler)
        // The site's on-demand page, given the same catalogue and store as the API.
        return serveSitePage(
          request,
          reply,
          siteHandler,
          { catalogue, store, ...(apiUrl ? { apiUrl } : {}) },
          { vary: TEXT_VARY, "cache-control": "no-store" },
          (status) =>
            render(errorDoc(status, status === 404 ? "Not found" : "Internal error", "No page here."), "html"),
        );
      const found = await replies.savedList(store, request.params.id, request, reply);
      if ("answered" in found) return found.answered;
      const { list } = found;
      // Saved lists expire: not for shared caches.
      return replies.text(
        request,
        reply,
        200,
        rendering,
        render(savedListPage(catalogue, list), rendering, widthOf(request)),
        false,
      );
    });

    // A saved list's exit plan (issue 55), in ANSI, Markdown and HTML.
    app.get<{ Params: { id: string } }>("/lists/:id/exit-plan", exitPlanPage({ catalogue, store, replies }));

    app.get("/*", async (request, reply) => {
      const rendering = replies.rendering(request);
      const { pathname } = splitRequestUrl(request.url);
      const decoded = safeRelativePath(pathname);
      if (decoded === undefined)
        return replies.notFound(request, reply, "No page here. Try / for the list of providers.");
      // Site assets (CSS, JS, the search index) whatever the Accept header says.
      if (/\.[a-z0-9_]+$/i.test(decoded) && (await replies.site(request, reply, decoded.slice(1)))) return reply;
      const page = textPageFor(catalogue, pathname);
      const query = request.query as Record<string, unknown>;
      if (page === "lifecycle" && rendering !== "html" && LIFECYCLE_KEYS.some((key) => query[key] !== undefined)) {
        // The page filtered as of today (the site's page filters in the browser).
        const parsed = LifecycleQuery.safeParse({
          within: query.within,
          status: query.status,
          provider: query.provider,
        });
        if (!parsed.success)
          return replies.error(
            request,
            reply,
            400,
            "Bad request",
            parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "),
          );
        let filter;
        try {
          filter = lifecycleFilterOf(catalogue, parsed.data);
        } catch (error) {
          if (!(error instanceof HttpError)) throw error;
          return replies.error(request, reply, error.statusCode, error.message, error.details ?? "");
        }
        const doc = lifecyclePage(catalogue, dayOf(new Date()), filter);
        return replies.text(request, reply, 200, rendering, render(doc, rendering, widthOf(request)));
      }
      if (rendering === "html") {
        const dir = decoded.replace(/^\/+|\/+$/g, "");
        if (await replies.site(request, reply, dir ? `${dir}/index.html` : "index.html")) return reply;
        if (!page) return replies.notFound(request, reply, `Nothing at ${pathname.slice(0, 200)}.`);
      }
      if (!page)
        return replies.notFound(
          request,
          reply,
          `Nothing at ${pathname.slice(0, 200)}. Try / for the list of providers.`,
        );
      if (rendering !== "html" && (await replies.built(request, reply, `${page}.${rendering}`))) return reply;
      return replies.text(request, reply, 200, rendering, render(pageDocs.get(page)!(), rendering, widthOf(request)));
    });
  };
}

const READS = ["GET", "HEAD"] as const;

/**
 * The methods a path of this host answers, for a request with another one (405 with Allow);
 * undefined for a path it has nothing at (404) and for the API's /v1/ paths (the API answers those).
 */
export function allowedMethods(
  catalogue: Catalogue,
  files: BuiltFiles | undefined,
  url: string,
): readonly string[] | undefined {
  const { pathname } = splitRequestUrl(url);
  if (/^\/v1(\/|$)/.test(pathname)) return undefined;
  // The feedback form posts here; its page is the site's.
  if (/^\/feedback\/?$/.test(pathname))
    return files?.has("site/client/feedback/index.html") ? [...READS, "POST"] : ["POST"];
  if (/^\/(search\/?|(compare|lists)\/[^/]+\/?)$/.test(pathname)) return READS;
  if (textPageFor(catalogue, pathname)) return READS;
  const decoded = safeRelativePath(pathname);
  if (decoded === undefined || !files) return undefined;
  const path = decoded.replace(/^\/+|\/+$/g, "");
  const known =
    files.has(`site/client/${path ? `${path}/` : ""}index.html`) ||
    (/\.[a-z0-9_]+$/i.test(path) && files.has(`site/client/${path}`));
  return known ? READS : undefined;
}
