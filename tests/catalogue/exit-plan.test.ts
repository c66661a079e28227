import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allowedProviders, exitPlan } from "../../catalogue/exit/plan.ts";
import { flagshipPrior, isClosed, sameProduct } from "../../catalogue/exit/context.ts";
import { exposureReport } from "../../catalogue/equivalence/exposure.ts";
import { HttpError } from "../../catalogue/base/problem.ts";
import { ExitPlan, ExitPlanBody, type ExitTargetT } from "../../catalogue/schema/index.ts";
import { EXAMPLE_PLANS } from "../fixtures/exit-plans.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
const slugs = catalogue.services.map((service) => service.slug);
const providerIds = catalogue.providers.map((provider) => provider.id);
const jurisdictions = [...new Set(catalogue.providers.map((provider) => provider.jurisdiction!))];

/** Whether two services share an equivalence group. */
const groupPeers = (a: string, b: string) => {
  const groups = new Set(catalogue.bySlug.get(a)!.groupIds);
  return catalogue.bySlug.get(b)!.groupIds.some((id) => groups.has(id));
};

/** Whether a candidate may replace a service: a group peer, the same product, or a same-category service sharing a compatibility entry. */
const related = (a: string, b: string) => {
  const [x, y] = [catalogue.bySlug.get(a)!, catalogue.bySlug.get(b)!];
  // Claims for part of a job (a scope) find candidates too; they never rank (catalogue/data/README.md).
  const claimed = (record: typeof x) => (record.compatibility ?? []).map((claim) => claim.id);
  const shared = claimed(x).some((id) => claimed(y).includes(id));
  return groupPeers(a, b) || sameProduct(x, y) || (shared && x.service.category === y.service.category);
};

const target: fc.Arbitrary<ExitTargetT> = fc
  .record(
    {
      providers: fc.subarray(providerIds, { minLength: 1, maxLength: 6 }),
      sovereignOption: fc.boolean(),
      euResidentOnly: fc.boolean(),
      jurisdictions: fc.subarray(jurisdictions, { minLength: 1 }),
      exclude: fc.subarray(providerIds, { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: [] },
  )
  .filter((to) => Boolean(to.providers || to.sovereignOption || to.euResidentOnly || to.jurisdictions));

/** A plan, or undefined when the target matches no provider (a 400, checked apart). */
function planOrNone(ids: string[], to: ExitTargetT) {
  try {
    return exitPlan(catalogue, ids, to);
  } catch (error) {
    if (error instanceof HttpError && error.message === "No provider matches the target") return undefined;
    throw error;
  }
}

describe("exit plans, over random lists and targets", () => {
  it("propose only open related services on allowed providers, keep only allowed ones, and score the target list as /v1/exposure does", () => {
    fc.assert(
      fc.property(fc.subarray(slugs, { minLength: 1, maxLength: 25 }), target, (ids, to) => {
        const plan = planOrNone(ids, to);
        if (!plan) return;
        const allowed = new Set(plan.target.providers);
        expect(ExitPlan.safeParse(plan).success).toBe(true);
        expect(plan.services.map((s) => s.slug)).toEqual(ids);
        for (const entry of plan.services) {
          const service = catalogue.bySlug.get(entry.slug)!.service;
          if (entry.outcome === "stays") {
            expect(allowed.has(service.providerId)).toBe(true);
            expect(isClosed(service)).toBe(false);
          }
          expect(entry.candidates.length > 0).toBe(entry.outcome === "mapped");
          entry.candidates.forEach((candidate, i) => {
            const peer = catalogue.bySlug.get(candidate.slug)!.service;
            expect(related(entry.slug, candidate.slug), `${candidate.slug} may replace ${entry.slug}`).toBe(true);
            expect(allowed.has(peer.providerId)).toBe(true);
            expect(peer.providerId).toBe(candidate.providerId);
            expect(isClosed(peer), `${candidate.slug} is open to new customers`).toBe(false);
            expect(candidate.rank).toBe(i + 1);
            if (i === 0) expect(candidate.proposed).toBe(true);
            // A further proposed candidate covers a group rank 1 is not in, or covers one of the
            // service's jobs better than rank 1 does (the job names it: exit plans by job), on a
            // provider the list uses.
            if (i > 0 && candidate.proposed) {
              const addsGroup = candidate.groups.some((id) => !entry.candidates[0]!.groups.includes(id));
              const coversJob = (entry.jobs ?? []).some((job) => job.by === candidate.slug);
              expect(addsGroup || coversJob, `${candidate.slug} proposed beside rank 1`).toBe(true);
              expect(plan.targetList.providers).toContain(candidate.providerId);
            }
            expect(candidate.decidedBy === "only").toBe(entry.candidates.length === 1);
          });
          // A name decides rank 1 only where the real signals are equal.
          const [first, second] = entry.candidates;
          if (first?.decidedBy === "name") {
            const signals = (c: typeof first) => [c.lifecycle, c.lineage, c.compatibility.length, c.groups.length];
            expect(signals(first)).toEqual(signals(second!));
          }
          for (const near of entry.nearest) {
            const other = catalogue.bySlug.get(near.slug)!.service;
            expect(near.kind).toBe("same-category");
            expect(near.sharedTags.length, `${near.slug} is similar enough to ${entry.slug}`).toBeGreaterThan(0);
            expect(other.category).toBe(service.category);
            expect(allowed.has(other.providerId) && !isClosed(other)).toBe(true);
          }
          if (entry.outcome !== "no-equivalent") expect(entry.nearest).toEqual([]);
        }
        // Issue 114: the gaps are the services with no equivalent and those whose used job no allowed provider does.
        const usedGap = (s: (typeof plan.services)[number]) =>
          (s.jobs ?? []).some((job) => !job.optional && job.status === "gap");
        expect(plan.gaps.map((gap) => gap.slug)).toEqual(
          plan.services
            .filter((s) => s.outcome === "no-equivalent" || (s.outcome === "mapped" && usedGap(s)))
            .map((s) => s.slug),
        );
        expect(plan.summary.gaps).toBe(plan.gaps.length);
        const target = plan.targetList.approvedServiceIds;
        expect(new Set(target).size).toBe(target.length);
        for (const slug of target) {
          const service = catalogue.bySlug.get(slug)!.service;
          expect(allowed.has(service.providerId)).toBe(true);
          expect(isClosed(service)).toBe(false);
        }
        // A retired gap runs nowhere: it is not counted where it is (issue 114).
        const unplaced = plan.services
          .filter((s) => s.outcome === "no-equivalent" && s.lifecycle !== "retired" && !target.includes(s.slug))
          .map((s) => s.slug);
        expect(plan.exposure.unplacedServiceIds).toEqual(unplaced);
        expect(plan.exposure.after).toEqual(exposureReport(catalogue, [...target, ...unplaced]));
        expect(plan.exposure.before).toEqual(exposureReport(catalogue, ids));
      }),
      { numRuns: 150 },
    );
  });

  it("use no more providers than the jobs it places need, one per placed job at most", () => {
    fc.assert(
      fc.property(fc.subarray(slugs, { minLength: 1, maxLength: 25 }), target, (ids, to) => {
        const plan = planOrNone(ids, to);
        if (!plan) return;
        // Exit plans by job: a service whose jobs no one candidate covers brings one per job.
        const placedJobs = plan.services
          .filter((s) => s.outcome !== "no-equivalent")
          .reduce((sum, s) => sum + Math.max(1, (s.jobs ?? []).filter((job) => job.status !== "gap").length), 0);
        expect(plan.targetList.providers.length).toBeLessThanOrEqual(placedJobs);
        // A provider the cover did not choose is never the rank-1 pick while a chosen one has a candidate.
        const used = new Set(plan.targetList.providers);
        for (const entry of plan.services)
          if (entry.candidates.some((c) => used.has(c.providerId) && c.lifecycle === entry.candidates[0]!.lifecycle))
            expect(used.has(entry.candidates[0]!.providerId)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it("resolve the target from the derived provider properties", () => {
    const sovereign = allowedProviders(catalogue, { sovereignOption: true });
    expect(sovereign).toEqual(catalogue.providers.filter((p) => p.sovereignOption).map((p) => p.id));
    expect(sovereign).toContain("ovhcloud");
    expect(sovereign).not.toContain("exoscale"); // Swiss head office, Mexican parent
    expect(allowedProviders(catalogue, { euResidentOnly: true })).toEqual(
      catalogue.providers.filter((p) => p.euResidentOnly).map((p) => p.id),
    );
    expect(allowedProviders(catalogue, { jurisdictions: ["CH"] })).toEqual(["exoscale", "infomaniak"]);
    expect(allowedProviders(catalogue, { jurisdictions: ["CH"], sovereignOption: true })).toEqual(["infomaniak"]);
    expect(allowedProviders(catalogue, { providers: ["ovhcloud", "scaleway"], exclude: ["scaleway"] })).toEqual([
      "ovhcloud",
    ]);
  });

  it("refuse a target without a criterion, with unknown providers or that nothing matches", () => {
    const refusal = (to: ExitTargetT) => {
      try {
        exitPlan(catalogue, ["aws-s3"], to);
      } catch (error) {
        return error instanceof HttpError ? [error.statusCode, error.message, error.details] : error;
      }
      return "no error";
    };
    expect(refusal({})).toEqual([400, "No target", expect.stringContaining("sovereignOption: true")]);
    expect(refusal({ sovereignOption: false })).toEqual([400, "No target", expect.any(String)]);
    expect(refusal({ providers: ["nope", "ovhcloud"] })).toEqual([
      400,
      "Unknown provider ids",
      expect.stringContaining("nope"),
    ]);
    expect(refusal({ sovereignOption: true, exclude: ["nada"] })).toEqual([
      400,
      "Unknown provider ids",
      expect.any(String),
    ]);
    expect(refusal({ providers: ["aws"], sovereignOption: true })).toEqual([
      400,
      "No provider matches the target",
      expect.stringContaining("providers Amazon Web Services; sovereign option"),
    ]);
  });

  it("name a gap honestly when the only peers on the allowed providers are closed to new customers", () => {
    // Find a group with a closed member: plan an exit from an open peer to the closed member's provider only.
    let checked = 0;
    for (const group of catalogue.groups) {
      for (const slug of group.services) {
        const closed = catalogue.bySlug.get(slug)!.service;
        if (!isClosed(closed)) continue;
        const from = group.services
          .map((s) => catalogue.bySlug.get(s)!.service)
          .find((s) => s.providerId !== closed.providerId && !isClosed(s));
        if (!from) continue;
        const plan = exitPlan(catalogue, [from.slug], { providers: [closed.providerId] });
        const entry = plan.services[0]!;
        expect(entry.candidates.map((c) => c.slug)).not.toContain(closed.slug);
        expect(entry.closedPeers.map((c) => c.slug)).toContain(closed.slug);
        if (entry.outcome === "no-equivalent") expect(entry.reason).toContain("closed to new customers");
        checked++;
      }
    }
    expect(checked, "the catalogue has closed group members to test against").toBeGreaterThan(0);
  });

  it("replace a closed service even on an allowed provider, and keep an open one", () => {
    const closed = catalogue.services.find((s) => isClosed(s) && catalogue.bySlug.get(s.slug)!.groupIds.length > 0)!;
    const plan = exitPlan(catalogue, [closed.slug], { providers: [closed.providerId] });
    expect(plan.services[0]!.outcome).not.toBe("stays");
    expect(plan.services[0]!.reason).toContain(`It is ${closed.lifecycle!.status}`);
    expect(plan.targetList.approvedServiceIds).not.toContain(closed.slug);
    const open = exitPlan(catalogue, ["ovhcloud-object-storage"], { providers: ["ovhcloud"] });
    expect(open.services[0]!.outcome).toBe("stays");
    expect(open.targetList.approvedServiceIds).toEqual(["ovhcloud-object-storage"]);
  });
});

describe("exit plans, decisions.md#exit-ranking", () => {
  it("propose the same product at rank 1: every lineage, from its origin's provider to its own", () => {
    const lineages = catalogue.services
      .map((service) => catalogue.bySlug.get(service.slug)!)
      .filter((record) => record.lineage && !isClosed(record.service));
    expect(lineages.length, "the catalogue records lineages").toBeGreaterThan(5);
    for (const { service, lineage } of lineages) {
      const origin = catalogue.bySlug.get(lineage!.origin)!.service;
      const plan = exitPlan(catalogue, [origin.slug], { providers: [service.providerId] });
      const [first] = plan.services[0]!.candidates;
      // Where one provider runs several services of the same origin, any of them is the product.
      const same = lineages.filter(
        (other) => other.service.providerId === service.providerId && other.lineage!.origin === origin.slug,
      );
      expect(
        same.map((other) => other.service.slug),
        `${origin.slug} → ${service.providerId}: ${first?.reason}`,
      ).toContain(first?.slug);
      expect(first!.lineage).toBe(true);
    }
  });

  it("list a target per job for a service doing several, on the providers the list uses", () => {
    const jobsUsed = { "azure-key-vault": ["key-management", "secrets-management"] };
    const plan = exitPlan(catalogue, ["azure-key-vault"], { providers: ["scaleway"] }, jobsUsed);
    const proposed = plan.services[0]!.candidates.filter((c) => c.proposed).map((c) => c.slug);
    expect(proposed).toEqual(["scaleway-key-manager", "scaleway-secret-manager"]);
    expect(plan.targetList.approvedServiceIds).toEqual(proposed);
    expect(plan.services[0]!.candidates[1]!.reason).toContain("Proposed beside Key Manager");
    // Issue 114: a job the list does not say it uses is optional, and adds nothing to the list.
    const unsaid = exitPlan(catalogue, ["azure-key-vault"], { providers: ["scaleway"] });
    expect(unsaid.targetList.approvedServiceIds).toEqual(["scaleway-key-manager"]);
    expect(unsaid.services[0]!.jobs!.find((job) => job.group === "secrets-management")).toMatchObject({
      optional: true,
      proposed: false,
    });
  });

  it("rank a provider the list uses before another, and each provider's flagship for the job first", () => {
    const example = EXAMPLE_PLANS.find((plan) => plan.name === "AWS machine-learning stack to sovereign providers")!;
    const plan = exitPlan(catalogue, example.approvedServiceIds, example.to);
    expect(plan.targetList.providers).toContain("ovhcloud");
    expect(plan.targetList.providers).not.toContain("elastx");
    const candidates = plan.services.find((entry) => entry.slug === "aws-ec2")!.candidates;
    const slugs = candidates.map((c) => c.slug);
    // Rank 1 is OVHcloud's flagship, on a provider the list uses; issue 114: consolidation comes
    // before flagship, so OVHcloud's VPS, not its flagship for virtual machines, comes second,
    // before Elastx's, which would add a provider.
    expect(slugs[0]).toBe("ovhcloud-public-cloud-instances");
    const vps = slugs.indexOf("ovhcloud-vps");
    expect(vps).toBe(1);
    expect(slugs.indexOf("elastx-openstack-iaas")).toBeGreaterThan(vps);
    expect(candidates[0]!.decidedBy).toBe("flagship");
    expect(candidates[0]!.reason).toContain("is its provider's flagship for the job, VPS (OVHcloud) is not");
  });

  it("give a candidate a flagship prior that group size does not move", () => {
    const record = catalogue.bySlug.get("scaleway-cockpit")!;
    const alone = { ...record, equivalentSlugs: [] };
    expect(record.equivalentSlugs!.length).toBeGreaterThan(10);
    expect(flagshipPrior(record)).toBe(flagshipPrior(alone));
    expect(flagshipPrior({ ...alone, groupIds: [...alone.groupIds, "x"] })).toBeGreaterThan(flagshipPrior(alone));
  });

  it("count the services left unplaced where they are in exposure after, and say so", () => {
    const plan = exitPlan(catalogue, ["aws-s3", "azure-entra-id", "aws-cognito"], { providers: ["ovhcloud"] });
    expect(plan.exposure.unplacedServiceIds).toEqual(["azure-entra-id", "aws-cognito"]);
    expect(plan.exposure.after.totalServices).toBe(3);
    expect(plan.exposure.after.usHeadquarteredProviderPercentage).toBeGreaterThan(0);
    expect(plan.notes.join(" ")).toContain("a gap is not an exit");
  });

  it("refuse unknown target keys, naming the key meant", () => {
    const parsed = ExitPlanBody.safeParse({ approvedServiceIds: ["aws-s3"], to: { euResident: true } });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toBe('unknown key "euResident" (did you mean "euResidentOnly"?)');
    expect(ExitPlanBody.safeParse({ approvedServiceIds: ["aws-s3"], to: { sovereignOption: true } }).success).toBe(
      true,
    );
  });

  it("note repeated ids instead of merging them in silence", () => {
    const plan = exitPlan(catalogue, ["aws-s3", "aws-s3", "aws-ec2", "aws-s3"], { sovereignOption: true });
    expect(plan.services.map((entry) => entry.slug)).toEqual(["aws-s3", "aws-ec2"]);
    expect(plan.notes).toContain("Listed more than once, planned once: aws-s3 (3 times).");
  });

  it("list as nearest only services similar enough: no search offering for a SQL database", () => {
    const plan = exitPlan(catalogue, ["azure-sql-database"], { providers: ["ovhcloud", "scaleway"] });
    const entry = plan.services[0]!;
    expect(entry.outcome).toBe("no-equivalent");
    for (const near of entry.nearest) expect(near.sharedTags.length).toBeGreaterThan(0);
    expect(entry.nearest.map((near) => near.slug)).not.toContain("scaleway-opensearch");
  });
});

describe("the ten reviewed example plans", () => {
  for (const example of EXAMPLE_PLANS) {
    it(example.name, () => {
      const plan = exitPlan(catalogue, example.approvedServiceIds, example.to);
      const outcomes = Object.fromEntries(
        plan.services.map((s) => [
          s.slug,
          s.outcome === "stays" ? "stays" : s.outcome === "no-equivalent" ? "gap" : s.candidates[0]!.slug,
        ]),
      );
      expect(outcomes).toEqual(example.expected);
      expect(plan.targetList.providers).toEqual(example.providers);
      for (const entry of plan.services) {
        if (entry.outcome !== "mapped") continue;
        const pick = catalogue.bySlug.get(entry.candidates[0]!.slug)!.service;
        // Defensible: a peer in one of the service's own groups (or the same product), doing the job in its category.
        expect(related(entry.slug, pick.slug)).toBe(true);
        // A group may hold members of another category with a stated reason (Kafka for Pub/Sub): said so.
        if (pick.category !== catalogue.bySlug.get(entry.slug)!.service.category)
          expect(entry.candidates[0]!.reason, `${entry.slug} → ${pick.slug}`).toContain("in another category");
        // Generally available, or, where a preview product is the only peer (Scaleway Data Orchestrator
        // for Logic Apps, issue 115), said so first in the pick's reason.
        if (pick.lifecycle) expect(entry.candidates[0]!.reason, `${pick.slug} is in preview`).toMatch(/^In preview;/);
        else expect(pick.lifecycle, `${pick.slug} is generally available`).toBeUndefined();
      }
      for (const gap of plan.gaps) expect(gap.reason.length).toBeGreaterThan(20);
      // After counts the gaps where they are: 0 % US-headquartered only when nothing is left behind.
      if (plan.gaps.length === 0) expect(plan.exposure.after.usHeadquarteredProviderPercentage).toBe(0);
      else expect(plan.exposure.after.totalServices).toBeGreaterThan(plan.targetList.approvedServiceIds.length);
    });
  }
});

describe("compatibility for the whole job", () => {
  it("ranks a service speaking a protocol for part of the job below one that covers it, and says which part", () => {
    const plan = exitPlan(realCatalogue(), ["azure-event-hubs"], { providers: ["stackit", "ionos"] });
    const [first, ...rest] = plan.services[0]!.candidates;
    // Event Hubs consumers and consumer groups would break on STACKIT Intake, an ingest-only sink.
    expect(first!.slug).toBe("ionos-kafka");
    expect(first!.compatibility).toEqual(["kafka"]);
    const intake = rest.find((candidate) => candidate.slug === "stackit-intake")!;
    expect(intake.compatibility).toEqual([]);
    expect(intake.reason).toContain("compatible for part of the job only (kafka: producing only");
  });
});
