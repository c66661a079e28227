/**
 * `node scripts/maintenance/exit-job-stacks.ts`: the figures of issue 86's seven stacks
 * (tests/fixtures/exit-plans-job-stacks.ts) against the current catalogue/data: rank-1 picks right
 * (the reviewed first choice), defensible (another reviewed choice) or wrong; gaps true or false
 * (a reviewed target the catalogue holds); the jobs of multi-job services a plan covers, calls
 * partial or a gap, and those it drops silently (neither covered by a proposed candidate nor named).
 */
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { loadCatalogue } from "../../catalogue/load/load.ts";
import { JOB_STACK_PLANS } from "../../tests/fixtures/exit-plans-job-stacks.ts";

const catalogue = loadCatalogue();
/** A fresh count of every figure, for one stack or all. */
const tallyOf = () => ({
  right: 0,
  defensible: 0,
  wrong: 0,
  trueGaps: 0,
  falseGaps: 0,
  mappedGaps: 0,
  jobs: 0,
  jobsAsExpected: 0,
  dropped: 0,
});
const total = tallyOf();
const lines: string[] = [];
for (const stack of JOB_STACK_PLANS) {
  const plan = exitPlan(catalogue, Object.keys(stack.mappings), stack.to);
  const tally = tallyOf();
  for (const entry of plan.services) {
    const mapping = stack.mappings[entry.slug]!;
    const held = mapping.expect === "gap" ? [] : mapping.expect.filter((slug) => catalogue.bySlug.has(slug));
    if (entry.outcome === "no-equivalent") {
      if (held.length === 0) tally.trueGaps++;
      else {
        tally.falseGaps++;
        lines.push(`  false gap: ${entry.slug} (expected ${held.join(" | ")})`);
      }
    } else if (entry.outcome === "mapped") {
      const first = entry.candidates[0]!.slug;
      if (held.length === 0) {
        tally.mappedGaps++;
        lines.push(`  mapped where a gap was expected: ${entry.slug} → ${first}`);
      } else if (first === held[0]) tally.right++;
      else if (held.includes(first)) tally.defensible++;
      else {
        tally.wrong++;
        lines.push(`  wrong rank 1: ${entry.slug} → ${first} (expected ${held.join(" | ")})`);
      }
    }
    // Jobs: every group of the service, as the plan states it (entry.jobs, from 1.10.0) or, before,
    // as covered when a proposed candidate is in the group, else silently dropped.
    const record = catalogue.bySlug.get(entry.slug)!;
    if (record.groupIds.length < 2 || entry.outcome === "stays") continue;
    const stated = new Map(
      ((entry as { jobs?: { group: string; status: string; by?: string }[] }).jobs ?? []).map((job) => [
        job.group,
        job,
      ]),
    );
    for (const group of record.groupIds) {
      tally.jobs++;
      const expected = mapping.jobs?.[group];
      const job = stated.get(group);
      const proposedThere = entry.candidates.find((c) => c.proposed && c.groups.includes(group));
      const got = job
        ? job.status === "gap"
          ? "gap"
          : (job.by ?? job.status)
        : proposedThere
          ? proposedThere.slug
          : undefined;
      if (got === undefined) {
        tally.dropped++;
        lines.push(`  job dropped silently: ${entry.slug} / ${group}${expected ? ` (expected ${expected})` : ""}`);
      } else if (
        expected === undefined ||
        expected === got ||
        (expected !== "gap" && got !== "gap" && (!catalogue.bySlug.has(expected) || mapping.expect.includes(got)))
      )
        tally.jobsAsExpected++;
      else lines.push(`  job: ${entry.slug} / ${group} → ${got} (expected ${expected})`);
    }
  }
  for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += tally[key];
  console.log(
    `${stack.name}: rank 1 ${tally.right} right, ${tally.defensible} defensible, ${tally.wrong} wrong; gaps ${tally.trueGaps} true, ${tally.falseGaps} false; ${tally.mappedGaps} mapped where a gap was expected; jobs ${tally.jobsAsExpected}/${tally.jobs} as expected, ${tally.dropped} dropped silently`,
  );
  console.log(lines.splice(0).join("\n"));
}
console.log(
  `ALL: rank 1 ${total.right} right, ${total.defensible} defensible, ${total.wrong} wrong of ${total.right + total.defensible + total.wrong}; gaps ${total.trueGaps} true, ${total.falseGaps} false of ${total.trueGaps + total.falseGaps}; ${total.mappedGaps} mapped where a gap was expected; jobs of multi-job services ${total.jobsAsExpected}/${total.jobs} as expected, ${total.dropped} dropped silently`,
);
