/**
 * What the site does without JavaScript, on the text host:
 * - GET /search?q= — the API's ranking (catalogue/outputs/page-requests.ts searchRequest) in the negotiated
 *   rendering; in HTML, the site's search page rendered with those results (its script runs the
 *   same search and keeps them);
 * - GET /equivalents (?providers=, ?category=) and /equivalents/{id} — the equivalence matrix
 *   (catalogue/render/equivalents.ts); in HTML the site's page rendered with the URL's choice;
 * - GET /compare?ids= — the compare form submitted; in HTML the site's compare page;
 * - POST /feedback — the feedback form, form-encoded: the same operation as POST /v1/feedback
 *   (the contract row's handler), then a thank-you page; a blank or invalid message shows the
 *   form again with the reason.
 * Also the site's 429 page saying what was limited and when to retry (limitPage). The site's pages
 * are rendered by Astro on demand (site/src/pages/on-demand/, through site-page.ts); a build
 * without its server bundle gets the text host's own HTML.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { ENDPOINTS, recordFeedback } from "../../catalogue/contract/index.ts";
import { BUCKETS, FEEDBACK_MESSAGE, TEXT_SEARCH_RESULTS } from "../../catalogue/base/limits.ts";
import type { Catalogue } from "../../catalogue/load/load.ts";
import {
  compareRequest,
  listParam,
  matrixRequest,
  searchHref,
  searchAsks,
  searchRequest,
  SEARCH_PAGE_PARAMETERS,
  FORM_MARKER,
  formParams,
} from "../../catalogue/outputs/page-requests.ts";
import { HttpError, isHttpError } from "../../catalogue/base/problem.ts";
import { textFilterNames } from "../../catalogue/search/filter-table.ts";
import { heading, link, paragraph, stripControl, type Doc, type Inline } from "../../catalogue/format/doc.ts";
import { equivalenceGroupDoc, equivalentsDoc, equivalentsPath } from "../../catalogue/render/equivalents.ts";
import {
  categoryPath,
  comparePage,
  lifecycleLabel,
  programmeNames,
  servicePath,
} from "../../catalogue/render/pages.ts";
import { COMPLIANCE_SCOPE_LABELS, complianceCountsText } from "../../catalogue/compliance/compliance.ts";
import { COMPLIANCE_FILTER_SCOPES, type ServiceListT } from "../../catalogue/schema/index.ts";
import { href } from "../../catalogue/base/urls.ts";
import { splitRequestUrl, TEXT_VARY } from "../files.ts";
import { hitBucket } from "../plugins/rate-limit.ts";
import { render, widthOf, type Rendering } from "./render.ts";
import type { TextContext } from "./context.ts";
import type { SitePageRequest, SitePages } from "./site-page.ts";
import type { OnDemandPage } from "../../catalogue/outputs/pages.ts";
import { waitFor, type Computed, type Shape } from "./computed-shapes.ts";

const CONTENT_TYPE = { md: "text/markdown; charset=utf-8", ansi: "text/plain; charset=utf-8" } as const;
const contentType = (rendering: Rendering) =>
  rendering === "html" ? "text/html; charset=utf-8" : rendering === "md" ? CONTENT_TYPE.md : CONTENT_TYPE.ansi;

/** The request's query, as the site's on-demand pages read it (Astro.url.searchParams). */
const searchParams = (request: FastifyRequest) => new URLSearchParams(splitRequestUrl(request.url).query);

/** In HTML, the site's page `name` rendered for this request's query; false when there is none. */
function sitePage(c: TextContext, request: FastifyRequest, reply: FastifyReply, name: OnDemandPage, headers = {}) {
  const { query } = splitRequestUrl(request.url);
  const search = query ? `?${query}` : "";
  return c.site.render(request, reply, { page: { name, search }, headers: { vary: TEXT_VARY, ...headers } });
}

function searchDoc(catalogue: Catalogue, request: ReturnType<typeof searchRequest>): Doc {
  const { query, found, hint, didYouMean, page, pages, filters } = request;
  if (!searchAsks(request))
    return {
      title: "Search",
      blocks: [
        heading(1, "Search"),
        paragraph(
          "Add ?q= and some words, e.g. /search?q=object+storage, or a compliance programme, e.g. /search?compliance=iso-27001.",
        ),
      ],
    };
  const wide = found.compliance?.providerWide ?? {};
  const global = new Set(found.places?.global ?? []);
  const items: Inline[][] = found.data.map((service) => [
    link(service.name, servicePath(service)),
    ` — ${catalogue.providerById.get(service.providerId)!.provider.shortName}, ${lifecycleLabel(service.lifecycle)}`,
    ...(found.search?.subServices?.[service.slug] ? [`; matched ${found.search.subServices[service.slug]}`] : []),
    ...(wide[service.slug] ? [`; provider-wide: ${programmeNames(catalogue, wide[service.slug]!)}`] : []),
    ...(global.has(service.slug) ? ["; global, answered from its vendor's global endpoint"] : []),
  ]);
  const title = query
    ? `Search: ${query}`
    : found.compliance
      ? `Compliance: ${programmeNames(
          catalogue,
          found.compliance.programmes!.map((p) => p.id),
        )}`
      : "Search";
  const { total } = found.pagination;
  const pager: Inline[] = [
    ...(page > 1 ? [link("Previous page", searchHref(query, filters, page - 1))] : []),
    ...(page > 1 && page < pages ? [" · "] : []),
    ...(page < pages ? [link("Next page", searchHref(query, filters, page + 1))] : []),
  ];
  return {
    title,
    blocks: [
      heading(1, title),
      paragraph(
        total === 0
          ? "No results."
          : `${total} ${total === 1 ? "service matches" : "services match"}${pages > 1 ? `; page ${page} of ${pages}` : ""}.`,
      ),
      ...(found.compliance ? [complianceCounts(catalogue, query, filters, found.compliance)] : []),
      ...(hint ? [paragraph(hint)] : []),
      ...(didYouMean ? [paragraph("Did you mean ", link(didYouMean, searchHref(didYouMean, filters)), "?")] : []),
      ...deadEnd(catalogue, found),
      ...(items.length > 0 ? [{ kind: "list" as const, items }] : []),
      ...(pager.length > 0 ? [paragraph(...pager)] : []),
      ...providerLevelBlocks(catalogue, found),
    ],
  };
}

/** The compliance filter's two holdings counted apart, with links to the other scopes (catalogue/compliance/compliance.ts words it). */
function complianceCounts(
  catalogue: Catalogue,
  query: string,
  filters: Readonly<Record<string, string>>,
  answer: NonNullable<ServiceListT["compliance"]>,
): Doc["blocks"][number] {
  const scope = answer.scope ?? "own";
  const names = programmeNames(
    catalogue,
    answer.programmes!.map((p) => p.id),
  );
  const others = COMPLIANCE_FILTER_SCOPES.filter((other) => other !== scope);
  const hrefOf = (other: string) => {
    const { complianceScope: _, ...rest } = filters;
    return searchHref(query, other === "own" ? rest : { ...rest, complianceScope: other });
  };
  return paragraph(
    complianceCountsText(names, answer.counts!, scope),
    " Show: ",
    ...others.flatMap((other, i) => [...(i > 0 ? [", "] : []), link(COMPLIANCE_SCOPE_LABELS[other], hrefOf(other))]),
    ".",
  );
}

/** With a place filter: the provider-level services listed apart, as the API's places.providerLevel. */
function providerLevelBlocks(catalogue: Catalogue, found: ReturnType<typeof searchRequest>["found"]): Doc["blocks"] {
  const level = found.places?.providerLevel;
  if (!level || level.total === 0) return [];
  const shown = level.services.slice(0, TEXT_SEARCH_RESULTS);
  return [
    heading(2, "Provider level, listed apart"),
    paragraph(
      `${level.total} more service${level.total === 1 ? "" : "s"} whose own regions are not known: their provider has a region in ${found.places!.asked.map(({ place }) => place).join(", ")}, so they may or may not run there.${level.total > shown.length ? ` The first ${shown.length}:` : ""}`,
    ),
    {
      kind: "list" as const,
      items: shown.map((slug) => {
        const { service } = catalogue.bySlug.get(slug)!;
        return [
          link(service.name, servicePath(service)),
          ` — ${catalogue.providerById.get(service.providerId)!.provider.shortName}`,
        ];
      }),
    },
  ];
}

/**
 * What a search that found nothing is told: the words that matched nothing (the catalogue does not
 * know what they are) and the nearest jobs; or, for a product it does not list, the kinds it read.
 */
function deadEnd(catalogue: Catalogue, found: ReturnType<typeof searchRequest>["found"]): Doc["blocks"] {
  const unmatched = found.search?.unmatchedWords ?? [];
  const jobs = found.search?.nearestJobs ?? [];
  const other = found.search?.otherProduct;
  const kindPath = (id: string) =>
    catalogue.groups.some((group) => group.id === id) ? equivalentsPath(id) : categoryPath(id);
  return [
    ...(other
      ? [
          paragraph(
            `${other.name} is not in the catalogue; shown instead, the services of its kind: `,
            ...other.kinds.flatMap((kind, i) => [...(i > 0 ? [", "] : []), link(kind.name, kindPath(kind.id))]),
            `. ${other.why}`,
          ),
        ]
      : []),
    ...(unmatched.length > 0
      ? [paragraph(`No service has: ${unmatched.join(", ")}; the catalogue does not know what that is.`)]
      : []),
    ...(jobs.length > 0
      ? [
          paragraph(
            "Nearest jobs: ",
            ...jobs.flatMap((job, i) => [...(i > 0 ? [", "] : []), link(job.name, equivalentsPath(job.id))]),
            ".",
          ),
        ]
      : []),
  ];
}

/** /search's answer outside HTML (or in HTML without the site): the results in the rendering. */
export function searchBody(catalogue: Catalogue, { query, rendering, width }: Shape & { query: string }): Computed {
  let request;
  try {
    request = searchRequest(catalogue, new URLSearchParams(query));
  } catch (error) {
    // The API's refusal, with its own title (Unknown provider, Unknown region, Invalid query).
    if (!isHttpError(error)) throw error;
    return { status: error.statusCode, title: error.title, detail: error.details ?? "" };
  }
  return { status: 200, body: render(searchDoc(catalogue, request), rendering, width) };
}

/** GET /search?q=…: the site's search page with the results in HTML, else the results as text. */
export async function searchPage(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const rendering = c.replies.rendering(request);
  reply.header("vary", TEXT_VARY).header("cache-control", "no-store");
  if (rendering === "html" && (await sitePage(c, request, reply, "search"))) return reply;
  // Without the site's renderer (a mirror), the built search page, whose script searches; a query's
  // results are written as text so that they read without JavaScript too.
  const asked = searchParams(request);
  const filtered = [...formParams(asked)].some(([name]) => !SEARCH_PAGE_PARAMETERS.includes(name) && name !== "q");
  if (rendering === "html" && !asked.get("q")?.trim() && !filtered)
    if (await c.replies.site(request, reply, "search/index.html")) return reply;
  // Every parameter but the rendering's, in one order: the page reads each as the API does, and
  // refuses one it does not take (the filter table, catalogue/search/filter-table.ts).
  const query = normalisedQuery(request, [
    ...textFilterNames("services"),
    "sort",
    "dir",
    FORM_MARKER.name,
    ...[...new Set(asked.keys())].filter(
      (name) =>
        !textFilterNames("services").includes(name) &&
        !SEARCH_PAGE_PARAMETERS.includes(name) &&
        name !== FORM_MARKER.name,
    ),
  ]);
  const computed = await c.computed.text(
    { name: "search", input: { query, rendering, width: widthOf(request) } },
    waitFor(request),
  );
  return c.replies.computed(request, reply, rendering, computed, false);
}

/**
 * GET /equivalents: rows = kinds of service, columns = ?providers= (default the three largest),
 * ?category=; in HTML the site's page (built for the plain request, rendered for a query).
 */
export async function equivalentsPage(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const rendering = c.replies.rendering(request);
  const { pathname, query: raw } = splitRequestUrl(request.url);
  // One URL per page: the site's page is /equivalents/ (its links say so); the text renderings
  // answer at both, as curl users type it.
  if (rendering === "html" && !pathname.endsWith("/"))
    return reply
      .code(301)
      .header("vary", TEXT_VARY)
      .header("location", `${pathname}/${raw ? `?${raw}` : ""}`)
      .send();
  const params = searchParams(request);
  const asked = params.has("providers") || params.has("category");
  if (rendering === "html") {
    if (!asked && (await c.replies.site(request, reply, "equivalents/index.html"))) return reply;
    if (asked && (await sitePage(c, request, reply, "equivalents"))) return reply;
  }
  // The plain matrix is built (and precompressed) at the default width, like every other page.
  if (!asked && rendering !== "html" && (await c.replies.built(request, reply, `equivalents.${rendering}`)))
    return reply;
  const query = normalisedQuery(request, ["providers", "category"]);
  const computed = await c.computed.text(
    { name: "equivalents", input: { query, rendering, width: widthOf(request) } },
    waitFor(request),
  );
  return c.replies.computed(request, reply, rendering, computed);
}

/** The matrix for a query's ?providers= and ?category=. */
export function equivalentsBody(
  catalogue: Catalogue,
  { query, rendering, width }: Shape & { query: string },
): Computed {
  let asked;
  try {
    asked = matrixRequest(catalogue, new URLSearchParams(query));
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return { status: error.statusCode, title: error.title, detail: error.details ?? "" };
  }
  return { status: 200, body: render(equivalentsDoc(catalogue, asked.providers, asked.category), rendering, width) };
}

/** One kind of service, each provider's members; 404 for a kind there is not. */
export function equivalenceGroupBody(catalogue: Catalogue, { id, rendering, width }: Shape & { id: string }): Computed {
  const doc = equivalenceGroupDoc(catalogue, id);
  if (doc) return { status: 200, body: render(doc, rendering, width) };
  const detail = `No kind of service "${stripControl(id).slice(0, 100)}"; /equivalents lists them.`;
  return { status: 404, title: "Not found", detail };
}

/** GET /equivalents/{id}: one kind of service, each provider's members. */
export async function equivalenceGroupPage(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const { id } = (request as FastifyRequest<{ Params: { id: string } }>).params;
  const rendering = c.replies.rendering(request);
  // In HTML the site's page, prerendered (site/src/pages/equivalents/[id].astro); a build without
  // it renders the same Doc in the site's layout, so the matrix's links lead to a page of the site;
  // otherwise the computed text.
  if (
    rendering === "html" &&
    /^[a-z0-9-]+$/.test(id) &&
    (await c.replies.site(request, reply, `equivalents/${id}/index.html`))
  )
    return reply;
  if (rendering === "html" && c.site.available) {
    const doc = equivalenceGroupDoc(c.catalogue, id);
    const page: SitePageRequest = { page: { name: "doc", search: "" }, locals: { doc }, headers: { vary: TEXT_VARY } };
    if (doc && (await c.site.render(request, reply, page))) return reply;
  }
  const computed = await c.computed.text(
    {
      name: "equivalenceGroup",
      input: { id, rendering, width: widthOf(request) },
    },
    waitFor(request),
  );
  return c.replies.computed(request, reply, rendering, computed);
}

/**
 * GET /compare?ids=a,b (or ?ids=a&ids=b), the compare form submitted without JavaScript: in HTML
 * the site's compare page rendered with the comparison; otherwise the text host's comparison.
 */
export async function compareQuery(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const rendering = c.replies.rendering(request);
  const params = searchParams(request);
  if (rendering === "html") {
    const asked = params.has("ids");
    if (!asked && (await c.replies.site(request, reply, "compare/index.html"))) return reply;
    if (asked && (await sitePage(c, request, reply, "compare"))) return reply;
  }
  const query = normalisedQuery(request, ["ids"]);
  const computed = await c.computed.text(
    {
      name: "compareQuery",
      input: { query, rendering, width: widthOf(request) },
    },
    waitFor(request),
  );
  return c.replies.computed(request, reply, rendering, computed);
}

/** The comparison of a query's ?ids=, or how to ask for one. */
export function compareQueryBody(
  catalogue: Catalogue,
  { query, rendering, width }: Shape & { query: string },
): Computed {
  const { known, note } = compareRequest(catalogue, listParam(new URLSearchParams(query), "ids", 200));
  const compared: Doc =
    known.length > 0
      ? comparePage(catalogue, known)
      : {
          title: "Compare",
          blocks: [heading(1, "Compare"), paragraph("Name services to compare: /compare/aws-s3,gcp-cloud-storage.")],
        };
  const [title, ...rest] = compared.blocks;
  const doc: Doc = { ...compared, blocks: [title!, ...(note ? [paragraph(note)] : []), ...rest] };
  return { status: 200, body: render(doc, rendering, width) };
}

/**
 * The query's values of `keys` only, in the order of the keys: what a computed page reads of it,
 * so that one page asked with its parameters in another order, or with ?format=, is kept once.
 */
function normalisedQuery(request: FastifyRequest, keys: readonly string[]): string {
  const params = searchParams(request);
  return new URLSearchParams(keys.flatMap((key) => params.getAll(key).map((value) => [key, value]))).toString();
}

/**
 * The site's styled 429 page (site/src/pages/on-demand/429.astro) saying what was limited and when
 * to retry; false when there is none, or when pages are too busy to render one (the caller sends
 * the built one: a flood of refused requests must not wait for renders).
 */
export async function limitPage(
  site: SitePages,
  request: FastifyRequest,
  reply: FastifyReply,
  limited: string | undefined,
  retryAfterSeconds: number,
): Promise<boolean> {
  const detail = `${limited ?? ""} Try again in ${retryAfterSeconds} seconds.`.trim();
  try {
    return await site.render(request, reply, {
      page: { name: "429", search: "" },
      locals: { limited: detail },
      headers: { "cache-control": "no-store", "retry-after": String(retryAfterSeconds) },
    });
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 503) return false;
    throw error;
  }
}

const FEEDBACK_ROW = ENDPOINTS.find((row) => row.operationId === "sendFeedback")!;
const FORM_PAGE = `${href("feedback")} (form)`;

/** Why a posted form cannot be sent, in words for its page; undefined when it can. */
function feedbackProblem(form: Record<string, string>, message: string, email: string): string | undefined {
  if (message.length === 0) return "Please write a message: it is empty or only spaces.";
  const parsed = FEEDBACK_ROW.body!.safeParse({
    type: form.type,
    message,
    ...(email ? { email } : {}),
    page: FORM_PAGE,
  });
  if (parsed.success) return undefined;
  return parsed.error.issues
    .map((issue) => (issue.path.join(".") === "email" ? "Email is not a valid address." : `Message ${issue.message}.`))
    .join(" ");
}

/** Over the relaxed bucket: the site's 429 page to a browser, else the limit in text. */
async function feedbackLimited(c: TextContext, request: FastifyRequest, reply: FastifyReply, ttl: number) {
  const { max } = BUCKETS.relaxed;
  const seconds = Math.max(1, Math.ceil(ttl / 1000));
  const limited = `This form shares the API's relaxed bucket (POST /v1/feedback, POST /v1/analytics/outbound): ${max} requests per minute per IP.`;
  reply.code(429).header("retry-after", String(seconds));
  const rendering = c.replies.rendering(request);
  if (rendering === "html" && (await limitPage(c.site, request, reply, limited, seconds))) return reply;
  const text = `429 Too many requests\n\n${limited} Try again in ${seconds} seconds.\n`;
  return reply
    .type(contentType(rendering === "html" ? "txt" : rendering))
    .send(rendering === "md" ? `# ${text}` : text);
}

/** POST /feedback, the form posted without JavaScript: counted in the API's relaxed bucket, as POST /v1/feedback. */
export async function feedbackPost(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const rendering = c.replies.rendering(request);
  const hit = await hitBucket(c.store, "relaxed", request.ip);
  reply.header("x-ratelimit-limit", String(BUCKETS.relaxed.max)).header("cache-control", "no-store");
  if (hit.current > BUCKETS.relaxed.max) return feedbackLimited(c, request, reply, hit.ttl);
  const form = (request.body as Record<string, string> | undefined) ?? {};
  const message = (form.message ?? "").trim();
  const email = (form.email ?? "").trim();
  const problem = feedbackProblem(form, message, email);
  if (problem) {
    reply.code(400);
    const refusedFeedback = { problem, message: form.message ?? "", email };
    const page: SitePageRequest = { page: { name: "feedback", search: "" }, locals: { refusedFeedback }, headers: {} };
    if (rendering === "html" && (await c.site.render(request, reply, page))) return reply;
    return reply
      .type(contentType(rendering === "html" ? "txt" : rendering))
      .send(`Not sent: ${problem} (${FEEDBACK_MESSAGE.min} to ${FEEDBACK_MESSAGE.max} characters.)\n`);
  }
  try {
    await recordFeedback(
      c.store,
      { type: form.type, message, ...(email ? { email } : {}), page: FORM_PAGE },
      new Date(),
    );
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    reply.code(error.statusCode);
    return reply.type(contentType("txt")).send(`${error.message}: ${error.details ?? ""}\n`);
  }
  if (rendering === "html" && c.files?.has("site/client/feedback/thanks/index.html"))
    return reply.code(303).header("location", href("feedback-sent")).send();
  return reply.code(201).type(contentType("txt")).send("Thank you: your feedback was recorded.\n");
}
