/**
 * `node scripts/maintenance/exit-114-stacks.ts`: the figures of issue 114's six stacks
 * (tests/fixtures/exit-plans-issue-114-stacks.ts) against the current catalogue/data: per stack the
 * providers proposed, rank-1 picks right (the audit's first choice), defensible (another accepted
 * one) or wrong, gaps true or false, what each job names as lost or to check, and what leaving
 * costs; the audit (docs/audits/issue-114-six-stacks.md) is written from this output.
 */
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { loadCatalogue } from "../../catalogue/load/load.ts";
import { ISSUE_114_STACKS } from "../../tests/fixtures/exit-plans-issue-114-stacks.ts";

const catalogue = loadCatalogue();
const total = { entries: 0, right: 0, defensible: 0, wrong: 0, trueGaps: 0, falseGaps: 0, lost: 0 };
for (const stack of ISSUE_114_STACKS) {
  const plan = exitPlan(catalogue, Object.keys(stack.mappings), stack.to, stack.jobsUsed, stack.dataGb);
  console.log(`\n## ${stack.name}\n${plan.targetList.providers.join(", ")}: ${plan.summary.gaps ?? 0} gaps`);
  for (const why of plan.targetList.why ?? []) console.log(`  ${why.reason}`);
  for (const entry of plan.services) {
    total.entries++;
    const mapping = stack.mappings[entry.slug]!;
    const first = entry.candidates[0]?.slug;
    let verdict: string;
    if (entry.outcome === "no-equivalent") {
      verdict = mapping.expect === "gap" ? "true gap" : "FALSE GAP";
      total[mapping.expect === "gap" ? "trueGaps" : "falseGaps"]++;
    } else if (mapping.expect !== "gap" && first === mapping.expect[0]) {
      verdict = mapping.verdict === "defensible" ? "defensible" : "right";
      total[mapping.verdict === "defensible" ? "defensible" : "right"]++;
    } else if (mapping.expect !== "gap" && first !== undefined && mapping.expect.includes(first)) {
      verdict = "defensible";
      total.defensible++;
    } else {
      verdict = "WRONG";
      total.wrong++;
    }
    console.log(`- ${entry.slug} → ${first ?? "(gap)"}: ${verdict}`);
    for (const job of entry.jobs ?? [])
      for (const [kind, words] of [
        ["lost", job.lost],
        ["to check", job.unconfirmed ?? []],
      ] as const)
        for (const line of words) {
          console.log(`    ${job.group} ${kind}: ${line}`);
          if (kind === "lost") total.lost++;
        }
  }
  for (const from of plan.leaving?.providers ?? []) console.log(`  leaving ${from.providerId}: ${from.words}`);
}
console.log(`\n${JSON.stringify(total)}`);
