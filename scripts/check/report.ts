/**
 * What `cloud-catalogue check` says on stderr after the answer: the findings that count (a CI log
 * shows them without opening the SARIF), the baseline entries expired or accepting nothing, and
 * one outcome line with the counts.
 */
import type { Finding, Judgement, Suppression } from "../../catalogue/templates/findings.ts";

const PREFIX = "cloud-catalogue check:";
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
const entryText = (entry: Suppression) =>
  [entry.rule, entry.item, entry.resource, entry.file].filter((part) => part !== undefined).join(" ");
const findingLine = (finding: Finding, note = "") =>
  `  ${finding.level.padEnd(7)} ${finding.rule}: ${finding.message}${note}`;

/**
 * One line per finding that counts, then, unless newOnly (a pull request's check), those the
 * baseline accepts, each with its reason; then each expired entry and each that accepts nothing.
 */
export function findingLines(judgement: Judgement, { newOnly }: { newOnly: boolean }): string[] {
  const lines = judgement.findings
    .filter((entry) => entry.acceptedBy.length === 0 || !newOnly)
    .map(({ finding, acceptedBy }) =>
      findingLine(
        finding,
        acceptedBy.length > 0 ? ` [accepted: ${acceptedBy.map((entry) => entry.reason).join("; ")}]` : "",
      ),
    );
  for (const entry of judgement.expired)
    lines.push(
      `${PREFIX} the baseline's ${entryText(entry)} expired on ${entry.expires} (${entry.reason}): what it accepted counts again`,
    );
  for (const entry of judgement.unmatched)
    lines.push(`${PREFIX} the baseline's ${entryText(entry)} accepts no finding any more (${entry.reason}); remove it`);
  return lines;
}

/**
 * "cloud-catalogue check: not allowed (1 error, 2 warnings)": whether the gate passes, from the
 * findings that count; the verdict's own word when the baseline or the threshold decides otherwise.
 */
export function outcomeLine(
  verdictAllowed: boolean,
  judgement: Judgement,
  options: { readonly softFail: boolean; readonly failOn: "error" | "warning" },
): string {
  const errors = judgement.counted.filter((finding) => finding.level === "error").length;
  const warnings = judgement.counted.length - errors;
  const accepted = judgement.findings.length - judgement.counted.length;
  const counts = `${plural(errors, "error")}, ${plural(warnings, "warning")}${accepted > 0 ? `; ${accepted} accepted by the baseline` : ""}`;
  const fails = judgement.failing.length > 0;
  let outcome: string;
  if (!fails) outcome = verdictAllowed ? "allowed" : "passes: not allowed, but the baseline accepts every error";
  else if (errors > 0) {
    // The policies allow it and the locations too: what fails is a version's support.
    const retiring = judgement.counted.filter((finding) => finding.rule === "version-retiring").length;
    outcome = verdictAllowed && retiring > 0 ? `not allowed: ${plural(retiring, "version")} retiring` : "not allowed";
  } else outcome = `not allowed: --fail-on-severity ${options.failOn} fails on the warnings`;
  const soft = fails && options.softFail ? "; --soft-fail: exit 0" : "";
  return `${PREFIX} ${outcome} (${counts})${soft}`;
}
