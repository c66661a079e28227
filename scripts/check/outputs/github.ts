/**
 * GitHub Actions workflow commands, which the runner reads from a step's stdout and shows as
 * annotations on the pull request's files (docs.github.com, "Workflow commands for GitHub Actions":
 * `::error file={name},line={line},col={col},title={title}::{message}`): an error for each finding
 * that fails the gate, a warning for each that counts below it and for each expired suppression, a
 * notice for each one a suppression accepts (with the reason) and for each stale baseline entry.
 * Escaped as the runner unescapes them (@actions/core's escapeData and escapeProperty): `%`, CR and
 * LF in the message; those and `:` and `,` in a property; the properties in @actions/core's order
 * (title, file, line, col), so a test compares each line with what the toolkit itself writes. GitHub shows at most 10 errors and 10
 * warnings of a step as annotations; every command still prints in the log.
 */
import { entryText, sourceText, type PlacedFinding } from "../../../catalogue/templates/answer/judge.ts";
import { expiredText } from "../../../catalogue/templates/answer/sarif.ts";
import type { RootOutcome } from "../gate.ts";
import { acceptedText } from "../report.ts";

const escapeData = (text: string) => text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** One workflow command: `::level key=value,…::message`. */
export function workflowCommand(
  level: "error" | "warning" | "notice",
  properties: Record<string, string | number | undefined>,
  message: string,
): string {
  const given = Object.entries(properties).filter(([, value]) => value !== undefined);
  const said = given.map(([key, value]) => `${key}=${escapeProperty(String(value))}`).join(",");
  return `::${level}${said ? ` ${said}` : ""}::${escapeData(message)}`;
}

const placeOf = (finding: PlacedFinding) => ({
  file: finding.place?.file,
  line: finding.place?.line,
  col: finding.place?.line === undefined ? undefined : finding.place.column,
});

/** The commands of a run's roots, one a line. */
export function githubAnnotations(roots: readonly RootOutcome[], failOn: "error" | "warning"): string[] {
  const lines: string[] = [];
  for (const { judgement } of roots) {
    for (const { finding, acceptedBy, expiredBy } of judgement.findings) {
      const title = `cloud-catalogue ${finding.rule}`;
      if (acceptedBy.length > 0)
        lines.push(
          workflowCommand(
            "notice",
            { title: `${title} (accepted)`, ...placeOf(finding) },
            `Accepted: ${acceptedText(acceptedBy)}. ${finding.message}`,
          ),
        );
      else
        lines.push(
          workflowCommand(
            failOn === "warning" || finding.level === "error" ? "error" : "warning",
            { title, ...placeOf(finding) },
            `${finding.message}${expiredText(expiredBy)}`,
          ),
        );
    }
    for (const entry of judgement.expired)
      lines.push(
        workflowCommand(
          "warning",
          {
            title: "cloud-catalogue expired suppression",
            ...(entry.source?.kind === "inline" ? { file: entry.source.file, line: entry.source.line } : {}),
          },
          `The suppression ${entryText(entry)} in ${sourceText(entry)} expired on ${entry.expires} (${entry.reason}): what it accepted counts again.`,
        ),
      );
    for (const entry of judgement.unmatched)
      lines.push(
        workflowCommand(
          "notice",
          {
            title: "cloud-catalogue stale baseline entry",
            ...(entry.source?.kind === "baseline" && entry.source.path ? { file: entry.source.path } : {}),
          },
          `The baseline's ${entryText(entry)} (${entry.reason}) accepts no finding any more: remove it.`,
        ),
      );
  }
  return lines;
}
