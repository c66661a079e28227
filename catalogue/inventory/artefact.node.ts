/** Node-only: reads a vendor artefact into inventory items (npm run inventory:refresh). */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseItems } from "./inventory.ts";

/** Items of a text file, a JSON file or a folder of resource schemas. */
export function readArtefact(path: string): string[] {
  if (statSync(path).isDirectory())
    return readdirSync(path)
      .filter((file) => file.endsWith(".json"))
      .map((file) => (JSON.parse(readFileSync(join(path, file), "utf8")) as { typeName?: unknown }).typeName)
      .filter((name): name is string => typeof name === "string");
  const text = readFileSync(path, "utf8");
  if (!path.endsWith(".json")) return parseItems(text);
  const data = JSON.parse(text) as unknown;
  if (Array.isArray(data)) return data.map(String);
  if (data && typeof data === "object") return Object.keys(data);
  throw new Error(`${path}: neither an array of items nor an object keyed by item`);
}
