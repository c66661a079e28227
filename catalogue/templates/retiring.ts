/**
 * What in a deployment retires: each version its resources name (./versioned.ts), looked up in the
 * catalogue's version data (../versions/versions.ts, never matched to a nearest version) with its
 * status on the day, the date its support next ends, the successor and the vendor page; `retiring`
 * when its support has ended or ends within the window. A version the data does not hold is said
 * to be not known, with what it was read as.
 */
import type { Catalogue } from "../load/load.ts";
import { findVersion, nextEndOf } from "../versions/versions.ts";
import type { Deployment } from "./deployment.ts";
import type { Statement, VersionAnswer } from "./answer.ts";

export type { VersionAnswer };

/** The day `days` after `asOf` (YYYY-MM-DD, UTC). */
function daysAfter(asOf: string, days: number): string {
  return new Date(Date.parse(`${asOf}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export function versionAnswers(
  catalogue: Catalogue,
  deployment: Deployment,
  asOf: string,
  withinDays: number,
): VersionAnswer[] {
  const until = daysAfter(asOf, withinDays);
  return (deployment.versioned ?? []).map(({ family: named, ...attribute }): VersionAnswer => {
    // The family an attribute names narrows the lookup; the answer's family is the one found.
    const found = findVersion(catalogue, attribute.serviceId, attribute.value, asOf, named);
    if (found === "unknown") return { ...attribute, status: "unknown", retiring: false };
    const next = nextEndOf(found, asOf);
    const ends = next?.date ?? found.ends;
    return {
      ...attribute,
      status: found.status,
      version: found.version,
      family: found.family,
      ...(ends ? { ends } : {}),
      ...(next ? { endsWhich: next.which } : {}),
      retiring: found.status === "ended" || (next !== undefined && next.date <= until),
      ...(found.successor ? { successor: found.successor } : {}),
      source: found.source,
    };
  });
}

const where = (answer: VersionAnswer) => `${answer.from} (${answer.attribute} ${answer.value})`;

/** What the versions say, each sentence with the vendor pages behind it. */
export function versionStatements(answers: readonly VersionAnswer[], withinDays: number): Statement[] {
  if (answers.length === 0) return [];
  const retiring = answers.filter((answer) => answer.retiring);
  const unknown = answers.filter((answer) => answer.status === "unknown");
  const sources = (list: readonly VersionAnswer[]) => [
    ...new Set(list.flatMap((answer) => (answer.source ? [answer.source.url] : []))),
  ];
  const statements: Statement[] = [];
  statements.push({
    kind: "versions",
    text:
      retiring.length === 0
        ? `Of the ${answers.length} version${answers.length === 1 ? "" : "s"} the resources name, none has ended or ends within ${withinDays} days.`
        : `${retiring.length} of the ${answers.length} versions the resources name ${retiring.length === 1 ? "has" : "have"} ended or end${retiring.length === 1 ? "s" : ""} within ${withinDays} days: ${retiring
            .slice(0, 6)
            .map(
              (answer) =>
                `${where(answer)}: ${answer.status === "ended" ? `ended ${answer.ends ?? "(no date published)"}` : `${answer.status === "extended" ? "in extended support, ending" : "ends"} ${answer.ends}`}${answer.successor ? `, successor ${answer.successor}` : ""}`,
            )
            .join("; ")}${retiring.length > 6 ? "; …" : ""}.`,
    checked: sources(retiring.length > 0 ? retiring : answers),
  });
  if (unknown.length > 0)
    statements.push({
      kind: "versions",
      text: `${unknown.length} version${unknown.length === 1 ? " is" : "s are"} not known to the catalogue, so nothing is said of ${unknown.length === 1 ? "its" : "their"} support: ${unknown
        .slice(0, 6)
        .map(where)
        .join(", ")}${unknown.length > 6 ? ", …" : ""}.`,
      checked: ["the catalogue's version data (GET /v1/services/{slug}, versions)"],
    });
  return statements;
}
