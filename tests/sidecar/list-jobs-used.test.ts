/**
 * The jobs a team runs, kept with a saved list (issue 98): POST /v1/lists takes jobsUsed as POST
 * /v1/exit-plan does, the list returns it, and the list's exit plan (the API's and the text host's)
 * plans only those jobs, its headline counting exactly its jobs table. Bad jobs are a 400 in the
 * Error shape when the list is saved; jobs the catalogue no longer gives the service are named on a
 * read, never refused.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveJobsUsed } from "../../catalogue/lists/lists.ts";
import type { ExitPlanT } from "../../catalogue/schema/index.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { build, postJson, realCatalogue, tempStore } from "../helpers/app.ts";

const ids = ["azure-key-vault", "aws-ec2"];
const jobsUsed = { "azure-key-vault": ["key-management"], "aws-ec2": ["virtual-machines"] };
const jobsOf = (plan: ExitPlanT, slug: string) =>
  plan.services.find((entry) => entry.slug === slug)!.jobs!.map((job) => job.group);

describe("a saved list's jobs used", () => {
  it("is returned with the list and plans only those jobs, where the list without them plans all", async () => {
    const app = await build();
    const saved = await app.inject(postJson("/v1/lists", { approvedServiceIds: ids, slug: "keys-and-vms", jobsUsed }));
    expect(saved.statusCode).toBe(200);
    expect(saved.json().jobsUsed).toEqual(jobsUsed);
    expect((await app.inject("/v1/lists/keys-and-vms")).json().jobsUsed).toEqual(jobsUsed);
    await app.inject(postJson("/v1/lists", { approvedServiceIds: ids, slug: "keys-and-vms-all" }));
    expect((await app.inject("/v1/lists/keys-and-vms-all")).json().jobsUsed).toBeUndefined();

    const used: ExitPlanT = (await app.inject("/v1/lists/keys-and-vms/exit-plan?providers=scaleway")).json();
    expect(jobsOf(used, "azure-key-vault")).toEqual(["key-management"]);
    expect(jobsOf(used, "aws-ec2")).toEqual(["virtual-machines"]);
    expect(used.services.flatMap((entry) => entry.jobs ?? []).some((job) => job.optional)).toBe(false);
    expect(used.summary.jobs).toMatchObject({ total: 2 });
    expect(used.summary.jobs!.optional ?? 0).toBe(0);

    const all: ExitPlanT = (await app.inject("/v1/lists/keys-and-vms-all/exit-plan?providers=scaleway")).json();
    expect(jobsOf(all, "azure-key-vault")).toEqual(["key-management", "secrets-management", "certificate-manager"]);
    expect(jobsOf(all, "aws-ec2")).toContain("macos-instances");
  });

  it("counts in the headline exactly the jobs its table lists (JSON and Markdown)", async () => {
    const app = await build();
    const partly = { "azure-key-vault": ["key-management", "secrets-management"] };
    await app.inject(postJson("/v1/lists", { approvedServiceIds: ids, slug: "partly-said", jobsUsed: partly }));
    const plan: ExitPlanT = (await app.inject("/v1/lists/partly-said/exit-plan?sovereignOption=true")).json();
    const rows = plan.services.filter((entry) => entry.outcome !== "stays").flatMap((entry) => entry.jobs ?? []);
    const jobs = plan.summary.jobs!;
    expect(jobsOf(plan, "azure-key-vault")).toEqual(["key-management", "secrets-management"]);
    expect(jobs.total).toBe(rows.length);
    expect(jobs.covered + jobs.partial + jobs.gap).toBe(rows.length);
    expect(jobs.gap).toBe(rows.filter((job) => job.status === "gap").length);
    // EC2 was not said: its jobs past the primary stay optional.
    expect(jobs.optional ?? 0).toBe(rows.filter((job) => job.optional).length);
    expect(jobs.optional).toBeGreaterThan(0);
    const markdown = (await app.inject("/v1/lists/partly-said/exit-plan?sovereignOption=true&format=md")).body;
    expect(markdown).toContain(`of ${rows.length}`);
    // Every job of the table names its role: the first said primary, the other said used, EC2's others optional.
    const roles = markdown.split("## Jobs")[1]!.match(/\((?:primary|used|optional)\):/g) ?? [];
    expect(roles.length).toBe(rows.length);
    expect(markdown).toMatch(/Secrets management \(used\): covered/);
  });

  it("plans the same jobs on the text host's list exit plan", async () => {
    const store = await tempStore();
    const api = await build({ store });
    await api.inject(postJson("/v1/lists", { approvedServiceIds: ids, slug: "text-host-jobs", jobsUsed }));
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: realCatalogue(),
      store,
    });
    onTestFinished(() => text.close());
    const page = await text.inject("/lists/text-host-jobs/exit-plan?providers=scaleway&format=md");
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/Key management/i);
    expect(page.body).not.toMatch(/Certificate/i);
    expect(page.body).not.toMatch(/macOS/i);
  });

  it("refuses bad jobs when the list is saved, in the Error shape, and saves nothing", async () => {
    const app = await build();
    const refused = async (body: unknown) => {
      const response = await app.inject(postJson("/v1/lists", { approvedServiceIds: ids, slug: "refused", ...body! }));
      expect(response.statusCode).toBe(400);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      return response.json() as { error: string; status: number; details?: string };
    };
    const notListed = await refused({ jobsUsed: { "aws-s3": ["object-storage"] } });
    expect(notListed).toMatchObject({ error: "Invalid body", status: 400 });
    expect(notListed.details).toMatch(/aws-s3, which is not in approvedServiceIds/);
    const notAJob = await refused({ jobsUsed: { "azure-key-vault": ["object-storage"] } });
    expect(notAJob.details).toMatch(/object-storage is not a job of Azure Key Vault; its jobs: key-management/);
    expect((await refused({ jobsUsed: { "azure-key-vault": [] } })).status).toBe(400);
    expect((await refused({ jobsUsed: ["key-management"] })).status).toBe(400);
    expect((await app.inject("/v1/lists/refused")).statusCode).toBe(404);
  });

  it("keeps them across a restart of the embedded store (its log replayed)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-jobs-used-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const store = await EmbeddedStore.open(dir);
    const app = await build({ store });
    await app.inject(postJson("/v1/lists", { approvedServiceIds: ids, slug: "kept-jobs", jobsUsed }));
    await app.close();
    await store.close();
    const reopened = await EmbeddedStore.open(dir);
    onTestFinished(() => reopened.close());
    const restarted = await build({ store: reopened });
    expect((await restarted.inject("/v1/lists/kept-jobs")).json().jobsUsed).toEqual(jobsUsed);
    const plan: ExitPlanT = (await restarted.inject("/v1/lists/kept-jobs/exit-plan?providers=scaleway")).json();
    expect(jobsOf(plan, "azure-key-vault")).toEqual(["key-management"]);
  });

  it("makes other jobs another body for an Idempotency-Key (422)", async () => {
    const app = await build();
    const key = { "idempotency-key": "jobs-used-key" };
    const first = await app.inject(postJson("/v1/lists", { approvedServiceIds: ids, jobsUsed }, key));
    const retry = await app.inject(postJson("/v1/lists", { approvedServiceIds: ids, jobsUsed }, key));
    expect(retry.json().id).toBe(first.json().id);
    const other = { "azure-key-vault": ["secrets-management"] };
    expect(
      (await app.inject(postJson("/v1/lists", { approvedServiceIds: ids, jobsUsed: other }, key))).statusCode,
    ).toBe(422);
  });
});

describe("resolveJobsUsed (a stored list read against today's catalogue)", () => {
  it("keeps the jobs still the service's, names the others, and drops a service left with none", () => {
    const catalogue = realCatalogue();
    expect(
      resolveJobsUsed(catalogue, {
        jobsUsed: {
          "azure-key-vault": ["key-management", "retired-job"],
          "aws-ec2": ["retired-job"],
          "gone-service": ["object-storage"],
        },
      }),
    ).toEqual({
      jobsUsed: { "azure-key-vault": ["key-management"] },
      dropped: ["azure-key-vault: retired-job", "aws-ec2: retired-job"],
    });
    expect(resolveJobsUsed(catalogue, {})).toEqual({ jobsUsed: undefined, dropped: [] });
  });
});
