/**
 * The text host's catalogue pages: /compare/{a,b,…}, /lists/{id} (the site's on-demand page in
 * HTML) and every built page (/, /{provider}, /{provider}/{service}, /category/{id}, /lifecycle,
 * the site's files), from the build when there is one, else rendered on the fly.
 * /lifecycle?within=… is filtered as of today.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { parseIdList, UnknownIdsError } from "../../catalogue/search/ids.ts";
import { issueDetails } from "../../catalogue/base/issues.ts";
import { dayOf, lifecycleFilterOf } from "../../catalogue/lifecycle/lifecycle.ts";
import { LifecycleQuery } from "../../catalogue/schema/index.ts";
import type { Catalogue } from "../../catalogue/load/load.ts";
import { compareRequest } from "../../catalogue/outputs/page-requests.ts";
import { isHttpError } from "../../catalogue/base/problem.ts";
import type { Doc } from "../../catalogue/format/doc.ts";
import { comparePage, lifecyclePage, savedListPage as savedListDoc } from "../../catalogue/render/pages.ts";
import { textPageFor, textPages } from "../../catalogue/outputs/pages.ts";
import { readLifecycleFilters, textFilterNames } from "../../catalogue/search/filter-table.ts";
import { safeRelativePath, splitRequestUrl, TEXT_VARY } from "../files.ts";
import { isDotSegment } from "./site-page.ts";
import { render, widthOf } from "./render.ts";
import type { TextContext } from "./context.ts";
import { waitFor, type Computed, type Shape } from "./computed-shapes.ts";
import { isPlainPage, plainPage } from "./plain-pages.ts";
import type { StoredList } from "../store/store.ts";

type Params<P> = FastifyRequest<{ Params: P }>;

/** /compare/a,b: in HTML the site's compare page rendered with the comparison; else the text host's. */
export async function comparePath(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const { ids: raw } = (request as Params<{ ids: string }>).params;
  const rendering = c.replies.rendering(request);
  if (rendering === "html") {
    // Unknown ids are named there and the rest compared, so a shared link reads without JavaScript.
    const search = `?${new URLSearchParams({ ids: compareRequest(c.catalogue, raw.split(",")).asked.join(",") })}`;
    if (await c.site.render(request, reply, { page: { name: "compare", search }, headers: { vary: TEXT_VARY } }))
      return reply;
  }
  const computed = await c.computed.text(
    {
      name: "comparePath",
      input: { ids: raw, rendering, width: widthOf(request) },
    },
    waitFor(request),
  );
  return c.replies.computed(request, reply, rendering, computed);
}

/** The comparison of /compare/a,b; 404 when an id names no service (the ids are the path). */
export function comparePathBody(
  catalogue: Catalogue,
  { ids: raw, rendering, width }: Shape & { ids: string },
): Computed {
  let ids: string[];
  try {
    ids = parseIdList(catalogue, raw, Number.MAX_SAFE_INTEGER);
  } catch (error) {
    if (!isHttpError(error)) throw error;
    // Ids in the path name a page: unknown ones are a page not found, with the nearest slugs.
    if (error instanceof UnknownIdsError) return { status: 404, title: "Not found", detail: error.details ?? "" };
    return { status: error.statusCode, title: error.title, detail: error.details ?? "" };
  }
  return { status: 200, body: render(comparePage(catalogue, ids), rendering, width) };
}

/** /lists/{id}: the site's on-demand page in HTML, given the same catalogue and store as the API. */
export async function savedListPage(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const { id } = (request as Params<{ id: string }>).params;
  const rendering = c.replies.rendering(request);
  if (isDotSegment(id)) return c.replies.notFound(request, reply, "No page here.");
  const headers = { vary: TEXT_VARY, "cache-control": "no-store" };
  if (rendering === "html" && (await c.site.render(request, reply, { headers }))) return reply;
  const found = await c.replies.savedList(c.store, id, request, reply);
  if ("answered" in found) return found.answered;
  const computed = await c.computed.text(
    {
      name: "savedList",
      input: { list: found.list, rendering, width: widthOf(request), apiUrl: c.apiUrl },
    },
    waitFor(request),
  );
  // Saved lists expire: not for shared caches.
  return c.replies.computed(request, reply, rendering, computed, false);
}

/** A saved list's page. */
export function savedListBody(
  catalogue: Catalogue,
  { list, rendering, width, apiUrl }: Shape & { list: StoredList; apiUrl?: string | undefined },
): Computed {
  return { status: 200, body: render(savedListDoc(catalogue, list, undefined, apiUrl), rendering, width) };
}

/** ?within=90 (or 90d), status, provider, ids, kind: the API's lifecycle query, as the filter table has it. */
const LIFECYCLE_KEYS = textFilterNames("lifecycle");

/** Each catalogue's text pages, by the API URL they name (the build's: dist/text; none in tests). */
const docsByCatalogue = new WeakMap<Catalogue, Map<string, Map<string, () => Doc>>>();
const pageDoc = (catalogue: Catalogue, page: string, apiUrl: string | undefined) => {
  let byUrl = docsByCatalogue.get(catalogue);
  if (!byUrl) docsByCatalogue.set(catalogue, (byUrl = new Map<string, Map<string, () => Doc>>()));
  let docs = byUrl.get(apiUrl ?? "");
  const urls = apiUrl === undefined ? undefined : { apiUrl, textUrl: "" };
  if (!docs) byUrl.set(apiUrl ?? "", (docs = new Map([...textPages(catalogue, urls)].map((p) => [p.page, p.doc]))));
  return docs.get(page)!();
};

/** Every page the build has (the site's files and pages, dist/text), else rendered on the fly. */
export async function builtPage(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const rendering = c.replies.rendering(request);
  const { pathname } = splitRequestUrl(request.url);
  const decoded = safeRelativePath(pathname);
  if (decoded === undefined)
    return c.replies.notFound(request, reply, "No page here. Try / for the list of providers.");
  // Site assets (CSS, JS, the search index) whatever the Accept header says.
  if (/\.[a-z0-9_]+$/i.test(decoded) && (await c.replies.site(request, reply, decoded.slice(1)))) return reply;
  const page = textPageFor(c.catalogue, pathname);
  const query = request.query as Record<string, unknown>;
  if (page === "lifecycle" && rendering !== "html" && LIFECYCLE_KEYS.some((key) => query[key] !== undefined))
    return filteredLifecycle(c, request, reply, query);
  if (rendering === "html") {
    const dir = decoded.replace(/^\/+|\/+$/g, "");
    if (await c.replies.site(request, reply, dir ? `${dir}/index.html` : "index.html")) return reply;
    // No built site (npm start's first minute): the site's own pages, plainly (plain-pages.ts).
    if (isPlainPage(dir)) return plainPage(c, request, reply, dir);
    if (!page) return c.replies.notFound(request, reply, `Nothing at ${pathname.slice(0, 200)}.`);
    // /aws/aws-s3 is the same service as /aws/s3, whose site page the browser is sent to: one page
    // per service (the text renderings answer at both paths).
    const canonical = `/${page}`;
    if (isServicePage(page) && canonical !== `/${dir}`) {
      // Re-encoded: the Location header takes no raw bytes a client may have sent.
      const search = new URLSearchParams(splitRequestUrl(request.url).query).toString();
      return reply
        .code(301)
        .header("vary", TEXT_VARY)
        .header("location", search ? `${canonical}?${search}` : canonical)
        .send();
    }
  }
  if (!page)
    return c.replies.notFound(request, reply, `Nothing at ${pathname.slice(0, 200)}. Try / for the list of providers.`);
  if (rendering !== "html" && (await c.replies.built(request, reply, `${page}.${rendering}`))) return reply;
  const body = render(pageDoc(c.catalogue, page, c.apiUrl), rendering, widthOf(request));
  return c.replies.text(request, reply, 200, rendering, body);
}

/** A page key of textPages naming a service (aws/s3), not a provider, category or other page. */
const isServicePage = (page: string) =>
  /^[^/]+\/[^/]+$/.test(page) && !page.startsWith("category/") && !page.endsWith("/index");

/** /lifecycle?within=…: the page filtered as of today (the site's page filters in the browser). */
async function filteredLifecycle(
  c: TextContext,
  request: FastifyRequest,
  reply: FastifyReply,
  query: Record<string, unknown>,
) {
  const rendering = c.replies.rendering(request);
  const asked = Object.fromEntries(LIFECYCLE_KEYS.map((key) => [key, query[key]]));
  const computed = await c.computed.text(
    {
      name: "lifecycle",
      // Today's date, not the time: one day's answers are kept as one.
      input: {
        query: asked,
        now: Date.parse(dayOf(new Date())),
        rendering,
        width: widthOf(request),
        apiUrl: c.apiUrl,
      },
    },
    waitFor(request),
  );
  return c.replies.computed(request, reply, rendering, computed);
}

/** The lifecycle page filtered by the API's lifecycle query, as of `now`. */
export function filteredLifecycleBody(
  catalogue: Catalogue,
  {
    query,
    now,
    rendering,
    width,
    apiUrl,
  }: Shape & { query: Record<string, unknown>; now: number; apiUrl?: string | undefined },
): Computed {
  const parsed = LifecycleQuery.safeParse(Object.fromEntries(LIFECYCLE_KEYS.map((key) => [key, query[key]])));
  if (!parsed.success)
    return { status: 400, title: "Invalid query", detail: issueDetails(parsed.error.issues, "query") };
  let filter;
  try {
    const read = readLifecycleFilters(catalogue, parsed.data);
    filter = lifecycleFilterOf(catalogue, read.query, read.slugs);
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return { status: error.statusCode, title: error.title, detail: error.details ?? "" };
  }
  const doc = lifecyclePage(
    catalogue,
    dayOf(new Date(now)),
    filter,
    apiUrl === undefined ? undefined : { apiUrl, textUrl: "" },
  );
  return { status: 200, body: render(doc, rendering, width) };
}
