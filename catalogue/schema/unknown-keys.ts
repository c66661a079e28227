/**
 * Requests refuse names they do not know: a misspelt field (euResident for euResidentOnly,
 * approvedServiceId for approvedServiceIds) or query parameter (jurisdictions for jurisdiction)
 * would otherwise be ignored in silence and widen or change the request. A body's 400 names each
 * unknown key with the known key it is closest to; a query's also lists the parameters the
 * endpoint takes (docs/decisions.md#closed-queries).
 */
import { z } from "zod";
import { editDistance } from "../base/edit-distance.ts";

/** At most this many unknown names are listed in one 400. */
const NAMED = 5;

/** `"x"`, or `"x" (did you mean "y"?)` when a known name is near. */
function named(name: string, known: readonly string[]): string {
  const near = nearestKey(name, known);
  return `"${name.slice(0, 40)}"${near ? ` (did you mean "${near}"?)` : ""}`;
}

/** zod's error option for a strict object: `unknown key "x" (did you mean "y"?)`, up to five keys. */
export function unknownKeys(known: readonly string[]) {
  return {
    error: (issue: { code?: string; keys?: string[] }) => {
      if (issue.code !== "unrecognized_keys" || !issue.keys) return undefined;
      return issue.keys
        .slice(0, NAMED)
        .map((key) => `unknown key ${named(key, known)}`)
        .join("; ");
    },
  };
}

/** A request body's object: its keys only, an unknown one refused naming the nearest known key. */
export function strictBody<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject(shape, unknownKeys(Object.keys(shape)));
}

/**
 * The one wording of unknown query parameters, for every /v1/ row (contract/run.ts): each
 * unknown name with the nearest one the endpoint takes, then every name it takes, e.g.
 * `unknown parameter "jurisdictions" (did you mean "jurisdiction"?); this endpoint takes: provider, …`.
 */
export function unknownParameters(unknown: readonly string[], known: readonly string[]): string {
  const names = unknown.slice(0, NAMED).map((name) => named(name, known));
  const more = unknown.length > NAMED ? ` and ${unknown.length - NAMED} more` : "";
  const takes =
    known.length > 0 ? `this endpoint takes: ${known.join(", ")}` : "this endpoint takes no query parameters";
  return `unknown parameter${unknown.length === 1 ? "" : "s"} ${names.join(", ")}${more}; ${takes}`;
}

/** The names of `query` (an object of parameters as received) that are not among `known`; own keys only. */
export function unknownNames(query: unknown, known: readonly string[]): string[] {
  if (query === null || typeof query !== "object") return [];
  return Object.keys(query).filter((name) => !known.includes(name));
}

/**
 * A query schema that refuses parameters it does not name, worded as the router words them (the
 * text host's pages that take an API query use it; on /v1/ the router refuses them first).
 */
export function closedQuery<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue: { code?: string; keys?: string[] }) =>
      issue.code === "unrecognized_keys" && issue.keys ? unknownParameters(issue.keys, known) : undefined,
  });
}

/**
 * The known key a misspelt one most likely meant: the same but for case, else one that contains
 * the other, else the nearest within two edits. A name of one or two characters ("v", "_": a cache
 * buster) is near nothing but its own case or one edit, so it is not offered "provider".
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const same = known.find((candidate) => candidate.toLowerCase() === lower);
  if (same) return same;
  if (lower.length >= 3) {
    const containing = known.find((candidate) => {
      const other = candidate.toLowerCase();
      return other.length >= 3 && (other.includes(lower) || lower.includes(other));
    });
    if (containing) return containing;
  }
  const most = lower.length <= 2 ? 0 : lower.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = most + 1;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase(), most);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}
