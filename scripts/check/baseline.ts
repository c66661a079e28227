/**
 * The repository's baseline file (--baseline, --write-baseline; docs/ci-check.md "Baseline"): JSON,
 * `{"suppressions": [{"rule", "item", "resource", "file", "reason", "expires"}]}`, each entry a
 * judge.ts Suppression, one per resource instance. Read strictly: an unknown key (a misspelt
 * `expiry` would never expire) or a rule the check does not have is a usage error naming the entry.
 * Baselines written before issue 122 (at most five resources of a type, the checked path as `file`)
 * read as they are: their entries accept what they name, and the resources they never named are new.
 */
import { writeFileSync } from "node:fs";
import { z } from "zod";
import { FINDING_RULES } from "../../catalogue/templates/answer/findings.ts";
import type { Suppression } from "../../catalogue/templates/answer/judge.ts";
import { CheckUsageError } from "./errors.ts";
import { readInputFile } from "./inputs.ts";

const Day = z.iso.date();

const Entry = z.strictObject({
  rule: z.enum(FINDING_RULES),
  item: z.string().min(1).optional(),
  resource: z.string().min(1).optional(),
  file: z.string().min(1).optional(),
  reason: z.string().trim().min(1, "say why it is accepted"),
  expires: Day.optional(),
});
const BaselineFile = z.strictObject({ suppressions: z.array(Entry) });

/** The entries of a baseline file (an empty list when it holds none), each saying it is kept there. */
export async function readBaseline(path: string): Promise<Suppression[]> {
  const text = await readInputFile(path, "baseline");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CheckUsageError(`the baseline ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = BaselineFile.safeParse(value);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const where = issue!.path.length > 0 ? issue!.path.join(".") : "(file)";
    throw new CheckUsageError(
      `the baseline ${path} is not a baseline: ${where}: ${issue!.message} (an object {"suppressions": [{"rule", "reason", …}]})`,
    );
  }
  return parsed.data.suppressions.map((entry) => ({ ...entry, source: { kind: "baseline", path } }));
}

/** Writes a baseline file: the entries, one an object, in the order given. */
export function writeBaseline(path: string, entries: readonly Suppression[]): void {
  try {
    // Where an entry was read from is not part of it.
    const plain = entries.map(({ source: _source, ...entry }) => entry);
    writeFileSync(path, `${JSON.stringify({ suppressions: plain }, null, 2)}\n`);
  } catch (error) {
    throw new CheckUsageError(`cannot write the baseline ${path}: ${(error as Error).message}`);
  }
}
