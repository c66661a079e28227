/**
 * The one way a contract row is run, by the API router (sidecar/routes/api.ts), the MCP tools
 * (mcp/tools.ts) and the worker thread (sidecar/worker/worker.ts): the row's schemas validate each
 * part of the request, then its handler answers. An invalid part is a 400 titled for the part.
 */
import type { z } from "zod";
import { closesQuery, queryNames, type Endpoint, type OperationContext, type Result } from "./endpoint.ts";
import type { InputPart } from "../base/error-catalogue.ts";
import { issueDetails } from "../base/issues.ts";
import type { BucketName } from "../base/limits.ts";
import { HttpError } from "../base/problem.ts";
import type { Deployment } from "../templates/read.ts";
import { unknownNames, unknownParameters } from "../schema/unknown-keys.ts";

/** A request's parts as received (query and headers as strings, the body as parsed JSON). */
export interface RowRequest {
  readonly query?: unknown;
  readonly params?: unknown;
  readonly body?: unknown;
  readonly headers?: unknown;
}

/** The parts validated by the row's schemas: what its handler reads (a part without a schema is undefined). */
export interface RowInput {
  readonly query: unknown;
  readonly params: unknown;
  readonly body: unknown;
  readonly headers: unknown;
}

/** A zod error as the API words it: which part, and what, for the first five issues. */
export function invalid(error: z.ZodError, where: InputPart): HttpError {
  return new HttpError(400, `Invalid ${where}`, issueDetails(error.issues, where));
}

function parsePart(schema: z.ZodType, value: unknown, where: InputPart): unknown {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw invalid(result.error, where);
  return result.data;
}

function parseBody(schema: z.ZodType, raw: unknown): unknown {
  // An array only where the row's schema takes one (an MCP batch, protocol 2025-03-26).
  if (raw === null || typeof raw !== "object" || (Array.isArray(raw) && !schema.safeParse(raw).success))
    throw new HttpError(400, "Invalid body", "Send a JSON object");
  if ("serviceIds" in raw && !("approvedServiceIds" in raw))
    throw new HttpError(
      400,
      "serviceIds is not supported",
      "The field was renamed: send approvedServiceIds (array of service ids) instead of serviceIds.",
    );
  return parsePart(schema, raw, "body");
}

/**
 * A /v1/ row's query names only parameters the row takes: a filter it does not have
 * (?jurisdiction= where there was none, ?regions= on exposure) is a 400, never ignored in silence
 * (docs/decisions.md#closed-queries). Checked before the values, so a misspelt name is what the
 * 400 says first.
 */
function refuseUnknownParameters(row: Endpoint, query: unknown): void {
  if (!closesQuery(row)) return;
  const known = queryNames(row);
  const unknown = unknownNames(query, known);
  if (unknown.length > 0) throw new HttpError(400, "Invalid query", `query: ${unknownParameters(unknown, known)}`);
}

/** Validates a request against the row's schemas (HttpError 400 "Invalid query" and so on). */
export function rowInput(row: Endpoint, request: RowRequest): RowInput {
  refuseUnknownParameters(row, request.query);
  return {
    query: row.query ? parsePart(row.query, request.query, "query") : undefined,
    params: row.params ? parsePart(row.params, request.params, "path") : undefined,
    body: row.body ? parseBody(row.body, request.body) : undefined,
    headers: row.headers ? parsePart(row.headers, request.headers, "headers") : undefined,
  };
}

/** Who asks, beside the validated input: the client's rate-limit key, and its other buckets' counter. */
export interface Caller {
  readonly client: string;
  readonly countIn?: (bucket: BucketName) => Promise<void>;
  /** A readsTemplate row's template, read before the row ran (sidecar/threads/reader.ts). */
  readonly deployment?: Deployment;
}

/** The row's handler on validated input (rowInput's, here or on another thread). */
export function answerRow(
  row: Endpoint,
  context: OperationContext,
  input: RowInput,
  caller: Caller,
): Result | Promise<Result> {
  // The input was validated by this row's own schemas: the handler's parameter types hold.
  return row.handler(context, { ...input, ...caller } as Parameters<Endpoint["handler"]>[1]);
}
