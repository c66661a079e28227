/**
 * `cloud-catalogue check --help` is complete and is what docs/ci-check.md says (issue 111): every
 * option of the parser is in it, and the doc's "Every option" block is the help, byte for byte.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHECK_HELP } from "../../scripts/check/help.ts";
import { CHECK_OPTIONS } from "../../scripts/check/options.ts";
import { folderWith, REPOSITORY_CLI, ROOT, runCli } from "../helpers/cli.ts";

/** The fenced block under "## Every option" in docs/ci-check.md. */
function documentedHelp(): string {
  const doc = readFileSync(join(ROOT, "docs", "ci-check.md"), "utf8");
  const section = doc.slice(doc.indexOf("\n## Every option\n"));
  const block = /\n```text\n([\s\S]*?)```\n/.exec(section);
  if (!block) throw new Error('docs/ci-check.md has no ```text block under "## Every option"');
  return block[1]!;
}

describe("cloud-catalogue check --help", () => {
  it("names every option the command takes, the folder input and the exit statuses", () => {
    for (const option of Object.keys(CHECK_OPTIONS)) expect(CHECK_HELP, option).toContain(`--${option}`);
    for (const part of ["a folder", "--retiring-within Nd", "Exit status:", "  0  ", "  1  ", "  2  ", "  3  "])
      expect(CHECK_HELP).toContain(part);
  });

  it("is docs/ci-check.md's block, and what the command prints, exit 0", async () => {
    expect(documentedHelp()).toBe(CHECK_HELP);
    for (const args of [
      ["check", "--help"],
      ["check", "-h"],
      ["check", "plan.json", "--ids", "x", "--help"],
    ]) {
      const result = await runCli(REPOSITORY_CLI, folderWith({}), args);
      expect(result.status, args.join(" ")).toBe(0);
      expect(result.stdout).toBe(CHECK_HELP);
    }
  });

  it("is pointed to by the command's own help", async () => {
    const result = await runCli(REPOSITORY_CLI, folderWith({}), ["--help"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Every option: cloud-catalogue check --help.");
  });
});
