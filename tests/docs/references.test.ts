/**
 * What the docs and comments point at is there: every file a README or doc names (a backticked
 * path from the repository's root or from the doc's own folder) exists; every design reference in
 * source, `docs/design.md "Section"`, names a section docs/design.md has, and none cites a DESIGN
 * file outside the repository; nothing points at a `../shared` folder beside the repository.
 * Dated records (audits, docs/history/) and vendored data speak of their day and are left out.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: ROOT,
  encoding: "utf8",
})
  .split("\n")
  .filter((path) => path !== "" && existsSync(join(ROOT, path)));
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
/** This file, which spells the patterns it looks for. */
const SELF = "tests/docs/references.test.ts";

const DATED = /\d{4}-\d{2}-\d{2}|^docs\/history\/|\/data\/|^catalogue\/reference\//;
const docs = tracked.filter((path) => path.endsWith(".md") && !DATED.test(path));
const sources = tracked.filter((path) => /\.(ts|mjs|js|astro|template)$/.test(path) && path !== SELF);
const TOP_FOLDERS = ["catalogue", "sidecar", "scripts", "mcp", "site", "tests", "deploy", "docs"];

/** Backticked file paths a doc names: with an extension, from a top folder or the doc's own subfolders. */
function namedFiles(doc: string): string[] {
  const here = dirname(doc);
  return [...read(doc).matchAll(/`([^`\s]+)`/g)]
    .map(([, token]) => token!.split(/[:#]/)[0]!)
    .filter((path) => /^[\w.-]+\/[\w./-]+\.(ts|md|astro|mjs|js|yaml|json|template|css)$/.test(path))
    .filter((path) => {
      const first = path.split("/")[0]!;
      return TOP_FOLDERS.includes(first) || existsSync(join(ROOT, here, first));
    });
}

describe("references in docs and comments", () => {
  it("names only files that exist, from the root or the doc's folder", () => {
    const missing = docs.flatMap((doc) =>
      namedFiles(doc)
        .filter((path) => !existsSync(join(ROOT, path)) && !existsSync(join(ROOT, dirname(doc), path)))
        .map((path) => `${doc}: ${path}`),
    );
    expect(docs.length).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it("cites design sections that docs/design.md has, and no DESIGN file outside the repository", () => {
    const headings = [...read("docs/design.md").matchAll(/^#{2,3} (.+)$/gm)].map(([, heading]) => heading!);
    const cited = sources.flatMap((path) =>
      [...read(path).matchAll(/docs\/design\.md "([^"]+)"/g)].map(([, section]) => ({ path, section: section! })),
    );
    expect(cited.length).toBeGreaterThan(0);
    for (const { path, section } of cited)
      expect(
        headings.some((heading) => heading.startsWith(section)),
        `${path}: "${section}"`,
      ).toBe(true);
    const outside = sources.filter((path) => /\bDESIGN(?: "|:|\))/.test(read(path)));
    expect(outside).toEqual([]);
  });

  it("points at no ../shared folder outside the repository", () => {
    const text = tracked.filter((path) => /\.(ts|mjs|js|astro|md|yaml|json|template|css)$/.test(path) && path !== SELF);
    expect(text.filter((path) => !path.startsWith("docs/history/") && read(path).includes("../shared/"))).toEqual([]);
  });
});
