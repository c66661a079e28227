/**
 * An answer bounded in proportion to what was evaluated (issue 120: "a 5 KB tree of modules produces
 * a 1.7 MB answer"): the size came from each instance's versions entry repeating its version's
 * description (phases with their consequences and prices, the retiring phase, the vendor page:
 * 1.3 KB of each 1.9 KB entry). Each version is described on its first VERSION_DESCRIBED_ENTRIES
 * entries; every instance keeps its entry, and the gate's findings (one per instance) and the
 * statements say each the same as before.
 */
import { describe, expect, it } from "vitest";
import { VERSION_DESCRIBED_ENTRIES } from "../../catalogue/base/limits.ts";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { checkOutcome } from "../../catalogue/templates/answer/findings.ts";
import { TerraformFiles } from "../../catalogue/templates/read.ts";
import type { PhasedVersionAnswer } from "../../catalogue/templates/rules/versions.ts";
import { realCatalogue } from "../helpers/catalogue.ts";

/** A tree of modules `depth` deep, each level calling the next twice; the leaves name MySQL 5.7. */
function moduleTree(depth: number): Record<string, string> {
  const name = (side: string) => `${side}_networking_primary_region`;
  const calls = (next: string) =>
    `module "${name("a")}" {\n  source = "${next}"\n}\nmodule "${name("b")}" {\n  source = "${next}"\n}\n`;
  const files: Record<string, string> = { "main.tf": calls("./m1") };
  for (let level = 1; level < depth; level++) files[`m${level}/main.tf`] = calls(`../m${level + 1}`);
  files[`m${depth}/main.tf`] =
    'resource "aws_db_instance" "db" {\n  engine         = "mysql"\n  engine_version = "5.7"\n}\n';
  return files;
}

describe("an answer bounded in proportion to what was evaluated", () => {
  it("describes each version on its first entries, keeps an entry and a finding per instance", () => {
    const files = moduleTree(9);
    expect(JSON.stringify(files).length).toBeLessThan(2000);
    const answer = checkTemplate(realCatalogue(), new TerraformFiles(files), ["aws-rds-mysql"]);
    const versions = answer.versions as PhasedVersionAnswer[];
    // 2^9 instances, the answer's first 500.
    expect(versions).toHaveLength(500);
    expect(new Set(versions.map((version) => version.from)).size).toBe(500);
    const described = versions.filter((version) => version.source !== undefined);
    expect(described).toHaveLength(VERSION_DESCRIBED_ENTRIES);
    expect(described[0]!.phases!.some((phase) => phase.consequence)).toBe(true);
    for (const version of versions.slice(VERSION_DESCRIBED_ENTRIES)) {
      expect(version).toMatchObject({ serviceId: "aws-rds-mysql", version: "5.7", retiring: true, phase: "extended" });
      expect(version.phases).toBeUndefined();
      // What is left is the instance's own: its address and a few hundred characters.
      expect(JSON.stringify(version).length).toBeLessThan(version.from.length + 400);
    }
    // 1.2 MB before; now about half of it, most of it the 500 addresses (each 350 characters) in
    // versions, unknownLocations and dependsOnInputs.
    const size = JSON.stringify(answer).length;
    const addresses = versions.reduce((sum, version) => sum + version.from.length, 0);
    expect(size).toBeLessThan(2 * addresses + 250_000);
    // The gate reads every instance, each finding naming it (issue 122) and saying its version's
    // phases and vendor page, taken from the described entries.
    const findings = checkOutcome(answer).findings.filter((finding) => finding.rule === "version-retiring");
    expect(findings).toHaveLength(500);
    expect(new Set(findings.map((finding) => finding.message)).size).toBe(500);
    for (const finding of findings)
      expect(finding.message).toMatch(/in paid extended support since .*\(https:\/\/docs\.aws\.amazon\.com\//);
  });
});
