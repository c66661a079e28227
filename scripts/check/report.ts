/**
 * What `cloud-catalogue check` says on stderr after the answer: each finding (one per resource,
 * with its file and line) that counts, then, unless --new-only, each one a suppression accepts with
 * the reason and where the suppression is kept; each expired suppression and each stale baseline
 * entry by name; and one outcome line per root with the counts.
 */
import {
  entryText,
  sourceText,
  type Judgement,
  type PlacedFinding,
  type Suppression,
} from "../../catalogue/templates/answer/judge.ts";
import { expiredText } from "../../catalogue/templates/answer/sarif.ts";

const PREFIX = "cloud-catalogue check:";
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** Where a finding stands, for a log line: "infra/main.tf:12", or the file alone. */
export const whereText = (finding: PlacedFinding): string =>
  finding.place ? `${finding.place.file}${finding.place.line === undefined ? "" : `:${finding.place.line}`}` : "";

/** Why a finding does not count: each suppression's reason and where it is kept. */
export const acceptedText = (acceptedBy: readonly Suppression[]): string =>
  acceptedBy.map((entry) => `${entry.reason} (${sourceText(entry)})`).join("; ");

const findingLine = (finding: PlacedFinding, note = "") =>
  `  ${finding.level.padEnd(7)} ${finding.rule}: ${finding.message}${whereText(finding) ? ` [${whereText(finding)}]` : ""}${note}`;

/**
 * One line per finding that counts, then, unless newOnly (a pull request's check), those the
 * suppressions accept, each with its reasons; then each expired suppression and each baseline entry
 * that accepts nothing any more.
 */
export function findingLines(judgement: Judgement, { newOnly }: { newOnly: boolean }): string[] {
  const lines = judgement.findings
    .filter((entry) => entry.acceptedBy.length === 0 || !newOnly)
    .map(({ finding, acceptedBy, expiredBy }) =>
      findingLine(
        finding,
        `${acceptedBy.length > 0 ? ` [accepted: ${acceptedText(acceptedBy)}]` : ""}${expiredText(expiredBy)}`,
      ),
    );
  for (const entry of judgement.expired)
    lines.push(
      `${PREFIX} the suppression ${entryText(entry)} in ${sourceText(entry)} expired on ${entry.expires} (${entry.reason}): what it accepted counts again`,
    );
  for (const entry of judgement.unmatched)
    lines.push(`${PREFIX} the baseline's ${entryText(entry)} accepts no finding any more (${entry.reason}); remove it`);
  return lines;
}

/** The gate's word for a root: allowed, passes though not allowed, or not allowed (and why). */
export function outcomeWord(verdictAllowed: boolean, judgement: Judgement, failOn: "error" | "warning"): string {
  const errors = judgement.counted.filter((finding) => finding.level === "error").length;
  if (judgement.failing.length === 0) {
    if (verdictAllowed) return "allowed";
    const byBaseline = judgement.findings.every((entry) => entry.acceptedBy.every(isBaselineEntry));
    return `passes: not allowed, but the ${byBaseline ? "baseline accepts" : "suppressions accept"} every error`;
  }
  if (errors > 0) {
    // The policies allow it and the locations too: what fails is a version's support.
    const retiring = judgement.counted.filter((finding) => finding.rule === "version-retiring").length;
    return verdictAllowed && retiring > 0 ? `not allowed: ${plural(retiring, "version")} retiring` : "not allowed";
  }
  return `not allowed: --fail-on-severity ${failOn} fails on the warnings`;
}

const isBaselineEntry = (entry: Suppression) => !entry.source || entry.source.kind === "baseline";

/** "2 errors, 1 warning; 3 accepted by the baseline, 1 suppressed": the counts of a judgement. */
export function countsText(judgement: Judgement): string {
  const errors = judgement.counted.filter((finding) => finding.level === "error").length;
  const warnings = judgement.counted.length - errors;
  const accepted = judgement.findings.filter((entry) => entry.acceptedBy.length > 0);
  const byBaseline = accepted.filter((entry) => entry.acceptedBy.some(isBaselineEntry)).length;
  const suppressed = accepted.length - byBaseline;
  const parts = [
    ...(byBaseline > 0 ? [`${byBaseline} accepted by the baseline`] : []),
    ...(suppressed > 0 ? [`${suppressed} suppressed`] : []),
  ];
  return `${plural(errors, "error")}, ${plural(warnings, "warning")}${parts.length > 0 ? `; ${parts.join(", ")}` : ""}`;
}

/**
 * "cloud-catalogue check: not allowed (1 error, 2 warnings)": whether the gate passes, from the
 * findings that count; the verdict's own word when the suppressions or the threshold decide otherwise.
 */
export function outcomeLine(
  verdictAllowed: boolean,
  judgement: Judgement,
  options: { readonly softFail: boolean; readonly failOn: "error" | "warning"; readonly root?: string },
): string {
  const fails = judgement.failing.length > 0;
  const soft = fails && options.softFail ? "; --soft-fail: exit 0" : "";
  const root = options.root === undefined ? "" : `${options.root}: `;
  return `${PREFIX} ${root}${outcomeWord(verdictAllowed, judgement, options.failOn)} (${countsText(judgement)})${soft}`;
}
