/**
 * Request bodies refuse keys they do not name: a misspelt field (euResident for euResidentOnly,
 * approvedServiceId for approvedServiceIds) would otherwise be ignored in silence and widen or
 * change the request. The 400 names each unknown key with the known key it is closest to.
 */
import { z } from "zod";
import { editDistance } from "../base/edit-distance.ts";

/** zod's error option for a strict object: `unknown key "x" (did you mean "y"?)`, up to five keys. */
export function unknownKeys(known: readonly string[]) {
  return {
    error: (issue: { code?: string; keys?: string[] }) => {
      if (issue.code !== "unrecognized_keys" || !issue.keys) return undefined;
      return issue.keys
        .slice(0, 5)
        .map((key) => {
          const near = nearestKey(key, known);
          return `unknown key "${key.slice(0, 40)}"${near ? ` (did you mean "${near}"?)` : ""}`;
        })
        .join("; ");
    },
  };
}

/** A request body's object: its keys only, an unknown one refused naming the nearest known key. */
export function strictBody<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject(shape, unknownKeys(Object.keys(shape)));
}

/** The known key a misspelt one most likely meant: one contains the other, or they differ by at most two edits. */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  return known.find((candidate) => {
    const other = candidate.toLowerCase();
    return other.includes(lower) || lower.includes(other) || editDistance(lower, other, 2) <= 2;
  });
}
