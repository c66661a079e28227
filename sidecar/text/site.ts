/**
 * Text-host routes for what the site does without JavaScript, registered from text.ts:
 * - GET /search?q= — the API's ranking (catalogue/query.ts listServices) in the negotiated
 *   rendering; in HTML, the site's search page with those results filled in (its script runs the
 *   same search and keeps them);
 * - GET /equivalents (?providers=, ?category=) and /equivalents/{id} — the equivalence matrix
 *   (catalogue/render/equivalents.ts); in HTML /equivalents is the site's page when built;
 * - POST /feedback — the feedback form, form-encoded: the same operation as POST /v1/feedback
 *   (the contract row's handler), then a thank-you page; a blank or invalid message shows the
 *   form again with the reason.
 * Also the site's styled 429 page with what was limited and when to retry filled in (limitPage).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ENDPOINTS, recordFeedback } from "../../catalogue/contract/index.ts";
import {
  BUCKETS,
  FEEDBACK_MESSAGE,
  MAX_BODY_BYTES,
  MAX_TEXT_COMPARE_SHOWN,
  TEXT_SEARCH_RESULTS,
} from "../../catalogue/limits.ts";
import type { Catalogue } from "../../catalogue/load.ts";
import { HttpError } from "../../catalogue/problem.ts";
import { listServices } from "../../catalogue/query.ts";
import { heading, link, paragraph, stripControl, type Doc, type Inline } from "../../catalogue/render/doc.ts";
import { COMPARE_GROUPS, compareServices, compareShown } from "../../catalogue/compare.ts";
import { matrixColumns } from "../../catalogue/equivalents.ts";
import { equivalenceGroupDoc, equivalentsDoc } from "../../catalogue/render/equivalents.ts";
import { comparePage, lifecycleLabel, servicePath } from "../../catalogue/render/pages.ts";
import { renderDoc } from "../../catalogue/static.ts";
import { TEXT_VARY, type BuiltFiles } from "../files.ts";
import { hitBucket } from "../plugins/rate-limit.ts";
import type { Store } from "../store/store.ts";
import { errorDoc, render, widthOf, type Rendering } from "./render.ts";

export interface TextSiteOptions {
  readonly catalogue: Catalogue;
  readonly store: Store;
  readonly files?: BuiltFiles | undefined;
  readonly negotiate: (request: FastifyRequest) => Rendering;
}

const CONTENT_TYPE = { md: "text/markdown; charset=utf-8", ansi: "text/plain; charset=utf-8" } as const;
const contentType = (rendering: Rendering) =>
  rendering === "html" ? "text/html; charset=utf-8" : rendering === "md" ? CONTENT_TYPE.md : CONTENT_TYPE.ansi;

export const escapeHtml = (text: string) => stripControl(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const pages = new Map<string, Promise<string | undefined>>();
/**
 * A built page of the site with parts replaced: each [pattern, html] puts `html` between the
 * pattern's two groups (an element's opening and closing tags), or after its one group.
 */
export async function sitePage(
  files: BuiltFiles | undefined,
  path: string,
  fills: readonly (readonly [RegExp, string])[] = [],
): Promise<string | undefined> {
  if (!files?.has(`site/client/${path}`)) return undefined;
  let loaded = pages.get(path);
  if (!loaded) {
    loaded = readFile(join(files.distDir, "site", "client", path), "utf8").catch(() => undefined);
    pages.set(path, loaded);
  }
  const html = await loaded;
  if (html === undefined) return undefined;
  return fills.reduce(
    (page, [pattern, fill]) => page.replace(pattern, (_match, open: string, close = "") => `${open}${fill}${close}`),
    html,
  );
}

/** The site's styled 429 page (site/src/pages/429.astro) saying what was limited and when to retry. */
export function limitPage(
  files: BuiltFiles | undefined,
  limited: string | undefined,
  retryAfterSeconds: number,
): Promise<string | undefined> {
  return sitePage(files, "429/index.html", [
    [
      /(<p[^>]*\bdata-limit-detail[^>]*>)[^<]*(<\/p>)/,
      escapeHtml(`${limited ?? ""} Try again in ${retryAfterSeconds} seconds.`.trim()),
    ],
  ]);
}

/** The search page's parts the server fills (site/src/pages/search/index.astro). */
const SEARCH_INPUT = /(<input[^>]*\bid="search-q")()/;
const SEARCH_STATUS = /(<h2[^>]*\bdata-search-status[^>]*>)[^<]*(<\/h2>)/;
const SEARCH_RESULTS = /(<ol[^>]*\bdata-search-results[^>]*>)(<\/ol>)/;
/** The hint line: its `hidden` attribute goes when there is something to say. */
const SEARCH_HINT = /(<p)[^>]*\bdata-search-hint[^>]*>(<\/p>)/;

/** What the search understood, in words: closest matches and a respelling (catalogue/search.ts). */
function searchHint(found: ReturnType<typeof listServices>): string {
  return [
    found.pagination.total === 0 ? "Nothing in the catalogue matches; try another name or fewer words." : "",
    found.search?.closest && found.pagination.total > 0 ? "No service matches every word; these are the closest." : "",
    found.search?.didYouMean ? `Did you mean “${found.search.didYouMean}”?` : "",
  ]
    .filter(Boolean)
    .join(" ");
}
/** The feedback page's parts (site/src/pages/feedback/index.astro). */
const FEEDBACK_STATUS = /(<p[^>]*\bdata-feedback-status[^>]*>)(<\/p>)/;
const FEEDBACK_MESSAGE_FIELD = /(<textarea[^>]*\bid="fb-message"[^>]*>)(<\/textarea>)/;
const FEEDBACK_EMAIL_FIELD = /(<input[^>]*\bid="fb-email")()/;

function searchDoc(query: string, found: ReturnType<typeof listServices>, catalogue: Catalogue): Doc {
  if (!query)
    return {
      title: "Search",
      blocks: [heading(1, "Search"), paragraph("Add ?q= and some words, e.g. /search?q=object+storage.")],
    };
  const items: Inline[][] = found.data.map((service) => [
    link(service.name, servicePath(service)),
    ` — ${catalogue.providerById.get(service.providerId)!.provider.shortName}, ${lifecycleLabel(service.lifecycle)}`,
    ...(found.search?.subServices?.[service.slug] ? [`; matched ${found.search.subServices[service.slug]}`] : []),
  ]);
  return {
    title: `Search: ${query}`,
    blocks: [
      heading(1, `Search: ${query}`),
      paragraph(
        found.pagination.total === 0
          ? "No results."
          : `${found.pagination.total} services match${found.pagination.total > found.data.length ? `; the first ${found.data.length}` : ""}.`,
      ),
      ...(searchHint(found) ? [paragraph(searchHint(found))] : []),
      ...(items.length > 0 ? [{ kind: "list" as const, items }] : []),
    ],
  };
}

/**
 * The site's matrix page (site/src/pages/equivalents/index.astro) as the form submitted without
 * JavaScript asks: the chosen providers' columns shown and ticked, the others hidden; rows outside
 * the category hidden and the category selected. Its script does the same in the browser.
 */
export function matrixPage(html: string, columns: readonly string[], category: string | undefined): string {
  const shown = new Set(columns);
  const setFlag = (tag: string, flag: "hidden" | "checked" | "selected", on: boolean) => {
    const bare = tag.replace(new RegExp(`\\s${flag}(?:="[^"]*")?(?=[\\s>/])`, "g"), "");
    return on ? bare.replace(/\s*(\/?)>$/, ` ${flag}$1>`) : bare;
  };
  return html.replace(/<(?:th|td|tr|input|option)\b[^>]*>/g, (tag) => {
    const provider = /\sdata-provider="([a-z0-9]+)"/.exec(tag)?.[1];
    if (provider) return setFlag(tag, "hidden", !shown.has(provider));
    const rowCategory = /\sdata-category="([a-z0-9-]+)"/.exec(tag)?.[1];
    if (rowCategory && tag.startsWith("<tr"))
      return setFlag(tag, "hidden", Boolean(category) && rowCategory !== category);
    const box = /\sname="providers"[^>]*\svalue="([a-z0-9]+)"/.exec(tag)?.[1];
    if (box && tag.startsWith("<input")) return setFlag(tag, "checked", shown.has(box));
    const option = /^<option\s+value="([a-z0-9-]*)"/.exec(tag)?.[1];
    if (option !== undefined && category) return setFlag(tag, "selected", option === category);
    return tag;
  });
}

/** The compare page's result area and note (site/src/pages/compare/index.astro). */
const COMPARE_RESULT = /(<div[^>]*\bdata-compare-result[^>]*>)(<\/div>)/;
const COMPARE_NOTE = /(<p)[^>]*\bdata-compare-note[^>]*>(<\/p>)/;
const COMPARE_IDS = /(<input[^>]*\bid="compare-ids")()/;

/** The comparison as the site's compare script draws it: services as columns, attributes by group. */
export function compareTableHtml(catalogue: Catalogue, slugs: readonly string[]): string {
  const answer = compareServices(catalogue, slugs);
  const programme = (id: string) => catalogue.compliance.get(id) ?? id;
  const head = answer.services
    .map((service) => {
      const provider = catalogue.providerById.get(service.providerId)!.provider.shortName;
      return `<th scope="col" data-slug="${escapeHtml(service.slug)}"><a href="${escapeHtml(servicePath(service))}">${escapeHtml(service.name)}</a><span class="provider">${escapeHtml(provider)}</span></th>`;
    })
    .join("");
  const groups = COMPARE_GROUPS.map((group) => {
    const rows = answer.attributes.filter((a) => (group.attributes as readonly string[]).includes(a.attribute));
    const body = rows
      .map(
        (attribute) =>
          `<tr><th scope="row">${escapeHtml(attribute.label + (attribute.shared ? " (same)" : ""))}</th>${answer.services
            .map(
              (service) =>
                `<td>${escapeHtml(compareShown(attribute.attribute, attribute.values[service.slug] ?? null, programme))}</td>`,
            )
            .join("")}</tr>`,
      )
      .join("");
    return `<tbody><tr><th scope="rowgroup" colspan="${answer.services.length + 1}"><span>${escapeHtml(group.label)}</span></th></tr>${body}</tbody>`;
  }).join("");
  return `<table><caption class="skip">Services side by side</caption><thead><tr><th scope="col">Attribute</th>${head}</tr></thead>${groups}</table>`;
}

/**
 * The ids a comparison was asked for (deduplicated), those the catalogue knows (as many as are
 * shown) and a note on the rest.
 */
function compareRequest(catalogue: Catalogue, ids: readonly string[]) {
  const asked = [...new Set(ids.map((value) => value.trim()).filter(Boolean))].slice(0, 50);
  const known = asked.filter((slug) => catalogue.bySlug.has(slug)).slice(0, MAX_TEXT_COMPARE_SHOWN);
  const unknown = asked.filter((slug) => !catalogue.bySlug.has(slug));
  const note = [
    // Worded as the site's script words it, which replaces this note once it runs.
    unknown.length > 0
      ? `Not in the catalogue: ${unknown.join(", ").slice(0, 300)}.${known.length > 0 ? " Comparing the rest." : ""}`
      : "",
    asked.length - unknown.length > MAX_TEXT_COMPARE_SHOWN
      ? `Showing the first ${MAX_TEXT_COMPARE_SHOWN} services.`
      : "",
  ]
    .filter(Boolean)
    .join(" ");
  return { asked, known, note };
}

/**
 * The site's compare page with the comparison of `ids` filled in, so it reads without JavaScript
 * (the form's ?ids= and the shared /compare/a,b alike); its script then takes over with the
 * options. Undefined when the site is not built.
 */
export function compareSitePage(
  files: BuiltFiles | undefined,
  catalogue: Catalogue,
  ids: readonly string[],
): Promise<string | undefined> {
  const { asked, known, note } = compareRequest(catalogue, ids);
  return sitePage(files, "compare/index.html", [
    [COMPARE_IDS, ` value="${escapeHtml(asked.join(","))}"`],
    ...(known.length > 0 ? [[COMPARE_RESULT, compareTableHtml(catalogue, known)] as const] : []),
    ...(note
      ? [[COMPARE_NOTE, ` class="notice info" role="status" data-compare-note>${escapeHtml(note)}`] as const]
      : []),
  ]);
}

export default async function textSiteRoutes(app: FastifyInstance, options: TextSiteOptions): Promise<void> {
  const { catalogue, files, negotiate } = options;

  app.get<{ Querystring: Record<string, string | string[] | undefined> }>("/search", async (request, reply) => {
    const value = (name: string) => {
      const raw = request.query[name];
      return (Array.isArray(raw) ? raw[0] : raw)?.trim().slice(0, 200) || undefined;
    };
    const query = value("q") ?? "";
    const filters = { provider: value("provider"), category: value("category"), lifecycle: value("lifecycle") };
    const found = listServices(catalogue, {
      ...(query ? { q: query } : {}),
      ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v)),
      page: 1,
      limit: TEXT_SEARCH_RESULTS,
    } as Parameters<typeof listServices>[1]);
    const rendering = negotiate(request);
    reply.header("vary", TEXT_VARY).header("cache-control", "no-store");
    if (rendering === "html") {
      const items = query
        ? found.data
            .map(
              (service) =>
                `<li><a href="${escapeHtml(servicePath(service))}">${escapeHtml(service.name)}</a><div class="muted">${escapeHtml(
                  [
                    catalogue.providerById.get(service.providerId)!.provider.shortName,
                    catalogue.categoryById.get(service.category)!.name,
                    lifecycleLabel(service.lifecycle),
                  ].join(" · "),
                )}</div>${service.description ? `<p>${escapeHtml(service.description)}</p>` : ""}</li>`,
            )
            .join("")
        : "";
      const status = query
        ? found.pagination.total === 0
          ? "No results"
          : `${found.pagination.total} result${found.pagination.total === 1 ? "" : "s"}${found.pagination.total > found.data.length ? `, showing ${found.data.length}` : ""}`
        : "Results";
      const page = await sitePage(files, "search/index.html", [
        [SEARCH_INPUT, ` value="${escapeHtml(query)}"`],
        [SEARCH_STATUS, escapeHtml(status)],
        [SEARCH_RESULTS, items],
        ...(searchHint(found) ? [[SEARCH_HINT, ` data-search-hint>${escapeHtml(searchHint(found))}`] as const] : []),
      ]);
      if (page !== undefined) return reply.type(contentType("html")).send(page);
    }
    const doc = searchDoc(query, found, catalogue);
    const text = rendering === "html" ? renderDoc(doc, "txt") : renderDoc(doc, rendering, widthOf(request));
    return reply
      .type(contentType(rendering))
      .send(rendering === "html" ? `<!doctype html><title>Search</title><pre>${escapeHtml(text)}</pre>` : text);
  });

  // The equivalence matrix: rows = kinds of service, columns = ?providers= (default the three
  // largest), ?category=; in HTML the site's page when it is built (it reads the same URL state).
  app.get<{ Querystring: Record<string, string | string[] | undefined> }>("/equivalents", async (request, reply) => {
    const values = (name: string) => {
      const raw = request.query[name];
      return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
        .flatMap((value) => value.split(","))
        .map((value) => value.trim().slice(0, 100))
        .filter(Boolean)
        .slice(0, 40);
    };
    const rendering = negotiate(request);
    reply.header("vary", "Accept, User-Agent");
    const providers = values("providers");
    const category = values("category")[0];
    if (rendering === "html") {
      const page = await sitePage(files, "equivalents/index.html");
      if (page !== undefined)
        return reply
          .type(contentType("html"))
          .send(
            providers.length > 0 || category ? matrixPage(page, matrixColumns(catalogue, providers), category) : page,
          );
    }
    const doc = equivalentsDoc(catalogue, providers, category);
    return reply.type(contentType(rendering)).send(render(doc, rendering));
  });

  app.get<{ Params: { id: string } }>("/equivalents/:id", async (request, reply) => {
    const rendering = negotiate(request);
    reply.header("vary", "Accept, User-Agent");
    const doc = equivalenceGroupDoc(catalogue, request.params.id);
    if (!doc)
      return reply
        .code(404)
        .type(contentType(rendering))
        .send(
          render(
            errorDoc(
              404,
              "Not found",
              `No kind of service "${stripControl(request.params.id).slice(0, 100)}"; /equivalents lists them.`,
            ),
            rendering,
          ),
        );
    return reply.type(contentType(rendering)).send(render(doc, rendering));
  });

  // The compare form submitted without JavaScript (?ids=a,b or ?ids=a&ids=b): in HTML the site's
  // compare page with the comparison filled in; otherwise the text host's comparison.
  app.get<{ Querystring: Record<string, string | string[] | undefined> }>("/compare", async (request, reply) => {
    const raw = request.query.ids;
    const { asked, known, note } = compareRequest(
      catalogue,
      (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((value) => value.split(",")),
    );
    const rendering = negotiate(request);
    reply.header("vary", "Accept, User-Agent");
    if (rendering === "html") {
      const page = await compareSitePage(files, catalogue, asked);
      if (page !== undefined) return reply.type(contentType("html")).send(page);
    }
    const compared: Doc =
      known.length > 0
        ? comparePage(catalogue, known)
        : {
            title: "Compare",
            blocks: [heading(1, "Compare"), paragraph("Name services to compare: /compare/aws-s3,gcp-cloud-storage.")],
          };
    const [title, ...rest] = compared.blocks;
    const doc: Doc = { ...compared, blocks: [title!, ...(note ? [paragraph(note)] : []), ...rest] };
    return reply.type(contentType(rendering)).send(render(doc, rendering));
  });

  // The feedback form, posted without JavaScript: form-encoded, in this scope only.
  const feedbackRow = ENDPOINTS.find((row) => row.operationId === "sendFeedback")!;
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: MAX_BODY_BYTES },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.post<{ Body: Record<string, string> | undefined }>("/feedback", async (request, reply) => {
      const rendering = negotiate(request);
      // The same operation as POST /v1/feedback, so the same bucket: not this host's page limit.
      const { max } = BUCKETS.relaxed;
      const hit = await hitBucket(options.store, "relaxed", request.ip);
      reply.header("x-ratelimit-limit", String(max)).header("cache-control", "no-store");
      if (hit.current > max) {
        const seconds = Math.max(1, Math.ceil(hit.ttl / 1000));
        const limited = `This form shares the API's relaxed bucket (POST /v1/feedback, POST /v1/analytics/outbound): ${max} requests per minute per IP.`;
        reply.code(429).header("retry-after", String(seconds));
        const page = rendering === "html" && (await limitPage(files, limited, seconds));
        if (page) return reply.type(contentType("html")).send(page);
        const text = `429 Too many requests\n\n${limited} Try again in ${seconds} seconds.\n`;
        return reply
          .type(contentType(rendering === "html" ? "txt" : rendering))
          .send(rendering === "md" ? `# ${text}` : text);
      }
      const form = request.body ?? {};
      const message = (form.message ?? "").trim();
      const email = (form.email ?? "").trim();
      const problem =
        message.length === 0
          ? "Please write a message: it is empty or only spaces."
          : (() => {
              const parsed = feedbackRow.body!.safeParse({
                type: form.type,
                message,
                ...(email ? { email } : {}),
                page: "/feedback/ (form)",
              });
              return parsed.success
                ? undefined
                : parsed.error.issues
                    .map(
                      (issue) =>
                        `${issue.path.join(".") === "email" ? "Email" : "Message"} ${issue.path.join(".") === "email" ? "is not a valid address" : issue.message}.`,
                    )
                    .join(" ");
            })();
      reply.header("cache-control", "no-store");
      if (problem) {
        reply.code(400);
        if (rendering === "html") {
          const page = await sitePage(files, "feedback/index.html", [
            [FEEDBACK_STATUS, `<strong>Not sent.</strong> ${escapeHtml(problem)}`],
            [FEEDBACK_MESSAGE_FIELD, escapeHtml(form.message ?? "")],
            [FEEDBACK_EMAIL_FIELD, ` value="${escapeHtml(email)}"`],
          ]);
          if (page !== undefined) return reply.type(contentType("html")).send(page);
        }
        return reply
          .type(contentType(rendering === "html" ? "txt" : rendering))
          .send(`Not sent: ${problem} (${FEEDBACK_MESSAGE.min} to ${FEEDBACK_MESSAGE.max} characters.)\n`);
      }
      try {
        await recordFeedback(
          options.store,
          { type: form.type, message, ...(email ? { email } : {}), page: "/feedback/ (form)" },
          new Date(),
        );
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        reply.code(error.statusCode);
        return reply.type(contentType("txt")).send(`${error.message}: ${error.details ?? ""}\n`);
      }
      if (rendering === "html" && files?.has("site/client/feedback/thanks/index.html"))
        return reply.code(303).header("location", "/feedback/thanks/").send();
      return reply.code(201).type(contentType("txt")).send("Thank you: your feedback was recorded.\n");
    });
  });
}
