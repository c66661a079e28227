/**
 * Issue 114's six new stacks (tests/fixtures/exit-plans-issue-114-stacks.ts), planned with the jobs
 * they use and the data they hold: every rank 1 one the audit accepts, every gap a reviewed one
 * (and counted in the headline), each job naming what the audit says is lost or to check, a
 * retired or sunset service said so, two providers at most where one covers every used job but
 * one, a split said with its reason, no optional job proposing a service, and what leaving costs
 * stated with its pages.
 */
import { describe, expect, it } from "vitest";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { ISSUE_114_STACKS } from "../fixtures/exit-plans-issue-114-stacks.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();

/** Whether a job's words name a capability or protocol id: "… (smb): …" or "s3-api: …". */
const names = (words: readonly string[], id: string) =>
  words.some((line) => line.includes(`(${id})`) || line.startsWith(`${id}:`));

describe("issue 114's six stacks", () => {
  it("name only services the catalogue holds, about 70 of them in all", () => {
    let entries = 0;
    for (const stack of ISSUE_114_STACKS)
      for (const [slug, mapping] of Object.entries(stack.mappings)) {
        entries++;
        expect(catalogue.bySlug.has(slug), slug).toBe(true);
        for (const target of mapping.expect === "gap" ? [] : mapping.expect)
          expect(catalogue.bySlug.has(target), `${slug} → ${target}`).toBe(true);
      }
    expect(entries).toBeGreaterThanOrEqual(70);
  });

  for (const stack of ISSUE_114_STACKS)
    it(stack.name, () => {
      const plan = exitPlan(catalogue, Object.keys(stack.mappings), stack.to, stack.jobsUsed, stack.dataGb);
      const gaps = new Set(plan.gaps.map((entry) => entry.slug));
      for (const entry of plan.services) {
        const mapping = stack.mappings[entry.slug]!;
        const where = `${entry.slug}: ${mapping.why}`;
        if (mapping.closed) expect(entry.reason, where).toMatch(/nothing to keep/);
        if (mapping.expect === "gap") {
          expect(entry.outcome, where).toBe("no-equivalent");
          expect(gaps.has(entry.slug), `${entry.slug} counts as a gap`).toBe(true);
          continue;
        }
        expect(entry.outcome, `a false gap: ${where}`).toBe("mapped");
        const first = entry.candidates[0]!;
        expect(mapping.expect, `rank 1 for ${entry.slug} is ${first.slug}: ${first.reason}`).toContain(first.slug);
        if (mapping.verdict === "right") expect(first.slug, where).toBe(mapping.expect[0]);
        const job = (group: string) => entry.jobs!.find((one) => one.group === group)!;
        for (const [group, ids] of Object.entries(mapping.lost ?? {}))
          for (const id of ids)
            expect(names(job(group).lost, id), `${entry.slug} / ${group} names ${id} lost`).toBe(true);
        for (const [group, ids] of Object.entries(mapping.unconfirmed ?? {}))
          for (const id of ids)
            expect(names(job(group).unconfirmed ?? [], id), `${entry.slug} / ${group}: ${id} to check`).toBe(true);
        for (const [group, target] of Object.entries(mapping.jobs ?? {}))
          expect(job(group).by, `${entry.slug} / ${group}`).toBe(target);
        // A job not said to be used proposes no service of its own (Dedibox, Apple silicon for EC2).
        const forUsed = new Set((entry.jobs ?? []).filter((one) => !one.optional && one.proposed).map((one) => one.by));
        for (const one of entry.jobs ?? [])
          if (one.optional && one.proposed)
            expect(forUsed, `${entry.slug} / ${one.group} is optional`).toContain(one.by);
      }
      expect(plan.summary.gaps).toBe(plan.gaps.length);
      expect([...plan.targetList.providers].sort()).toEqual(stack.providers);
      if (stack.allButOne) {
        expect(plan.targetList.providers.length).toBeLessThanOrEqual(2);
        expect(plan.targetList.why?.[0]?.providerId).toBe(stack.allButOne);
      }
      // Every provider beyond the consolidated choice is there for a reason the plan states.
      for (const why of (plan.targetList.why ?? []).slice(1))
        expect(why.reason, why.providerId).toMatch(/is added for .+: .+ (has no service doing|does .+ less well)/);
      // What leaving costs: the Data Act's rule, the waivers with their pages, the data counted.
      const leaving = plan.leaving!;
      expect(leaving.dataAct.source.url).toMatch(/^https:\/\/eur-lex\.europa\.eu\//);
      for (const providerId of stack.waivers ?? []) {
        const from = leaving.providers.find((one) => one.providerId === providerId)!;
        expect(from.waiver?.source.url, providerId).toMatch(/^https:\/\//);
        expect(from.words).toContain(from.waiver!.source.url);
      }
      const given = Object.values(stack.dataGb ?? {}).reduce((sum, gb) => sum + gb, 0);
      const counted = leaving.providers.reduce((sum, one) => sum + (one.estimate?.dataGb ?? 0), 0);
      expect(counted).toBe(given);
    });
});
