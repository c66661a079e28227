/**
 * An exit target as a query states it (GET /v1/lists/{id}/exit-plan, the text host's
 * /lists/{slug}/exit-plan): comma-separated lists and booleans (read by queryBoolean), validated by the ExitTarget
 * schema that POST /v1/exit-plan's body uses. Apart from plan.ts, which the browser loads,
 * because validating needs zod and the browser's planner builds its target itself.
 */
import { issueDetails } from "../base/issues.ts";
import { HttpError } from "../base/problem.ts";
import { ExitTarget, type ExitTargetT } from "../schema/index.ts";

/** The query form of an exit target (comma-separated lists, booleans) as ExitTarget, or a 400. */
export function exitTargetOfQuery(query: {
  providers?: string | undefined;
  sovereignOption?: boolean | undefined;
  euResidentOnly?: boolean | undefined;
  jurisdictions?: string | undefined;
  exclude?: string | undefined;
}): ExitTargetT {
  const list = (raw: string | undefined) => {
    if (raw === undefined) return undefined;
    const items = [
      ...new Set(
        raw
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean),
      ),
    ];
    return items.length > 0 ? items : undefined;
  };
  const candidate = {
    providers: list(query.providers),
    sovereignOption: query.sovereignOption,
    euResidentOnly: query.euResidentOnly,
    jurisdictions: list(query.jurisdictions)?.map((code) => code.toUpperCase()),
    exclude: list(query.exclude),
  };
  const parsed = ExitTarget.safeParse(
    Object.fromEntries(Object.entries(candidate).filter(([, value]) => value !== undefined)),
  );
  if (!parsed.success) throw new HttpError(400, "Invalid query", issueDetails(parsed.error.issues, "query"));
  return parsed.data;
}
