/** Refusing JSON nested deeper than MAX_JSON_DEPTH (the count: catalogue/base/nesting.ts). */
import { MAX_JSON_DEPTH } from "../catalogue/base/limits.ts";
import { nestsDeeperThan } from "../catalogue/base/nesting.ts";
import { HttpError } from "../catalogue/base/problem.ts";

export const DEPTH_DETAILS = `nested more than ${MAX_JSON_DEPTH} levels deep; no request of this API nests more than a few`;

/** Throws 400 "Invalid body" when `value` nests deeper than MAX_JSON_DEPTH. */
export function refuseDeepJson(value: unknown, what = "body"): void {
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) throw new HttpError(400, "Invalid body", `${what}: ${DEPTH_DETAILS}`);
}
