/**
 * Every 4xx/5xx body in the contract's Error shape {error, status, details?}, including Fastify's
 * own errors (bad JSON, prototype keys, body too large, wrong content type) and unknown paths.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { ERROR_REASONS } from "../../catalogue/endpoint.ts";
import { MAX_BODY_BYTES, MAX_PARAM_LENGTH } from "../../catalogue/limits.ts";
import { HttpError } from "../../catalogue/problem.ts";
import type { ApiErrorT } from "../../catalogue/schema.ts";

export { HttpError };

export function errorBody(status: number, error: string, details?: string): ApiErrorT {
  return details ? { error, status, details } : { error, status };
}

/** Messages for Fastify's own error codes, rewritten for API users. */
const FASTIFY_ERRORS: Record<string, [number, string, string?]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    415,
    "Unsupported media type",
    "Send the body as JSON with Content-Type: application/json",
  ],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, "Payload too large", `Request bodies are limited to ${MAX_BODY_BYTES / 1024} KiB`],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, "Empty body", "Send a JSON object"],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, "Invalid JSON", "The body is not valid JSON"],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, "Bad request", "Content-Length does not match the body"],
  FST_ERR_BAD_URL: [400, "Bad request", "The URL is malformed"],
  FST_ERR_MAX_PARAM_LENGTH: [414, "URI too long", `Path parameters are limited to ${MAX_PARAM_LENGTH.api} characters`],
  FST_ERR_ASYNC_CONSTRAINT: [400, "Bad request"],
};

export function toErrorBody(error: unknown): ApiErrorT {
  if (error instanceof HttpError) return errorBody(error.statusCode, error.message, error.details);
  const e = error as { code?: string; statusCode?: number; message?: string };
  const known = e.code ? FASTIFY_ERRORS[e.code] : undefined;
  if (known) return errorBody(known[0], known[1], known[2]);
  if (error instanceof SyntaxError) return errorBody(400, "Invalid JSON", error.message);
  const status = e.statusCode && e.statusCode >= 400 && e.statusCode < 600 ? e.statusCode : 500;
  if (status >= 500) return errorBody(status, status === 503 ? "Service unavailable" : "Internal server error");
  return errorBody(status, ERROR_REASONS[status] ?? "Bad request", e.message);
}

/** The API's paths (also answered by the text host): their errors come in the Error shape. */
export function isApiPath(url: string): boolean {
  return /^\/v1(?:[/?]|$)/.test(url);
}

export function sendError(reply: FastifyReply, body: ApiErrorT): FastifyReply {
  return reply
    .code(body.status)
    .header("cache-control", "no-store")
    .type("application/json; charset=utf-8")
    .send(JSON.stringify(body));
}

export default fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error, request: FastifyRequest, reply) => {
      const body = toErrorBody(error);
      if (body.status >= 500) request.log.error({ err: error }, "request failed");
      if (body.status === 429) {
        const ttl = (error as { retryAfter?: number }).retryAfter;
        if (ttl !== undefined) reply.header("retry-after", String(ttl));
      }
      return sendError(reply, body);
    });
    app.setNotFoundHandler((request, reply) =>
      sendError(
        reply,
        errorBody(
          404,
          "Not found",
          `No resource at ${request.method} ${request.url.split("?")[0]!.slice(0, 200)}; see GET / for the endpoint list`,
        ),
      ),
    );
  },
  { name: "errors" },
);
