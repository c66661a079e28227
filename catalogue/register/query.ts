/**
 * GET /v1/lists/{id}/register's query as the register's request: the entity's LEI, level, date and
 * currency, the places and the exit target (the list's contract references and functions are the
 * POST's, whose body has room for them). A malformed LEI, date or currency is a 400 naming it.
 */
import { isValidLei } from "../base/lei.ts";
import { HttpError } from "../base/problem.ts";
import { exitTargetOfQuery } from "../exit/target-query.ts";
import type { ExitTargetT, RegisterEntityT } from "../schema/index.ts";

export interface RegisterQueryT {
  readonly lei?: string | undefined;
  readonly level?: "individual" | "consolidated" | undefined;
  readonly referenceDate?: string | undefined;
  readonly currency?: string | undefined;
  readonly allowedLocations?: string | undefined;
  readonly providers?: string | undefined;
  readonly jurisdictions?: string | undefined;
  readonly sovereignOption?: boolean | undefined;
  readonly euResidentOnly?: boolean | undefined;
  readonly exclude?: string | undefined;
}

const items = (raw: string | undefined) =>
  (raw ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

export function registerRequestOfQuery(query: RegisterQueryT): {
  entity: RegisterEntityT;
  allowedLocations?: string[];
  to?: ExitTargetT;
} {
  const problems: string[] = [];
  if (query.lei !== undefined && !isValidLei(query.lei))
    problems.push(`lei "${query.lei.slice(0, 40)}" is not an LEI (20 characters with ISO 17442 check digits)`);
  if (
    query.referenceDate !== undefined &&
    (!/^\d{4}-\d{2}-\d{2}$/.test(query.referenceDate) ||
      Number.isNaN(Date.parse(`${query.referenceDate}T00:00:00Z`)) ||
      new Date(`${query.referenceDate}T00:00:00Z`).toISOString().slice(0, 10) !== query.referenceDate)
  )
    problems.push(`referenceDate "${query.referenceDate.slice(0, 40)}" is not a date in YYYY-MM-DD form`);
  if (query.currency !== undefined && !/^[A-Z]{3}$/.test(query.currency))
    problems.push(`currency "${query.currency.slice(0, 40)}" is not an ISO 4217 code such as EUR`);
  if (problems.length > 0) throw new HttpError(400, "Invalid register request", `${problems.join("; ")}.`);
  const targeted =
    query.providers !== undefined ||
    query.jurisdictions !== undefined ||
    query.sovereignOption !== undefined ||
    query.euResidentOnly !== undefined ||
    query.exclude !== undefined;
  const places = items(query.allowedLocations);
  return {
    entity: {
      ...(query.lei ? { lei: query.lei } : {}),
      ...(query.level ? { level: query.level } : {}),
      ...(query.referenceDate ? { referenceDate: query.referenceDate } : {}),
      ...(query.currency ? { currency: query.currency } : {}),
    },
    ...(places.length > 0 ? { allowedLocations: places } : {}),
    ...(targeted ? { to: exitTargetOfQuery(query) } : {}),
  };
}
