/**
 * Issue 120's corpus: every expensive template — the issue's own cases and fast-check's generated
 * counts, doubling strings, nested loops, module trees, patterns and loops in HCL, ARM and
 * CloudFormation (tests/helpers/costly-templates.ts) — is evaluated or refused by a budget (a 422
 * TemplateBudgetError, or the 400 past 2,000 resources), each within the reading budget's time, in a
 * child process with 150 MB of heap whose whole tree stays under 400 MB: a case that escaped the
 * budgets would end that child, never this run. RELIABILITY.md records what it found.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { TEMPLATE_READ_SECONDS } from "../../catalogue/base/limits.ts";
import type { CorpusOutcome } from "../helpers/costly-corpus-run.ts";
import { ISSUE_120_CASES } from "../helpers/costly-templates.ts";
import { runWatched } from "../helpers/process-tree.ts";

const RUNNER = fileURLToPath(new URL("../helpers/costly-corpus-run.ts", import.meta.url));
/** Generated cases beside the issue's: the edit loop's run takes fewer (VITEST_FAST). */
const GENERATED = process.env.VITEST_FAST ? 60 : 150;
const MEMORY_BOUND_MB = 400;

describe("issue 120: a corpus of expensive templates", () => {
  it("every case is evaluated or refused by a budget, within the reading time, in a process under 400 MB", async () => {
    // A new sample each run, its seed in every failure's message to run it again.
    const seed = Date.now() % 100_000;
    const run = await runWatched(
      ["--max-old-space-size=150", "--max-semi-space-size=2", RUNNER, String(GENERATED), String(seed)],
      { timeoutMs: 600_000 },
    );
    expect(run.signal, `seed ${seed}: ${run.stderr}`).toBeNull();
    expect(run.status, `seed ${seed}: ${run.stderr}`).toBe(0);
    const outcomes = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as CorpusOutcome);
    expect(outcomes).toHaveLength(ISSUE_120_CASES.length + GENERATED);
    for (const one of outcomes) {
      const refusedAsTooMany = one.outcome === "invalid" && /holds more than 2000 resources/.test(one.message ?? "");
      expect(
        one.outcome === "read" || one.outcome === "budget" || refusedAsTooMany,
        `seed ${seed}, ${one.name}: ${one.message}`,
      ).toBe(true);
      expect(one.ms, `seed ${seed}, ${one.name}`).toBeLessThan(TEMPLATE_READ_SECONDS * 1000);
    }
    expect(run.peakMb).toBeLessThanOrEqual(MEMORY_BOUND_MB);
  }, 660_000);

  it("refuses each of the issue's cases but the pattern, which RE2 answers at once, naming where and the bound", async () => {
    const run = await runWatched(["--max-old-space-size=150", "--max-semi-space-size=2", RUNNER, "0"], {
      timeoutMs: 300_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const outcomes = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as CorpusOutcome);
    const byName = new Map(outcomes.map((one) => [one.name, one]));
    expect(byName.get("count = 10000000 on one aws_s3_bucket")?.message).toMatch(
      /^main\.tf, line 1: aws_s3_bucket\.big's count of 10,000,000 makes 10,000,000 instances.*at most 10,000 resource and module instances/,
    );
    expect(byName.get("join of range(10000) formats, joined 10,000 times")?.message).toMatch(
      /^main\.tf, line 3: join\(\) makes a string of 10,000,000,000 characters; .*at most 1,048,576 characters in one string/,
    );
    expect(byName.get("ARM copy.count 1e9")?.message).toMatch(
      /^the template, resources\[0\]: .*copy count of 1,000,000,000; Azure Resource Manager refuses it before deploying: "The count can't exceed 800\."/,
    );
    expect(byName.get("ARM concat doubling ×40")?.message).toMatch(
      /^the template, variables\.v\d+: concat\(\) makes a string/,
    );
    expect(byName.get("CloudFormation Fn::ForEach over 200,000 names")?.message).toMatch(
      /^the template, Parameters\.Names: .*200,000 items/,
    );
    expect(byName.get("HCL 2 nested for over 10000")?.message).toMatch(/^main\.tf, line 2: .*5,000,000 steps/);
    expect(byName.get("HCL module tree 12 deep, 2 calls of count 1")?.outcome).toBe("budget");
    const pattern = byName.get("HCL regex(^(a+)+$) over 55 characters")!;
    expect(pattern.outcome).toBe("read");
    expect(pattern.ms).toBeLessThan(TEMPLATE_READ_SECONDS * 1000);
    for (const one of outcomes) if (one !== pattern) expect(one.outcome, one.name).toBe("budget");
  }, 300_000);
});
