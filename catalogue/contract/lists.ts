/**
 * The Lists rows: saving an approved list and reading it back, with its calendar and exit plan.
 * See index.ts for the table they join.
 */
import { z } from "zod";
import { endpoint, type Endpoint, type PublicUrls } from "./endpoint.ts";
import { checkedJobsUsed } from "../exit/plan.ts";
import { checkedDataGb } from "../exit/leaving.ts";
import { listExitPlan } from "../exit/list-plan.ts";
import { exitTargetOfQuery } from "../exit/target-query.ts";
import { BUCKETS, LIST_LIFETIME_DAYS, type BucketName } from "../base/limits.ts";
import { dayOf, lifecycleCalendar, listCalendarFilterOf } from "../lifecycle/lifecycle.ts";
import { cleanListName, listPath, resolveList, reusableUntil, type StoredList } from "../lists/lists.ts";
import { readList } from "./read-list.ts";
import { newList } from "../lists/lists.node.ts";
import { IdempotencyKeyReusedError, SlugTakenError } from "./ports.ts";
import { HttpError } from "../base/problem.ts";
import {
  AcceptHeaders,
  ExitPlan,
  ExitPlanQuery,
  IdempotencyHeaders,
  ListCalendarQuery,
  SavedList,
  SavedListCreate,
  SavedListDetail,
  type SavedListT,
} from "../schema/index.ts";
import { CALENDAR, storeCall, approvedIds, EXIT_PLAN_ALTERNATES, exitPlanFormat, exitPlanAnswer } from "./shared.ts";

function savedList(urls: PublicUrls, { idempotency: _, jobsUsed, dataGb, ...list }: StoredList): SavedListT {
  return {
    ...list,
    ...(dataGb ? { dataGb: { ...dataGb } } : {}),
    // Lists saved before names were cleaned may still hold ESC or bidi characters.
    name: cleanListName(list.name),
    approvedServiceIds: [...list.approvedServiceIds],
    ...(jobsUsed
      ? { jobsUsed: Object.fromEntries(Object.entries(jobsUsed).map(([slug, groups]) => [slug, [...groups]])) }
      : {}),
    url: `${urls.textUrl}${listPath(list)}`,
  };
}

/** Reads of a saved list that find none are counted here (sidecar/plugins/miss-limit.ts). */
export const MISS_BUCKET: BucketName = "misses";
/** What every read row says of renewal (docs/decisions.md#list-renewal). */
const RENEWS = `A read renews the list: its expiresAt moves to the read + ${LIST_LIFETIME_DAYS} days, written at most once a day.`;
const MISSES = `Reads that find no list are counted in the ${MISS_BUCKET} bucket (${BUCKETS[MISS_BUCKET].max} a minute per IP), so slugs cannot be guessed quickly; past it every read of a list by that client, found or not, is 429 until the minute is over. Reads that find a list are not counted.`;

const listNotFound = () =>
  new HttpError(
    404,
    "List not found",
    `No list has this slug or id; lists expire ${LIST_LIFETIME_DAYS} days after they are saved or last read.`,
  );

export const LISTS_ENDPOINTS: readonly Endpoint[] = [
  endpoint({
    operationId: "createList",
    method: "POST",
    path: "/v1/lists",
    summary: "Save an approved-services list",
    description: `Saves a list for ${LIST_LIFETIME_DAYS} days from its last read (every read of it renews it) and returns its shareable id, slug and URL. jobsUsed (optional) keeps per service the jobs the team uses it for, which the list's exit plan then plans alone; a bad one is a 400 as on POST /v1/exit-plan. 409 when an explicit slug is taken. A list with a slug (given, or derived from its name) can be read by anyone who guesses the slug; with unlisted: true it is saved by its unguessable id only (slug null).`,
    tag: "Lists",
    bucket: "strict",
    headers: IdempotencyHeaders,
    body: SavedListCreate,
    response: { status: 200, schema: SavedList, contentType: "application/json" },
    errors: [400, 409, 413, 415, 422, 429, 503],
    cache: "no-store",
    example: {
      request: "POST /v1/lists",
      body: { name: "Platform baseline", approvedServiceIds: ["aws-s3", "aws-ec2"] },
    },
    handler: async (c, { body, headers, client }) => {
      const ids = approvedIds(c.catalogue, body);
      // Checked now, as POST /v1/exit-plan checks its own: a bad job is the saver's 400, not a reader's.
      const jobsUsed = checkedJobsUsed(c.catalogue, ids, body.jobsUsed);
      const dataGb = checkedDataGb(c.catalogue, ids, body.dataGb);
      const idempotencyKey = headers["idempotency-key"];
      const candidate = newList(
        {
          name: body.name,
          slug: body.slug,
          unlisted: body.unlisted,
          ids,
          jobsUsed,
          dataGb,
          idempotencyKey: idempotencyKey === undefined ? undefined : { key: idempotencyKey, client },
        },
        c.now(),
      );
      try {
        const list = await storeCall(() => c.store.createList(candidate), {
          unknownOutcome: () => {
            const check = body.slug
              ? `/v1/lists/${body.slug} (or /v1/lists/${candidate.id})`
              : `/v1/lists/${candidate.id}`;
            return `The outcome is unknown: the list may have been saved. GET ${check} to check before retrying${idempotencyKey ? ", or retry with the same Idempotency-Key" : ""}.`;
          },
        });
        return { body: savedList(c.urls, list) };
      } catch (error) {
        if (error instanceof IdempotencyKeyReusedError)
          throw new HttpError(
            422,
            "Idempotency-Key reused",
            "This Idempotency-Key was already used with a different request body; send a new key for a new list, or the same body to get the list it saved.",
          );
        if (error instanceof SlugTakenError)
          throw new HttpError(
            409,
            "Slug taken",
            `The slug "${error.slug}" is already used by another list; choose another or omit it.`,
          );
        throw error;
      }
    },
  }),
  endpoint({
    operationId: "getList",
    method: "GET",
    path: "/v1/lists/{id}",
    summary: "Get a saved list",
    description: `By slug first, then by id. ${RENEWS} Expired lists answer 404. ${MISSES}`,
    tag: "Lists",
    params: z.object({
      id: z.string().meta({ description: "The list's slug or generated id", example: "platform-baseline" }),
    }),
    response: { status: 200, schema: SavedListDetail, contentType: "application/json" },
    missBucket: MISS_BUCKET,
    errors: [404, 429, 503],
    cache: "until-expiry",
    example: { request: "GET /v1/lists/platform-baseline" },
    handler: async (c, { params }) => {
      const list = await storeCall(() => readList(c.store, params.id, c.now()));
      if (!list) throw listNotFound();
      // A saved list's services never change; its answer is reused until a read would renew it.
      return {
        body: { ...savedList(c.urls, list), ...resolveList(c.catalogue, list) },
        expiresAt: reusableUntil(list),
      };
    },
  }),
  endpoint({
    operationId: "getListLifecycleCalendar",
    method: "GET",
    path: "/v1/lists/{id}/lifecycle.ics",
    summary: "A saved list's lifecycle calendar",
    description: `GET /v1/lifecycle.ics for the services of one saved list: an all-day event per sunset or retirement date of its services, so a team subscribes to the deprecations of what it approved. Each event to come carries display reminders (VALARM), by default 180, 90 and 30 days before it; alarms chooses others (alarms=30,7) or none (alarms=none). within keeps the dates from today (UTC) to today + n days, as on GET /v1/lifecycle, and kind the entries of one kind; a bad alarms, within or kind is a 400. ${RENEWS} Expired lists answer 404. ${MISSES}`,
    tag: "Lists",
    params: z.object({
      id: z.string().meta({ description: "The list's slug or generated id", example: "platform-baseline" }),
    }),
    query: ListCalendarQuery,
    response: { status: 200, contentType: CALENDAR },
    missBucket: MISS_BUCKET,
    errors: [400, 404, 429, 503],
    cache: "until-expiry",
    example: { request: "GET /v1/lists/platform-baseline/lifecycle.ics?within=365d&alarms=30,7" },
    handler: async (c, { params, query }) => {
      const list = await storeCall(() => readList(c.store, params.id, c.now()));
      if (!list) throw listNotFound();
      const { services } = resolveList(c.catalogue, list);
      const name = cleanListName(list.name) ?? list.slug ?? list.id;
      return {
        text: lifecycleCalendar(c.catalogue, c.urls, {
          name: `Lifecycle: ${name}`,
          description: `Sunset and retirement dates of the ${services.length} services of the saved list ${c.urls.textUrl}${listPath(list)}.`,
          slugs: new Set(services.map((service) => service.slug)),
          // Computed for each request: `within` and the reminders count from the request's day.
          filtered: { filter: listCalendarFilterOf(query), asOf: dayOf(c.now()), query: "" },
          alarms: query.alarms,
        }),
        contentType: CALENDAR,
        expiresAt: reusableUntil(list),
      };
    },
  }),
  // Exit plans (decisions.md#exit-ranking, contract 1.7.0).
  endpoint({
    operationId: "getListExitPlan",
    method: "GET",
    path: "/v1/lists/{id}/exit-plan",
    summary: "A saved list's exit plan",
    description: `POST /v1/exit-plan for the services of one saved list, the target in the query: providers, jurisdictions and exclude comma-separated, sovereignOption and euResidentOnly true or false, 1 or 0 (e.g. ?sovereignOption=true&jurisdictions=EU,CH&exclude=stackit); an unknown parameter is a 400 naming the one it most likely meant. Markdown and CSV as for POST /v1/exit-plan; the answer varies with Accept, so caches revalidate it. The jobs the list was saved with (jobsUsed) are planned as POST /v1/exit-plan plans them. Ids the catalogue no longer holds are named in notes, and so are saved jobs no longer among their service's groups (that service is then planned with the jobs left, or all its jobs). ${RENEWS} Expired lists answer 404. ${MISSES}`,
    tag: "Lists",
    params: z.object({
      id: z.string().meta({ description: "The list's slug or generated id", example: "platform-baseline" }),
    }),
    bucket: "relaxed",
    query: ExitPlanQuery,
    headers: AcceptHeaders,
    response: { status: 200, schema: ExitPlan, contentType: "application/json", alternates: EXIT_PLAN_ALTERNATES },
    missBucket: MISS_BUCKET,
    errors: [400, 404, 429, 503],
    cache: "revalidate",
    example: { request: "GET /v1/lists/platform-baseline/exit-plan?sovereignOption=true&format=md" },
    handler: async (c, { params, query, headers }) => {
      const to = exitTargetOfQuery(query);
      const list = await storeCall(() => readList(c.store, params.id, c.now()));
      if (!list) throw listNotFound();
      // The one way every face plans a list (catalogue/exit/list-plan.ts).
      const plan = listExitPlan(c.catalogue, list, to);
      // A saved list's services never change: its plan for one query is kept until a read would renew it.
      return {
        ...exitPlanAnswer(
          c.catalogue,
          c.urls,
          plan,
          exitPlanFormat(query.format, headers.accept),
          list.name ?? list.slug ?? list.id,
          query.bom,
        ),
        expiresAt: reusableUntil(list),
      };
    },
  }),
];
