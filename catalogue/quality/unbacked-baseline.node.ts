/**
 * The committed baseline of unbacked claims (rule "claim terms", backed-claims.ts): one claim a line,
 * `slug<TAB>face<TAB>term`, sorted; `#` lines are comments. It lives beside the data it describes
 * (catalogue/data/unbacked-claims.txt), so a test's data folder has its own, or none.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baselineKey, type UnbackedClaim } from "./backed-claims.ts";

export const BASELINE_FILE = "unbacked-claims.txt";

const HEADER = [
  '# Claims the catalogue makes that no source\'s claims state yet (catalogue/data/README.md, "Claim terms").',
  "# Written once by `npm run check:data -- --shrink-claims-baseline`, which from then on only drops lines:",
  "# check:data fails on an unbacked claim not listed here and on a line here that is backed (take it out).",
  "# slug<TAB>face<TAB>term",
];

export function readBaseline(dataDir: string): Set<string> {
  const file = join(dataDir, BASELINE_FILE);
  if (!existsSync(file)) return new Set();
  return new Set(
    readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.length > 0 && !line.startsWith("#")),
  );
}

/**
 * Writes the baseline: every unbacked claim when there is none yet, else only the lines that still
 * fail (it drops backed lines and never adds one, so a new unbacked claim still fails the check).
 */
export function writeBaseline(dataDir: string, unbacked: readonly UnbackedClaim[]): number {
  const existing = existsSync(join(dataDir, BASELINE_FILE)) ? readBaseline(dataDir) : undefined;
  const lines = [...new Set(unbacked.map(baselineKey))].filter((key) => !existing || existing.has(key)).sort();
  writeFileSync(join(dataDir, BASELINE_FILE), [...HEADER, ...lines].join("\n") + "\n");
  return lines.length;
}
