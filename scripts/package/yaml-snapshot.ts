/**
 * The `yaml` package as the installed CLI's bundle gives it to the repository's modules
 * (scripts/package/build.ts): the same exports, but parse() of a text the package's build already
 * parsed answers from snapshot/yaml.json (JSON.parse of the stored value, a fresh copy each call),
 * so the inventories the check reads at start cost JSON's speed, not YAML's. A text with options,
 * or not in the snapshot, is parsed by the package as always. Never loaded in the repository.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";

export * from "yaml";

/** Where the build writes the parsed texts: sha256 (base64) of each text → its value as JSON. */
export const YAML_SNAPSHOT = fileURLToPath(new URL("../../snapshot/yaml.json", import.meta.url));

let parsed: Readonly<Record<string, string>> | undefined;

/** The snapshot's key of a text. */
export const yamlKey = (text: string): string => createHash("sha256").update(text).digest("base64");

export function parse(text: string, ...options: unknown[]): unknown {
  if (options.length === 0 && typeof text === "string") {
    parsed ??= JSON.parse(readFileSync(YAML_SNAPSHOT, "utf8")) as Record<string, string>;
    const json = parsed[yamlKey(text)];
    if (json !== undefined) return JSON.parse(json) as unknown;
  }
  return (parseYaml as (text: string, ...options: unknown[]) => unknown)(text, ...options);
}
