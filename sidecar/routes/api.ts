/**
 * Registers every endpoint of the contract table (catalogue/contract.ts) on the API host. Each
 * handler is thin: the generic wrapper validates query, params and body against the table's zod
 * schemas (400 in the Error shape), the handler calls a pure function from catalogue/ and returns.
 * Static endpoints are registered too, computed on the fly: the build writes the same bytes.
 */
import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { LRUCache } from "lru-cache";
import { nanoid } from "nanoid";
import type { z } from "zod";
import { compareServices } from "../../catalogue/compare.ts";
import {
  API_VERSION,
  ENDPOINTS,
  LIST_LIFETIME_DAYS,
  MAX_BODY_BYTES,
  type Endpoint,
  type ServicesQueryT,
} from "../../catalogue/contract.ts";
import { exposureReport } from "../../catalogue/exposure.ts";
import type { Catalogue } from "../../catalogue/load.ts";
import type { PublicUrls } from "../../catalogue/openapi.ts";
import { azurePolicySet, gcpOrgPolicy, PolicyTooLargeError, scpPolicy } from "../../catalogue/policies.ts";
import { listServices, parseSlugList, serviceDetail, unknownIds } from "../../catalogue/query.ts";
import { renderMarkdown } from "../../catalogue/render/markdown.ts";
import { stripControl } from "../../catalogue/render/doc.ts";
import { approvedListDoc } from "../../catalogue/render/pages.ts";
import {
  FEEDBACK_TYPES,
  MAX_COMPARE_IDS,
  MAX_EXPOSURE_IDS,
  type SavedListDetailT,
  type SavedListT,
} from "../../catalogue/schema.ts";
import { apiBodies, serializeJson } from "../../catalogue/static.ts";
import { cacheControlUntil, etagMatches } from "../files.ts";
import { HttpError } from "../plugins/errors.ts";
import { bucketConfig } from "../plugins/rate-limit.ts";
import type { StatusSampler } from "../status.ts";
import { FEEDBACK_OUTCOME_UNKNOWN, LIST_OUTCOME_UNKNOWN, storeFailure, type StoreCallKind } from "../store/failures.ts";
import { SlugTakenError, type Store, type StoredList } from "../store/store.ts";

/** nanoid's default: 21 characters of a 64-symbol URL-safe alphabet, 126 bits, unguessable. */
export const newListId = (): string => nanoid();

export interface ApiContext {
  readonly catalogue: Catalogue;
  readonly store: Store;
  readonly urls: PublicUrls;
  readonly status: StatusSampler;
  readonly now: () => Date;
  readonly startedAt: number;
}

interface Input {
  query: Record<string, unknown>;
  params: Record<string, string>;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** `cacheUntil`: the answer may be served again from the cache until then (immutable saved lists). */
type Result = (
  { body: unknown; status?: number; contentType?: string } | { text: string; status?: number; contentType: string }
) & { cacheUntil?: Date };

/** DESIGN: slugify = NFKD, strip marks, lowercase, runs of other characters → "-", trim "-", cut to 64. */
export function slugify(name: string): string | null {
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "");
  return slug.length >= 2 ? slug : null;
}

function firstIssue(error: z.ZodError, where: string): HttpError {
  const lines = error.issues.slice(0, 5).map((issue) => `${issue.path.join(".") || where}: ${issue.message}`);
  return new HttpError(400, `Invalid ${where}`, lines.join("; "));
}

function parse<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw firstIssue(result.error, where);
  return result.data;
}

function requireKnown(catalogue: Catalogue, ids: readonly string[]) {
  const unknown = unknownIds(catalogue, ids);
  if (unknown.length > 0)
    throw new HttpError(
      400,
      "Unknown service ids",
      `Not in the catalogue: ${unknown.slice(0, 20).join(", ")}${unknown.length > 20 ? ` and ${unknown.length - 20} more` : ""}`,
    );
}

function approvedIds(context: ApiContext, body: unknown): string[] {
  const ids = (body as { approvedServiceIds: string[] }).approvedServiceIds;
  requireKnown(context.catalogue, ids);
  return ids;
}

function slugListOf(context: ApiContext, raw: unknown, max: number): string[] {
  const parsed = parseSlugList(context.catalogue, typeof raw === "string" ? raw : undefined, max);
  if (!parsed.ok) throw new HttpError(400, parsed.error, parsed.details);
  return parsed.slugs;
}

async function storeCall<T>(call: () => Promise<T>, kind?: StoreCallKind): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storeFailure(error, kind);
  }
}

function listResponse(context: ApiContext, { idempotencyKey: _, ...list }: StoredList): SavedListT {
  return {
    ...list,
    approvedServiceIds: [...list.approvedServiceIds],
    url: `${context.urls.textUrl}/lists/${list.slug ?? list.id}`,
  };
}

const handlers: Record<string, (context: ApiContext, input: Input) => Result | Promise<Result>> = {
  getDiscovery: (c) => ({ text: apiBodies.discovery(c.urls), contentType: "application/json; charset=utf-8" }),
  getOpenApi: (c) => ({ text: apiBodies.openapi(c.urls), contentType: "application/json; charset=utf-8" }),
  listProviders: (c) => ({ text: apiBodies.providers(c.catalogue), contentType: "application/json; charset=utf-8" }),
  listCategories: (c) => ({ text: apiBodies.categories(c.catalogue), contentType: "application/json; charset=utf-8" }),
  listServices: (c, { query }) => ({ body: listServices(c.catalogue, query as ServicesQueryT) }),
  getService: (c, { params }) => {
    if (!serviceDetail(c.catalogue, params.slug!))
      throw new HttpError(
        404,
        "Service not found",
        `No service with slug "${params.slug!.slice(0, 100)}"; search with GET /v1/services?q=…`,
      );
    return { text: apiBodies.serviceDetail(c.catalogue, params.slug!), contentType: "application/json; charset=utf-8" };
  },
  compareServices: (c, { query }) => ({
    body: compareServices(c.catalogue, slugListOf(c, query.ids, MAX_COMPARE_IDS)),
  }),
  getExposure: (c, { query }) => ({ body: exposureReport(c.catalogue, slugListOf(c, query.ids, MAX_EXPOSURE_IDS)) }),
  generateScp: (c, { body }) => {
    try {
      return { body: scpPolicy(c.catalogue, approvedIds(c, body)) };
    } catch (error) {
      if (error instanceof PolicyTooLargeError) throw new HttpError(400, "Policy too large", error.message);
      throw error;
    }
  },
  generateAzurePolicy: (c, { body }) => ({ body: azurePolicySet(c.catalogue, approvedIds(c, body)) }),
  generateGcpOrgPolicy: (c, { body }) => ({ body: gcpOrgPolicy(c.catalogue, approvedIds(c, body)) }),
  exportMarkdown: (c, { body }) => ({
    text: renderMarkdown(approvedListDoc(c.catalogue, approvedIds(c, body))),
    contentType: "text/markdown; charset=utf-8",
  }),
  createList: async (c, { body, headers }) => {
    const input = body as { name?: string; slug?: string; approvedServiceIds: string[] };
    const ids = approvedIds(c, input);
    const createdAt = c.now();
    const name = stripControl(input.name ?? "").trim() || null;
    const derivedSlug = !input.slug && name ? slugify(name) : null;
    const id = newListId();
    const idempotencyKey = headers["idempotency-key"];
    try {
      const list = await storeCall(
        () =>
          c.store.createList({
            id,
            ...(idempotencyKey ? { idempotencyKey } : {}),
            name,
            approvedServiceIds: [...new Set(ids)],
            createdAt,
            expiresAt: new Date(createdAt.getTime() + LIST_LIFETIME_DAYS * 86_400_000),
            ...(input.slug ? { slug: input.slug } : derivedSlug ? { derivedSlug } : {}),
          }),
        { unknownOutcome: LIST_OUTCOME_UNKNOWN(id) },
      );
      return { body: listResponse(c, list) };
    } catch (error) {
      if (error instanceof SlugTakenError)
        throw new HttpError(
          409,
          "Slug taken",
          `The slug "${error.slug}" is already used by another list; choose another or omit it.`,
        );
      throw error;
    }
  },
  getList: async (c, { params }) => {
    const list = await storeCall(() => c.store.getList(params.id!, c.now()));
    if (!list)
      throw new HttpError(404, "List not found", "No list has this slug or id; lists expire 90 days after creation.");
    const detail: SavedListDetailT = {
      ...listResponse(c, list),
      services: list.approvedServiceIds
        .filter((id) => c.catalogue.bySlug.has(id))
        .map((id) => c.catalogue.bySlug.get(id)!.service),
      missingServiceIds: list.approvedServiceIds.filter((id) => !c.catalogue.bySlug.has(id)),
    };
    // A saved list never changes; its answer can be reused until it expires.
    return { body: detail, cacheUntil: new Date(list.expiresAt) };
  },
  getStatus: async (c) => {
    const components = await c.status.current();
    const lifecycle: Record<string, number> = {};
    for (const service of c.catalogue.services)
      if (service.lifecycle) lifecycle[service.lifecycle.status] = (lifecycle[service.lifecycle.status] ?? 0) + 1;
    const worst = components.some((s) => s.status === "down")
      ? "down"
      : components.some((s) => s.status === "degraded")
        ? "degraded"
        : "ok";
    return {
      body: {
        status: worst,
        apiVersion: API_VERSION,
        counts: {
          providers: c.catalogue.providers.length,
          categories: c.catalogue.categories.length,
          services: c.catalogue.services.length,
          equivalenceGroups: c.catalogue.groups.length,
          lifecycle,
        },
        lastUpdated: c.catalogue.lastUpdated,
        components,
      },
    };
  },
  getStatusHistory: async (c) => ({ body: { data: await storeCall(() => c.status.history()) } }),
  getHealth: async (c) => ({
    body: {
      status: (await c.status.storeResponds()) ? "ok" : "degraded",
      uptimeSeconds: Math.round((Date.now() - c.startedAt) / 1000),
      store: c.store.kind,
    },
  }),
  sendFeedback: async (c, { body }) => {
    const input = body as { type?: string | null; message: string; email?: string; page?: string };
    const message = stripControl(input.message);
    const length = [...message].length;
    if (length < 5 || length > 5000)
      throw new HttpError(400, "Invalid message", `message must be 5 to 5000 characters; it has ${length}.`);
    const type = (FEEDBACK_TYPES as readonly string[]).includes(input.type ?? "") ? input.type! : "general";
    await storeCall(
      () =>
        c.store.recordFeedback({
          type,
          message,
          ...(input.email ? { email: input.email } : {}),
          ...(input.page ? { page: input.page } : {}),
          receivedAt: c.now().toISOString(),
        }),
      { unknownOutcome: FEEDBACK_OUTCOME_UNKNOWN },
    );
    return { status: 201, body: { success: true, message: "Thank you: your feedback was recorded." } };
  },
  recordOutboundClick: async (c, { body }) => {
    const input = body as { url: string; serviceId?: string; kind?: string; page?: string };
    await storeCall(() => c.store.recordOutboundClick({ ...input, at: c.now().toISOString() }), {
      unknownOutcome: FEEDBACK_OUTCOME_UNKNOWN,
    });
    return { body: { recorded: true } };
  },
};

const NO_STORE = new Set(["getHealth", "getStatus", "getStatusHistory"]);

function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

/** A response ready to send: computed once, then possibly served again from the cache. */
interface Prepared {
  /** Epoch ms after which a cached copy must not be served. */
  readonly until: number;
  readonly status: number;
  readonly contentType: string;
  /** Encoded once, so a cached answer is not re-encoded to UTF-8 on every send. */
  readonly body: Buffer;
  readonly etag: string | undefined;
}

function prepare(endpoint: Endpoint, result: Result): Prepared {
  const body = Buffer.from("text" in result ? result.text : serializeJson(result.body));
  return {
    until: result.cacheUntil?.getTime() ?? Number.POSITIVE_INFINITY,
    status: result.status ?? endpoint.response.status,
    contentType: result.contentType ?? "application/json; charset=utf-8",
    body,
    etag: endpoint.method === "GET" ? `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"` : undefined,
  };
}

function send(request: FastifyRequest, reply: FastifyReply, endpoint: Endpoint, prepared: Prepared, now: number) {
  reply.code(prepared.status).type(prepared.contentType);
  if (prepared.etag) {
    reply
      .header("etag", prepared.etag)
      .header(
        "cache-control",
        NO_STORE.has(endpoint.operationId) ? "no-store" : cacheControlUntil(prepared.until, now),
      );
    if (etagMatches(request.headers["if-none-match"], prepared.etag)) return reply.code(304).send();
  } else {
    reply.header("cache-control", "no-store");
  }
  return reply.send(prepared.body);
}

/**
 * Operations whose answer depends only on the (immutable) catalogue and the validated input:
 * their prepared responses are kept in an LRU, so repeated queries cost a lookup.
 */
const PURE_OPERATIONS = new Set([
  "getDiscovery",
  "getOpenApi",
  "listProviders",
  "listCategories",
  "listServices",
  "getService",
  "compareServices",
  "getExposure",
  "generateScp",
  "generateAzurePolicy",
  "generateGcpOrgPolicy",
  "exportMarkdown",
]);
const RESPONSE_CACHE_BYTES = 32 * 1024 * 1024;

export default fp(
  async (app: FastifyInstance, context: ApiContext) => {
    const cache = new LRUCache<string, Prepared>({
      maxSize: RESPONSE_CACHE_BYTES,
      sizeCalculation: (value, key) => value.body.length + key.length + 64,
    });
    for (const endpoint of ENDPOINTS) {
      const handler = handlers[endpoint.operationId];
      const cacheable = PURE_OPERATIONS.has(endpoint.operationId) || endpoint.operationId === "getList";
      if (!handler) throw new Error(`no handler for ${endpoint.operationId}`);
      app.route({
        method: endpoint.method,
        url: fastifyPath(endpoint.path),
        bodyLimit: MAX_BODY_BYTES,
        ...(endpoint.bucket ? { config: bucketConfig(endpoint.bucket) } : {}),
        handler: async (request, reply) => {
          const input: Input = { query: {}, params: {}, headers: {}, body: undefined };
          if (endpoint.headers) input.headers = parse(endpoint.headers, request.headers, "headers") as Input["headers"];
          if (endpoint.query) input.query = parse(endpoint.query, request.query, "query") as Record<string, unknown>;
          if (endpoint.params) input.params = parse(endpoint.params, request.params, "path") as Record<string, string>;
          if (endpoint.body) {
            const raw = request.body;
            if (raw === null || typeof raw !== "object" || Array.isArray(raw))
              throw new HttpError(400, "Invalid body", "Send a JSON object");
            if ("serviceIds" in raw && !("approvedServiceIds" in raw)) {
              throw new HttpError(
                400,
                "serviceIds is not supported",
                "The field was renamed: send approvedServiceIds (array of service ids) instead of serviceIds.",
              );
            }
            input.body = parse(endpoint.body, raw, "body");
          }
          const key = cacheable ? `${endpoint.operationId}\0${JSON.stringify(input)}` : undefined;
          let prepared = key ? cache.get(key) : undefined;
          if (!prepared || prepared.until <= context.now().getTime()) {
            const result = await handler(context, input);
            prepared = prepare(endpoint, result);
            if (key && (PURE_OPERATIONS.has(endpoint.operationId) || result.cacheUntil)) cache.set(key, prepared);
          }
          return send(request, reply, endpoint, prepared, context.now().getTime());
        },
      });
    }
  },
  { name: "api-routes", dependencies: ["errors", "rate-limit"] },
);
