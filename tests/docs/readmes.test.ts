/**
 * Every folder README says what is beside it: each file and subfolder of its folder is named in it
 * (docs/decisions.md#codebase). The repository's own README and generated or vendored folders
 * (dist, node_modules, caches, fixtures' data) are left out.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SKIP = new Set(["node_modules", "dist", ".git", ".cache", ".data", ".astro"]);

function readmeFolders(dir: string, found: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) readmeFolders(path, found);
  }
  if (dir !== ROOT && readdirSync(dir).includes("README.md")) found.push(dir);
  return found;
}

/**
 * Whether the README names it: as written, without its extension (`search.ts` as `search`), or by
 * the kind of file it says the folder holds (`*.yaml` in a folder of one file per service).
 */
const names = (text: string, entry: string) => {
  const bare = entry.replace(/\.[^.]+$/, "");
  const word = (token: string) =>
    new RegExp(`(^|[^\\w-])${token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([^\\w-]|$)`).test(text);
  const byExtension = [...text.matchAll(/`\*(\.[a-z]+)`/g)].some(([, extension]) => entry.endsWith(extension!));
  return word(entry) || word(bare) || byExtension;
};

describe("folder READMEs", () => {
  it.each(readmeFolders(ROOT).map((dir) => [relative(ROOT, dir), dir]))(
    "%s/README.md names everything beside it",
    (_name, dir) => {
      const text = readFileSync(join(dir, "README.md"), "utf8");
      const missing = readdirSync(dir).filter(
        (entry) => entry !== "README.md" && !entry.startsWith(".") && !SKIP.has(entry) && !names(text, entry),
      );
      expect(missing).toEqual([]);
    },
  );
});
