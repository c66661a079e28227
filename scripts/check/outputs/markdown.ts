/**
 * The check as a pull request's comment (GitHub Flavored Markdown; GitLab's merge-request notes
 * read the same): per root, the gate's outcome and counts, a table of the findings that count (each
 * resource, its rule, where it is, what is wrong), the accepted ones with their reasons in a
 * collapsed section (all of them, or none with --new-only: a pull request's own findings), then
 * the expired suppressions and stale baseline entries. Cells are escaped (`|`, HTML, line breaks),
 * so a resource's name never breaks the table or injects markup. A comment holds at most 65,536
 * characters (GitHub's limit on an issue comment's body): past it, the rows that do not fit are
 * counted, and named in the log and the SARIF.
 */
import { entryText, sourceText, type JudgedFinding } from "../../../catalogue/templates/answer/judge.ts";
import { expiredText } from "../../../catalogue/templates/answer/sarif.ts";
import { releaseText } from "../catalogue.ts";
import type { RootOutcome } from "../gate.ts";
import { acceptedText, countsText, outcomeWord, whereText } from "../report.ts";

/** GitHub's limit on a comment's body, in characters. */
export const COMMENT_LIMIT = 65_536;

/** A table cell's text: no line break, `|` escaped, HTML's characters as entities, backticks as is. */
export const cell = (text: string): string =>
  text
    .replace(/[\r\n]+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/([*_`[\]])/g, "\\$1");

const findingRow = ({ finding, expiredBy }: JudgedFinding) =>
  `| ${finding.level} | ${cell(finding.rule)} | ${cell(finding.resource ?? finding.item)} | ${cell(whereText(finding))} | ${cell(`${finding.message}${expiredText(expiredBy)}`)} |`;
const acceptedRow = ({ finding, acceptedBy }: JudgedFinding) =>
  `| ${cell(finding.rule)} | ${cell(finding.resource ?? finding.item)} | ${cell(whereText(finding))} | ${cell(acceptedText(acceptedBy))} |`;

/** The comment for a run's roots. */
export function pullRequestComment(
  roots: readonly RootOutcome[],
  options: { readonly failOn: "error" | "warning"; readonly newOnly: boolean },
): string {
  // Rows are added while they fit, keeping room for the lines that count what was left out.
  const budget = COMMENT_LIMIT - 2_000 * Math.max(1, roots.length);
  let used = 0;
  const fit = (rows: readonly string[], out: string[]): number => {
    let left = 0;
    for (const row of rows)
      if (left === 0 && used + row.length + 1 <= budget) {
        out.push(row);
        used += row.length + 1;
      } else left++;
    return left;
  };
  const leftOut = (left: number, what: string) =>
    left > 0
      ? [
          "",
          `… and ${left} more ${what}, left out of this comment (its limit is ${COMMENT_LIMIT.toLocaleString("en")} characters): the job's log and SARIF list each.`,
        ]
      : [];
  const sections = roots.map((root) => {
    const { judgement } = root;
    const out = [
      `### cloud-catalogue check of ${cell(root.file)}: ${outcomeWord(root.allowed, judgement, options.failOn)}`,
      "",
      `${countsText(judgement)}. Checked against the ${cell(releaseText(root.release))}.`,
    ];
    used += out.join("\n").length;
    const counted = judgement.findings.filter((entry) => entry.acceptedBy.length === 0);
    const accepted = judgement.findings.filter((entry) => entry.acceptedBy.length > 0);
    if (counted.length > 0) {
      out.push("", "| Level | Rule | Resource | Where | What |", "| --- | --- | --- | --- | --- |");
      out.push(...leftOut(fit(counted.map(findingRow), out), "findings that count"));
    }
    if (accepted.length > 0 && !options.newOnly) {
      out.push(
        "",
        `<details><summary>${accepted.length} accepted (by the baseline, an inline comment or a rule skipped), each with its reason</summary>`,
        "",
        "| Rule | Resource | Where | Why accepted |",
        "| --- | --- | --- | --- |",
      );
      const left = fit(accepted.map(acceptedRow), out);
      out.push(...leftOut(left, "accepted findings"), "", "</details>");
    } else if (accepted.length > 0)
      out.push("", `${accepted.length} accepted findings are not listed here (--new-only): the log lists them.`);
    const notes = [
      ...judgement.expired.map(
        (entry) =>
          `- The suppression ${cell(entryText(entry))} in ${cell(sourceText(entry))} expired on ${entry.expires} (${cell(entry.reason)}): what it accepted counts again.`,
      ),
      ...judgement.unmatched.map(
        (entry) =>
          `- The baseline's ${cell(entryText(entry))} (${cell(entry.reason)}) accepts no finding any more: remove it.`,
      ),
    ];
    if (notes.length > 0) {
      out.push("");
      out.push(...leftOut(fit(notes, out), "notes"));
    }
    return out.join("\n");
  });
  return `${sections.join("\n\n")}\n`;
}
