/**
 * The check as JUnit XML, what Jenkins, GitLab (artifacts:reports:junit), Azure Pipelines and
 * CircleCI show as tests: a testsuite per root, a testcase per finding (its resource and rule),
 * failing when it fails the gate, skipped with the reason when a suppression accepts it, passing
 * (its message in system-out) when it counts below the threshold; a root with no finding is one
 * passing testcase. Expired suppressions and stale baseline entries are the suite's system-out.
 * Valid against the JUnit schema Jenkins' xUnit plugin publishes (junit-10.xsd, vendored under
 * tests/fixtures/junit/ and checked in tests/build/check-outputs.test.ts).
 */
import { entryText, sourceText } from "../../../catalogue/templates/answer/judge.ts";
import type { RootOutcome } from "../gate.ts";
import { acceptedText, whereText } from "../report.ts";

/** Text as XML 1.0 takes it: the five escapes, and no character it forbids (C0 controls but tab and newlines, lone surrogates, U+FFFE/FFFF). */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const attributes = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlText(String(value))}"`)
    .join("");

/** The JUnit XML of a run's roots. */
export function junitXml(roots: readonly RootOutcome[], failOn: "error" | "warning"): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  let tests = 0;
  let failures = 0;
  const suites: string[] = [];
  for (const root of roots) {
    const { judgement } = root;
    const cases: string[] = [];
    let suiteFailures = 0;
    let skipped = 0;
    for (const { finding, acceptedBy, expiredBy } of judgement.findings) {
      const where = whereText(finding);
      const name = `${finding.resource ?? finding.item}: ${finding.rule}${where ? ` (${where})` : ""}`;
      const head = `    <testcase${attributes({ name, classname: `cloud-catalogue.${finding.rule}` })}>`;
      const expired = expiredBy
        .map((entry) => `The suppression in ${sourceText(entry)} (${entry.reason}) expired on ${entry.expires}.`)
        .join(" ");
      const text = `${finding.message}${expired ? ` ${expired}` : ""}`;
      if (acceptedBy.length > 0) {
        skipped++;
        cases.push(`${head}<skipped${attributes({ message: `accepted: ${acceptedText(acceptedBy)}` })}/></testcase>`);
      } else if (failOn === "warning" || finding.level === "error") {
        suiteFailures++;
        cases.push(
          `${head}<failure${attributes({ type: finding.rule, message: finding.message })}>${xmlText(`${finding.level}: ${text}${where ? `\nat ${where}` : ""}`)}</failure></testcase>`,
        );
      } else cases.push(`${head}<system-out>${xmlText(`${finding.level}: ${text}`)}</system-out></testcase>`);
    }
    if (cases.length === 0)
      cases.push(`    <testcase${attributes({ name: `${root.file}: allowed`, classname: "cloud-catalogue" })}/>`);
    const notes = [
      ...judgement.expired.map(
        (entry) =>
          `The suppression ${entryText(entry)} in ${sourceText(entry)} expired on ${entry.expires} (${entry.reason}).`,
      ),
      ...judgement.unmatched.map(
        (entry) => `The baseline's ${entryText(entry)} (${entry.reason}) accepts no finding any more: remove it.`,
      ),
    ];
    tests += cases.length;
    failures += suiteFailures;
    suites.push(
      `  <testsuite${attributes({ name: root.file, tests: cases.length, failures: suiteFailures, errors: 0, skipped })}>`,
      ...cases,
      ...(notes.length > 0 ? [`    <system-out>${xmlText(notes.join("\n"))}</system-out>`] : []),
      "  </testsuite>",
    );
  }
  lines.push(
    `<testsuites${attributes({ name: "cloud-catalogue check", tests, failures, errors: 0 })}>`,
    ...suites,
    "</testsuites>",
  );
  return `${lines.join("\n")}\n`;
}
