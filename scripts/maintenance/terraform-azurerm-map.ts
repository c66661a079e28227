/**
 * Writes catalogue/inventory/data/azure/terraform/ (items.txt, map.yaml, exclusions.yaml, arm.yaml) from a
 * git clone of hashicorp/terraform-provider-azurerm, without vendoring it. Each service package declares
 * its resources in internal/services/<package>/registration*.go: untyped ones by name in
 * SupportedResources, typed ones as structs in Resources() whose ResourceType() names them (data
 * sources are not items). Each resource's page (website/docs/r/<name>.html.markdown) gives the ARM
 * resource ID it imports — its ARM type, kept when the vendored Bicep type index
 * (catalogue/reference/azure-resource-types.txt) holds it or a parent of it — and the API providers it
 * calls (the generated "API Providers" section). A type then belongs to the catalogue services owning
 * its ARM type (the services' resourceTypes, a child falling to its nearest owned parent, as the
 * deployment check reads ARM templates), else to those azure/resource-providers says own its namespace
 * when they are at most two, else to what packages.yaml (reviewed by hand, per package or type pattern)
 * says; an excluded namespace's exclusion is repeated. arm.yaml keeps each type's ARM type for the
 * deployment check's Azure verdict.
 *
 *   node scripts/maintenance/terraform-azurerm-map.ts <git dir of terraform-provider-azurerm> [out dir]
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { azureResourceTypeIndex } from "../../catalogue/dependencies/dependencies.node.ts";
import { EXCLUSION_REASONS, type InventoryExclusionT } from "../../catalogue/inventory/inventory.ts";
import { DEFAULT_INVENTORY_DIR, reconcileAll } from "../../catalogue/inventory/load.node.ts";
import { writeDerivedTerraformInventory } from "../../catalogue/inventory/terraform-files.node.ts";
import { loadCatalogue } from "../../catalogue/load/load.ts";

const [gitDir, outArg] = process.argv.slice(2);
if (!gitDir) {
  console.error("usage: terraform-azurerm-map.ts <git dir of terraform-provider-azurerm> [out dir]");
  process.exit(2);
}
const out = outArg ?? join(DEFAULT_INVENTORY_DIR, "azure", "terraform");
const git = (...args: string[]) =>
  execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
const commit = git("rev-parse", "HEAD").trim();
const date = git("log", "-1", "--format=%cs", commit).trim();
/** `git grep` lines as [path, text]; `-A` context lines come back with `-` after the path. */
/** `git grep`'s output; its exit status 1 means no line matched, which is an empty answer, not a failure. */
const grepText = (...args: string[]): string => {
  try {
    return git("grep", ...args);
  } catch (error) {
    if ((error as { status?: number }).status === 1) return "";
    throw error;
  }
};
const grep = (pattern: string, pathspec: string, ...options: string[]): [string, string][] =>
  grepText(...options, "-E", pattern, commit, "--", pathspec)
    .split("\n")
    .flatMap((line) => {
      const match = /^[0-9a-f]+:([^:]+?\.(?:go|markdown))[:-](.*)$/.exec(line);
      return match ? [[match[1]!, match[2]!] as [string, string]] : [];
    });
const packageOf = (path: string) => path.split("/")[2]!;

/** Typed resources: package/struct → the type its ResourceType() returns (a literal, or a constant of the package). */
function typedNames(): Map<string, string> {
  const constants = new Map<string, string>();
  for (const [path, text] of grep(String.raw`^\s*((const|var)\s+)?\w+\s*=\s*"azurerm_\w+"`, "internal/services/"))
    for (const [, name, value] of text.matchAll(/(\w+)\s*=\s*"(azurerm_\w+)"/g))
      constants.set(`${packageOf(path)}/${name}`, value!);
  const names = new Map<string, string>();
  let struct: string | undefined;
  for (const [path, text] of grep(String.raw`\) ResourceType\(\) string \{`, "internal/services/", "-A2")) {
    const opened = /^func \((?:\w+ )?\*?(\w+)\) ResourceType\(\) string \{/.exec(text);
    if (opened) struct = opened[1];
    const returned = /^\s*return\s+(?:"(azurerm_\w+)"|(\w+))/.exec(text);
    if (!returned || !struct) continue;
    const value = returned[1] ?? constants.get(`${packageOf(path)}/${returned[2]}`);
    if (value) names.set(`${packageOf(path)}/${struct}`, value);
    struct = undefined;
  }
  return names;
}

/** Package → its resource types, from the registration files' SupportedResources and Resources(). */
function packageTypes(): Map<string, Set<string>> {
  const typed = typedNames();
  const types = new Map<string, Set<string>>();
  const files = git("ls-tree", "-r", "--name-only", commit, "--", "internal/services/")
    .split("\n")
    .filter((path) => /^internal\/services\/[^/]+\/(registration\w*|resources)\.go$/.test(path));
  for (const path of files) {
    const text = git("show", `${commit}:${path}`);
    const body = (signature: RegExp) => {
      const at = text.search(signature);
      return at < 0 ? "" : text.slice(at, text.indexOf("\n}\n", at));
    };
    const set = types.get(packageOf(path)) ?? new Set<string>();
    for (const [, name] of body(/\) SupportedResources\(\) map\[string\]\*pluginsdk\.Resource \{/).matchAll(
      /"(azurerm_\w+)"\s*:/g,
    ))
      set.add(name!);
    const typedBodies = [/\) Resources\(\) \[\]sdk\.Resource \{/, /\) FrameworkResources\(\) \[\]sdk\.\w+ \{/].map(
      body,
    );
    for (const [, struct] of typedBodies.join("\n").matchAll(/^\s*(\w+)\{\},?$/gm)) {
      const name = typed.get(`${packageOf(path)}/${struct}`);
      if (name) set.add(name);
      else console.error(`${path}: ${struct} has no ResourceType() returning a name`);
    }
    if (set.size > 0) types.set(packageOf(path), set);
  }
  return types;
}

/** Per type, from its docs page: the ARM type of the ID it imports, and the API providers it calls. */
function docsFacts(): { imported: Map<string, string>; providers: Map<string, string[]> } {
  const imported = new Map<string, string>();
  const providers = new Map<string, string[]>();
  const typeOf = (path: string) =>
    `azurerm_${path
      .split("/")
      .at(-1)!
      .replace(/\.html\.markdown$/, "")}`;
  for (const [path, text] of grep(String.raw`terraform import azurerm_`, "website/docs/r/")) {
    const id = text.trim().split(/\s+/)[3] ?? "";
    // A composite ID (parent|name, a;b) names its parent's type, not its own: leave it out.
    if (/[|;]/.test(id) || !id.includes("/providers/")) continue;
    const [namespace, ...rest] = id.split("/providers/").at(-1)!.split("/");
    const segments = rest.filter((_, at) => at % 2 === 0);
    if (namespace && segments.length > 0) imported.set(typeOf(path), [namespace, ...segments].join("/"));
  }
  for (const [path, text] of grep("^\\* `[A-Z][A-Za-z]+\\.[A-Za-z.]+` - ", "website/docs/r/")) {
    const namespace = /`([^`]+)`/.exec(text)![1]!;
    providers.set(typeOf(path), [...(providers.get(typeOf(path)) ?? []), namespace]);
  }
  return { imported, providers };
}

const PackageEntry = z
  .object({
    services: z.array(z.string().min(1)).min(1).optional(),
    /** Types of the package owned otherwise: `azurerm_…` or `azurerm_…*` → slugs, first match wins. */
    types: z.record(z.string(), z.array(z.string().min(1)).min(1)).optional(),
    exclude: z
      .object({ reason: z.enum(EXCLUSION_REASONS), of: z.string().optional(), note: z.string().optional() })
      .strict()
      .optional(),
    note: z.string().min(1).optional(),
  })
  .strict();
const packagesPath = join(out, "packages.yaml");
const reviewed = existsSync(packagesPath)
  ? z.record(z.string(), PackageEntry).parse(parseYaml(readFileSync(packagesPath, "utf8")) ?? {})
  : {};
const matches = (pattern: string, type: string) =>
  pattern.endsWith("*") ? type.startsWith(pattern.slice(0, -1)) : pattern === type;

const catalogue = loadCatalogue();
const { inventories, reports } = reconcileAll(catalogue);
const at = inventories.findIndex((inventory) => inventory.id === "azure/resource-providers");
const bicep = azureResourceTypeIndex();
const owned = new Map<string, string[]>();
for (const service of catalogue.services)
  for (const type of catalogue.bySlug.get(service.slug)!.policyIdentifiers.resourceTypes ?? [])
    owned.set(type.toLowerCase(), [...(owned.get(type.toLowerCase()) ?? []), service.slug]);
/** The longest prefix of an ARM type that the Bicep index holds, in its spelling. */
const deployable = (type: string): string | undefined => {
  const parts = type.split("/");
  for (let end = parts.length; end >= 2; end--) {
    const known = bicep.get(parts.slice(0, end).join("/").toLowerCase());
    if (known) return known.type;
  }
  return undefined;
};
const ownersOfType = (type: string): string[] => {
  const parts = type.toLowerCase().split("/");
  for (let end = parts.length; end >= 2; end--) {
    const owners = owned.get(parts.slice(0, end).join("/"));
    if (owners) return owners;
  }
  return [];
};
const namespaceKey = new Map(inventories[at]!.items.map((item) => [item.toLowerCase(), item]));

const types = packageTypes();
const { imported, providers } = docsFacts();
const map: Record<string, string[]> = {};
const arm: Record<string, string> = {};
const exclusions: InventoryExclusionT[] = [];
const unresolved: string[] = [];
const by = { type: 0, namespace: 0, reviewed: 0 };
for (const [name, set] of [...types].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const entry = reviewed[name];
  for (const type of [...set].sort()) {
    const armType = imported.has(type) ? deployable(imported.get(type)!) : undefined;
    if (armType) arm[type] = armType;
    const namespaces = [
      ...new Set(
        [...(armType ? [armType.split("/")[0]!] : []), ...(providers.get(type) ?? [])].flatMap(
          (namespace) => namespaceKey.get(namespace.toLowerCase()) ?? [],
        ),
      ),
    ];
    const byNamespace = [...new Set(namespaces.flatMap((namespace) => reports[at]!.owners.get(namespace) ?? []))];
    const pattern = Object.entries(entry?.types ?? {}).find(([key]) => matches(key, type))?.[1];
    const byType = armType ? ownersOfType(armType) : [];
    const source = pattern
      ? "reviewed"
      : byType.length > 0
        ? "type"
        : byNamespace.length > 0 && byNamespace.length <= 2
          ? "namespace"
          : "reviewed";
    const owners = pattern ?? (source === "type" ? byType : source === "namespace" ? byNamespace : entry?.services);
    const excluded =
      entry?.exclude ?? namespaces.map((namespace) => reports[at]!.exclusionOf.get(namespace)).find(Boolean);
    if (owners && owners.length > 0) {
      map[type] = owners;
      by[source]++;
    } else if (excluded) {
      exclusions.push({
        ...excluded,
        item: type,
        note: `package ${name}${namespaces.length ? `, ${namespaces.join(", ")}` : ""}${excluded.note ? `: ${excluded.note}` : ""}`,
      });
    } else
      unresolved.push(
        `${name}: ${type} (${armType ?? "no ARM type"}; ${namespaces.join(", ") || "no namespace"}; owners of the namespace: ${byNamespace.join(", ") || "none"})`,
      );
  }
}
for (const [name, entry] of Object.entries(reviewed)) {
  if (!types.has(name)) unresolved.push(`packages.yaml: ${name}: no such package (stale)`);
  for (const pattern of Object.keys(entry.types ?? {}))
    if (![...(types.get(name) ?? [])].some((type) => matches(pattern, type)))
      unresolved.push(`packages.yaml: ${name}: ${pattern} names no type of the package (stale)`);
}
const items = [...types.values()].flatMap((set) => [...set]);
console.error(
  `${types.size} packages, ${items.length} types at ${commit.slice(0, 12)} (${date}): ${by.type} placed by their ARM type, ${by.namespace} by their namespace, ${by.reviewed} by packages.yaml; ${Object.keys(arm).length} with an ARM type`,
);
if (unresolved.length > 0) {
  console.error(`${unresolved.length} types without owners or exclusion, or stale lines (edit packages.yaml):`);
  for (const line of unresolved) console.log(line);
  process.exit(1);
}
const written = writeDerivedTerraformInventory(out, {
  origin: `hashicorp/terraform-provider-azurerm at ${commit} (${date})`,
  script: "scripts/maintenance/terraform-azurerm-map.ts",
  items,
  map,
  exclusions,
  identifiers: { file: "arm.yaml", title: "Each type to the ARM resource type of the ID it imports", of: arm },
});
for (const line of written) console.error(line);
