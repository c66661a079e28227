/**
 * What a client is told when the store fails: a read "try again"; a write that certainly did not
 * happen "nothing was saved"; a write whose outcome is unknown (sent, then a timeout or a lost
 * connection) that it may have been saved and how to check — never "nothing was saved", which
 * would invite a duplicate or a 409 on retry.
 */
import { HttpError } from "../plugins/errors.ts";
import { StoreOutcomeUnknownError, StoreUnavailableError } from "./store.ts";

export interface StoreCallKind {
  /** What to tell the client when the write may or may not have happened; absent for reads. */
  readonly unknownOutcome?: string;
}

export function storeFailure(error: unknown, kind: StoreCallKind = {}): unknown {
  if (!(error instanceof StoreUnavailableError)) return error;
  if (error instanceof StoreOutcomeUnknownError && kind.unknownOutcome)
    return new HttpError(503, "Service unavailable", kind.unknownOutcome);
  return new HttpError(
    503,
    "Service unavailable",
    kind.unknownOutcome
      ? "Storage is unreachable; try again shortly. Nothing was saved."
      : "Storage is unreachable; try again shortly.",
  );
}

export const LIST_OUTCOME_UNKNOWN = (id: string) =>
  `The outcome is unknown: the list may have been saved. GET /v1/lists/${id} to check before retrying (or retry with the same Idempotency-Key).`;
export const FEEDBACK_OUTCOME_UNKNOWN =
  "The outcome is unknown: it may have been recorded. Retrying may record it twice.";
