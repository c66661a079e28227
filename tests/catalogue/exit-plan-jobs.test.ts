/**
 * Exit plans by job (issue 86; catalogue/exit/jobs.ts): every job of a service is covered, partial
 * or a gap, the entry's coverage is the worst of them, more allowed providers never cover fewer
 * jobs, and a gap names the providers outside the target that sell the job.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import type { ExitServicePlanT } from "../../catalogue/schema/index.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();

/** The jobs of one entry with a status other than gap. */
const done = (entry: ExitServicePlanT) => (entry.jobs ?? []).filter((job) => job.status !== "gap").length;
const RANK = { covered: 0, partial: 1, gap: 2 } as const;

describe("exit plans by job", () => {
  it("lists every group of a multi-job service as a job, primary first, and never covers fewer with more providers", () => {
    const record = catalogue.bySlug.get("azure-key-vault")!;
    expect(record.groupIds.length).toBeGreaterThan(2);
    const one = exitPlan(catalogue, ["azure-key-vault"], { providers: ["ionos"] }).services[0]!;
    const two = exitPlan(catalogue, ["azure-key-vault"], { providers: ["ionos", "stackit"] }).services[0]!;
    for (const entry of [one, two]) {
      expect(entry.jobs!.map((job) => job.group).sort()).toEqual([...record.groupIds].sort());
      expect(entry.jobs!.filter((job) => job.primary)).toHaveLength(1);
      expect(entry.jobs![0]!.primary).toBe(true);
      // The entry's coverage is the worst of its jobs, never the best.
      expect(RANK[entry.coverage!]).toBe(Math.max(...entry.jobs!.map((job) => RANK[job.status])));
      // Every job a candidate covers is covered by a proposed one: the list takes it. An optional
      // job (issue 98: not said to be used) is taken only on a provider the list uses.
      for (const job of entry.jobs!.filter((j) => j.status !== "gap" && !j.optional)) {
        expect(job.proposed, `${job.group} by ${job.by}`).toBe(true);
        expect(entry.candidates.find((c) => c.slug === job.by)?.jobs).toContain(job.group);
      }
    }
    // IONOS alone: certificates only; with STACKIT, its key manager and secret manager as well.
    expect(one.jobs!.find((job) => job.group === "key-management")!.status).toBe("gap");
    expect(done(two)).toBeGreaterThan(done(one));
    expect(two.jobs!.find((job) => job.group === "secrets-management")!.by).toBe("stackit-secrets-manager");
  });

  // Issue 114: consolidation comes before how well a job is done, so more providers may take a
  // candidate doing a used job in part where fewer took one doing it whole (the loss is named);
  // but a used job done is never left undone, and no job turns into a gap.
  it("never covers fewer jobs with more allowed providers (property)", () => {
    const moving = catalogue.services.filter((service) => ["aws", "azure", "gcp"].includes(service.providerId));
    const multi = moving.filter((service) => catalogue.bySlug.get(service.slug)!.groupIds.length > 1);
    const european = ["ovhcloud", "scaleway", "stackit", "ionos", "otc", "exoscale", "upcloud", "clevercloud", "s3ns"];
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...multi.map((service) => service.slug)), { minLength: 1, maxLength: 6 }),
        fc.uniqueArray(fc.constantFrom(...european), { minLength: 1, maxLength: 4 }),
        fc.uniqueArray(fc.constantFrom(...european), { minLength: 1, maxLength: 3 }),
        (ids, fewer, more) => {
          const small = exitPlan(catalogue, ids, { providers: fewer });
          const large = exitPlan(catalogue, ids, { providers: [...new Set([...fewer, ...more])] });
          const used = (entry: ExitServicePlanT) => ({
            ...entry,
            jobs: (entry.jobs ?? []).filter((job) => !job.optional),
          });
          small.services.forEach((entry, i) => {
            const wider = large.services[i]!;
            expect(done(used(wider)), `${entry.slug}: ${fewer.join()} → +${more.join()}`).toBeGreaterThanOrEqual(
              done(used(entry)),
            );
          });
          expect(large.summary.jobs!.gap).toBeLessThanOrEqual(small.summary.jobs!.gap);
        },
      ),
      { numRuns: 40, seed: 86 },
    );
  });

  it("calls a job partial when the only candidate speaks its protocol in part, and says what is lost", () => {
    const entry = exitPlan(catalogue, ["azure-event-hubs"], { providers: ["stackit"] }).services[0]!;
    const kafka = entry.jobs!.find((job) => job.group === "managed-kafka")!;
    expect(kafka.status).toBe("partial");
    expect(kafka.by).toBe("stackit-intake");
    expect(kafka.fit).toBe("partly-compatible");
    expect(kafka.lost.join(" ")).toMatch(/^kafka: producing only/);
    // Its other job has no candidate at all: the entry is a gap, not silently mapped.
    expect(entry.outcome).toBe("mapped");
    expect(entry.coverage).toBe("gap");
    expect(entry.fallback).toMatch(/Streaming data ingestion: sold by/);
  });

  it("names, for a gap, the providers outside the target that sell the job and whether it was checked", () => {
    const plan = exitPlan(catalogue, ["azure-functions"], { providers: ["ionos"] });
    const [gap] = plan.gaps;
    expect(gap!.slug).toBe("azure-functions");
    const sellers = gap!.elsewhere!;
    expect(sellers.map((seller) => seller.providerId)).toContain("aws");
    expect(sellers.find((seller) => seller.providerId === "aws")!.services).toContain("aws-lambda");
    // Only providers outside the target, never the service's own, each with open members of the group.
    const members = new Set(catalogue.groups.find((group) => group.id === "serverless-functions")!.services);
    for (const seller of sellers) {
      expect(["ionos", "azure"]).not.toContain(seller.providerId);
      for (const slug of seller.services) expect(members.has(slug)).toBe(true);
    }
    expect(gap!.gapKind).toBe("not-checked");
    expect(plan.services[0]!.fallback).toMatch(/Amazon Web Services \(aws-lambda\)/);
  });

  it("counts exposure by services first, providers second, and names each operator as published", () => {
    const plan = exitPlan(catalogue, ["alibaba-ecs", "aws-s3", "aws-ec2", "aws-rds-mysql"], { providers: ["otc"] });
    const { before } = plan.exposure;
    expect(before.usHeadquarteredServiceCount).toBe(3);
    expect(before.usHeadquarteredServicePercentage).toBe(75);
    expect(before.usHeadquarteredProviderPercentage).toBe(50);
    const alibaba = before.operators!.find((operator) => operator.providerId === "alibaba")!;
    expect(alibaba).toMatchObject({ headOfficeCountry: "SG", controllingCountry: "CN" });
    expect(alibaba.company).toMatch(/Alibaba Cloud/);
    expect(before.byControllingCountry!.map((row) => row.key)).toContain("CN");
  });
});
