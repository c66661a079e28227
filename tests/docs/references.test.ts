/**
 * What the docs and comments point at is there: every file a README or doc names (a backticked
 * path from the repository's root or from the doc's own folder) exists; every design reference in
 * source, `docs/design.md "Section"`, names a section docs/design.md has, and none cites a DESIGN
 * file outside the repository; every `decisions.md#anchor` names an anchor docs/decisions.md has,
 * and an anchor cited as "item N" anchors a section with a numbered item N; nothing points at a
 * `../shared` folder beside the repository.
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

  it("cites decision anchors that docs/decisions.md has", () => {
    const anchors = new Set([...read("docs/decisions.md").matchAll(/<a id="([\w-]+)"><\/a>/g)].map(([, id]) => id!));
    const cited = [...sources, ...docs].flatMap((path) =>
      [...read(path).matchAll(/decisions\.md#([\w-]+)/g)]
        .filter(([, anchor]) => anchor !== "anchor")
        .map(([, anchor]) => ({ path, anchor: anchor! })),
    );
    expect(cited.length).toBeGreaterThan(10);
    expect(cited.filter(({ anchor }) => !anchors.has(anchor)).map(({ path, anchor }) => `${path}: #${anchor}`)).toEqual(
      [],
    );
  });

  it('cites an anchor as "item N" only where its section has a numbered item N', () => {
    const cited = [...sources, ...docs].flatMap((path) =>
      [...read(path).matchAll(/([\w./-]+\.md)#([\w-]+)[^\n\w]{0,3}items? (\d+(?:(?:, | and )\d+)*)/g)].map(
        ([, doc, anchor, items]) => ({ path, doc: doc!, anchor: anchor!, items: items!.split(/, | and /).map(Number) }),
      ),
    );
    const wrong = cited.flatMap(({ path, doc, anchor, items }) => {
      const target = docs.find((file) => file === doc || file.endsWith(`/${doc.replace(/^(\.\.?\/)+/, "")}`));
      const numbered = target === undefined ? undefined : numberedItems(read(target), anchor);
      return items
        .filter((item) => !numbered?.includes(item))
        .map(
          (item) => `${path}: ${doc}#${anchor} item ${item} (the section numbers ${numbered?.join(", ") || "none"})`,
        );
    });
    expect(wrong).toEqual([]);
  });

  it("would refuse an item of an anchor whose section numbers none", () => {
    const doc =
      '# A\n\n- <a id="one"></a>**one**: a line.\n\n## <a id="two"></a>Two\n\n1. first\n2. second\n\n## Next\n\n3. not two\n';
    expect(numberedItems(doc, "one")).toEqual([]);
    expect(numberedItems(doc, "two")).toEqual([1, 2]);
    expect(numberedItems("## Floors and walls\n\n1. base\n", "floors-and-walls")).toEqual([1]);
  });

  it("points at no ../shared folder outside the repository", () => {
    const text = tracked.filter((path) => /\.(ts|mjs|js|astro|md|yaml|json|template|css)$/.test(path) && path !== SELF);
    expect(text.filter((path) => !path.startsWith("docs/history/") && read(path).includes("../shared/"))).toEqual([]);
  });
});

/**
 * The numbers of the numbered items in the section `anchor` opens in a Markdown doc: from an
 * `<a id>` (a list item's, or a heading's) or a heading whose GitHub slug is the anchor, to the next
 * anchor or heading of the same or a higher level. undefined when the doc has no such anchor.
 */
function numberedItems(text: string, anchor: string): number[] | undefined {
  const lines = text.split("\n");
  const slug = (heading: string) =>
    heading
      .toLowerCase()
      .replace(/<[^>]*>/g, "")
      .replace(/[^\w\s-]/g, "")
      .trim()
      .replace(/\s/g, "-");
  const level = (line: string) => /^(#+) /.exec(line)?.[1]!.length;
  const start = lines.findIndex(
    (line) =>
      line.includes(`<a id="${anchor}">`) || (level(line) !== undefined && slug(line.replace(/^#+ /, "")) === anchor),
  );
  if (start === -1) return undefined;
  const opened = level(lines[start]!);
  const section: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const at = level(line);
    if (line.includes("<a id=") && !line.startsWith("#") && opened === undefined) break;
    if (at !== undefined && (opened === undefined || at <= opened)) break;
    section.push(line);
  }
  return section.flatMap((line) => {
    const item = /^\s*(\d+)\. /.exec(line);
    return item ? [Number(item[1])] : [];
  });
}
