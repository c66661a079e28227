/** How deep a parsed JSON value nests, counted without recursion (a recursive walk is what overflows). */
import { MAX_JSON_DEPTH } from "../catalogue/base/limits.ts";
import { HttpError } from "./plugins/errors.ts";

/** Whether `value` has arrays or objects nested more than `max` levels deep. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [inner, depth] = pending.pop()!;
    if (inner === null || typeof inner !== "object") continue;
    if (depth + 1 > max) return true;
    for (const item of Array.isArray(inner) ? inner : Object.values(inner)) pending.push([item, depth + 1]);
  }
  return false;
}

export const DEPTH_DETAILS = `nested more than ${MAX_JSON_DEPTH} levels deep; no request of this API nests more than a few`;

/** Throws 400 "Invalid body" when `value` nests deeper than MAX_JSON_DEPTH. */
export function refuseDeepJson(value: unknown, what = "body"): void {
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) throw new HttpError(400, "Invalid body", `${what}: ${DEPTH_DETAILS}`);
}
