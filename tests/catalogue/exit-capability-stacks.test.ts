/**
 * Issue 98's seven stacks (tests/fixtures/exit-plans-capability-stacks.ts), written before the
 * capabilities: every rank 1 is a reviewed pick, every gap a reviewed one, and each job names the
 * capabilities the target lacks or is not known to have, never one it keeps.
 * scripts/maintenance/exit-capability-stacks.ts prints the figures.
 */
import { describe, expect, it } from "vitest";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { CAPABILITY_STACKS } from "../fixtures/exit-plans-capability-stacks.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();

describe("issue 98's seven stacks", () => {
  for (const stack of CAPABILITY_STACKS)
    it(stack.name, () => {
      const plan = exitPlan(catalogue, Object.keys(stack.mappings), stack.to);
      for (const entry of plan.services) {
        const mapping = stack.mappings[entry.slug]!;
        if (mapping.expect === "gap") expect(entry.outcome, entry.slug).toBe("no-equivalent");
        else expect(mapping.expect, entry.slug).toContain(entry.candidates[0]?.slug);
        // Issue 114: lost names what is recorded lost or had in part; unconfirmed what is not known.
        const lost = (group: string) => {
          const job = (entry.jobs ?? []).find((one) => one.group === group);
          return [...(job?.lost ?? []), ...(job?.unconfirmed ?? [])];
        };
        for (const [group, ids] of Object.entries(mapping.names ?? {}))
          for (const id of ids) expect(lost(group).join(" "), `${entry.slug} / ${group}`).toContain(`(${id})`);
        for (const [group, ids] of Object.entries(mapping.keeps ?? {})) {
          const job = entry.jobs!.find((candidate) => candidate.group === group)!;
          expect(job.status, `${entry.slug} / ${group}`).not.toBe("gap");
          for (const id of ids) {
            expect(job.capabilities?.kept, `${entry.slug} / ${group}`).toContain(id);
            expect(lost(group).join(" ")).not.toContain(`(${id})`);
          }
        }
      }
    });
});
