/**
 * `npm run docs:coverage`: writes the provenance coverage table (per provider: services with
 * sources, per kind of fact, own compliance, lifecycle entries backed by the vendor's announcement)
 * the vendor inventory coverage table (catalogue/inventory) and issue 128's backed descriptions
 * per provider (catalogue/quality/backed-table.ts) into docs/data.md between their markers.
 * tests/catalogue/provenance-table.test.ts, inventory.test.ts and backed-table.test.ts fail when a
 * committed table is not what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { coverageTable, withInventoryTable } from "../catalogue/inventory/inventory.ts";
import { reconcileAll } from "../catalogue/inventory/load.node.ts";
import { loadCatalogue } from "../catalogue/load/load.ts";
import { provenanceByProvider, provenanceTable, withTable } from "../catalogue/quality/provenance-table.ts";
import { backedTable, withBackedTable } from "../catalogue/quality/backed-table.ts";
import { readCopyExcerpts } from "../catalogue/quality/copies.node.ts";

const started = Date.now();
const path = fileURLToPath(new URL("../docs/data.md", import.meta.url));
const catalogue = loadCatalogue();
const rows = provenanceByProvider(catalogue);
const { inventories, reports } = reconcileAll(catalogue);
const excerpted = new Set(readCopyExcerpts().map((copy) => copy.via));
const text = withBackedTable(
  withInventoryTable(withTable(readFileSync(path, "utf8"), provenanceTable(rows)), coverageTable(reports, inventories)),
  backedTable(catalogue, excerpted),
);
writeFileSync(path, await format(text, { ...(await resolveConfig(path)), filepath: path }));
console.log(
  `wrote docs/data.md: provenance table, ${rows.length - 1} providers; inventory table, ${reports.length} inventories; backed table (${Date.now() - started} ms)`,
);
