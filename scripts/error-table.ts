/**
 * `npm run docs:errors`: writes the error catalogue (catalogue/base/error-catalogue.ts) as a table into
 * docs/api.md between its markers; tests/docs/error-table.test.ts fails when the committed table is
 * not what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { errorTable, withErrorTable } from "../catalogue/base/error-catalogue.ts";

const path = fileURLToPath(new URL("../docs/api.md", import.meta.url));
const text = withErrorTable(readFileSync(path, "utf8"), errorTable());
writeFileSync(path, await format(text, { ...(await resolveConfig(path)), filepath: path }));
console.log("wrote docs/api.md: the error catalogue");
