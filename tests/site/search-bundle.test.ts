/**
 * The site search script's weight (issue 88: "no larger than today's plus the engine"), measured as
 * docs/search.md measures it: site/src/scripts/search.ts bundled by esbuild for the browser
 * (minified, ES modules, code splitting), gzip -9. What loads with the page is the entry and every
 * chunk it imports statically; the search's code (MiniSearch, the six Snowball stemmers) is a chunk
 * imported on the first search. The site's own build (Vite, Rolldown) splits it the same way
 * (`node scripts/bench/page-js.ts dist /search/`).
 */
import { relative } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";

/** The script at 9871213, before issue 88, MiniSearch already in: 12,933 bytes gzip -9. */
const BUDGET = 12_933;
const ENTRY = "site/src/scripts/search.ts";

async function bundle() {
  const out = await build({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    splitting: true,
    outdir: "out",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  // The metafile names outputs relative to the working folder, the files absolutely.
  const gzip = new Map(
    out.outputFiles.map((file) => [relative(process.cwd(), file.path), gzipSync(file.contents, { level: 9 }).length]),
  );
  return { metafile: out.metafile, gzip: (path: string) => gzip.get(path)! };
}

/** The outputs the entry loads at once: itself and its static imports, transitively. */
function eagerOutputs(metafile: Metafile): Set<string> {
  const entry = Object.keys(metafile.outputs).find((path) => metafile.outputs[path]!.entryPoint === ENTRY)!;
  const eager = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const path = queue.pop()!;
    if (eager.has(path)) continue;
    eager.add(path);
    queue.push(...metafile.outputs[path]!.imports.filter((i) => i.kind === "import-statement").map((i) => i.path));
  }
  return eager;
}

describe("the site's search script", () => {
  it("loads within the budget, the search's code only when a search runs", async () => {
    const { metafile, gzip } = await bundle();
    const outputs = Object.keys(metafile.outputs).filter((path) => path.endsWith(".js"));
    const eager = eagerOutputs(metafile);
    const weight = (paths: string[]) => paths.reduce((sum, path) => sum + gzip(path), 0);
    const withPage = weight([...eager]);
    const onSearch = weight(outputs.filter((path) => !eager.has(path)));
    console.log(`site search script: ${withPage} B gzip with the page, ${onSearch} B on the first search`);
    expect(withPage).toBeLessThanOrEqual(BUDGET);
    const inputsOf = (paths: Iterable<string>) =>
      [...paths].flatMap((path) => Object.keys(metafile.outputs[path]!.inputs));
    const stemmers = /@orama\/stemmers\/dist\/(en|de|fr|it|es|nl)\.js$/;
    expect(inputsOf(eager).filter((input) => stemmers.test(input) || input.includes("minisearch"))).toEqual([]);
    // The search's code is still there, on use: all six languages and the engine.
    const lazy = inputsOf(outputs.filter((path) => !eager.has(path)));
    expect(lazy.filter((input) => stemmers.test(input))).toHaveLength(6);
    expect(lazy.some((input) => input.includes("minisearch"))).toBe(true);
  });
});
