/**
 * What an exit loses, said truly (issue 98): a job's fit and "what is lost" come from the
 * capabilities the replaced service has (catalogue/data/capabilities.yaml), not from group
 * membership alone; the ranking keeps more of them first; the data file is checked.
 */
import { describe, expect, it } from "vitest";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { capabilityData, capabilityDifference, capabilityIndex } from "../../catalogue/capabilities/capabilities.ts";
import { capabilitiesProblems } from "../../catalogue/load/capabilities.ts";
import type { ServiceAt, ProviderAt } from "../../catalogue/load/entry-checks.ts";
import type { CapabilitiesFileT } from "../../catalogue/schema/capabilities.ts";
import { capabilityCoverage, capabilityProblems } from "../../catalogue/exit/capability-coverage.ts";
import { exitPlanDoc } from "../../catalogue/render/exit-plan.ts";
import { renderMarkdown } from "../../catalogue/format/markdown.ts";
import type { HttpError } from "../../catalogue/base/problem.ts";
import type { ExitPlanT, ExitServicePlanT } from "../../catalogue/schema/index.ts";
import { EXAMPLE_PLANS } from "../fixtures/exit-plans.ts";
import { compareServices } from "../../catalogue/equivalence/compare.ts";
import { serviceDetail } from "../../catalogue/search/query.ts";
import { comparePage } from "../../catalogue/render/pages.ts";
import { servicePage } from "../../catalogue/render/service-page.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
const jobOf = (slug: string, to: Parameters<typeof exitPlan>[2], group: string) => {
  const entry = exitPlan(catalogue, [slug], to).services[0]!;
  return { entry, job: entry.jobs!.find((job) => job.group === group)! };
};

describe("what an exit loses (capabilities)", () => {
  it("sends Azure Files to a share that keeps SMB before NFS-only ones, and names SMB where it is lost", () => {
    const { entry, job } = jobOf("azure-files", { sovereignOption: true }, "file-storage");
    // Issue 114: NAS-HA's page limits its CIFS shares to Windows servers on OVHcloud's network,
    // which the plan names as SMB kept in part only; it still ranks above every NFS-only share.
    expect(entry.candidates[0]!.slug).toBe("ovhcloud-nas-ha");
    expect(job.capabilities!.partial).toContain("smb");
    const nasHa = exitPlan(catalogue, ["azure-files"], { providers: ["ovhcloud"] }).services[0]!.jobs![0]!;
    expect(nasHa.by).toBe("ovhcloud-nas-ha");
    expect(nasHa.capabilities!.partial).toEqual(["smb"]);
    expect(nasHa.lost.join(" ")).toContain(
      "SMB file shares (smb): in part only (CIFS shares mounted from Windows servers on OVHcloud's network",
    );
    const nfsOnly = exitPlan(catalogue, ["azure-files"], { providers: ["ionos"] }).services[0]!;
    const lost = nfsOnly.jobs!.find((j) => j.group === "file-storage")!;
    expect(lost.by).toBe("ionos-network-file-storage");
    expect(lost.status).toBe("partial");
    expect(lost.capabilities!.lost).toEqual(["smb"]);
    expect(lost.lost).toContain("SMB file shares (smb): not supported");
    // Ranked by what it keeps: every NFS-only share in the sovereign plan ranks below the SMB one.
    const smbAt = entry.candidates.findIndex((c) => c.slug === "ovhcloud-nas-ha");
    const ionosAt = entry.candidates.findIndex((c) => c.slug === "ionos-network-file-storage");
    expect(smbAt).toBeLessThan(ionosAt);
  });

  it("says a secret store loses Key Vault's encrypt, sign and wrap operations, and ranks a key manager first", () => {
    const { job } = jobOf("azure-key-vault", { providers: ["elastx"] }, "key-management");
    expect(job.by).toBe("elastx-barbican");
    expect(job.status).toBe("partial");
    expect(job.capabilities!.lost).toEqual(["encrypt-decrypt", "sign-verify", "wrap-unwrap"]);
    const sovereign = exitPlan(catalogue, ["azure-key-vault"], { sovereignOption: true }).services[0]!;
    const keys = sovereign.jobs!.find((j) => j.group === "key-management")!;
    expect(keys.by).not.toBe("elastx-barbican");
    expect(keys.capabilities!.lost).toEqual([]);
  });

  it("never calls a push-only notifier an equivalent of Pub/Sub with nothing lost", () => {
    const { job } = jobOf("gcp-pubsub", { providers: ["otc"] }, "pub-sub");
    expect(job.by).toBe("otc-simple-message-notification");
    expect(job.status).toBe("partial");
    expect(job.capabilities!.kept).toEqual(["push"]);
    expect(job.capabilities!.lost).toEqual(["pull"]);
    expect(job.lost).toContain("Pull delivery (pull): not supported");
    // Issue 114: what is not known is said to be checked, never counted as lost.
    expect(job.lost.some((words) => /not known/.test(words))).toBe(false);
    expect(job.unconfirmed!.some((words) => /Replay \(replay\): not known/.test(words))).toBe(true);
  });

  it("names Cosmos DB's multi-region writes and consistency levels as not known on a managed MongoDB", () => {
    const { job } = jobOf("azure-cosmos-db", { providers: ["ovhcloud"] }, "document-database");
    expect(job.by).toBe("ovhcloud-managed-mongodb");
    // Issue 114: not known is no loss: the job is covered, and what to check is said.
    expect(job.status).toBe("covered");
    expect(job.capabilities!.notKnown).toEqual(["multi-region-writes", "tunable-consistency"]);
    expect(job.unconfirmed).toEqual([
      "Multi-region writes (multi-region-writes): not known whether it is supported",
      "Tunable consistency (tunable-consistency): not known whether it is supported",
    ]);
    expect(job.lost).toEqual([]);
    const firestore = jobOf("gcp-firestore", { providers: ["ovhcloud"] }, "document-database").job;
    expect(firestore.capabilities!.notKnown).toEqual(["realtime-sync"]);
  });

  it("leaves a job whose replaced service has no recorded capabilities as membership says", () => {
    const { job } = jobOf("aws-rds-postgresql", { providers: ["ovhcloud"] }, "managed-postgresql");
    if (job) expect(job.capabilities).toBeUndefined();
  });
});

describe("capabilityDifference", () => {
  const index = capabilityIndex({
    capabilities: ["a", "b", "c", "d"].map((id) => ({ id, name: id.toUpperCase(), means: id })),
    jobs: [{ group: "g", capabilities: ["a", "b", "c", "d"] }],
    services: [
      { service: "from", has: ["a", "b", "c"], lacks: ["d"] },
      { service: "to", has: ["a", "d"], lacks: ["b"] },
    ],
  });
  it("splits the replaced service's capabilities into kept, lost and not known, and names what is gained", () => {
    expect(capabilityDifference(index, "g", "from", "to")).toEqual({
      kept: ["a"],
      lost: ["b"],
      notKnown: ["c"],
      gained: ["d"],
    });
  });
  it("says nothing where the replaced service has none recorded or the job has no capabilities", () => {
    expect(capabilityDifference(index, "g", "to-less", "to")).toBeUndefined();
    expect(capabilityDifference(index, "other", "from", "to")).toBeUndefined();
  });
});

describe("capabilities.yaml checks", () => {
  const source = { url: "https://docs.example.com/x", retrieved: "2026-11-28" };
  const entries = new Map<string, ServiceAt>([
    ["p-one", { path: "x", providerId: "p", entry: { slug: "p-one", name: "One", category: "storage" } }],
    ["q-two", { path: "y", providerId: "q", entry: { slug: "q-two", name: "Two", category: "storage" } }],
  ]);
  const providers = new Map(
    ["p", "q"].map((id) => [id, { path: id, file: { officialDomains: ["example.com"] } } as unknown as ProviderAt]),
  );
  const groups = [{ id: "g", services: ["p-one", "q-two"] }];
  const file = (services: CapabilitiesFileT["services"]): CapabilitiesFileT => ({
    capabilities: [
      { id: "a", name: "A", means: "a" },
      { id: "b", name: "B", means: "b" },
    ],
    jobs: [{ group: "g", capabilities: ["a", "b"] }],
    services,
  });
  it("accepts a sourced entry", () => {
    expect(
      capabilitiesProblems(
        file([{ service: "p-one", has: ["a"], lacks: ["b"], sources: [source] }]),
        "f",
        groups,
        entries,
        providers,
      ),
    ).toEqual([]);
  });
  it("names an unsourced claim, an unknown capability, a capability stated twice and a source off the provider's domains", () => {
    const problems = capabilitiesProblems(
      file([
        { service: "p-one", has: ["a"] },
        {
          service: "q-two",
          has: ["a", "z"],
          lacks: ["a"],
          sources: [{ url: "https://elsewhere.org/", retrieved: "2026-11-28" }],
        },
      ]),
      "f",
      groups,
      entries,
      providers,
    ).join("\n");
    expect(problems).toMatch(/p-one\): has, partly and lacks need sources/);
    expect(problems).toMatch(/"z" is not a capability of a job it does/);
    expect(problems).toMatch(/"a" is in more than one of has, lacks and notKnown/);
    expect(problems).toMatch(/host elsewhere.org is not one of the provider's officialDomains/);
  });
});

describe("capability coverage (check:data)", () => {
  it("looks at the big three's flagship of every capability-defined job, and counts the members stating capabilities", () => {
    const coverage = capabilityCoverage(catalogue);
    expect(coverage.map((row) => row.group)).toContain("file-storage");
    expect(capabilityProblems(coverage)).toEqual([]);
    const files = coverage.find((row) => row.group === "file-storage")!;
    expect(files.stated).toBeGreaterThanOrEqual(14);
    expect(files.without).not.toContain("azure-files");
    expect(coverage.flatMap((row) => row.flagshipsWithout)).toEqual([]);
    // Pub/Sub queues first, yet it is GCP's pub/sub: every job has a flagship per provider that has a member.
    expect(coverage.find((row) => row.group === "pub-sub")!.flagships).toContain("gcp-pubsub");
  });

  it("fails on a big-three flagship whose entry is only notKnown, as on one with no entry", () => {
    const file = catalogue.source.capabilities!;
    const withEntry = (services: typeof file.services) => {
      const changed = { ...file, services };
      return {
        ...catalogue,
        capabilities: capabilityIndex(capabilityData(changed)),
        source: { ...catalogue.source, capabilities: changed },
      };
    };
    const notKnownOnly = withEntry(
      file.services.map((entry) =>
        entry.service === "aws-mq"
          ? { service: "aws-mq", notKnown: ["pull", "push", "fifo-ordering", "dead-letter", "replay"] }
          : entry,
      ),
    );
    const problems = capabilityProblems(capabilityCoverage(notKnownOnly));
    expect(problems).toEqual([
      expect.stringMatching(/^CAPABILITIES_MISSING: aws-mq is its provider's flagship for message-queue/),
    ]);
    const noEntry = withEntry(file.services.filter((entry) => entry.service !== "aws-kms"));
    expect(capabilityProblems(capabilityCoverage(noEntry))).toEqual([
      expect.stringMatching(/aws-kms .* key-management/),
    ]);
  });
});

describe("the jobs a team runs (jobsUsed)", () => {
  it("plans only the jobs given, the first primary, and refuses a job the service does not do", () => {
    const plan = exitPlan(
      catalogue,
      ["azure-key-vault"],
      { providers: ["scaleway"] },
      {
        "azure-key-vault": ["secrets-management"],
      },
    );
    const entry = plan.services[0]!;
    expect(entry.jobs!.map((job) => [job.group, job.primary, job.optional])).toEqual([
      ["secrets-management", true, undefined],
    ]);
    expect(entry.candidates[0]!.slug).toBe("scaleway-secret-manager");
    const refusal = (jobsUsed: Record<string, string[]>) => {
      try {
        exitPlan(catalogue, ["azure-key-vault"], { providers: ["scaleway"] }, jobsUsed);
      } catch (error) {
        return error as HttpError;
      }
      throw new Error("not refused");
    };
    const notOne = refusal({ "azure-key-vault": ["object-storage"] });
    expect([notOne.statusCode, notOne.title]).toEqual([400, "Invalid body"]);
    expect(notOne.details).toMatch(/object-storage is not a job of Azure Key Vault; its jobs: /);
    expect(refusal({ "aws-s3": ["object-storage"] }).details).toMatch(/aws-s3, which is not in approvedServiceIds/);
  });

  it("without them, marks the other jobs optional and leaves them out of coverage and fallback", () => {
    const plan = exitPlan(catalogue, ["azure-key-vault"], { providers: ["ionos", "stackit"] });
    const entry = plan.services[0]!;
    expect(entry.jobs![0]!.optional).toBeUndefined();
    expect(entry.jobs!.slice(1).every((job) => job.optional === true)).toBe(true);
    const primary = entry.jobs![0]!;
    expect(entry.coverage).toBe(primary.status);
    expect(plan.summary.jobs!.optional).toBe(entry.jobs!.length - 1);
  });

  it("counts in the headline exactly the jobs the table lists", () => {
    const plan = exitPlan(catalogue, ["azure-key-vault", "gcp-pubsub", "azure-files", "aws-s3", "aws-elb"], {
      sovereignOption: true,
    });
    const rows = plan.services.filter((entry) => entry.outcome !== "stays").flatMap((entry) => entry.jobs ?? []);
    const jobs = plan.summary.jobs!;
    expect(jobs.total).toBe(rows.length);
    expect(jobs.covered + jobs.partial + jobs.gap).toBe(rows.length);
    expect(jobs.optional ?? 0).toBe(rows.filter((job) => job.optional).length);
    const markdown = renderMarkdown(exitPlanDoc(catalogue, plan));
    expect(markdown).toContain(`of ${rows.length}`);
    // The Jobs table names each job once, with its role: one primary per service, the rest optional.
    const roles = markdown.split("## Jobs")[1]!.match(/\((?:primary|optional)\):/g) ?? [];
    expect(roles.length).toBe(rows.length);
  });
});

describe("placement by workload (network- and account-tied services)", () => {
  // The jobs that follow what they serve, as data (placement.yaml, issue 114), not names in code.
  const tied = (entry: ExitServicePlanT) => catalogue.follows!.has(entry.jobs?.[0]?.group ?? "");
  /** Every tied service goes to a provider receiving a workload wherever one of them does its primary job. */
  const followsWorkloads = (plan: ExitPlanT) => {
    const mapped = plan.services.filter((entry) => entry.outcome === "mapped");
    const receiving = new Set([
      ...plan.services.filter((entry) => entry.outcome === "stays").map((entry) => entry.providerId),
      ...mapped.filter((entry) => !tied(entry)).map((entry) => entry.candidates[0]!.providerId),
    ]);
    for (const entry of mapped.filter(tied)) {
      const primary = entry.jobs![0]!.group;
      const there = entry.candidates.some((c) => receiving.has(c.providerId) && c.jobs?.includes(primary));
      if (there)
        expect(receiving.has(entry.candidates[0]!.providerId), `${entry.slug} → ${entry.candidates[0]!.slug}`).toBe(
          true,
        );
    }
  };

  it("puts the VPN, network, balancer, identity and monitoring where the servers and databases go", () => {
    const plan = exitPlan(
      catalogue,
      [
        "aws-ec2",
        "aws-s3",
        "aws-rds-postgresql",
        "aws-site-to-site-vpn",
        "aws-vpc",
        "aws-elb",
        "aws-iam",
        "aws-cloudwatch",
      ],
      { sovereignOption: true },
    );
    const to = Object.fromEntries(plan.services.map((entry) => [entry.slug, entry.candidates[0]!.providerId]));
    expect(to["aws-ec2"]).toBe("otc");
    for (const slug of ["aws-site-to-site-vpn", "aws-vpc", "aws-elb", "aws-iam", "aws-cloudwatch"])
      expect(to[slug], slug).toBe(to["aws-ec2"]);
    const vpn = plan.services.find((entry) => entry.slug === "aws-site-to-site-vpn")!;
    expect(vpn.candidates[0]!.reason).toMatch(/receives \d+ of the services this one serves/);
    followsWorkloads(plan);
  });

  it("holds for every reviewed example plan", () => {
    for (const example of EXAMPLE_PLANS) followsWorkloads(exitPlan(catalogue, example.approvedServiceIds, example.to));
  });
});

describe("key differences (compare and the service page)", () => {
  it("say on compare what the exit plan says is lost, from the same function", () => {
    const result = compareServices(catalogue, ["azure-files", "ionos-network-file-storage"]);
    const there = result.keyDifferences!.find((row) => row.from === "azure-files")!;
    expect(there).toMatchObject({ group: "file-storage", kept: ["nfs-v4"], lost: ["smb"] });
    // Issue 114: the protocols too, each record's page named.
    expect(there.words).toBe(
      "keeps NFS v4; loses SMB file shares (not supported); still speaks NFS; does not speak SMB (NFSv4.2 shares only; no SMB)",
    );
    expect(there.compatibility).toEqual({ kept: ["nfs"], partial: [], lost: ["smb: NFSv4.2 shares only; no SMB"] });
    expect(there.sources!.length).toBeGreaterThan(0);
    const plan = exitPlan(catalogue, ["azure-files"], { providers: ["ionos"] }).services[0]!;
    expect(plan.jobs![0]!.capabilities!.lost).toEqual(there.lost);
    // Back the other way: IONOS's NFS v4.2 share to Azure Files keeps it.
    expect(result.keyDifferences!.find((row) => row.from === "ionos-network-file-storage")!.kept).toEqual(["nfs-v4"]);
  });

  it("list on a service's detail what moving to each equivalent keeps and loses", () => {
    const detail = serviceDetail(catalogue, "azure-key-vault")!;
    const barbican = detail.keyDifferences!.find((row) => row.to === "elastx-barbican")!;
    expect(barbican.lost).toEqual(["encrypt-decrypt", "sign-verify", "wrap-unwrap"]);
    // Issue 114: a service with no capabilities recorded still gets its protocols compared, sourced.
    const postgres = serviceDetail(catalogue, "aws-rds-postgresql")!.keyDifferences!;
    expect(postgres.every((row) => row.compatibility !== undefined && row.sources!.length > 0)).toBe(true);
    expect(postgres.some((row) => row.compatibility!.kept.includes("postgresql"))).toBe(true);
  });
});

describe("key differences on the text host's pages", () => {
  it("shows on compare and on a service's equivalents what moving keeps and loses", () => {
    const compare = renderMarkdown(comparePage(catalogue, ["azure-files", "ionos-network-file-storage"]));
    expect(compare).toContain("## Key differences");
    expect(compare).toContain("keeps NFS v4; loses SMB file shares (not supported)");
    const page = renderMarkdown(servicePage(catalogue, "azure-key-vault"));
    expect(page).toContain("Moving there");
    expect(page).toMatch(/loses Encrypt and decrypt operations, Sign and verify operations, Envelope encryption/);
  });
});
