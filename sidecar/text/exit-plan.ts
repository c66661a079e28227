/**
 * /lists/{id}/exit-plan on the text host: a saved list's exit plan (catalogue/exit/plan.ts) in
 * ANSI, Markdown or HTML, the target in the query as on GET /v1/lists/{id}/exit-plan. Without a
 * target the plan is to sovereign-option providers, and the page says how to choose another.
 * /list/exit/?ids=…: the planner's plain form (a text browser, no JavaScript), planned the same way,
 * with its jobsUsed and dataGb fields; /list/exit/?list=…: a saved list, as the site's planner plans
 * it. Every one goes through listExitPlan or exitPlan (catalogue/exit/list-plan.ts), the functions
 * POST /v1/exit-plan and GET /v1/lists/{id}/exit-plan answer with (issue 114).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { listExitPlan, listFieldsOf } from "../../catalogue/exit/list-plan.ts";
import { exitTargetOfQuery } from "../../catalogue/exit/target-query.ts";
import { listPath } from "../../catalogue/lists/lists.ts";
import { listBuilderRequest } from "../../catalogue/outputs/page-requests.ts";
import { unknownIds } from "../../catalogue/search/ids.ts";
import { splitRequestUrl } from "../files.ts";
import { issueDetails } from "../../catalogue/base/issues.ts";
import type { ErrorTitle } from "../../catalogue/base/error-catalogue.ts";
import { HttpError, isHttpError } from "../../catalogue/base/problem.ts";
import { link, paragraph, type Doc } from "../../catalogue/format/doc.ts";
import { href } from "../../catalogue/base/urls.ts";
import { exitPlanDoc } from "../../catalogue/render/exit-plan.ts";
import { renderHtml } from "../../catalogue/format/html.ts";
import { ExitPlanQuery, type ExitTargetT } from "../../catalogue/schema/index.ts";
import { isDotSegment } from "./site-page.ts";
import { replyComputedPage } from "./computed-page.ts";
import { plainPage } from "./plain-pages.ts";
import { pageWithIds } from "./forms.ts";
import { render, widthOf } from "./render.ts";
import type { TextContext } from "./context.ts";
import { waitFor, type Computed, type Shape } from "./computed-shapes.ts";
import type { Catalogue } from "../../catalogue/load/load.ts";
import type { StoredList } from "../store/store.ts";

const TARGET_KEYS = ["providers", "sovereignOption", "euResidentOnly", "jurisdictions", "exclude"] as const;
const TargetQuery = ExitPlanQuery.pick({
  providers: true,
  sovereignOption: true,
  euResidentOnly: true,
  jurisdictions: true,
  exclude: true,
});

/** The default target of a page asked for without one. */
export const DEFAULT_EXIT_TARGET: ExitTargetT = { sovereignOption: true };

/** The target of a request's query; the default when it names none. Throws HttpError (400). */
export function exitTargetOfRequest(query: Record<string, unknown>): { to: ExitTargetT; defaulted: boolean } {
  if (TARGET_KEYS.every((key) => query[key] === undefined)) return { to: DEFAULT_EXIT_TARGET, defaulted: true };
  const parsed = TargetQuery.safeParse(Object.fromEntries(TARGET_KEYS.map((key) => [key, query[key]])));
  if (!parsed.success) throw new HttpError(400, "Bad request", issueDetails(parsed.error.issues, "query"));
  return { to: exitTargetOfQuery(parsed.data), defaulted: false };
}

export async function exitPlanPage(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const { store, replies } = c;
  const { id } = (request as FastifyRequest<{ Params: { id: string } }>).params;
  if (isDotSegment(id)) return replies.notFound(request, reply, "No page here.");
  let target;
  try {
    target = exitTargetOfRequest(request.query as Record<string, unknown>);
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return replies.error<ErrorTitle>(request, reply, error.statusCode, error.title, error.details ?? "");
  }
  const found = await replies.savedList(store, id, request, reply);
  if ("answered" in found) return found.answered;
  return planPage(c, request, reply, found.list, target);
}

/** A list's plan to `target` as the page asked for, computed in the heavy thread. */
async function planPage(
  c: TextContext,
  request: FastifyRequest,
  reply: FastifyReply,
  list: StoredList | FormList,
  target: { to: ExitTargetT; defaulted: boolean },
) {
  const rendering = c.replies.rendering(request);
  // In HTML the site's layout around the plan: the job computes the Doc, the site renders it.
  const asDoc = rendering === "html" && c.site.available;
  const computed = await c.computed.text(
    {
      name: "exitPlan",
      input: {
        list,
        to: target.to,
        defaulted: target.defaulted,
        textUrl: c.textUrl ?? "",
        rendering,
        width: widthOf(request),
        asDoc,
      },
    },
    waitFor(request),
  );
  return replyComputedPage(c, request, reply, rendering, computed, asDoc);
}

/**
 * GET /list/exit/: the planner the site built (its script plans the browser's list); with ?ids=, the
 * plain form's submission, planned here to the form's target and answered as a page, so the planner
 * works without JavaScript (issue 101).
 */
export async function exitPlannerPage(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const { replies } = c;
  const params = new URLSearchParams(splitRequestUrl(request.url).query);
  const rendering = replies.rendering(request);
  if (!params.has("ids")) {
    const listId = params.get("list");
    // A saved list in HTML: the planner with its plain form filled with the list (on-demand/exit.astro).
    if (rendering === "html" && listId && c.site.available)
      return (await pageWithIds(c, request, reply, "list/exit/index.html", "exit")) ? reply : undefined;
    if (rendering === "html" && (await replies.site(request, reply, "list/exit/index.html"))) return reply;
    // A saved list planned here as the site's planner plans it: its jobs and data volumes, the form's target.
    if (listId) return savedListPlan(c, request, reply, listId, params);
    if (rendering === "html") return plainPage(c, request, reply, "list/exit");
    return replies.notFound(
      request,
      reply,
      "The exit planner is a page of the site: plan with ?ids=aws-s3,… or ?list=<saved list> here, or POST /v1/exit-plan.",
    );
  }
  const { known, unknown } = listBuilderRequest(c.catalogue, params);
  if (unknown.length > 0) {
    const error = unknownIds(c.catalogue, unknown);
    return replies.error<ErrorTitle>(request, reply, error.statusCode, error.title, error.details ?? "");
  }
  if (known.length === 0)
    return replies.error(request, reply, 400, "Bad request", "Name the services to plan: ?ids=aws-s3,aws-lambda.");
  let target;
  let form: FormList;
  try {
    // A form sends a ticked box as "on" and repeats a key per box: the API's query takes true and commas.
    // No criterion (a link with ?ids= alone, or nothing ticked) plans to the pages' default,
    // sovereign-option providers, as /lists/{id}/exit-plan does, and the page says so.
    target = exitTargetOfRequest(formTarget(params));
    form = { ids: known, ...listFieldsOf((key) => params.get(key)) };
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return replies.error<ErrorTitle>(request, reply, error.statusCode, error.title, error.details ?? "");
  }
  return planPage(c, request, reply, form, target);
}

/** /list/exit/?list=…: a saved list's plan to the form's target (the pages' default without one). */
async function savedListPlan(
  c: TextContext,
  request: FastifyRequest,
  reply: FastifyReply,
  id: string,
  params: URLSearchParams,
) {
  let target;
  try {
    target = exitTargetOfRequest(formTarget(params));
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return c.replies.error<ErrorTitle>(request, reply, error.statusCode, error.title, error.details ?? "");
  }
  const found = await c.replies.savedList(c.store, id, request, reply);
  if ("answered" in found) return found.answered;
  return planPage(c, request, reply, found.list, target);
}

/** The planner form's fields as the target query reads them: "on" as true, repeated keys joined by commas. */
function formTarget(params: URLSearchParams): Record<string, string | undefined> {
  const value = (key: string) => {
    const values = params.getAll(key).filter((v) => v !== "");
    if (values.length === 0) return undefined;
    return values.map((v) => (v === "on" ? "true" : v)).join(",");
  };
  return Object.fromEntries(TARGET_KEYS.map((key) => [key, value(key)]));
}

/** An unsaved list, planned from the planner's form: its service ids, and the jobs and data volumes it gives. */
interface FormList {
  readonly ids: readonly string[];
  readonly jobsUsed?: Readonly<Record<string, readonly string[]>>;
  readonly dataGb?: Readonly<Record<string, number>>;
}

/** A saved list's (or the planner form's) exit plan to `to`, as a page. */
export function exitPlanBody(
  catalogue: Catalogue,
  input: Shape & { list: StoredList | FormList; to: ExitTargetT; defaulted: boolean; textUrl: string; asDoc?: boolean },
): Computed {
  const { list, rendering } = input;
  const target = { to: input.to, defaulted: input.defaulted };
  const saved = "approvedServiceIds" in list ? list : undefined;
  const form = saved ? undefined : (list as FormList);
  const ids = saved ? saved.approvedServiceIds : form!.ids;
  let doc: Doc;
  try {
    // A saved list as every face plans it; the form's fields as POST /v1/exit-plan checks its body.
    const plan = saved
      ? listExitPlan(catalogue, saved, target.to)
      : exitPlan(catalogue, form!.ids, target.to, form!.jobsUsed, form!.dataGb);
    doc = exitPlanDoc(catalogue, plan, {
      base: input.textUrl,
      listName: saved ? (saved.name ?? saved.slug ?? saved.id) : "your list",
    });
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return { status: error.statusCode, title: error.title, detail: error.details ?? "" };
  }
  const query = new URLSearchParams(
    Object.entries(target.to).map(([key, value]) => [key, Array.isArray(value) ? value.join(",") : String(value)]),
  ).toString();
  const [title, ...rest] = doc.blocks;
  const page: Doc = {
    title: doc.title,
    blocks: [
      title!,
      saved ? savedListTarget(saved, target.defaulted, query) : formTargetNote(ids, target.defaulted),
      ...rest,
    ],
  };
  // For the site's layout (an on-demand page rendering this Doc), the Doc itself.
  if (input.asDoc) return { status: 200, body: JSON.stringify(page) };
  return {
    status: 200,
    body: rendering === "html" ? renderHtml(page) : render(page, rendering, input.width),
  };
}

/** Under a saved list's plan: how to choose another target, the list and the plan as CSV. */
function savedListTarget(list: StoredList, defaulted: boolean, query: string) {
  const path = href("exit-plan", { id: list.slug ?? list.id });
  return paragraph(
    defaulted ? "Target: sovereign-option providers, the default. Choose another with " : "Choose another target with ",
    `?providers=ovhcloud,scaleway, ?sovereignOption=true, ?euResidentOnly=true, ?jurisdictions=EU,CH and ?exclude=…, combined as you like (each narrows). `,
    "The list: ",
    link(listPath(list), listPath(list)),
    ". As CSV: ",
    link(`/v1${path}?${query}&format=csv`, `/v1${path}?${query}&format=csv`),
    ". Next step, the list's DORA register of information: ",
    link("DORA register", href("register", { id: list.slug ?? list.id }, new URLSearchParams(query))),
    ".",
  );
}

/** Under the planner form's plan: the target it planned to and the way back to the form. */
function formTargetNote(ids: readonly string[], defaulted: boolean) {
  return paragraph(
    defaulted ? "Target: sovereign-option providers, the default. " : "",
    "Planned on the server from the planner's form. ",
    link("Plan again", href("exit-planner")),
    " · ",
    link("These services in the list builder", href("list-builder", { ids: ids.join(",") })),
    ".",
  );
}
