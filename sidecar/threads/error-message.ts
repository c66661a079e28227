/** An error as it crosses between threads (the heavy worker's, the template readers'). */
import { httpErrorOf } from "../../catalogue/base/problem.ts";

/** An HttpError as it crosses between the threads. */
export interface ErrorMessage {
  readonly statusCode?: number;
  readonly message: string;
  readonly details?: string;
  readonly retryAfter?: number;
}

/** An error as it crosses: an HttpError keeps its status, details and Retry-After. */
export function errorMessage(error: unknown): ErrorMessage {
  const e = error as Partial<ErrorMessage>;
  return {
    statusCode: e.statusCode,
    message: e.message ?? String(error),
    details: e.details,
    retryAfter: e.retryAfter,
  };
}

/** The error again on the other side: an HttpError when it had a status. */
export function httpError({ statusCode, message, details, retryAfter }: ErrorMessage): Error {
  if (!statusCode) return new Error(message);
  return Object.assign(httpErrorOf(statusCode, message, details), retryAfter === undefined ? {} : { retryAfter });
}
