/**
 * GitLab's code-quality report (artifacts:reports:codequality), which the merge request's widget
 * and diff show: a JSON array of issues, each valid against the schema GitLab validates them with
 * (app/validators/json_schemas/codeclimate.json, vendored under tests/fixtures/gitlab/) — a
 * description, a fingerprint unique in the report (GitLab keys issues by it), a severity (info,
 * minor, major, critical, blocker) and a location (path, lines.begin). A finding that fails the
 * gate is critical, one that counts below it minor, one a suppression accepts info, its description
 * starting with the reason. Docs: https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format
 */
import { createHash } from "node:crypto";
import type { RootOutcome } from "../gate.ts";
import { acceptedText } from "../report.ts";
import { expiredText } from "../../../catalogue/templates/answer/sarif.ts";

export interface CodeQualityIssue {
  readonly type: "issue";
  readonly check_name: string;
  readonly description: string;
  readonly categories: readonly string[];
  readonly fingerprint: string;
  readonly severity: "info" | "minor" | "major" | "critical" | "blocker";
  readonly location: { readonly path: string; readonly lines: { readonly begin: number } };
}

/** The report of a run's roots. */
export function codeQualityReport(roots: readonly RootOutcome[], failOn: "error" | "warning"): CodeQualityIssue[] {
  const issues: CodeQualityIssue[] = [];
  const seen = new Set<string>();
  for (const root of roots)
    for (const { finding, acceptedBy, expiredBy } of root.judgement.findings) {
      const path = finding.place?.file ?? root.file;
      let fingerprint = createHash("md5")
        .update([finding.rule, finding.item, finding.resource ?? "", path].join("\0"))
        .digest("hex");
      // Unique in the report, or GitLab keeps only the last issue of a fingerprint.
      for (let again = 1; seen.has(fingerprint); again++)
        fingerprint = createHash("md5").update(`${fingerprint}${again}`).digest("hex");
      seen.add(fingerprint);
      const accepted = acceptedBy.length > 0;
      issues.push({
        type: "issue",
        check_name: `cloud-catalogue/${finding.rule}`,
        description: `${accepted ? `[accepted: ${acceptedText(acceptedBy)}] ` : ""}${finding.message}${expiredText(expiredBy)}`,
        categories: ["Security"],
        fingerprint,
        severity: accepted ? "info" : failOn === "warning" || finding.level === "error" ? "critical" : "minor",
        location: { path, lines: { begin: finding.place?.line ?? 1 } },
      });
    }
  return issues;
}
