/**
 * Writes catalogue/inventory/data/gcp/terraform/ (items.txt, map.yaml, exclusions.yaml, apis.yaml) from a git
 * clone of hashicorp/terraform-provider-google, without vendoring it. The provider says, in its own
 * files, which API each resource type calls: every type registers itself with its product
 * (google/services/<product>/*.go: `registry.Schema{Name, ProductName, Type}`, resources and IAM
 * resources; data sources are not items), and each product names its API's base URL
 * (google/services/<product>/product.go: `BaseUrl: "https://<api>.googleapis.com/…"`). A type then
 * belongs to whatever the gcp/apis inventory says of that API: mapped to the services owning it, or
 * excluded for the same reason. Types whose API neither a service nor gcp/apis holds, and types whose
 * product names no googleapis.com base URL, are left out of items.txt and printed (source.yaml says so).
 * apis.yaml keeps each type's API (every type whose product names one, held or not), so the deployment
 * check can evaluate the Google org policy for a plan as it does for a list of APIs.
 *
 *   node scripts/maintenance/terraform-google-map.ts <git dir of terraform-provider-google> [out dir]
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { DEFAULT_INVENTORY_DIR, reconcileAll } from "../../catalogue/inventory/load.node.ts";
import { loadCatalogue } from "../../catalogue/load/load.ts";

const [gitDir, outArg] = process.argv.slice(2);
if (!gitDir) {
  console.error("usage: terraform-google-map.ts <git dir of terraform-provider-google> [out dir]");
  process.exit(2);
}
const out = outArg ?? join(DEFAULT_INVENTORY_DIR, "gcp", "terraform");
const git = (...args: string[]) =>
  execFileSync("git", ["-C", gitDir, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
const commit = git("rev-parse", "HEAD").trim();
const date = git("log", "-1", "--format=%cs", commit).trim();

/** The `key: "value"` fields of each Go struct literal opened by `opener` in the matched files. */
function literals(opener: string, pathspec: string): Record<string, string>[] {
  const text = git("grep", "-h", "-A8", "-F", opener, commit, "--", pathspec);
  return text
    .split(opener)
    .slice(1)
    .map((body) => {
      const fields: Record<string, string> = {};
      for (const [, key, quoted, constant] of body
        .split(/\n\s*\}/)[0]!
        .matchAll(/(\w+):\s*(?:"([^"]*)"|registry\.(\w+))/g))
        fields[key!] = quoted ?? constant ?? "";
      return fields;
    });
}

const apiOfProduct = new Map<string, string>();
for (const product of literals("registry.Product{", "google/services/*/product.go")) {
  // A regional endpoint ("https://{{region}}-aiplatform.googleapis.com/…") is the same API.
  const api = /^https:\/\/(?:\{\{\w+\}\}-)?([a-z0-9.-]+\.googleapis\.com)\//.exec(product.BaseUrl ?? "")?.[1];
  if (product.Name && api) apiOfProduct.set(product.Name.toLowerCase(), api);
}
const apiOfType = new Map<string, string>();
const unknownProduct: string[] = [];
for (const schema of literals("registry.Schema{", "google/services/*.go")) {
  if (!["SchemaTypeResource", "SchemaTypeIAMResource"].includes(schema.Type ?? "")) continue;
  if (!schema.Name?.startsWith("google_") || !schema.ProductName) continue;
  const api = apiOfProduct.get(schema.ProductName.toLowerCase());
  if (api) apiOfType.set(schema.Name, api);
  else unknownProduct.push(`${schema.Name} (${schema.ProductName})`);
}

// An API's owners: the Google Cloud services naming it (apiServices), else gcp/apis's map.yaml.
const catalogue = loadCatalogue();
const { inventories, reports } = reconcileAll(catalogue);
const at = inventories.findIndex((inventory) => inventory.id === "gcp/apis");
const ownersOfApi = (api: string): string[] => {
  const named = catalogue.services
    .filter((service) => service.providerId === "gcp")
    .filter((service) =>
      (catalogue.bySlug.get(service.slug)!.policyIdentifiers.apiServices ?? []).some((entry) => entry.name === api),
    )
    .map((service) => service.slug);
  return named.length > 0 ? named : [...(reports[at]!.owners.get(api) ?? [])];
};
const exclusionsOfApis = new Map(inventories[at]!.exclusions.map((exclusion) => [exclusion.item, exclusion]));

const types = [...apiOfType.keys()].sort();
const map: Record<string, string | string[]> = {};
const exclusions: Record<string, unknown>[] = [];
const unheld: string[] = [];
for (const type of types) {
  const api = apiOfType.get(type)!;
  const owners = ownersOfApi(api);
  const exclusion =
    exclusionsOfApis.get(api) ??
    [...exclusionsOfApis.values()].find((entry) => entry.item.endsWith("*") && api.startsWith(entry.item.slice(0, -1)));
  if (owners && owners.length > 0) map[type] = owners.length === 1 ? owners[0]! : [...owners].sort();
  else if (exclusion)
    exclusions.push({ ...exclusion, item: type, note: `calls ${api}${exclusion.note ? `: ${exclusion.note}` : ""}` });
  else unheld.push(`${type} (${api})`);
}

const header = (what: string) =>
  `# ${what}\n# hashicorp/terraform-provider-google at ${commit} (${date}); written by scripts/maintenance/terraform-google-map.ts.\n`;
const held = types.filter((type) => !unheld.some((line) => line.startsWith(`${type} `)));
writeFileSync(
  join(out, "items.txt"),
  `${header("Terraform resource types of google_* (resources and IAM resources) whose API is held")}${held.join("\n")}\n`,
);
writeFileSync(
  join(out, "map.yaml"),
  `${header("Each type to the services gcp/apis says own the API its product calls")}${stringify(map)}`,
);
writeFileSync(
  join(out, "exclusions.yaml"),
  `${header("Types whose API gcp/apis excludes, with that exclusion's reason")}${exclusions.length ? stringify(exclusions) : "[]\n"}`,
);
writeFileSync(
  join(out, "apis.yaml"),
  `${header("Each type to the API (<name>.googleapis.com) its product's base URL names")}${stringify(Object.fromEntries(types.map((type) => [type, apiOfType.get(type)!])))}`,
);
console.error(
  `${types.length} types at ${commit.slice(0, 12)} (${date}): ${Object.keys(map).length} mapped, ${exclusions.length} excluded, ${unheld.length} whose API gcp/apis does not hold`,
);
if (unknownProduct.length) console.error(`products without a base URL: ${unknownProduct.join(", ")}`);
for (const line of unheld) console.log(line);
