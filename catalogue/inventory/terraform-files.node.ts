/**
 * Node-only: what the scripts deriving a Terraform inventory from a provider's own metadata write
 * (scripts/maintenance/terraform-aws-map.ts, scripts/maintenance/terraform-azurerm-map.ts): items.txt, map.yaml,
 * exclusions.yaml, and one file giving each type the identifier a policy checks (the IAM prefix,
 * the ARM type), each with a header naming the provider and the commit or version read.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml, stringify } from "yaml";
import type { InventoryExclusionT } from "./inventory.ts";

export interface DerivedTerraformInventory {
  /** "hashicorp/terraform-provider-aws at v6.58.0 (…)": what was read. */
  readonly origin: string;
  /** The script that wrote the files, named in their headers. */
  readonly script: string;
  readonly items: readonly string[];
  readonly map: Readonly<Record<string, readonly string[]>>;
  readonly exclusions: readonly InventoryExclusionT[];
  /** The type → identifier file (e.g. iam.yaml), its title and entries. */
  readonly identifiers: {
    readonly file: string;
    readonly title: string;
    readonly of: Readonly<Record<string, string>>;
  };
}

/** Writes the inventory's files into `out`; returns what it wrote, one line per file. */
export function writeDerivedTerraformInventory(out: string, inventory: DerivedTerraformInventory): string[] {
  const header = (what: string) => `# ${what}\n# ${inventory.origin}; written by ${inventory.script}.\n`;
  const sorted = [...inventory.items].sort();
  const map = Object.fromEntries(
    Object.keys(inventory.map)
      .sort()
      .map((type) => {
        const slugs = [...inventory.map[type]!].sort();
        return [type, slugs.length === 1 ? slugs[0]! : slugs];
      }),
  );
  const exclusions = [...inventory.exclusions].sort((a, b) => (a.item < b.item ? -1 : 1));
  const identifiers = Object.fromEntries(
    Object.keys(inventory.identifiers.of)
      .sort()
      .map((type) => [type, inventory.identifiers.of[type]!]),
  );
  const files: [string, string][] = [
    ["items.txt", `${header("Terraform resource types (data sources are not items)")}${sorted.join("\n")}\n`],
    ["map.yaml", `${header("Each type to the catalogue services that own it")}${stringify(map)}`],
    [
      "exclusions.yaml",
      `${header("Types no service owns, with the reason")}${exclusions.length ? stringify(exclusions) : "[]\n"}`,
    ],
    [inventory.identifiers.file, `${header(inventory.identifiers.title)}${stringify(identifiers, { lineWidth: 0 })}`],
  ];
  for (const [file, text] of files) writeFileSync(join(out, file), text);
  return [
    `items.txt: ${sorted.length} types`,
    `map.yaml: ${Object.keys(map).length} mapped`,
    `exclusions.yaml: ${exclusions.length} excluded`,
    `${inventory.identifiers.file}: ${Object.keys(identifiers).length} types with an identifier`,
  ];
}

/** A type → identifier file of a Terraform inventory (iam.yaml, arm.yaml, apis.yaml); empty when absent. */
export function readTypeIdentifiers(path: string, valid: RegExp): Map<string, string> {
  if (!existsSync(path)) return new Map();
  const entries = Object.entries((parseYaml(readFileSync(path, "utf8")) ?? {}) as Record<string, unknown>);
  return new Map(entries.filter((entry): entry is [string, string] => valid.test(String(entry[1]))));
}
