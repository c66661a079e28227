/**
 * `cloud-catalogue check --recursive <repository>` (issue 121): every root module of a repository
 * (check/roots.ts's rootModules) checked on its own with the same list, inputs and options, one
 * verdict each: stdout holds each root's answer under its path (a JSON object of roots with
 * --format json), stderr each root's findings and outcome, then one line for the repository; one
 * SARIF log holds every root's results, each in its own files. A root that cannot be read or
 * checked is said and counted as no check (exit 2), the others still checked; the API unreachable
 * ends the run (exit 3). The exit status is the worst root's: 2, else 1, else 0.
 */
import { writeFileSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import type { DeploymentCheckAnswer } from "../../catalogue/templates/check.ts";
import { checkOutcome, judge, type Suppression } from "../../catalogue/templates/answer/findings.ts";
import { sarifLog, type SarifResult } from "../../catalogue/templates/answer/sarif.ts";
import type { CheckInput } from "./api.ts";
import type { CatalogueRelease } from "./catalogue.ts";
import { CHECK_EXIT, CheckUnreachableError, CheckUsageError } from "./errors.ts";
import type { CheckRequest } from "./options.ts";
import { findingLines, outcomeLine } from "./report.ts";

/** What checking each root needs from the command (check.ts): its reading, its check, its rendering. */
export interface RootParts {
  readonly read: (root: string) => Promise<CheckInput>;
  readonly check: (input: CheckInput) => Promise<{ answer: DeploymentCheckAnswer; release: CatalogueRelease }>;
  readonly suppressions: readonly Suppression[];
  readonly version: string;
  readonly render: (answer: DeploymentCheckAnswer, release: CatalogueRelease) => string;
  readonly released: (release: CatalogueRelease) => void;
}

/** A path as SARIF and the baseline name it: relative to the working folder. */
const pathOf = (path: string) => relative(process.cwd(), path).split(sep).join("/") || ".";

type Checked =
  | { readonly root: string; readonly input: CheckInput; readonly answer: DeploymentCheckAnswer; exitCode: number }
  | { readonly root: string; readonly reason: string };

/** Checks each root, writes the answers, the findings and one SARIF log; the worst root's exit status. */
export async function checkRoots(
  request: CheckRequest,
  top: string,
  roots: readonly string[],
  parts: RootParts,
): Promise<number> {
  if (request.writeBaseline !== undefined)
    throw new CheckUsageError("--write-baseline writes one root's baseline: check each root on its own", true);
  const today = new Date().toISOString().slice(0, 10);
  const checked: Checked[] = [];
  let release: CatalogueRelease | undefined;
  const results: SarifResult[] = [];
  const answers: Record<string, unknown> = {};
  for (const root of roots) {
    const shown = root === "" ? "." : root;
    let input: CheckInput;
    let answer: DeploymentCheckAnswer;
    try {
      input = await parts.read(root);
      ({ answer, release } = await parts.check(input));
    } catch (error) {
      if (error instanceof CheckUnreachableError || !(error instanceof CheckUsageError)) throw error;
      checked.push({ root: shown, reason: error.message });
      answers[shown] = { error: error.message };
      console.error(`cloud-catalogue check: ${shown}: no check: ${error.message}`);
      continue;
    }
    parts.released(release);
    const file = pathOf(resolve(top, root));
    const outcome = checkOutcome(answer);
    const judgement = judge(outcome.findings, {
      failOn: request.failOn,
      suppressions: parts.suppressions,
      file,
      today,
    });
    const exitCode = judgement.exitCode === 1 && !request.softFail ? CHECK_EXIT.notAllowed : CHECK_EXIT.allowed;
    checked.push({ root: shown, input, answer, exitCode });
    if (request.format === "json") answers[shown] = answer;
    else process.stdout.write(`${request.format === "md" ? "#" : "=="} ${shown}\n\n${parts.render(answer, release)}\n`);
    for (const line of findingLines(judgement, { newOnly: request.newOnly }))
      console.error(`${shown}:${line.startsWith("  ") ? "" : " "}${line}`);
    console.error(
      `${shown}: ${outcomeLine(outcome.allowed, judgement, { softFail: request.softFail, failOn: request.failOn })}`,
    );
    if (request.sarif !== undefined) {
      const files =
        "files" in input
          ? Object.entries(input.files).map(([name, text]) => ({ path: pathOf(resolve(top, name)), text }))
          : [{ path: file, text: input.template }];
      const baselineGiven = request.baseline !== undefined;
      const log = sarifLog(outcome.findings, {
        path: file,
        text: "",
        files,
        version: parts.version,
        ...(baselineGiven ? { baseline: { ...judgement, newOnly: request.newOnly } } : {}),
      });
      results.push(...log.runs[0]!.results);
    }
  }
  if (request.format === "json") process.stdout.write(`${JSON.stringify({ roots: answers }, null, 2)}\n`);
  const failedRoots = checked.filter((entry) => "reason" in entry).length;
  const exitCode =
    failedRoots > 0
      ? CHECK_EXIT.noCheck
      : Math.max(...checked.map((entry) => ("exitCode" in entry ? entry.exitCode : 0)));
  const notAllowed = checked.filter((entry) => "exitCode" in entry && entry.exitCode === 1).length;
  console.error(
    `cloud-catalogue check: ${roots.length} root module${roots.length === 1 ? "" : "s"} checked: ${roots.length - notAllowed - failedRoots} pass, ${notAllowed} not allowed${failedRoots > 0 ? `, ${failedRoots} with no check` : ""}`,
  );
  if (request.sarif !== undefined) writeSarif(request.sarif, parts.version, results, exitCode, release);
  return exitCode;
}

/** One SARIF log for the repository: every root's results in one run, with the run's exit status. */
function writeSarif(
  path: string,
  version: string,
  results: readonly SarifResult[],
  exitCode: number,
  release: CatalogueRelease | undefined,
): void {
  const log = sarifLog([], {
    path: ".",
    text: "",
    version,
    exitCode,
    ...(release ? { catalogue: release } : {}),
  });
  const merged = { ...log, runs: [{ ...log.runs[0]!, results: [...results] }] };
  try {
    writeFileSync(path, `${JSON.stringify(merged, null, 2)}\n`);
  } catch (error) {
    throw new CheckUsageError(`cannot write the SARIF file ${path}: ${(error as Error).message}`);
  }
}
