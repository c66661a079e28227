/**
 * Issue 128's per-provider figures: docs/data.md carries what `npm run docs:coverage` writes from the
 * data today, and the counts add up (proven ≤ backed ≤ descriptions, the last row their sums).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { describe, expect, it } from "vitest";
import { backedByProvider, backedTable, withBackedTable } from "../../catalogue/quality/backed-table.ts";
import { readCopyExcerpts } from "../../catalogue/quality/copies.node.ts";
import { realCatalogue } from "../helpers/app.ts";

const excerpted = new Set(readCopyExcerpts().map((copy) => copy.via));

describe("the table of backed descriptions", () => {
  it("in docs/data.md is what npm run docs:coverage writes from today's data", async () => {
    const path = fileURLToPath(new URL("../../docs/data.md", import.meta.url));
    const docs = readFileSync(path, "utf8");
    const written = withBackedTable(docs, backedTable(realCatalogue(), excerpted));
    expect(await format(written, { ...(await resolveConfig(path)), filepath: path })).toBe(docs);
  });

  it("never counts more proven than backed, nor backed than descriptions, and sums them in all", () => {
    const rows = backedByProvider(realCatalogue(), excerpted);
    const all = rows.at(-1)!;
    expect(all.providerId).toBe("all");
    for (const row of rows) {
      expect(row.proven).toBeLessThanOrEqual(row.backed);
      expect(row.backed).toBeLessThanOrEqual(row.descriptions);
    }
    const providers = rows.slice(0, -1);
    expect(all.backed).toBe(providers.reduce((sum, row) => sum + row.backed, 0));
    expect(all.descriptions).toBe(realCatalogue().services.filter((service) => service.description).length);
  });

  it("counts a backed description proven only when every source with claims cites an excerpted copy", () => {
    const catalogue = realCatalogue();
    const none = backedByProvider(catalogue, new Set()).at(-1)!;
    expect(none.proven).toBe(0);
    expect(none.copies).toBe(0);
    expect(backedByProvider(catalogue, excerpted).at(-1)!.proven).toBeGreaterThan(0);
  });
});
