/**
 * Issue 125: after the heavy thread ended for idleness, the next heavy answer or computed page
 * waited for a new thread to load the catalogue (4.8–6.3 s under load). The request that finds it
 * ended is answered on the main thread, the thread started for the requests after it.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import type { FastifyInstance } from "fastify";
import { HeavyWorker } from "../../sidecar/worker/pool.ts";
import { ComputedPages } from "../../sidecar/text/computed.ts";
import { build, fixtureCatalogue, URLS } from "../helpers/app.ts";
import { workerCatalogueSource } from "../helpers/catalogue.ts";
import type { RecordStore } from "../../catalogue/contract/ports.ts";

const EXIT_PLAN = { approvedServiceIds: ["aws-s3", "aws-ec2", "aws-sqs"], to: { sovereignOption: true } };

describe("the first request after the heavy thread ended", () => {
  const apps: FastifyInstance[] = [];
  const workers: HeavyWorker[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await Promise.all(workers.map((worker) => worker.close()));
  });

  it("is a heavy row answered on the main thread, the thread started for the next", async () => {
    const heavyWorker = new HeavyWorker(workerCatalogueSource(), URLS, {} as RecordStore);
    workers.push(heavyWorker);
    const run = vi.spyOn(heavyWorker, "run");
    const app = await build({ heavyWorker });
    apps.push(app);
    expect(heavyWorker.running).toBe(false);
    const first = await app.inject({ method: "POST", url: "/v1/exit-plan", payload: EXIT_PLAN });
    expect(first.statusCode).toBe(200);
    expect(run).not.toHaveBeenCalled();
    expect(heavyWorker.running).toBe(true);
    // Another list (the first answer is kept): the thread answers it.
    const next = await app.inject({
      method: "POST",
      url: "/v1/exit-plan",
      payload: { ...EXIT_PLAN, approvedServiceIds: ["aws-s3", "aws-sqs"] },
    });
    expect(next.statusCode).toBe(200);
    expect(run).toHaveBeenCalledTimes(1);
  }, 60_000);

  it("is a text page computed on the main thread, the thread started for the next", async () => {
    const catalogue = fixtureCatalogue();
    const worker = new HeavyWorker(workerCatalogueSource(), URLS, {} as RecordStore);
    workers.push(worker);
    const textPage = vi.spyOn(worker, "textPage");
    const pages = new ComputedPages(catalogue, worker);
    const job = {
      name: "equivalents",
      input: { query: "providers=aws,ovhcloud", rendering: "md", width: 80 },
    } as const;
    const first = await pages.text(job);
    expect(first.status).toBe(200);
    expect(textPage).not.toHaveBeenCalled();
    expect(worker.running).toBe(true);
    await pages.text({ ...job, input: { ...job.input, width: 100 } });
    expect(textPage).toHaveBeenCalledTimes(1);
  }, 60_000);
});
