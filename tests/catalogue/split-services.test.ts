/**
 * scripts/split-services.ts turns an old services/<provider>.yaml list into one file per service:
 * the same entries (the loader reads the same catalogue), comments kept where they belong, and
 * nothing done on a second run.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readCatalogueSource } from "../../catalogue/load/load.ts";
import { splitServices } from "../../scripts/split-services.ts";
import { FIXTURE_DIR } from "../helpers/app.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The fixture with its aws folder turned back into a list, with a header, headings and an entry's comment. */
function fixtureWithList(): string {
  const dir = mkdtempSync(join(tmpdir(), "csc-split-"));
  dirs.push(dir);
  cpSync(FIXTURE_DIR, dir, { recursive: true });
  const folder = join(dir, "services", "aws");
  const entry = (name: string) =>
    readFileSync(join(folder, `${name}.yaml`), "utf8")
      .trimEnd()
      .split("\n")
      .map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`))
      .join("\n");
  const list = [
    "# Amazon Web Services, the fixture's.\n# Identifiers are IAM prefixes.\n",
    "# ------------------------------------------\n# Storage",
    `${entry("s3")}\n`,
    "# Why Lambda's entry says what it says.",
    entry("lambda"),
    // A heading left inside an entry, fields appended below it: it goes to the README.
    `${entry("cloud9").replace("\n  lifecycle:", "\n\n# ----------------------\n# Retired\n  lifecycle:")}\n`,
    `${entry("old-thing")}\n`,
  ].join("\n");
  rmSync(folder, { recursive: true });
  writeFileSync(join(dir, "services", "aws.yaml"), list);
  return dir;
}

describe("scripts/split-services.ts", () => {
  it("writes one file per entry that reads as the same catalogue, and deletes the list", () => {
    const dir = fixtureWithList();
    expect(splitServices(dir)).toEqual([expect.stringMatching(/aws\.yaml: 4 services into .*services\/aws\/$/)]);
    expect(existsSync(join(dir, "services", "aws.yaml"))).toBe(false);
    expect(readdirSync(join(dir, "services", "aws")).sort()).toEqual([
      "README.md",
      "cloud9.yaml",
      "lambda.yaml",
      "old-thing.yaml",
      "s3.yaml",
    ]);
    expect(readCatalogueSource(dir)).toEqual(readCatalogueSource(FIXTURE_DIR));
    expect(readFileSync(join(dir, "services", "aws", "lambda.yaml"), "utf8")).toBe(
      `# Why Lambda's entry says what it says.\n${readFileSync(join(FIXTURE_DIR, "services", "aws", "lambda.yaml"), "utf8")}`,
    );
    expect(readFileSync(join(dir, "services", "aws", "cloud9.yaml"), "utf8")).toBe(
      readFileSync(join(FIXTURE_DIR, "services", "aws", "cloud9.yaml"), "utf8"),
    );
    const readme = readFileSync(join(dir, "services", "aws", "README.md"), "utf8");
    expect(readme).toContain("Amazon Web Services, the fixture's.\nIdentifiers are IAM prefixes.");
    expect(readme).toContain("- Storage\n- Retired\n");
  });

  it("does nothing on a second run, and keeps or prunes files the list does not hold", () => {
    const dir = fixtureWithList();
    splitServices(dir);
    const before = readFileSync(join(dir, "services", "aws", "s3.yaml"), "utf8");
    expect(splitServices(dir)).toEqual([]);
    expect(readFileSync(join(dir, "services", "aws", "s3.yaml"), "utf8")).toBe(before);

    // A branch's list without Lambda, split over a folder that has it.
    const again = fixtureWithList();
    mkdirSync(join(again, "services", "aws"));
    writeFileSync(join(again, "services", "aws", "lambda.yaml"), "slug: aws-lambda\n");
    const list = readFileSync(join(again, "services", "aws.yaml"), "utf8");
    const withoutLambda = list.replace(/# Why Lambda's[^]*?(?=- slug: aws-cloud9)/, "");
    writeFileSync(join(again, "services", "aws.yaml"), withoutLambda);
    expect(splitServices(again)).toEqual([expect.stringContaining("kept 1 not in the list: lambda.yaml")]);
    writeFileSync(join(again, "services", "aws.yaml"), withoutLambda);
    expect(splitServices(again, true)).toEqual([expect.stringContaining("removed 1 not in the list: lambda.yaml")]);
    expect(existsSync(join(again, "services", "aws", "lambda.yaml"))).toBe(false);
  });

  it("refuses a list whose entry cannot name a file, writing nothing", () => {
    const dir = fixtureWithList();
    const path = join(dir, "services", "aws.yaml");
    writeFileSync(path, readFileSync(path, "utf8").replace("slug: aws-lambda", "slug: lambda"));
    expect(() => splitServices(dir)).toThrow(/entry 2: slug "lambda" cannot name a file/);
    expect(existsSync(path)).toBe(true);
    expect(existsSync(join(dir, "services", "aws"))).toBe(false);
  });
});
