/**
 * Writes catalogue/inventory/data/aws/terraform/ (items.txt, map.yaml, exclusions.yaml, iam.yaml) from
 * hashicorp/terraform-provider-aws's own registrations, without vendoring them. Each service package
 * registers its resources in internal/service/<package>/service_package_gen.go (`TypeName: "aws_…"` in
 * its SDKResources and FrameworkResources; data sources and ephemeral resources are not items). A
 * package is named after its AWS service's identifier, so its types need that IAM prefix: the
 * package's own name when the aws/iam inventory holds it, spelt with or without dashes
 * (`cognitoidp` is `cognito-idp`), else what packages.yaml (reviewed by hand, one line per package)
 * says. A type then belongs to whatever aws/iam says of that prefix: the services owning it, or
 * excluded for the same reason. iam.yaml keeps each type's prefix for the deployment check's SCP verdict.
 *
 *   node scripts/maintenance/terraform-aws-map.ts <git dir> [out dir]
 *
 * The git dir is a clone of the provider (its service_package_gen.go files are read), or of
 * lonegunmanb/terraform-provider-aws-index, whose index/terraform-provider-aws-index.json copies
 * those registrations per release (the provider's repository is too large for the snapshots here).
 * Unresolved packages are printed; the script then writes nothing.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { EXCLUSION_REASONS, type InventoryExclusionT } from "../../catalogue/inventory/inventory.ts";
import { DEFAULT_INVENTORY_DIR, reconcileAll } from "../../catalogue/inventory/load.node.ts";
import { writeDerivedTerraformInventory } from "../../catalogue/inventory/terraform-files.node.ts";
import { loadCatalogue } from "../../catalogue/load/load.ts";

const [gitDir, outArg] = process.argv.slice(2);
if (!gitDir) {
  console.error("usage: terraform-aws-map.ts <git dir of terraform-provider-aws or its index> [out dir]");
  process.exit(2);
}
const out = outArg ?? join(DEFAULT_INVENTORY_DIR, "aws", "terraform");
const git = (...args: string[]) =>
  execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
const commit = git("rev-parse", "HEAD").trim();
const date = git("log", "-1", "--format=%cs", commit).trim();

/** Package → its resource types, from the provider's service_package_gen.go files or the index's copy. */
function packageTypes(): { types: Map<string, string[]>; origin: string } {
  const types = new Map<string, string[]>();
  const files = git("ls-tree", "-r", "--name-only", commit, "--", "internal/service/")
    .split("\n")
    .filter((path) => /^internal\/service\/[^/]+\/service_package_gen\.go$/.test(path));
  if (files.length > 0) {
    for (const path of files) {
      const text = git("show", `${commit}:${path}`);
      // Each method of servicePackage returns one kind; only the resources' TypeNames are items.
      const sections = text.split(/\nfunc \(p \*servicePackage\) /).slice(1);
      const names = sections
        .filter((section) => /^(SDK|Framework)Resources\(/.test(section))
        .flatMap((section) => [...section.matchAll(/TypeName:\s*"(aws_\w+)"/g)].map((match) => match[1]!));
      if (names.length > 0) types.set(path.split("/")[2]!, names);
    }
    return { types, origin: `hashicorp/terraform-provider-aws at ${commit} (${date})` };
  }
  const index = JSON.parse(git("show", `${commit}:index/terraform-provider-aws-index.json`)) as {
    version: string;
    services: { service_name: string; aws_sdk_resources?: object; aws_framework_resources?: object }[];
  };
  for (const service of index.services) {
    const names = [
      ...Object.keys(service.aws_sdk_resources ?? {}),
      ...Object.keys(service.aws_framework_resources ?? {}),
    ];
    if (names.length > 0) types.set(service.service_name, names);
  }
  return {
    types,
    origin: `hashicorp/terraform-provider-aws ${index.version}, its service packages' registrations as lonegunmanb/terraform-provider-aws-index copies them at ${commit} (${date})`,
  };
}

/**
 * names/data/names_data.hcl, when the git dir is a clone: per package (its `service` block's label), the
 * names AWS gives its service (the CLI v2 command, with and without dashes, the aliases, the SDK id),
 * which the IAM prefix often is when the package's own name is not (appautoscaling's CLI command is
 * application-autoscaling).
 */
function namesOfPackages(): Map<string, string[]> {
  const path = "names/data/names_data.hcl";
  const listed = git("ls-tree", "--name-only", commit, "--", path).trim();
  if (listed !== path) return new Map();
  const names = new Map<string, string[]>();
  for (const block of git("show", `${commit}:${path}`)
    .split(/^service "/m)
    .slice(1)) {
    const label = /^([\w-]+)"/.exec(block)?.[1];
    if (!label) continue;
    const quoted = (key: string) =>
      [...block.matchAll(new RegExp(`\\b${key}\\s*=\\s*"([^"]+)"`, "g"))].map((match) => match[1]!);
    const aliases = /\baliases\s*=\s*\[([^\]]*)\]/.exec(block)?.[1] ?? "";
    names.set(label, [
      ...quoted("aws_cli_v2_command"),
      ...quoted("aws_cli_v2_command_no_dashes"),
      ...[...aliases.matchAll(/"([^"]+)"/g)].map((match) => match[1]!),
      ...quoted("id").map((id) => id.toLowerCase().replaceAll(" ", "")),
    ]);
  }
  return names;
}

/** packages.yaml: per package whose name is not an IAM prefix, the prefix, the services, or why it is excluded. */
const PackageEntry = z
  .object({
    iam: z.string().min(1).optional(),
    services: z.array(z.string().min(1)).min(1).optional(),
    exclude: z
      .object({ reason: z.enum(EXCLUSION_REASONS), of: z.string().optional(), note: z.string().optional() })
      .strict()
      .optional(),
    /** Types of the package that other services own: `aws_…` or `aws_…*` → slugs, first match wins. */
    types: z.record(z.string(), z.array(z.string().min(1)).min(1)).optional(),
    /** Types the package registers a second time with the same factory, which the index keeps once. */
    aliases: z.array(z.string().regex(/^aws_\w+$/)).optional(),
    note: z.string().min(1).optional(),
  })
  .strict();
const matches = (pattern: string, type: string) =>
  pattern.endsWith("*") ? type.startsWith(pattern.slice(0, -1)) : pattern === type;
const packagesPath = join(out, "packages.yaml");
const reviewed = existsSync(packagesPath)
  ? z.record(z.string(), PackageEntry).parse(parseYaml(readFileSync(packagesPath, "utf8")) ?? {})
  : {};

const catalogue = loadCatalogue();
const { inventories, reports } = reconcileAll(catalogue);
const at = inventories.findIndex((inventory) => inventory.id === "aws/iam");
const prefixes = inventories[at]!.items;
const undashed = new Map(prefixes.map((prefix) => [prefix.replaceAll("-", ""), prefix]));

const { types, origin } = packageTypes();
const namesData = namesOfPackages();
/** The IAM prefix a package's name, or a name names_data.hcl gives its service, is (with or without dashes). */
const prefixOf = (name: string): { prefix?: string; by?: "name" | "names_data.hcl" } => {
  const candidates: [string, "name" | "names_data.hcl"][] = [
    [name, "name"],
    ...(namesData.get(name) ?? []).map((alias): [string, "names_data.hcl"] => [alias, "names_data.hcl"]),
  ];
  for (const [candidate, by] of candidates) {
    const prefix = prefixes.includes(candidate) ? candidate : undashed.get(candidate.replaceAll("-", ""));
    if (prefix) return { prefix, by };
  }
  return {};
};
const map: Record<string, string[]> = {};
const iam: Record<string, string> = {};
const exclusions: InventoryExclusionT[] = [];
const unresolved: string[] = [];
const by = { name: 0, "names_data.hcl": 0, "packages.yaml": 0 };
for (const [name, registered] of [...types].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const entry = reviewed[name];
  const names = [...new Set([...registered, ...(entry?.aliases ?? [])])];
  types.set(name, names);
  const derived = prefixOf(name);
  const prefix = entry?.iam ?? derived.prefix;
  const owners = entry?.services ?? (prefix ? [...(reports[at]!.owners.get(prefix) ?? [])] : []);
  const excluded = entry?.exclude ?? (prefix ? reports[at]!.exclusionOf.get(prefix) : undefined);
  if (owners.length > 0 || excluded) by[entry ? "packages.yaml" : derived.by!]++;
  for (const type of names) {
    if (prefix) iam[type] = prefix;
    const own = Object.entries(entry?.types ?? {}).find(([pattern]) => matches(pattern, type))?.[1] ?? owners;
    if (own.length > 0) map[type] = own;
    else if (excluded)
      exclusions.push({
        ...excluded,
        item: type,
        note: `package ${name}${prefix ? `, IAM prefix ${prefix}` : ""}${excluded.note ? `: ${excluded.note}` : ""}`,
      });
  }
  if (owners.length === 0 && !excluded) unresolved.push(`${name} (${names.length} types; IAM prefix ${prefix ?? "?"})`);
}
// A reviewed line that names no package or type of this version is stale: say so, as check:data does.
for (const [name, entry] of Object.entries(reviewed)) {
  if (!types.has(name)) unresolved.push(`packages.yaml: ${name}: no such package (stale)`);
  for (const pattern of Object.keys(entry.types ?? {}))
    if (!(types.get(name) ?? []).some((type) => matches(pattern, type)))
      unresolved.push(`packages.yaml: ${name}: ${pattern} names no type of the package (stale)`);
}
console.error(
  `${types.size} packages in ${origin}: ${by.name} placed by their name, ${by["names_data.hcl"]} by names_data.hcl, ${by["packages.yaml"]} by packages.yaml`,
);
if (unresolved.length > 0) {
  console.error(`${unresolved.length} packages without owners or exclusion, or stale lines (edit packages.yaml):`);
  for (const line of unresolved) console.log(line);
  process.exit(1);
}
const written = writeDerivedTerraformInventory(out, {
  origin,
  script: "scripts/maintenance/terraform-aws-map.ts",
  items: [...types.values()].flat(),
  map,
  exclusions,
  identifiers: { file: "iam.yaml", title: "Each type to the IAM service prefix its package's service uses", of: iam },
});
for (const line of written) console.error(line);
