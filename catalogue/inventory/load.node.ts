/**
 * Node-only: reads every catalogue/inventory/data/<provider>/<inventory>/ folder (source.yaml,
 * items.txt, exclusions.yaml, map.yaml) and reconciles it against a catalogue's services.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import {
  ExclusionsFile,
  InventorySource,
  MapFile,
  normaliseItems,
  parseItems,
  reconcileInventory,
  type Inventory,
  type InventoryReport,
  type InventoryService,
} from "./inventory.ts";

/** What reconciliation reads of a catalogue (structural, so this module never imports the loader). */
export interface InventoryCatalogue {
  readonly source: {
    readonly services: readonly { readonly providerId: string; readonly entry: InventoryEntry }[];
  };
  readonly bySlug: ReadonlyMap<string, unknown>;
}
interface InventoryEntry {
  readonly slug: string;
  readonly policyIdentifiers?: InventoryService["policyIdentifiers"];
}

export const DEFAULT_INVENTORY_DIR = fileURLToPath(new URL("./data/", import.meta.url));
/** Inventories are kept beside a data folder: catalogue/inventory/data for catalogue/data. */
export const inventoryDirOf = (dataDir: string): string => join(dataDir, "..", "inventory", "data");

const issues = (error: z.ZodError) =>
  error.issues.map((issue) => `${issue.path.join(".") || "(file)"}: ${issue.message}`);

/** The folders holding a source.yaml, as "<provider>/<inventory>", sorted. */
export function inventoryIds(dir: string = DEFAULT_INVENTORY_DIR): string[] {
  if (!existsSync(dir)) return [];
  const ids: string[] = [];
  for (const provider of readdirSync(dir).sort()) {
    const providerDir = join(dir, provider);
    if (!statSync(providerDir).isDirectory()) continue;
    for (const name of readdirSync(providerDir).sort())
      if (existsSync(join(providerDir, name, "source.yaml"))) ids.push(`${provider}/${name}`);
  }
  return ids;
}

/** Reads one inventory folder; pushes one line per problem and returns undefined when unusable. */
export function readInventory(dir: string, id: string, problems: string[]): Inventory | undefined {
  const folder = join(dir, id);
  const yaml = (file: string) => parseYaml(readFileSync(join(folder, file), "utf8")) as unknown;
  const source = InventorySource.safeParse(yaml("source.yaml"));
  if (!source.success) {
    problems.push(...issues(source.error).map((line) => `${id}/source.yaml: ${line}`));
    return undefined;
  }
  if (source.data.provider !== id.split("/")[0])
    problems.push(`${id}/source.yaml: provider "${source.data.provider}" is not the folder's "${id.split("/")[0]}"`);
  if (!existsSync(join(folder, "items.txt"))) {
    problems.push(`${id}: no items.txt (write it with npm run inventory:refresh -- ${id} <items> --write)`);
    return undefined;
  }
  const items = parseItems(readFileSync(join(folder, "items.txt"), "utf8"));
  if (items.join("\n") !== normaliseItems(items).join("\n"))
    problems.push(`${id}/items.txt: not sorted and deduplicated (rewrite it with npm run inventory:refresh)`);
  const optional = <T>(file: string, schema: z.ZodType<T>, empty: T): T => {
    if (!existsSync(join(folder, file))) return empty;
    const parsed = schema.safeParse(yaml(file) ?? empty);
    if (parsed.success) return parsed.data;
    problems.push(...issues(parsed.error).map((line) => `${id}/${file}: ${line}`));
    return empty;
  };
  const exclusions = optional("exclusions.yaml", ExclusionsFile, []);
  const map = optional("map.yaml", MapFile, {});
  return { id, source: source.data, items, exclusions, map };
}

/** Every inventory of a folder; problems collects what could not be read. */
export function readInventories(dir: string = DEFAULT_INVENTORY_DIR, problems: string[] = []): Inventory[] {
  return inventoryIds(dir).flatMap((id) => readInventory(dir, id, problems) ?? []);
}

/** The catalogue's services as reconciliation reads them (terraformResources when the data has it). */
export function inventoryServices(catalogue: InventoryCatalogue): InventoryService[] {
  return catalogue.source.services.map(({ providerId, entry }) => {
    const terraform = (entry as { terraformResources?: unknown }).terraformResources;
    return {
      slug: entry.slug,
      providerId,
      policyIdentifiers: entry.policyIdentifiers,
      terraformResources: Array.isArray(terraform) ? (terraform as string[]) : undefined,
    };
  });
}

/** Reads and reconciles every inventory against the catalogue; problems gets unreadable files. */
export function reconcileAll(
  catalogue: InventoryCatalogue,
  dir: string = DEFAULT_INVENTORY_DIR,
  problems: string[] = [],
): { inventories: Inventory[]; reports: InventoryReport[] } {
  const inventories = readInventories(dir, problems);
  const services = inventoryServices(catalogue);
  const reports = inventories.map((inventory) =>
    reconcileInventory(inventory, services, (slug) => catalogue.bySlug.has(slug)),
  );
  return { inventories, reports };
}
