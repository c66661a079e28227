/**
 * The gate's part of a run, after each root's answer: its findings (one per resource instance,
 * findings.ts) placed in the files read (places.ts), the suppressions in force — the baseline's
 * entries, the inline comments of those files, the rules skipped or left out — and the judgement
 * (judge.ts); with --write-baseline, the baseline written and every root judged again against it.
 * outputs.ts then writes what each CI system reads.
 */
import { basename, join, relative, resolve, sep } from "node:path";
import { checkOutcome } from "../../catalogue/templates/answer/findings.ts";
import { baselineOf, judge, type Judgement, type Suppression } from "../../catalogue/templates/answer/judge.ts";
import { SourcePlaces, type SourceText } from "../../catalogue/templates/answer/places.ts";
import type { DeploymentCheckAnswer } from "../../catalogue/templates/check.ts";
import type { CheckInput } from "./api.ts";
import { writeBaseline } from "./baseline.ts";
import type { CatalogueRelease } from "./catalogue.ts";
import type { CheckRequest } from "./options.ts";
import { inlineSuppressions, ruleSuppressions } from "./suppressions.ts";

/** A path as SARIF and the baseline name it: relative to the working folder (the repository's root in CI). */
export const pathOf = (name: string): string => relative(process.cwd(), resolve(name)).split(sep).join("/") || ".";

/** One root's check: what was read, the answer and the catalogue it was checked against. */
export interface RootCheck {
  /** The root as given (a path from the working folder). */
  readonly root: string;
  /** The folder the input's files are named from: the repository's top (check/roots.ts). */
  readonly base: string;
  readonly input: CheckInput;
  readonly answer: DeploymentCheckAnswer;
  readonly release: CatalogueRelease;
}

/** One root weighed: its files, whether the verdicts allow it, and the judgement of its findings. */
export interface RootOutcome extends RootCheck {
  /** The root as the baseline and SARIF name it (relative to the working folder, forward slashes). */
  readonly file: string;
  readonly sources: readonly SourceText[];
  /** Every verdict from the list allows the deployment (the findings' own word, before any suppression). */
  readonly allowed: boolean;
  readonly judgement: Judgement;
  /** The suppressions each root was judged with (the baseline's entries, inline comments, rules). */
  readonly suppressions: readonly Suppression[];
}

/** The files a root's findings stand in: a folder's files by their paths, or the file itself. */
export function sourcesOf(check: RootCheck): SourceText[] {
  if ("files" in check.input)
    return Object.entries(check.input.files).map(([name, text]) => ({
      path: pathOf(join(check.base, name)),
      name,
      text,
    }));
  const path = pathOf(check.root);
  // A lone .tf file is read as a configuration of that one file (its module's own name).
  const name = check.answer.format === "terraform-config" ? basename(check.root) : path;
  return [{ path, name, text: check.input.template }];
}

/** Today as the baseline's expiries read it (UTC). */
export const today = (): string => new Date().toISOString().slice(0, 10);

/** A root's findings placed and judged against the baseline's entries, its inline comments and the rules asked. */
export function judgeRoot(check: RootCheck, baseline: readonly Suppression[], request: CheckRequest): RootOutcome {
  const sources = sourcesOf(check);
  const terraform = check.answer.format === "terraform-config";
  const places = new SourcePlaces(sources, terraform);
  const outcome = checkOutcome(check.answer);
  const suppressions = [
    ...baseline,
    ...inlineSuppressions(places.files, terraform),
    ...ruleSuppressions(request.rules),
  ];
  const file = pathOf(check.root);
  return {
    ...check,
    file,
    sources,
    allowed: outcome.allowed,
    suppressions,
    judgement: judge(places.placeAll(outcome.findings), { failOn: request.failOn, suppressions, file, today: today() }),
  };
}

/**
 * --write-baseline: the entries of --baseline still in use, then one per finding that counts in
 * any root; each root judged again against it (a baseline entry accepts a root's findings by the
 * root's path, so one file serves every root). Says on stderr what it wrote.
 */
export function rewriteBaseline(
  path: string,
  outcomes: readonly RootOutcome[],
  baseline: readonly Suppression[],
  request: CheckRequest,
): RootOutcome[] {
  const inUse = new Set(outcomes.flatMap((outcome) => outcome.judgement.findings.flatMap((entry) => entry.acceptedBy)));
  const kept = baseline.filter((entry) => inUse.has(entry));
  const written = [
    ...kept,
    ...outcomes.flatMap((outcome) => baselineOf(outcome.judgement.counted, outcome.file, today())),
  ];
  writeBaseline(path, written);
  console.error(
    `cloud-catalogue check: wrote ${written.length} entr${written.length === 1 ? "y" : "ies"} to the baseline ${path}; give each a reason`,
  );
  return outcomes.map((outcome) => judgeRoot(outcome, written, request));
}
