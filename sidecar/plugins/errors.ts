/**
 * Every 4xx/5xx body in the contract's Error shape {error, status, details?}, including Fastify's
 * own errors (bad JSON, prototype keys, body too large, wrong content type) and unknown paths. A
 * path of the contract table asked with a method it does not have is 405 with `Allow`, not 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Endpoint } from "../../catalogue/contract/endpoint.ts";
import { bodyTooLargeDetails, MAX_PARAM_LENGTH } from "../../catalogue/base/limits.ts";
import { ERRORS, titleOfStatus, type ErrorTitle, type StatusOf } from "../../catalogue/base/error-catalogue.ts";
import { HttpError, isHttpError } from "../../catalogue/base/problem.ts";
import type { ApiErrorT } from "../../catalogue/schema/index.ts";

export { HttpError };

export function errorBody<T extends ErrorTitle>(status: StatusOf<T>, error: T, details?: string): ApiErrorT {
  return details ? { error, status, details } : { error, status };
}

/** Messages for Fastify's own error codes, rewritten for API users (the title's status is the answer's). */
const FASTIFY_ERRORS: Record<string, [ErrorTitle, string?]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    "Unsupported media type",
    "Send the body as JSON with Content-Type: application/json",
  ],
  FST_ERR_CTP_EMPTY_JSON_BODY: ["Empty body", "Send a JSON object"],
  FST_ERR_CTP_INVALID_JSON_BODY: ["Invalid JSON", "The body is not valid JSON"],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ["Bad request", "Content-Length does not match the body"],
  FST_ERR_BAD_URL: ["Bad request", "The URL is malformed"],
  FST_ERR_MAX_PARAM_LENGTH: ["URI too long", `Path parameters are limited to ${MAX_PARAM_LENGTH.api} characters`],
  FST_ERR_ASYNC_CONSTRAINT: ["Bad request"],
};

/** A title of the catalogue in the Error shape, with its own status. */
const bodyOf = (title: ErrorTitle, details?: string): ApiErrorT =>
  errorBody<ErrorTitle>(ERRORS[title].status, title, details);

/** The Error shape of `error`; a body over the limit says the route's own (the deployment check's is larger). `bodyLimit` is the limit of the route that refused a body (request.routeOptions). */
export function toErrorBody(error: unknown, bodyLimit?: number): ApiErrorT {
  if (isHttpError(error)) return errorBody<ErrorTitle>(error.statusCode, error.title, error.details);
  const e = error as { code?: string; statusCode?: number; message?: string };
  if (e.code === "FST_ERR_CTP_BODY_TOO_LARGE") return bodyOf("Payload too large", bodyTooLargeDetails(bodyLimit));
  const known = e.code ? FASTIFY_ERRORS[e.code] : undefined;
  if (known) return bodyOf(known[0], known[1]);
  if (error instanceof SyntaxError) return bodyOf("Invalid JSON", error.message);
  const status = e.statusCode && e.statusCode >= 400 && e.statusCode < 600 ? e.statusCode : 500;
  return bodyOf(titleOfStatus(status), status >= 500 ? undefined : e.message);
}

/** The API's 405 (RFC 9110 §15.5.6), on both hosts: Allow names the methods the path answers. */
export function sendMethodNotAllowed(reply: FastifyReply, method: string, pathname: string, allow: string) {
  const details = `${pathname.slice(0, 200)} answers ${allow}, not ${method.slice(0, 20)}; see GET / for the endpoint list`;
  return sendError(reply.header("allow", allow), errorBody(405, "Method not allowed", details));
}

/**
 * The API's paths (also answered by the text host): their errors come in the Error shape. Read after
 * decoding, as the router reads a path, so `/%761/providers` is the API's path it routes to.
 */
export function isApiPath(url: string): boolean {
  if (/^\/v1(?:[/?]|$)/.test(url)) return true;
  if (!url.includes("%")) return false;
  try {
    return /^\/v1(?:\/|$)/.test(decodeURIComponent(url.split("?")[0]!));
  } catch {
    return false;
  }
}

export function sendError(reply: FastifyReply, body: ApiErrorT): FastifyReply {
  return reply
    .code(body.status)
    .header("cache-control", "no-store")
    .type("application/json; charset=utf-8")
    .send(JSON.stringify(body));
}

/**
 * The methods each path of `table` answers, from its rows (HEAD wherever GET is): for a path no
 * route matched, the methods to name in `Allow`, or undefined when no row has the path (or one has
 * it with this method, and the router still found nothing: a 404).
 */
export function allowedMethods(table: readonly Endpoint[]): (method: string, pathname: string) => string | undefined {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const patterns = table.map((row) => {
    const parts = row.path.split(/\{\w+\}/);
    const last = parts.length - 2;
    // A rest parameter (the row's last) takes slashes too, as Fastify's wildcard does.
    const source = parts
      .map(escape)
      .reduce((all, part, i) => `${all}${row.restParam && i - 1 === last ? ".+" : "[^/]+"}${part}`);
    return { method: row.method, pattern: new RegExp(`^${source}$`) };
  });
  return (method, pathname) => {
    // Fastify routes with ignoreTrailingSlash.
    const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
    const methods = new Set<string>(patterns.filter((row) => row.pattern.test(path)).map((row) => row.method));
    if (methods.has("GET")) methods.add("HEAD");
    if (methods.size === 0 || methods.has(method)) return undefined;
    return ["GET", "HEAD", "POST"].filter((name) => methods.has(name)).join(", ");
  };
}

export default fp(
  async (app: FastifyInstance, options: { readonly table?: readonly Endpoint[] }) => {
    const allowed = options.table ? allowedMethods(options.table) : () => undefined;
    app.setErrorHandler((error, request: FastifyRequest, reply) => {
      const body = toErrorBody(error, request.routeOptions.bodyLimit);
      if (body.status >= 500) request.log.error({ err: error }, "request failed");
      if (body.status === 429 || body.status === 503) {
        const ttl = (error as { retryAfter?: number }).retryAfter;
        if (ttl !== undefined) reply.header("retry-after", String(ttl));
      }
      return sendError(reply, body);
    });
    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split("?")[0]!;
      const allow = allowed(request.method, pathname);
      if (allow) return sendMethodNotAllowed(reply, request.method, pathname, allow);
      return sendError(
        reply,
        errorBody(
          404,
          "Not found",
          `No resource at ${request.method} ${pathname.slice(0, 200)}; see GET / for the endpoint list`,
        ),
      );
    });
  },
  { name: "errors" },
);
