/**
 * `node scripts/maintenance/exit-capability-stacks.ts`: the figures of issue 98's seven stacks
 * (tests/fixtures/exit-plans-capability-stacks.ts) against the current catalogue/data: rank-1 picks
 * right (the reviewed first choice), defensible (another reviewed choice) or wrong; gaps true or
 * false (a reviewed target the catalogue holds); and what is lost: each capability the plan must
 * name as lost or not known, and each it must not name because the target keeps it.
 */
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { loadCatalogue } from "../../catalogue/load/load.ts";
import { CAPABILITY_STACKS } from "../../tests/fixtures/exit-plans-capability-stacks.ts";

const catalogue = loadCatalogue();
const tallyOf = () => ({ right: 0, defensible: 0, wrong: 0, trueGaps: 0, falseGaps: 0, lostRight: 0, lostWrong: 0 });
const total = tallyOf();
for (const stack of CAPABILITY_STACKS) {
  const plan = exitPlan(catalogue, Object.keys(stack.mappings), stack.to);
  const tally = tallyOf();
  const lines: string[] = [];
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
      if (held.length === 0) lines.push(`  mapped where a gap was expected: ${entry.slug} → ${first}`);
      else if (first === held[0]) tally.right++;
      else if (held.includes(first)) tally.defensible++;
      else {
        tally.wrong++;
        lines.push(`  wrong rank 1: ${entry.slug} → ${first} (expected ${held.join(" | ")})`);
      }
    }
    const jobOf = (group: string) => (entry.jobs ?? []).find((job) => job.group === group);
    const said = (group: string, id: string) => {
      const job = jobOf(group);
      return (
        job === undefined ||
        job.status === "gap" ||
        [...job.lost, ...(job.unconfirmed ?? [])].some((words) => words.includes(id))
      );
    };
    for (const [group, ids] of Object.entries(mapping.names ?? {}))
      for (const id of ids)
        if (said(group, id)) tally.lostRight++;
        else {
          tally.lostWrong++;
          lines.push(
            `  lost not named: ${entry.slug} / ${group}: ${id} (lost: ${JSON.stringify(jobOf(group)?.lost ?? [])})`,
          );
        }
    for (const [group, ids] of Object.entries(mapping.keeps ?? {}))
      for (const id of ids)
        if (jobOf(group) && jobOf(group)!.status !== "gap" && !said(group, id)) tally.lostRight++;
        else {
          tally.lostWrong++;
          lines.push(`  kept named as lost: ${entry.slug} / ${group}: ${id}`);
        }
  }
  for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += tally[key];
  console.log(
    `${stack.name}: rank 1 ${tally.right} right, ${tally.defensible} defensible, ${tally.wrong} wrong; gaps ${tally.trueGaps} true, ${tally.falseGaps} false; what is lost ${tally.lostRight} right, ${tally.lostWrong} wrong`,
  );
  if (lines.length > 0) console.log(lines.join("\n"));
}
console.log(
  `ALL: rank 1 ${total.right} right, ${total.defensible} defensible, ${total.wrong} wrong of ${total.right + total.defensible + total.wrong}; gaps ${total.trueGaps} true, ${total.falseGaps} false; what is lost ${total.lostRight} right, ${total.lostWrong} wrong of ${total.lostRight + total.lostWrong}`,
);
