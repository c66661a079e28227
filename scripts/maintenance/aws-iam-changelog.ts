/**
 * `node scripts/maintenance/aws-iam-changelog.ts <changelog.json> [from] [to]`: lists the services AWS removed
 * from its Service Authorization Reference (data/json/changelog.json of the tobilg/aws-iam-data
 * repository on GitHub), 2023-01-01 to 2026-12-31 unless told: renames,
 * restorations, and the ones that ended, each with the catalogue service of that name and its
 * lifecycle status when the catalogue holds one. The lifecycle sweep starts from the last list.
 */
import { readFileSync } from "node:fs";
import { ended, iamRemovals, sameName, type IamChangelogDay } from "../../catalogue/inventory/aws-iam-changelog.ts";
import { loadCatalogue } from "../../catalogue/load/load.ts";

const [path, from = "2023-01-01", to = "2026-12-31"] = process.argv.slice(2);
if (!path) {
  console.error("usage: node scripts/maintenance/aws-iam-changelog.ts <aws-iam-data changelog.json> [from] [to]");
  process.exit(1);
}
const days = JSON.parse(readFileSync(path, "utf8")) as IamChangelogDay[];
const removals = iamRemovals(days, from, to);
const catalogue = loadCatalogue();
const inCatalogue = (name: string) =>
  catalogue.services.find(
    (service) =>
      service.providerId === "aws" &&
      [service.name, service.shortName].some((n) => n !== undefined && sameName(n, name)),
  );
console.log(`${removals.length} removals from ${from} to ${to}:`);
for (const removal of removals) {
  const service = inCatalogue(removal.name);
  const status = service ? ` [${service.slug}: ${service.lifecycle?.status ?? "active"}]` : "";
  const fate = removal.renamedTo
    ? `renamed to "${removal.renamedTo}"`
    : removal.restoredOn
      ? `restored on ${removal.restoredOn}`
      : "ended";
  console.log(`  ${removal.date}  ${removal.name}: ${fate}${status}`);
}
console.log(`${ended(removals).length} ended (neither renamed nor restored).`);
