/**
 * Each CI system's own reading of the check's outputs, for the suites that validate them
 * (issue 122): JUnit XML against the JUnit schema Jenkins' xUnit plugin publishes (libxml2's
 * xmllint, as xmllint-wasm), GitLab's code-quality report against the schema GitLab validates its
 * issues with (tests/fixtures/gitlab/), GitHub's workflow commands as GitHub's own toolkit
 * (@actions/core) writes them, and a pull request's comment as GitHub Flavored Markdown renders it
 * (micromark with its GFM extension, the parser behind remark and GitHub's own cmark-gfm's spec).
 */
import { readFileSync } from "node:fs";
import * as core from "@actions/core";
import { Ajv } from "ajv";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { validateXML } from "xmllint-wasm";

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8");

/** xmllint's verdict on a JUnit XML text against junit-10.xsd: its errors (none when valid). */
export async function junitErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: "report.xml", contents: xml }],
    schema: [{ fileName: "junit-10.xsd", contents: fixture("junit/junit-10.xsd") }],
  });
  return result.valid ? [] : result.errors.map((error) => error.rawMessage);
}

const ajv = new Ajv({ strict: false, allErrors: true });
const codeClimate = ajv.compile(JSON.parse(fixture("gitlab/codeclimate.json")) as object);
/** GitLab's severities (SEVERITY_PRIORITIES in lib/gitlab/ci/reports/codequality_reports.rb, and its docs). */
export const GITLAB_SEVERITIES = ["info", "minor", "major", "critical", "blocker"];

/** What GitLab would refuse or lose of a code-quality report: an issue its schema refuses, a severity it does not know, a fingerprint twice. */
export function codeQualityErrors(report: unknown): string[] {
  if (!Array.isArray(report)) return ["the report is not a JSON array"];
  const errors: string[] = [];
  const seen = new Set<string>();
  report.forEach((issue: { fingerprint?: string; severity?: string }, at) => {
    if (!codeClimate(issue)) errors.push(`issue ${at}: ${ajv.errorsText(codeClimate.errors)}`);
    if (!GITLAB_SEVERITIES.includes(issue.severity ?? "")) errors.push(`issue ${at}: severity ${issue.severity}`);
    if (seen.has(issue.fingerprint ?? "")) errors.push(`issue ${at}: fingerprint ${issue.fingerprint} twice`);
    seen.add(issue.fingerprint ?? "");
  });
  return errors;
}

/** A workflow command read as the runner unescapes it: its level, properties and message. */
export function readWorkflowCommand(line: string) {
  const match = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(line);
  if (!match) return undefined;
  const unescape = (text: string) =>
    text.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%3A/g, ":").replace(/%2C/g, ",").replace(/%25/g, "%");
  const properties = Object.fromEntries(
    (match[2] ?? "")
      .split(",")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), unescape(pair.slice(pair.indexOf("=") + 1))]),
  ) as Record<string, string>;
  return { level: match[1] as "error" | "warning" | "notice", properties, message: unescape(match[3]!) };
}

/** The line @actions/core writes for the same annotation (its error(), warning() or notice()). */
export function toolkitLine(command: NonNullable<ReturnType<typeof readWorkflowCommand>>): string {
  const written: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stdout.write;
  try {
    const { title, file, line, col } = command.properties;
    core[command.level](command.message, {
      ...(title ? { title } : {}),
      ...(file ? { file } : {}),
      ...(line ? { startLine: Number(line) } : {}),
      ...(col ? { startColumn: Number(col) } : {}),
    });
  } finally {
    process.stdout.write = write;
  }
  return written.join("").replace(/\r?\n$/, "");
}

/** A comment as GitHub Flavored Markdown renders it (HTML). */
export const gfmHtmlOf = (markdown: string): string =>
  micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
