/**
 * Writes a Terraform provider inventory's items.txt (catalogue/inventory/data/<provider>/terraform/) from
 * a git clone of the provider's repository, without vendoring the repository: one resource type per
 * file of its registry docs folder (docs/resources/*.md, or website/docs/r/*), named by the page's
 * own "# <type>" heading where it has one, else <prefix>_<file name>. Data sources are not items.
 *
 *   node scripts/maintenance/terraform-items.ts <git dir> <type prefix> <out file> [docs folder] [--subcategories]
 *
 * --subcategories prints "<type>\t<subcategory>" on stdout as well (the docs' own grouping, a help
 * when mapping types to services). The header names the repository's origin, commit and date.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";

const [gitDir, prefix, out, folderArg] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
if (!gitDir || !prefix || !out) {
  console.error("usage: terraform-items.ts <git dir> <type prefix> <out file> [docs folder] [--subcategories]");
  process.exit(2);
}
const git = (...args: string[]) => execFileSync("git", ["-C", gitDir, ...args], { encoding: "utf8" });
const commit = git("rev-parse", "HEAD").trim();
const date = git("log", "-1", "--format=%cs", commit).trim();
const folder = folderArg ?? "docs/resources";
const files = git("ls-tree", "--name-only", `${commit}:${folder}`)
  .split("\n")
  .filter((name) => /\.(md|markdown|html\.markdown)$/.test(name));

const baseOf = (file: string) => file.replace(/\.html\.markdown$|\.markdown$|\.md$/, "");
// A heading naming another page's own type is a copy-paste slip in the vendor's docs (SAKURA's
// secret_manager pages say "# sakuracloud_kms"): such a page keeps its file name's type.
const fileTypes = new Set(files.map((file) => `${prefix}_${baseOf(file)}`));
const items = new Map<string, string>();
for (const file of files) {
  const text = git("show", `${commit}:${folder}/${file}`);
  const heading = /^#{1,2}\s+(?:Resource:\s*)?`?([a-z][a-z0-9_]*)`?/m.exec(text)?.[1];
  const base = baseOf(file);
  const own = `${prefix}_${base}`;
  const headingIsOther = heading !== own && heading !== undefined && fileTypes.has(heading);
  const type = heading?.startsWith(`${prefix}_`) && !headingIsOther ? heading : own;
  const subcategory = /^subcategory\s*:\s*"?([^"\n]*)"?/m.exec(text)?.[1]?.trim() ?? "";
  items.set(type, subcategory);
}
const sorted = [...items.keys()].sort();
const header = [
  `# Terraform resource types of ${prefix}_*, one per page of ${folder}/`,
  `# commit ${commit} (${date})`,
];
writeFileSync(out, `${[...header, ...sorted].join("\n")}\n`);
console.error(`${out}: ${sorted.length} resource types at ${commit.slice(0, 12)} (${date})`);
if (process.argv.includes("--subcategories")) for (const type of sorted) console.log(`${type}\t${items.get(type)}`);
