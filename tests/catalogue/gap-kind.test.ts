/**
 * Gaps that say which kind (issue 98): "not-sold" needs proof that every allowed provider sells
 * nothing doing the job. The reconciled Terraform inventories are no such proof, and these tests
 * hold the measurement behind that decision: every inventory misses current products of its
 * provider (OTC's misses AOM and Cloud Secret Management, both gaps the issue found false), so a
 * gap on a provider whose inventory has no such product stays "not-checked".
 */
import { describe, expect, it } from "vitest";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { inventoryCompletenessLine, servicesWithoutItem } from "../../catalogue/inventory/inventory.ts";
import { reconcileAll } from "../../catalogue/inventory/load.node.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();
const { reports } = reconcileAll(catalogue);
const currentOf = (providerId: string) =>
  catalogue.services
    .filter(
      (service) => service.providerId === providerId && (!service.lifecycle || service.lifecycle.status === "preview"),
    )
    .map((service) => service.slug);

describe("the Terraform inventories as proof that a job is not sold", () => {
  it("names the current services an inventory lists no resource for", () => {
    const otc = reports.find((report) => report.id === "otc/terraform")!;
    const missing = servicesWithoutItem(otc, currentOf("otc"));
    expect(missing).toEqual(
      expect.arrayContaining(["otc-application-operations-management", "otc-cloud-secret-management-service"]),
    );
    expect(missing).not.toContain("otc-elastic-cloud-server");
  });

  it("finds only bunny.net's listing every current service of its provider, and says none proves a job not sold", () => {
    const terraform = reports.filter((report) => report.id.endsWith("/terraform"));
    expect(terraform.length).toBeGreaterThan(20);
    // Issue 114: bunny.net's nine services were added from its pages with its Terraform provider's
    // types, so its inventory lists them all; what neither lists is no more seen than before.
    const complete = terraform.filter(
      (report) => servicesWithoutItem(report, currentOf(report.providerId)).length === 0,
    );
    expect(complete.map((report) => report.id)).toEqual(["bunny/terraform"]);
    expect(inventoryCompletenessLine(reports, currentOf)).toMatch(
      new RegExp(`: 1 of ${terraform.length}; none proves a job not sold`),
    );
  });
});

describe("gapKind", () => {
  it("stays not-checked where the target's inventory has no product doing the job", () => {
    // OTC's Terraform inventory has no queue resource (DMS for RocketMQ, sold, has none at its commit).
    const otc = reports.find((report) => report.id === "otc/terraform")!;
    const queueOwners = [...otc.owners.values()]
      .flat()
      .filter((slug) => catalogue.bySlug.get(slug)?.groupIds.includes("message-queue"));
    expect(queueOwners).toEqual([]);
    const entry = exitPlan(catalogue, ["aws-sqs"], { providers: ["otc"] }).services[0]!;
    expect(entry.jobs!.map((job) => [job.group, job.status, job.gapKind])).toEqual([
      ["message-queue", "gap", "not-checked"],
    ]);
  });
});
