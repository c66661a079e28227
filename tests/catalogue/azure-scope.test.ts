/**
 * Microsoft's FedRAMP and DoD scope table for Azure public, read whole (issue 124): every row, in
 * each form the table writes ("(formerly X)", "(incl. A, B, and C)", "(part of X)", a product line
 * before a colon, footnote marks), lands on a catalogue service or is listed with why; the services
 * it lands on list FedRAMP High with that page, unless retired; and no service cites the page for a
 * programme the table does not name it for.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { azureScopeRows, azureServicesForRow, unexplainedAzureRows } from "../../catalogue/compliance/azure-scope.ts";
import { realCatalogue } from "../helpers/catalogue.ts";

const catalogue = realCatalogue();
const PAGE = "azure-services-in-fedramp-auditscope";
const rows = azureScopeRows(
  readFileSync(new URL("../../catalogue/reference/azure-compliance/fedramp-azure-public.txt", import.meta.url), "utf8"),
);
const candidates = catalogue.services
  .filter((service) => service.providerId === "azure")
  .map((service) => ({
    slug: service.slug,
    names: [service.name, ...(service.shortName ? [service.shortName] : []), ...(service.aliases ?? [])],
  }));
const landed = new Map(rows.map((row) => [row, azureServicesForRow(row, candidates)]));

describe("Azure's FedRAMP scope table, read whole (issue 124)", () => {
  it("reads the table's forms: former names, inclusions, 'part of', product lines and footnotes", () => {
    const byCell = (start: string) => rows.find((row) => row.cell.startsWith(start))!;
    expect(byCell("Azure Monitor").includes).toEqual([
      "Application Insights",
      "Log Analytics",
      "Application Change Analysis",
    ]);
    expect(byCell("Microsoft Sentinel").formerly).toEqual(["Azure Sentinel"]);
    expect(byCell("Azure AI Foundry: Azure AI Speech").name).toBe("Azure AI Speech");
    expect(byCell("Azure AI services: Text Analytics").name).toBe("Text Analytics");
    expect(byCell("Azure Databricks").footnotes).toBe(2);
    expect(byCell("Storage: Blobs").includes).toEqual(["Azure Data Lake Storage Gen2"]);
    expect(rows).toHaveLength(193);
  });

  it("lands every row on a catalogue service, or lists it with why", () => {
    const { rows: unexplained, stale } = unexplainedAzureRows(rows.filter((row) => landed.get(row)!.length === 0));
    expect(unexplained).toEqual([]);
    expect(stale).toEqual([]);
  });

  it("gives every active service a row lands on FedRAMP High from this page, and cites it for no other", () => {
    const onRows = new Set([...landed.values()].flat());
    for (const slug of onRows) {
      const record = catalogue.bySlug.get(slug)!;
      const status = record.service.lifecycle?.status;
      if (status === "retired" || status === "preview") continue;
      expect(record.service.compliance, slug).toContain("fedramp-high");
      expect(
        record.sources.some((source) => source.url.includes(PAGE) && source.backs.includes("compliance")),
        slug,
      ).toBe(true);
    }
    for (const service of catalogue.services.filter((each) => each.providerId === "azure"))
      if (catalogue.bySlug.get(service.slug)!.sources.some((source) => source.url.includes(PAGE)))
        expect(onRows.has(service.slug), service.slug).toBe(true);
  });

  it("reads the Entra ID row's footnote: its authorization applies to Entra External ID", () => {
    const entra = rows.find((row) => row.cell.startsWith("Microsoft Entra ID (Free)"))!;
    expect(entra.footnotes).toBe(1);
    expect(landed.get(entra)).toEqual(["azure-entra-id", "azure-entra-external-id"]);
  });
});
