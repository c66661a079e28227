/**
 * The text host's routes as rows, like the API's contract table: path, methods, renderings, bucket,
 * cache policy and where the answer comes from. The router registers them (registerTextRoutes),
 * a 405's Allow is read from them (allowedMethods), and so are nginx's text-host locations
 * (scripts/deploy-config.ts): one added row is routed, allowed and proxied.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { cacheControl } from "../files.ts";
import { MAX_BODY_BYTES } from "../../catalogue/limits.ts";
import type { Catalogue } from "../../catalogue/load.ts";
import { textPageFor } from "../../catalogue/static.ts";
import { safeRelativePath, splitRequestUrl, type BuiltFiles } from "../files.ts";
import { pageBudget } from "../response-budget.ts";
import { exitPlanPage } from "./exit-plan.ts";
import { exposurePage, listBuilderPage, listFile, saveListForm } from "./forms.ts";
import { builtPage, comparePath, savedListPage } from "./pages.ts";
import type { TextContext, TextRoute } from "./context.ts";
import type { Rendering } from "./render.ts";
import { compareQuery, equivalenceGroupPage, equivalentsPage, feedbackPost, searchPage } from "./site.ts";

const ALL: readonly Rendering[] = ["ansi", "txt", "md", "html"];

/** The routes; `/*` (every built page and the site's files) last, as nginx's generic location. */
// One row a line, read as a table.
// prettier-ignore
export const TEXT_ROUTES: readonly TextRoute[] = [
  { path: "/compare/:ids", methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "computed", handler: comparePath },
  { path: "/compare", methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static+computed", handler: compareQuery },
  { path: "/search", methods: ["GET"], formats: ALL, bucket: "text", cache: "no-store", serving: "computed", handler: searchPage },
  { path: "/equivalents", methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static+computed", handler: equivalentsPage },
  { path: "/equivalents/:id", methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "computed", handler: equivalenceGroupPage },
  { path: "/feedback", methods: ["POST"], formats: ALL, bucket: "relaxed", cache: "no-store", serving: "computed", form: true, handler: feedbackPost },
  { path: "/exposure", methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static+computed", handler: exposurePage },
  { path: "/list", methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static+computed", handler: listBuilderPage },
  { path: "/list/files/:file", methods: ["GET"], formats: ALL, bucket: "strict", cache: "no-store", serving: "computed", handler: listFile },
  { path: "/lists", methods: ["POST"], formats: ALL, bucket: "strict", cache: "no-store", serving: "computed", form: true, handler: saveListForm },
  { path: "/lists/:id", methods: ["GET"], formats: ALL, bucket: "text", missBucket: "misses", cache: "no-store", serving: "computed", handler: savedListPage },
  { path: "/lists/:id/exit-plan", methods: ["GET"], formats: ALL, bucket: "text", missBucket: "misses", cache: "no-store", serving: "computed", handler: exitPlanPage },
  { path: "/*", methods: ["GET"], formats: ALL, bucket: "text", cache: "public", serving: "static", handler: builtPage },
];

/** A route's path as a regular expression over the request's path (nginx reads the same one). */
export function pathPattern(path: string): string {
  const body = path
    .replace(/\/$/, "")
    .split("/")
    .map((segment) => (segment === "*" ? ".*" : segment.startsWith(":") ? "[^/]+" : segment))
    .join("/");
  return path === "/*" ? "^/.*$" : `^${body}/?$`;
}

/** Registers the rows; form routes in a scope of their own, where a form-encoded body is parsed. */
export function registerTextRoutes(context: TextContext, routes: readonly TextRoute[] = TEXT_ROUTES) {
  const add = (app: FastifyInstance, route: TextRoute) =>
    app.route({
      method: [...route.methods],
      url: route.path,
      config: { bucket: route.bucket, ...(route.missBucket ? { missBucket: route.missBucket } : {}) },
      // The row's cache policy, unless the handler's answer says otherwise (an error is never kept).
      handler: async (request, reply) => {
        // A computed answer is computed when it is its connection's turn, with a slot of the
        // process's page budget (response-budget.ts): a client pipelining pages it does not read
        // holds one answer in memory, not one per request, and such clients PAGE_STREAMS at most.
        if (route.serving !== "static" && !(await pageBudget.acquire(reply.raw, request.raw.socket))) return reply;
        reply.header("cache-control", cacheControl(route.cache));
        return route.handler(context, request, reply);
      },
    });
  return async (app: FastifyInstance) => {
    for (const route of routes.filter((row) => !row.form)) add(app, route);
    await app.register(async (scope) => {
      scope.addContentTypeParser(
        "application/x-www-form-urlencoded",
        { parseAs: "string", bodyLimit: MAX_BODY_BYTES },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
      for (const route of routes.filter((row) => row.form)) add(scope, route);
    });
  };
}

/** The bucket a request's route counts it in; undefined for no route (a 404 counts as a page). */
export const bucketOf = (request: FastifyRequest) =>
  (request.routeOptions.config as { bucket?: TextRoute["bucket"] } | undefined)?.bucket;

const READS = ["GET", "HEAD"] as const;
const methodsOf = (route: TextRoute) => route.methods.flatMap((method) => (method === "GET" ? READS : [method]));

/**
 * The methods a path of this host answers, for a request with another one (405 with Allow), from
 * the rows; undefined for a path it has nothing at (404) and for the API's /v1/ paths.
 */
export function allowedMethods(
  catalogue: Catalogue,
  files: BuiltFiles | undefined,
  url: string,
  routes: readonly TextRoute[] = TEXT_ROUTES,
): readonly string[] | undefined {
  const { pathname } = splitRequestUrl(url);
  if (/^\/v1(\/|$)/.test(pathname)) return undefined;
  const methods = new Set(
    routes
      .filter((route) => route.path !== "/*" && new RegExp(pathPattern(route.path)).test(pathname))
      .flatMap(methodsOf),
  );
  if (builtPageAt(catalogue, files, pathname)) for (const method of READS) methods.add(method);
  const allowed = (["GET", "HEAD", "POST"] as const).filter((method) => methods.has(method));
  return allowed.length > 0 ? allowed : undefined;
}

/** Whether `/*` has a page at this path: a text page of the catalogue, or a file of the built site. */
function builtPageAt(catalogue: Catalogue, files: BuiltFiles | undefined, pathname: string): boolean {
  if (textPageFor(catalogue, pathname)) return true;
  const decoded = safeRelativePath(pathname);
  if (decoded === undefined || !files) return false;
  const path = decoded.replace(/^\/+|\/+$/g, "");
  return (
    files.has(`site/client/${path ? `${path}/` : ""}index.html`) ||
    (/\.[a-z0-9_]+$/i.test(path) && files.has(`site/client/${path}`))
  );
}

export type { TextContext, TextRoute, TextServing } from "./context.ts";
