/**
 * The text host's DORA register of a saved list (/lists/{id}/register, issue 127): the step after
 * the list's exit plan. The query is GET /v1/lists/{id}/register's (the entity's lei, level,
 * referenceDate, currency, allowedLocations and the exit target), less its format, which here is
 * the rendering's (?format=ansi|md|html); the register is computed in the heavy thread as the exit
 * plan is, and answered as ANSI, Markdown, or HTML in the site's layout (on-demand/doc.astro).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { issueDetails } from "../../catalogue/base/issues.ts";
import type { ErrorTitle } from "../../catalogue/base/error-catalogue.ts";
import { HttpError, isHttpError } from "../../catalogue/base/problem.ts";
import { href } from "../../catalogue/base/urls.ts";
import { renderHtml } from "../../catalogue/format/html.ts";
import { resolveJobsUsed } from "../../catalogue/lists/lists.ts";
import type { Catalogue } from "../../catalogue/load/load.ts";
import { buildRegister } from "../../catalogue/register/build.ts";
import { registerDoc } from "../../catalogue/register/page.ts";
import { registerRequestOfQuery } from "../../catalogue/register/query.ts";
import { RegisterQuery } from "../../catalogue/schema/index.ts";
import type { StoredList } from "../store/store.ts";
import { waitFor, type Computed, type Shape } from "./computed-shapes.ts";
import { replyComputedPage } from "./computed-page.ts";
import type { TextContext } from "./context.ts";
import { render, widthOf } from "./render.ts";
import { isDotSegment } from "./site-page.ts";

/** The query keys the page reads: the API row's, less format, template and bom (the API's files). */
const PageQuery = RegisterQuery.omit({ format: true, template: true, bom: true });
type PageQueryT = ReturnType<typeof PageQuery.parse>;
/** The exit target's keys, which the list's exit plan page takes too. */
const TARGET_KEYS = new Set(["providers", "jurisdictions", "exclude", "sovereignOption", "euResidentOnly"]);
/** What the text host itself takes besides (renderings, width, colour). */
const HOST_KEYS = new Set(["format", "color", "width"]);

function queryOf(raw: Record<string, unknown>): PageQueryT {
  const own = Object.fromEntries(Object.entries(raw).filter(([key]) => !HOST_KEYS.has(key)));
  const parsed = PageQuery.safeParse(own);
  if (!parsed.success) throw new HttpError(400, "Invalid query", issueDetails(parsed.error.issues, "query"));
  return parsed.data;
}

export async function registerPage(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const { store, replies } = c;
  const { id } = (request as FastifyRequest<{ Params: { id: string } }>).params;
  if (isDotSegment(id)) return replies.notFound(request, reply, "No page here.");
  let query: PageQueryT;
  try {
    query = queryOf(request.query as Record<string, unknown>);
    registerRequestOfQuery(query); // a malformed LEI, date or currency: its 400 before the store is read
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return replies.error<ErrorTitle>(request, reply, error.statusCode, error.title, error.details ?? "");
  }
  const found = await replies.savedList(store, id, request, reply);
  if ("answered" in found) return found.answered;
  const rendering = replies.rendering(request);
  const asDoc = rendering === "html" && c.site.available;
  const computed = await c.computed.text(
    {
      name: "register",
      input: { list: found.list, query, rendering, width: widthOf(request), asDoc },
    },
    waitFor(request),
  );
  return replyComputedPage(c, request, reply, rendering, computed, asDoc);
}

/** The register of a saved list as a page: the job the heavy thread runs. */
export function registerBody(
  catalogue: Catalogue,
  input: Shape & { list: StoredList; query: PageQueryT; asDoc?: boolean },
): Computed {
  const { list, query } = input;
  const listId = list.slug ?? list.id;
  const pagePath = href("register", { id: listId });
  const apiPath = `/v1${pagePath}`;
  const search = new URLSearchParams(
    Object.entries(query).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])),
  );
  const withFormat = (format: string, template?: string) => {
    const params = new URLSearchParams(search);
    params.set("format", format);
    if (template) params.set("template", template);
    // The API answers on the text host too (/v1/*, same origin), so the links are relative.
    return `${apiPath}?${params.toString()}`;
  };
  // The exit plan's page takes the target alone.
  const target = new URLSearchParams([...search].filter(([key]) => TARGET_KEYS.has(key)));
  let page;
  try {
    const known = list.approvedServiceIds.filter((slug) => catalogue.bySlug.has(slug));
    if (known.length === 0)
      throw new HttpError(404, "List not found", "None of the list's services is in the catalogue any more.");
    const { jobsUsed } = resolveJobsUsed(catalogue, list);
    const register = buildRegister(catalogue, {
      ids: known,
      ...registerRequestOfQuery(query),
      jobsUsed,
      exitPlanAt: href("exit-plan", { id: listId }, target),
    });
    page = registerDoc(register, {
      listName: list.name ?? listId,
      links: {
        zip: withFormat("zip"),
        csv: (template) => withFormat("csv", template),
        exitPlan: href("exit-plan", { id: listId }, target),
      },
    });
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return { status: error.statusCode, title: error.title, detail: error.details ?? "" };
  }
  if (input.asDoc) return { status: 200, body: JSON.stringify(page) };
  return {
    status: 200,
    body: input.rendering === "html" ? renderHtml(page) : render(page, input.rendering, input.width),
  };
}
