/**
 * `npm run scope:aws`: writes catalogue/data/scope/aws.yaml — which compliance programmes AWS's own
 * scope tables name each catalogue AWS service for — from the copies in
 * catalogue/reference/aws-compliance/ (2022-07-15; see its README). Logs the table rows no catalogue
 * service matched, so a reader sees what was left out. Re-run after adding or renaming AWS services;
 * after vendoring newer copies, move AWS_SCOPE_PAGES' dates (catalogue/compliance/aws-scope-pages.ts).
 */
import { writeFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { awsScopeFile, type ScopeEntry } from "../../catalogue/compliance/aws-scope.ts";
import { awsScopePages } from "../../catalogue/compliance/aws-scope-pages.ts";
import { readProviderServices } from "../../catalogue/load/load-services.ts";

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const OUTPUT = "catalogue/data/scope/aws.yaml";

const started = Date.now();
const entries = readProviderServices(root("catalogue/data"), "aws") as ScopeEntry[];
const { text, services, unmatched } = awsScopeFile(awsScopePages(), entries);
for (const { page, row } of unmatched)
  console.log(`  ${page}: no catalogue service for "${row.name}"${row.prefix ? ` (${row.prefix})` : ""}`);
mkdirSync(root("catalogue/data/scope"), { recursive: true });
writeFileSync(root(OUTPUT), text);
console.log(`wrote ${OUTPUT}: ${services} services (${Date.now() - started} ms)`);
