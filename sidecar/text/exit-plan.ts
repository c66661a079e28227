/**
 * /lists/{id}/exit-plan on the text host: a saved list's exit plan (catalogue/exit/plan.ts) in
 * ANSI, Markdown or HTML, the target in the query as on GET /v1/lists/{id}/exit-plan. Without a
 * target the plan is to sovereign-option providers, and the page says how to choose another.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { exitTargetOfQuery } from "../../catalogue/exit/target-query.ts";
import { jobsDroppedNote, listPath, resolveJobsUsed, resolveList } from "../../catalogue/lists/lists.ts";
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
import { render, widthOf } from "./render.ts";
import type { TextContext } from "./context.ts";
import { clientGone, type Computed, type Shape } from "./computed-shapes.ts";
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
  const rendering = replies.rendering(request);
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
  // In HTML the site's layout around the plan: the job computes the Doc, the site renders it.
  const asDoc = rendering === "html" && c.site.available;
  const computed = await c.computed.text(
    {
      name: "exitPlan",
      input: {
        list: found.list,
        to: target.to,
        defaulted: target.defaulted,
        textUrl: c.textUrl ?? "",
        rendering,
        width: widthOf(request),
        asDoc,
      },
    },
    clientGone(request),
  );
  return replyComputedPage(c, request, reply, rendering, computed, asDoc);
}

/** A saved list's exit plan to `to`, as a page. */
export function exitPlanBody(
  catalogue: Catalogue,
  input: Shape & { list: StoredList; to: ExitTargetT; defaulted: boolean; textUrl: string; asDoc?: boolean },
): Computed {
  const { list, rendering } = input;
  const target = { to: input.to, defaulted: input.defaulted };
  const { services, missingServiceIds } = resolveList(catalogue, list);
  const { jobsUsed, dropped } = resolveJobsUsed(catalogue, list);
  let doc: Doc;
  try {
    const plan = exitPlan(
      catalogue,
      services.map((service) => service.slug),
      target.to,
      jobsUsed,
    );
    if (missingServiceIds.length > 0)
      plan.notes.push(`No longer in the catalogue, so not planned: ${missingServiceIds.join(", ")}.`);
    if (dropped.length > 0) plan.notes.push(jobsDroppedNote(dropped));
    doc = exitPlanDoc(catalogue, plan, { base: input.textUrl, listName: list.name ?? list.slug ?? list.id });
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return { status: error.statusCode, title: error.title, detail: error.details ?? "" };
  }
  const path = href("exit-plan", { id: list.slug ?? list.id });
  const query = new URLSearchParams(
    Object.entries(target.to).map(([key, value]) => [key, Array.isArray(value) ? value.join(",") : String(value)]),
  ).toString();
  const [title, ...rest] = doc.blocks;
  const page: Doc = {
    title: doc.title,
    blocks: [
      title!,
      paragraph(
        target.defaulted
          ? "Target: sovereign-option providers, the default. Choose another with "
          : "Choose another target with ",
        `?providers=ovhcloud,scaleway, ?sovereignOption=true, ?euResidentOnly=true, ?jurisdictions=EU,CH and ?exclude=…, combined as you like (each narrows). `,
        "The list: ",
        link(listPath(list), listPath(list)),
        ". As CSV: ",
        link(`/v1${path}?${query}&format=csv`, `/v1${path}?${query}&format=csv`),
        ".",
      ),
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
