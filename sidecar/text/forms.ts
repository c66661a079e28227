/**
 * The site's tools without JavaScript, on the text host (their pages' forms get and post here):
 * - GET /exposure?ids=a,b (or ?list=<saved list>) — the scorecard scored on the server
 *   (site/src/pages/on-demand/exposure.astro), as compare does; without either, the built page;
 * - GET /list?ids=a,b (or ?list=) — the builder rendered with those services chosen
 *   (site/src/pages/on-demand/list.astro), its download and save forms carrying them; without
 *   either, the built page;
 * - GET /list/files/{file}?ids=a,b — one of the downloads the page makes in the browser
 *   (aws-scp.json, azure-policy-set.json, gcp-org-policy.json, each also as .tf, and
 *   approved-services.md), made by the same functions, counted in the API's strict bucket as
 *   POST /v1/policies/* is;
 * - POST /lists — the save form, form-encoded: the same list as POST /v1/lists saves (strict
 *   bucket), then a 303 to its page.
 */
import type { McpOriginPolicy } from "../mcp-origin.ts";
import type { ErrorTitle } from "../../catalogue/base/error-catalogue.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { issueDetails } from "../../catalogue/base/issues.ts";
import { BUCKETS } from "../../catalogue/base/limits.ts";
import { unknownIds } from "../../catalogue/search/ids.ts";
import { listPath } from "../../catalogue/lists/lists.ts";
import { newList } from "../../catalogue/lists/lists.node.ts";
import { listBuilderRequest } from "../../catalogue/outputs/page-requests.ts";
import { PolicyRequestError } from "../../catalogue/policies/errors.ts";
import { SlugTakenError, StoreUnavailableError } from "../../catalogue/contract/ports.ts";
import type { OnDemandPage } from "../../catalogue/outputs/pages.ts";
import { SavedListCreate } from "../../catalogue/schema/index.ts";
import { splitRequestUrl, TEXT_VARY } from "../files.ts";
import { hitBucket } from "../plugins/rate-limit.ts";
import type { TextContext } from "./context.ts";
import { LIST_FILES } from "./list-files.ts";
import { plainPage } from "./plain-pages.ts";
import type { SitePageRequest } from "./site-page.ts";

export const FOREIGN_HOST_DETAILS =
  "This form takes posts from browsers only for this server's own host names (its public URLs, loopback, MCP_ALLOWED_ORIGINS): a page whose name was pointed at this server's address (DNS rebinding) cannot submit it.";

export const CROSS_SITE_DETAILS =
  "This form takes posts from this site's own pages (or from a client that sends no Origin, such as curl); a page on another site cannot submit it.";

/**
 * Why a form post is refused as cross-site, or undefined: a browser says where a post comes from
 * (Sec-Fetch-Site, Origin), and a page of another site posting here would act with its visitor's
 * address (their rate limits, their saved lists' guesses). Allowed: Sec-Fetch-Site same-origin or
 * none; else no Origin (curl, scripts), the text host's configured origin, or an Origin naming the
 * host the request was sent to.
 */
export function crossSiteRefusal(
  request: FastifyRequest,
  textUrl: string | undefined,
  hosts?: Pick<McpOriginPolicy, "allowsHost">,
): string | undefined {
  const site = request.headers["sec-fetch-site"];
  // A browser posting to a name rebound to this server's address sends that name as Host, and
  // calls the post same-origin: a browser's post is taken only for this server's own host names.
  const browser = site !== undefined || request.headers.origin !== undefined;
  if (browser && hosts && !hosts.allowsHost(request.headers.host)) return FOREIGN_HOST_DETAILS;
  if (site === "cross-site") return CROSS_SITE_DETAILS;
  // The browser's own word for a post from this origin (or typed by the user): under the site's
  // Referrer-Policy: no-referrer, Chromium sends such a post with `Origin: null`.
  if (site === "same-origin" || site === "none") return undefined;
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  let host: string;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    // "null" (a sandboxed frame, a redirect across sites) and anything else that is not a URL.
    return CROSS_SITE_DETAILS;
  }
  if (host === request.headers.host?.toLowerCase()) return undefined;
  if (textUrl !== undefined && URL.canParse(textUrl) && new URL(textUrl).host.toLowerCase() === host) return undefined;
  return CROSS_SITE_DETAILS;
}

const paramsOf = (request: FastifyRequest) => new URLSearchParams(splitRequestUrl(request.url).query);

/**
 * In HTML the built page `file` without ?ids= or ?list=, else the on-demand page `name` with the
 * query, which fills the page with those services (issue 126); without the site's renderer (a
 * mirror) the built page for all, whose script reads ?ids= and ?list= as it does on the origin.
 */
export async function pageWithIds(
  c: TextContext,
  request: FastifyRequest,
  reply: FastifyReply,
  file: string,
  name: OnDemandPage,
) {
  const { query } = splitRequestUrl(request.url);
  const params = paramsOf(request);
  const takesList = params.has("ids") || params.has("list");
  if ((!takesList || !c.site.available) && (await c.replies.site(request, reply, file))) return true;
  const search = query ? `?${query}` : "";
  // A saved list's page reads the store (and renews the list), as /lists/{id} does: never kept, by
  // the renderer's cache (given locals) or any other.
  const saved = !params.has("ids") && params.has("list");
  const page: SitePageRequest = saved
    ? { page: { name, search }, locals: {}, headers: { vary: TEXT_VARY, "cache-control": "no-store" } }
    : { page: { name, search }, headers: { vary: TEXT_VARY } };
  return c.site.render(request, reply, page);
}

/** GET /exposure (?ids=): the scorecard, scored on the server for the URL's ids. */
export async function exposurePage(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  if (c.replies.rendering(request) === "html")
    return (await pageWithIds(c, request, reply, "exposure/index.html", "exposure"))
      ? reply
      : plainPage(c, request, reply, "exposure");
  return c.replies.notFound(
    request,
    reply,
    "The scorecard is a page of the site; the API scores: GET /v1/exposure?ids=…",
  );
}

/** GET /list (?ids=): the builder with the services chosen in HTML; the built page without ids. */
export async function listBuilderPage(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  if (c.replies.rendering(request) === "html")
    return (await pageWithIds(c, request, reply, "list/index.html", "list"))
      ? reply
      : plainPage(c, request, reply, "list");
  return c.replies.notFound(
    request,
    reply,
    "The list builder is a page of the site; the API saves lists: POST /v1/lists.",
  );
}

/** Over the strict bucket: the limit, in the request's rendering. */
export async function strictBucket(c: TextContext, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const hit = await hitBucket(c.store, "strict", request.ip);
  reply.header("x-ratelimit-limit", String(BUCKETS.strict.max)).header("cache-control", "no-store");
  if (hit.current <= BUCKETS.strict.max) return false;
  const seconds = Math.max(1, Math.ceil(hit.ttl / 1000));
  reply.header("retry-after", String(seconds));
  const detail = `Policies and saved lists share the API's strict bucket (POST /v1/policies/*, POST /v1/lists): ${BUCKETS.strict.max} requests per minute per IP. Try again in ${seconds} seconds.`;
  await c.replies.error(request, reply, 429, "Too many requests", detail);
  return true;
}

/** GET /list/files/{file}?ids=: one download of the builder, as an attachment. */
export async function listFile(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const { file } = (request as FastifyRequest<{ Params: { file: string } }>).params;
  const made = Object.hasOwn(LIST_FILES, file) ? LIST_FILES[file] : undefined;
  if (!made) return c.replies.notFound(request, reply, `No download "${file.slice(0, 60)}"; /list/ lists them.`);
  const { known, unknown } = listBuilderRequest(c.catalogue, paramsOf(request));
  if (unknown.length > 0) return refuseUnknownIds(c, request, reply, unknown);
  if (known.length === 0)
    return c.replies.error(request, reply, 400, "Bad request", "Add services to your list first (?ids=aws-s3,…).");
  if (await strictBucket(c, request, reply)) return reply;
  let body: string;
  try {
    body = made.make(c.catalogue, known);
  } catch (error) {
    if (!(error instanceof PolicyRequestError)) throw error;
    return c.replies.error(request, reply, 400, error.title, error.message);
  }
  return reply
    .header("content-disposition", `attachment; filename="${file}"`)
    .type(made.type.includes("charset") ? made.type : `${made.type}; charset=utf-8`)
    .send(body);
}

/** POST /lists, the save form: saved as POST /v1/lists saves, then the list's page (303). */
export async function saveListForm(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const form = (request.body as Record<string, string> | undefined) ?? {};
  const name = (form.name ?? "").trim();
  const slug = (form.slug ?? "").trim();
  // Unlisted (ticked by default on the site): saved by its generated id only, as POST /v1/lists with
  // unlisted: true. A custom address asks for a listed list and wins over the default, as on the site.
  const unlisted = form.unlisted === "true" && !slug;
  const { known, unknown } = listBuilderRequest(c.catalogue, new URLSearchParams({ ids: form.ids ?? "" }));
  if (unknown.length > 0) return refuseUnknownIds(c, request, reply, unknown);
  const parsed = SavedListCreate.safeParse({
    approvedServiceIds: known,
    ...(name ? { name } : {}),
    ...(slug ? { slug } : {}),
    ...(unlisted ? { unlisted: true } : {}),
  });
  if (!parsed.success) {
    const details = known.length === 0 ? "Add services to your list first." : issueDetails(parsed.error.issues, "form");
    return c.replies.error(request, reply, 400, "Not saved", details);
  }
  if (await strictBucket(c, request, reply)) return reply;
  try {
    const list = await c.store.createList(newList({ ...parsed.data, ids: known }, new Date()));
    return reply.code(303).header("location", listPath(list)).send();
  } catch (error) {
    if (error instanceof SlugTakenError)
      return c.replies.error(
        request,
        reply,
        409,
        "Slug taken",
        `The address "${error.slug}" is taken; choose another or leave it empty.`,
      );
    if (error instanceof StoreUnavailableError)
      return c.replies.error(
        request,
        reply,
        503,
        "Service unavailable",
        "Lists cannot be saved right now; try again shortly.",
      );
    throw error;
  }
}

/** Ids the catalogue does not know: 400 worded as the API words it, with the nearest slugs. */
function refuseUnknownIds(c: TextContext, request: FastifyRequest, reply: FastifyReply, unknown: readonly string[]) {
  const error = unknownIds(c.catalogue, unknown);
  return c.replies.error<ErrorTitle>(request, reply, error.statusCode, error.title, error.details ?? "");
}
