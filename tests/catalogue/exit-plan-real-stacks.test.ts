/**
 * The reviewed migrations of tests/fixtures/exit-plans-real-stacks.ts (decisions.md#exit-ranking) and
 * exit-plans-seven-stacks.ts (decisions.md#compatibility-claims) and exit-plans-job-stacks.ts (issue
 * 86: every job stated, a reviewed job covered by its target or a gap): no false gap
 * whose target the catalogue holds, every rank-1 pick one an architect accepted, a second job's
 * target listed beside it, and rank 1 never decided by a name while a real signal differs.
 */
import { describe, expect, it } from "vitest";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { isClosed } from "../../catalogue/exit/context.ts";
import { AWAITED_SERVICES, REAL_STACK_PLANS as FIRST_FIVE } from "../fixtures/exit-plans-real-stacks.ts";
import { SEVEN_STACK_PLANS } from "../fixtures/exit-plans-seven-stacks.ts";
import { JOB_STACK_PLANS, type JobMapping } from "../fixtures/exit-plans-job-stacks.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
const REAL_STACK_PLANS = [...FIRST_FIVE, ...SEVEN_STACK_PLANS, ...JOB_STACK_PLANS];
const HYPERSCALERS = /^(aws|azure|gcp)$/;

/** The services of a list the catalogue holds and that are open to new customers. */
const openIn = (slugs: readonly string[]) =>
  slugs.filter((slug) => {
    const record = catalogue.bySlug.get(slug);
    return record !== undefined && !isClosed(record.service);
  });

/**
 * The jobs a reviewed mapping says a service is used for, where it names a second target
 * (`alsoTarget`): its primary, the groups of that target and those its per-job expectations name
 * (issue 114: a job the list does not say it uses is optional and proposes nothing). Undefined
 * where no mapping names one.
 */
function usedJobsOf(
  mappings: Readonly<
    Record<string, { readonly alsoTarget?: readonly string[]; readonly jobs?: Readonly<Record<string, string>> }>
  >,
) {
  const used: Record<string, string[]> = {};
  for (const [slug, mapping] of Object.entries(mappings)) {
    const also = openIn(mapping.alsoTarget ?? []);
    if (also.length === 0) continue;
    const groups = catalogue.bySlug.get(slug)!.groupIds;
    const primary = exitPlan(catalogue, [slug], { providers: [catalogue.bySlug.get(also[0]!)!.service.providerId] })
      .services[0]!.jobs![0]!.group;
    // Its second target's jobs, and those its reviewed per-job expectations name.
    const extra = groups.filter(
      (group) =>
        group !== primary &&
        (mapping.jobs?.[group] !== undefined ||
          also.some((target) => catalogue.bySlug.get(target)!.groupIds.includes(group))),
    );
    used[slug] = [primary, ...extra];
  }
  return Object.keys(used).length > 0 ? used : undefined;
}

describe("the migrations from real stacks", () => {
  it("name only services the catalogue holds, or products it is known to lack", () => {
    for (const example of REAL_STACK_PLANS)
      for (const [slug, mapping] of Object.entries(example.mappings)) {
        expect(catalogue.bySlug.has(slug), slug).toBe(true);
        for (const target of [...(mapping.expect === "gap" ? [] : mapping.expect), ...(mapping.alsoTarget ?? [])])
          expect(catalogue.bySlug.has(target) || AWAITED_SERVICES.has(target), `${slug} → ${target}`).toBe(true);
      }
  });

  for (const example of REAL_STACK_PLANS) {
    it(`${example.name}${example.heldOut ? " (held out)" : ""}`, () => {
      const ids = Object.keys(example.mappings);
      const jobsUsed = usedJobsOf(example.mappings);
      const plan = exitPlan(catalogue, ids, example.to, jobsUsed);
      const awaiting: string[] = [];
      for (const entry of plan.services) {
        const mapping = example.mappings[entry.slug]!;
        const where = `${entry.slug}: ${mapping.why}`;
        // Every job is stated (none dropped silently), and a reviewed job's target or gap is the plan's.
        if (entry.outcome !== "stays")
          expect(entry.jobs!.map((job) => job.group).sort(), entry.slug).toEqual(
            [...(jobsUsed?.[entry.slug] ?? catalogue.bySlug.get(entry.slug)!.groupIds)].sort(),
          );
        for (const [group, target] of Object.entries((mapping as JobMapping).jobs ?? {})) {
          const job = entry.jobs!.find((j) => j.group === group)!;
          if (target === "gap") expect(job.status, `${entry.slug} / ${group}`).toBe("gap");
          else if (catalogue.bySlug.has(target) && !mapping.dataGap)
            expect(
              [target, ...(mapping.expect === "gap" ? [] : mapping.expect)],
              `${entry.slug} / ${group} is covered by ${job.by}`,
            ).toContain(job.by);
        }
        if (mapping.expect === "gap") {
          expect(entry.outcome, where).toBe("no-equivalent");
          continue;
        }
        const held = openIn(mapping.expect);
        if (mapping.dataGap) {
          expect(entry.outcome, `${entry.slug}: the data now links it; remove dataGap`).toBe("no-equivalent");
          awaiting.push(`${entry.slug}: ${mapping.dataGap}`);
          continue;
        }
        if (held.length === 0) {
          // The right target is not in the catalogue yet: the plan must not invent one.
          expect(entry.outcome, where).toBe("no-equivalent");
          awaiting.push(`${entry.slug} → ${mapping.expect.join(" | ")}`);
          continue;
        }
        expect(entry.outcome, `a false gap: ${where}`).toBe("mapped");
        const [first] = entry.candidates;
        expect(held, `rank 1 for ${entry.slug} is ${first!.slug}: ${first!.reason}`).toContain(first!.slug);
        // A name decides only between candidates equal on every real signal.
        if (first!.decidedBy === "name") {
          const second = entry.candidates[1]!;
          const signals = (c: typeof first) => [c!.lifecycle, c!.lineage, c!.compatibility.length, c!.groups.length];
          expect(signals(first), `${entry.slug}: ${first!.reason}`).toEqual(signals(second));
          expect(held, `${entry.slug}: both equal picks are defensible`).toContain(second.slug);
        }
        const alsoHeld = openIn(mapping.alsoTarget ?? []);
        if (alsoHeld.length > 0) {
          const proposed = entry.candidates.filter((candidate) => candidate.proposed).map((c) => c.slug);
          expect(
            proposed.some((slug) => alsoHeld.includes(slug)),
            `${entry.slug} also needs one of ${alsoHeld.join(", ")}; proposed ${proposed.join(", ")}`,
          ).toBe(true);
        }
      }
      // A plan away from the hyperscalers never lists one of theirs (a plan to AWS may).
      if (!(example.to.providers ?? []).some((provider) => HYPERSCALERS.test(provider)))
        for (const slug of plan.targetList.approvedServiceIds)
          expect(catalogue.bySlug.get(slug)!.service.providerId).not.toMatch(HYPERSCALERS);
      if (awaiting.length > 0) console.warn(`${example.name}: awaiting catalogue data for ${awaiting.join("; ")}`);
    });
  }
});
