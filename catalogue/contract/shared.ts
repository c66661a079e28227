/**
 * What the rows of more than one tag use: answers of a content type, built files, a store failure
 * as an HTTP error, and an exit plan in the format asked for.
 */
import { serializeJson, type PublicUrls, type Result, type StaticFile } from "./endpoint.ts";
import { requireKnownIds } from "../search/ids.ts";
import { preferredMediaType } from "../base/media-type.ts";
import type { Catalogue } from "../load/load.ts";
import { StoreOutcomeUnknownError, StoreUnavailableError } from "./ports.ts";
import { HttpError } from "../base/problem.ts";
import { renderMarkdown } from "../format/markdown.ts";
import { exitPlanCsv, exitPlanDoc } from "../render/exit-plan.ts";
import type { ExitPlanFormat, ExitPlanT } from "../schema/index.ts";

export const ATOM = "application/atom+xml";
export const CALENDAR = "text/calendar; charset=utf-8";

export const text = (body: string, contentType: string): Result<never> => ({ text: body, contentType });
export const json = <Body>(body: Body): Result<Body> => ({
  text: serializeJson(body),
  contentType: "application/json; charset=utf-8",
});
export const file = (path: string, body: unknown): StaticFile => ({ file: path, body: serializeJson(body) });

/**
 * A store failure as the client should read it: a read "try again"; a write that certainly did not
 * happen "nothing was saved"; a write that reached the store unconfirmed (a timeout, a lost
 * connection, no replica's acknowledgement) `unknownOutcome`: it may have been saved, and how to
 * check — never "nothing was saved", which would invite a duplicate or a 409 on retry.
 */
export async function storeCall<T>(call: () => Promise<T>, write?: { unknownOutcome: () => string }): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    if (error instanceof StoreOutcomeUnknownError && write)
      throw new HttpError(503, "Service unavailable", write.unknownOutcome());
    throw new HttpError(
      503,
      "Service unavailable",
      write
        ? "Storage is unreachable; try again shortly. Nothing was saved."
        : "Storage is unreachable; try again shortly.",
    );
  }
}

export const approvedIds = (catalogue: Catalogue, body: { approvedServiceIds: string[] }) =>
  requireKnownIds(catalogue, body.approvedServiceIds);

export const MARKDOWN = "text/markdown; charset=utf-8";
export const CSV = "text/csv; charset=utf-8";
export const EXIT_PLAN_ALTERNATES = [MARKDOWN, CSV];

/** ?format wins; else Accept naming text/markdown or text/csv; else JSON. */
export function exitPlanFormat(format: ExitPlanFormat | undefined, accept: string | undefined): ExitPlanFormat {
  if (format) return format;
  // "text/markdown;q=0" refuses Markdown; */* and no match are JSON.
  const chosen = preferredMediaType(accept, EXIT_PLAN_MEDIA_TYPES, "application/json");
  return chosen === "text/markdown" ? "md" : chosen === "text/csv" ? "csv" : "json";
}

/** The exit plan's media types, JSON first: the one a tie or a wildcard gets. */
const EXIT_PLAN_MEDIA_TYPES = ["application/json", "text/markdown", "text/csv"] as const;

/** An exit plan in the format asked for. */
export function exitPlanAnswer(
  catalogue: Catalogue,
  urls: PublicUrls,
  plan: ExitPlanT,
  format: ExitPlanFormat,
  listName?: string,
  bom = false,
): Result<ExitPlanT> {
  if (format === "md")
    return text(
      renderMarkdown(
        exitPlanDoc(catalogue, plan, { base: urls.textUrl, ...(listName === undefined ? {} : { listName }) }),
      ),
      MARKDOWN,
    );
  // A file to save, with a byte order mark when asked (Excel reads UTF-8 without one as ANSI).
  if (format === "csv")
    return { text: `${bom ? "\uFEFF" : ""}${exitPlanCsv(plan)}`, contentType: CSV, filename: "exit-plan.csv" };
  return { body: plan };
}
