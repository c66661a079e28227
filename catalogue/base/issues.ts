/**
 * The one way a zod validation failure is told to a person: "where: what is wrong", one line per
 * issue. The API's 400 details, the text host's error pages, the data checks' problems, the
 * configuration error and the store's skipped records all say it this way. A leaf: it imports only
 * zod's types, so the browser may load it.
 */
import type { z } from "zod";

/** One zod issue (z.ZodError's `issues` item). */
export type Issue = z.ZodError["issues"][number];

/** An issue's path as dotted text ("providers.0.name"), or `whole` when it is about the value itself. */
export const issuePath = (path: readonly PropertyKey[], whole: string): string => path.map(String).join(".") || whole;

export interface IssueFormat {
  /** At most this many issues (the API and the text host name five). */
  readonly limit?: number;
  /** What an issue about the whole value is located at, e.g. "body" or "(file)". */
  readonly whole?: string;
  /** Where an issue is, when its dotted path is not the right words (a data file names entries). */
  readonly where?: (path: readonly PropertyKey[]) => string;
}

/** "where: message" for each issue, in zod's order. */
export function issueLines(issues: readonly Issue[], format: IssueFormat = {}): string[] {
  const { limit = Infinity, whole = "(value)" } = format;
  const where = format.where ?? ((path: readonly PropertyKey[]) => issuePath(path, whole));
  return issues.slice(0, limit).map((issue) => `${where(issue.path)}: ${issue.message}`);
}

/** The first five issues as one line, for an Error's `details`. */
export const issueDetails = (issues: readonly Issue[], whole?: string): string =>
  issueLines(issues, { limit: 5, ...(whole === undefined ? {} : { whole }) }).join("; ");
