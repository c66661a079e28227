/**
 * What a run writes once every root is judged (gate.ts): the baseline when asked (every root then
 * judged against it), the files each CI system reads — SARIF (code scanning), JUnit XML, GitLab's
 * code-quality report, a pull request's comment in Markdown — the answer on stdout (or --output),
 * GitHub's workflow commands after it, and on stderr each finding and one outcome line per root.
 * Each output says every suppression as such, with its reason. The exit status: 1 when a root has
 * a finding that fails the gate (0 with --soft-fail), else 0.
 */
import { writeFileSync } from "node:fs";
import { TEXT_WIDTH } from "../../catalogue/base/limits.ts";
import { renderAnsi } from "../../catalogue/format/ansi.ts";
import { renderMarkdown } from "../../catalogue/format/markdown.ts";
import type { Suppression } from "../../catalogue/templates/answer/judge.ts";
import { deploymentCheckDoc } from "../../catalogue/templates/answer/render.ts";
import { sarifLog } from "../../catalogue/templates/answer/sarif.ts";
import type { DeploymentCheckAnswer } from "../../catalogue/templates/check.ts";
import { releaseText, type CatalogueRelease } from "./catalogue.ts";
import { CHECK_EXIT, CheckUsageError } from "./errors.ts";
import { rewriteBaseline, type RootOutcome } from "./gate.ts";
import type { CheckRequest, Format } from "./options.ts";
import { githubAnnotations } from "./outputs/github.ts";
import { codeQualityReport } from "./outputs/gitlab.ts";
import { junitXml } from "./outputs/junit.ts";
import { pullRequestComment } from "./outputs/markdown.ts";
import { findingLines, outcomeLine } from "./report.ts";

/** Writes an output file; one that cannot be written is a usage error (exit 2). */
export function writeOutput(path: string, what: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new CheckUsageError(`cannot write the ${what} file ${path}: ${(error as Error).message}`);
  }
}

/** One answer as the text host renders it, or the API's JSON. */
export function render(answer: DeploymentCheckAnswer, format: Format, release: CatalogueRelease): string {
  if (format === "json") return `${JSON.stringify(answer, null, 2)}\n`;
  const doc = deploymentCheckDoc(answer);
  const checkedAgainst = `Checked against the ${releaseText(release)}.\n`;
  if (format === "md") return `${renderMarkdown(doc)}\n${checkedAgainst}`;
  // The text host's ANSI when a terminal reads it (and NO_COLOR is unset), plain text in a CI log.
  const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
  const columns = process.stdout.columns ?? TEXT_WIDTH.default;
  return `${renderAnsi(doc, color, Math.min(TEXT_WIDTH.max, Math.max(TEXT_WIDTH.min, columns)))}\n${checkedAgainst}`;
}

/** The answers of every root: one root's as it is; several, each after its root's name (JSON: {roots: […]}). */
function answersText(outcomes: readonly RootOutcome[], format: Format): string {
  const [only] = outcomes;
  if (outcomes.length === 1 && only) return render(only.answer, format, only.release);
  if (format === "json")
    return `${JSON.stringify({ roots: outcomes.map((outcome) => ({ root: outcome.file, answer: outcome.answer })) }, null, 2)}\n`;
  return outcomes
    .map(
      (outcome) =>
        `${format === "md" ? "## " : "== "}${outcome.file}\n\n${render(outcome.answer, format, outcome.release)}`,
    )
    .join("\n");
}

/**
 * A stale baseline entry is one no root's finding matches: several roots share one baseline, so an
 * entry for one root is not stale in another's. Each is said once, by the first root.
 */
function settleStale(outcomes: readonly RootOutcome[]): RootOutcome[] {
  if (outcomes.length < 2) return [...outcomes];
  const stale = outcomes[0]!.judgement.unmatched.filter((entry) =>
    outcomes.every((outcome) => outcome.judgement.unmatched.includes(entry)),
  );
  return outcomes.map((outcome, at) => ({
    ...outcome,
    judgement: { ...outcome.judgement, unmatched: at === 0 ? stale : [] },
  }));
}

/** Writes everything a run writes; its exit status. */
export function writeRun(
  request: CheckRequest,
  judged: readonly RootOutcome[],
  baseline: readonly Suppression[],
  version: string,
): number {
  const outcomes = settleStale(
    request.writeBaseline ? rewriteBaseline(request.writeBaseline, judged, baseline, request) : judged,
  );
  const fails = outcomes.some((outcome) => outcome.judgement.exitCode === 1);
  const exitCode = fails && !request.softFail ? CHECK_EXIT.notAllowed : CHECK_EXIT.allowed;
  const { failOn, newOnly } = request;

  if (request.sarif !== undefined) {
    const findings = outcomes.flatMap((outcome) => outcome.judgement.findings);
    const log = sarifLog(
      findings.map((entry) => entry.finding),
      {
        path: outcomes[0]!.file,
        files: outcomes.flatMap((outcome) => outcome.sources),
        version,
        exitCode,
        judged: {
          findings,
          expired: [...new Set(outcomes.flatMap((outcome) => outcome.judgement.expired))],
          unmatched: outcomes.flatMap((outcome) => outcome.judgement.unmatched),
        },
        baseline: request.baseline !== undefined || request.writeBaseline !== undefined,
        newOnly,
        catalogue: outcomes[0]!.release,
      },
    );
    writeOutput(request.sarif, "SARIF", `${JSON.stringify(log, null, 2)}\n`);
  }
  const { outputs } = request;
  if (outputs.junit !== undefined) writeOutput(outputs.junit, "JUnit", junitXml(outcomes, failOn));
  if (outputs.gitlab !== undefined)
    writeOutput(outputs.gitlab, "code-quality", `${JSON.stringify(codeQualityReport(outcomes, failOn), null, 2)}\n`);
  if (outputs.markdown !== undefined)
    writeOutput(outputs.markdown, "Markdown", pullRequestComment(outcomes, { failOn, newOnly }));

  const answers = answersText(outcomes, request.format);
  if (outputs.output !== undefined) writeOutput(outputs.output, "output", answers);
  else process.stdout.write(answers);
  if (outputs.githubAnnotations)
    for (const line of githubAnnotations(outcomes, failOn)) process.stdout.write(`${line}\n`);

  for (const outcome of outcomes) {
    for (const line of findingLines(outcome.judgement, { newOnly })) console.error(line);
    console.error(
      outcomeLine(outcome.allowed, outcome.judgement, {
        softFail: request.softFail,
        failOn,
        ...(outcomes.length > 1 ? { root: outcome.file } : {}),
      }),
    );
  }
  return exitCode;
}
