/**
 * What in a deployment retires: each version its resources name (../tables/versioned.ts), looked up in the
 * catalogue's version data (../versions/versions.ts, never matched to a nearest version) with its
 * phase on the day (supported, deprecated, extended, block-create, block-update, ended), each phase
 * with its first day and consequence, the successor and the vendor page. A version is retiring when
 * it reaches, by the end of the window, the first phase the request fails on (failOn: deprecated,
 * the default, any phase after standard support; extended, extended support or worse; end, the
 * vendor refusing it or its end); one already in that phase is retiring now. A version the data
 * does not hold is said to be not known, with what it was read as. The services a deployment uses
 * are judged against their own lifecycle the same way (serviceLifecycleAnswers).
 */
import { VERSION_DESCRIBED_ENTRIES } from "../../base/limits.ts";
import type { Catalogue } from "../../load/load.ts";
import type { FailOn, VersionPhase } from "../../schema/index.ts";
import { findVersion, nextEndOf } from "../../versions/versions.ts";
import type { Deployment } from "../model/deployment.ts";
import type { AnsweredPhase, ServiceLifecycleAnswer, Statement, VersionAnswer } from "../model/answer.ts";

export type { AnsweredPhase, ServiceLifecycleAnswer, VersionAnswer };

/** A version answer with its phases, the rule applied always named. */
export type PhasedVersionAnswer = VersionAnswer & { readonly failOn: FailOn };

/** The failOn the check applies when a request names none: any phase after standard support. */
export const DEFAULT_FAIL_ON: FailOn = "deprecated";

/**
 * How far along a phase is: failOn deprecated fails from rank 1, extended from 2, end from 3 (the
 * vendor refusing to create or update it, or its end: what breaks a deployment).
 */
const RANK: Readonly<Record<VersionPhase, number>> = {
  supported: 0,
  deprecated: 1,
  extended: 2,
  "block-create": 3,
  "block-update": 3,
  ended: 3,
};
const FAIL_RANK: Readonly<Record<FailOn, number>> = { deprecated: 1, extended: 2, end: 3 };

/** The day `days` after `asOf` (YYYY-MM-DD, UTC). */
function daysAfter(asOf: string, days: number): string {
  return new Date(Date.parse(`${asOf}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export function versionAnswers(
  catalogue: Catalogue,
  deployment: Deployment,
  asOf: string,
  withinDays: number,
  failOn: FailOn = DEFAULT_FAIL_ON,
): PhasedVersionAnswer[] {
  const until = daysAfter(asOf, withinDays);
  return (deployment.versioned ?? []).map(({ family: named, ...attribute }): PhasedVersionAnswer => {
    // The family an attribute names narrows the lookup; the answer's family is the one found.
    const found = findVersion(catalogue, attribute.serviceId, attribute.value, asOf, named);
    if (found === "unknown") return { ...attribute, status: "unknown", retiring: false, failOn };
    const next = nextEndOf(found, asOf);
    const ends = next?.date ?? found.ends;
    const phases: AnsweredPhase[] = found.phases.map((entry) => ({
      phase: entry.phase,
      starts: entry.starts,
      name: entry.name,
      ...(entry.consequence ? { consequence: entry.consequence } : {}),
      ...(entry.paid !== undefined ? { paid: entry.paid } : {}),
      ...(entry.price ? { price: entry.price } : {}),
    }));
    const failing = phases.find((entry) => RANK[entry.phase] >= FAIL_RANK[failOn]);
    const retiring = failing !== undefined && failing.starts <= until;
    return {
      ...attribute,
      status: found.status,
      phase: found.phase,
      phases,
      version: found.version,
      family: found.family,
      ...(ends ? { ends } : {}),
      ...(next ? { endsWhich: next.which } : {}),
      retiring,
      ...(retiring ? { retiringPhase: failing } : {}),
      failOn,
      ...(found.successor ? { successor: found.successor } : {}),
      source: found.source,
    };
  });
}

/** One version of one service, as the rule judged it: what entries describing it share. */
const versionKey = (answer: VersionAnswer) =>
  JSON.stringify([
    answer.serviceId,
    answer.family ?? null,
    answer.version ?? null,
    (answer as PhasedVersionAnswer).failOn ?? null,
  ]);

/**
 * The answers as the answer gives them: each version described in full (phases, retiring phase,
 * vendor page) on its first VERSION_DESCRIBED_ENTRIES entries, the later ones naming it and its
 * phase only (../../base/limits.ts says why). Every entry is kept.
 */
export function describedOnce<T extends VersionAnswer>(answers: readonly T[]): T[] {
  const seen = new Map<string, number>();
  return answers.map((answer) => {
    if (answer.status === "unknown") return answer;
    const key = versionKey(answer);
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count <= VERSION_DESCRIBED_ENTRIES) return answer;
    const { phases: _phases, retiringPhase: _retiringPhase, source: _source, ...named } = answer as PhasedVersionAnswer;
    return named as unknown as T;
  });
}

/** Each answer with its version's description, taken from an entry of the same version that gives it. */
export function withDescriptions(answers: readonly VersionAnswer[]): VersionAnswer[] {
  const described = new Map<string, VersionAnswer>();
  for (const answer of answers)
    if (answer.source && !described.has(versionKey(answer))) described.set(versionKey(answer), answer);
  return answers.map((answer) => {
    const full = answer.source || answer.status === "unknown" ? undefined : described.get(versionKey(answer));
    if (!full) return answer;
    const { phases, retiringPhase, source } = full as PhasedVersionAnswer;
    return {
      ...answer,
      ...(phases ? { phases } : {}),
      ...(answer.retiring && retiringPhase ? { retiringPhase } : {}),
      ...(source ? { source } : {}),
    };
  });
}

/** A phase in words, as a statement says it ("in paid extended support"). */
function phaseWords(phase: AnsweredPhase): string {
  switch (phase.phase) {
    case "deprecated":
      return "deprecated (no extended support)";
    case "extended":
      return phase.paid ? "in paid extended support" : "in extended support";
    case "block-create":
      return "creating blocked";
    case "block-update":
      return "updating blocked";
    case "ended":
      return "ended";
    default:
      return "supported";
  }
}

/**
 * Where a version is in its life on the day judged, and what comes next, as every face says it
 * (statements, the CI gate's findings, the text host): "deprecated (no extended support) since
 * 2024-10-15; creating blocked from 2027-02-01 (Block function create)". Undefined for a version
 * not known.
 */
export function phaseStory(answer: VersionAnswer): string | undefined {
  const { phase, phases = [] } = answer as PhasedVersionAnswer;
  if (phase === undefined) return undefined;
  // The phases are in order; the one the version is in is the last of its kind begun.
  const current = phases.map((entry) => entry.phase).lastIndexOf(phase);
  const now = current === -1 ? undefined : phases[current]!;
  const parts = [now ? `${phaseWords(now)} since ${now.starts}` : "supported"];
  for (const entry of phases.slice(current + 1))
    parts.push(`${phaseWords(entry)} from ${entry.starts} (${entry.name})`);
  return parts.join("; ");
}

const where = (answer: VersionAnswer) => `${answer.from} (${answer.attribute} ${answer.value})`;

const FAIL_ON_WORDS: Readonly<Record<FailOn, string>> = {
  deprecated: "past standard support",
  extended: "in extended support or worse",
  end: "refused or ended",
};

/** What the versions say, each sentence with the vendor pages behind it. */
export function versionStatements(
  answers: readonly VersionAnswer[],
  withinDays: number,
  failOn: FailOn = DEFAULT_FAIL_ON,
): Statement[] {
  if (answers.length === 0) return [];
  const phased = withDescriptions(answers) as readonly PhasedVersionAnswer[];
  const retiring = phased.filter((answer) => answer.retiring);
  const unknown = phased.filter((answer) => answer.status === "unknown");
  const sources = (list: readonly VersionAnswer[]) => [
    ...new Set(list.flatMap((answer) => (answer.source ? [answer.source.url] : []))),
  ];
  const rule = `${FAIL_ON_WORDS[failOn]} now or within ${withinDays} days`;
  const statements: Statement[] = [];
  statements.push({
    kind: "versions",
    text:
      retiring.length === 0
        ? `Of the ${answers.length} version${answers.length === 1 ? "" : "s"} the resources name, none is ${rule}.`
        : `${retiring.length} of the ${answers.length} versions the resources name ${retiring.length === 1 ? "is" : "are"} ${rule}: ${retiring
            .slice(0, 6)
            .map(
              (answer) =>
                `${where(answer)}: ${phaseStory(answer)}${answer.successor ? `; successor ${answer.successor}` : ""}`,
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

/**
 * The versions no value was found for: said with the inputs that would tell, so that a runtime set
 * by a variable without a value is not passed over in silence (its support is not checked).
 */
export function unknownVersionStatements(deployment: Deployment): Statement[] {
  const unknown = deployment.versionsUnknown ?? [];
  if (unknown.length === 0) return [];
  const named = unknown
    .slice(0, 6)
    .map((entry) => `${entry.from} (${entry.attribute}: ${entry.dependsOn.slice(0, 3).join(", ")})`)
    .join(", ");
  return [
    {
      kind: "versions",
      text: `${unknown.length} version${unknown.length === 1 ? " is" : "s are"} set through inputs without a value, so ${unknown.length === 1 ? "its" : "their"} support is not checked: ${named}${unknown.length > 6 ? ", …" : ""}. Give the inputs (inputs, --var, input.<name>=) to check ${unknown.length === 1 ? "it" : "them"}.`,
      checked: ["the deployment's inputs, evaluated"],
    },
  ];
}

/**
 * The services a deployment uses that have a lifecycle of their own (Azure Blueprints sunsetting,
 * DevOps Guru, Cloud Directory…), judged as versions are: retired, or its sunset date within the
 * window, is retiring whatever failOn says (a sunset is the service's end); deprecated without a
 * date is retiring when the request fails on deprecated. Unknown ids and active services say nothing.
 */
export function serviceLifecycleAnswers(
  catalogue: Catalogue,
  serviceIds: readonly string[],
  asOf: string,
  withinDays: number,
  failOn: FailOn = DEFAULT_FAIL_ON,
): ServiceLifecycleAnswer[] {
  const until = daysAfter(asOf, withinDays);
  return [...new Set(serviceIds)].sort().flatMap((id): ServiceLifecycleAnswer[] => {
    const lifecycle = catalogue.bySlug.get(id)?.service.lifecycle;
    if (!lifecycle) return [];
    const dated = lifecycle.sunsetDate !== undefined && lifecycle.sunsetDate <= until;
    const retiring =
      lifecycle.status === "retired" ||
      (lifecycle.status !== "preview" && dated) ||
      (lifecycle.status === "deprecated" && failOn === "deprecated");
    return [
      {
        serviceId: id,
        status: lifecycle.status,
        ...(lifecycle.sunsetDate ? { date: lifecycle.sunsetDate } : {}),
        retiring,
        ...(lifecycle.successorSlug ? { successor: lifecycle.successorSlug } : {}),
        ...(lifecycle.note ? { note: lifecycle.note } : {}),
        ...(lifecycle.announcementUrl ? { announcementUrl: lifecycle.announcementUrl } : {}),
      },
    ];
  });
}

/** What the services' own lifecycles say: one statement naming those retiring, with the vendors' notices. */
export function serviceLifecycleStatements(
  answers: readonly ServiceLifecycleAnswer[],
  withinDays: number,
): Statement[] {
  const retiring = answers.filter((answer) => answer.retiring);
  if (retiring.length === 0) return [];
  const said = (answer: ServiceLifecycleAnswer) =>
    `${answer.serviceId} ${answer.status === "retired" ? `retired${answer.date ? ` on ${answer.date}` : ""}` : answer.date ? `${answer.status === "sunset" ? "sunsets" : "ends"} on ${answer.date}` : answer.status}${answer.successor ? ` (successor ${answer.successor})` : ""}`;
  return [
    {
      kind: "versions",
      text: `${retiring.length} of the services the deployment uses ${retiring.length === 1 ? "is" : "are"} retired, deprecated or sunsetting within ${withinDays} days: ${retiring
        .slice(0, 6)
        .map(said)
        .join("; ")}${retiring.length > 6 ? "; …" : ""}.`,
      checked: [...new Set(retiring.flatMap((answer) => (answer.announcementUrl ? [answer.announcementUrl] : [])))],
    },
  ];
}
