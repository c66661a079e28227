/**
 * The provenance coverage table: docs/data.md carries what `npm run docs:coverage` writes from the
 * data today, and its counts add up (a provider's row never claims more than its services).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { describe, expect, it } from "vitest";
import { provenanceByProvider, provenanceTable, withTable } from "../../catalogue/quality/provenance-table.ts";
import { SOURCE_BACKS } from "../../catalogue/schema/index.ts";
import { fixtureCatalogue, realCatalogue } from "../helpers/app.ts";

describe("the provenance coverage table", () => {
  it("in docs/data.md is what npm run docs:coverage writes from today's data", async () => {
    const path = fileURLToPath(new URL("../../docs/data.md", import.meta.url));
    const docs = readFileSync(path, "utf8");
    const written = withTable(docs, provenanceTable(provenanceByProvider(realCatalogue())));
    expect(await format(written, { ...(await resolveConfig(path)), filepath: path })).toBe(docs);
  });

  it("counts services, sources per kind of fact, own compliance and announced lifecycle entries", () => {
    const rows = provenanceByProvider(fixtureCatalogue());
    const aws = rows.find((row) => row.providerId === "aws")!;
    // aws-s3 has two sources (identity+description, compliance) and PCI DSS of its own.
    expect(aws).toMatchObject({ withSources: 1, withCompliance: 1 });
    expect(aws.byKind).toMatchObject({ identity: 1, description: 1, compliance: 1, identifiers: 0, lifecycle: 0 });
    for (const row of rows) {
      expect(row.withSources).toBeLessThanOrEqual(row.services);
      for (const kind of SOURCE_BACKS) expect(row.byKind[kind]).toBeLessThanOrEqual(row.withSources);
      expect(row.lifecycleWithAnnouncementSource).toBeLessThanOrEqual(row.lifecycleEntries);
    }
    const all = rows.at(-1)!;
    expect(all.providerId).toBe("all");
    expect(all.services).toBe(fixtureCatalogue().services.length);
  });

  it("refuses docs without the table's markers", () => {
    expect(() => withTable("# Data\n", "| a |")).toThrow(/markers/);
  });
});
