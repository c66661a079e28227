/**
 * `npm run docs:coverage`: writes the provenance coverage table (per provider: services with
 * sources, per kind of fact, own compliance, lifecycle entries backed by the vendor's announcement)
 * into docs/data.md between its markers. tests/catalogue/provenance-table.test.ts fails when the
 * committed table is not what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { loadCatalogue } from "../catalogue/load.ts";
import { provenanceByProvider, provenanceTable, withTable } from "../catalogue/provenance-table.ts";

const started = Date.now();
const path = fileURLToPath(new URL("../docs/data.md", import.meta.url));
const rows = provenanceByProvider(loadCatalogue());
const text = withTable(readFileSync(path, "utf8"), provenanceTable(rows));
writeFileSync(path, await format(text, { ...(await resolveConfig(path)), filepath: path }));
console.log(`wrote docs/data.md: provenance table, ${rows.length - 1} providers (${Date.now() - started} ms)`);
