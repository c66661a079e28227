/**
 * The vendored passages of the pinned copies that back descriptions (backed-copies.ts): every
 * `*.yaml` of catalogue/reference/copies/ (one file a provider or a kind of copy, so that people
 * working on different providers edit different files), read and validated; a copy excerpted twice
 * is refused, naming both files.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { CopyExcerpts } from "./backed-copies.ts";

export const COPIES_DIR = new URL("../reference/copies/", import.meta.url);

export type CopyExcerpt = (typeof CopyExcerpts)["_output"]["copies"][number] & { readonly file: string };

export function readCopyExcerpts(dir: URL | string = COPIES_DIR): CopyExcerpt[] {
  const folder = typeof dir === "string" ? dir : dir.pathname;
  const out: CopyExcerpt[] = [];
  const fileOf = new Map<string, string>();
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith(".yaml"))
    .sort()) {
    const parsed = CopyExcerpts.safeParse(parse(readFileSync(join(folder, file), "utf8")));
    if (!parsed.success) throw new Error(`catalogue/reference/copies/${file}: ${parsed.error.message}`);
    for (const copy of parsed.data.copies) {
      const earlier = fileOf.get(copy.via);
      if (earlier)
        throw new Error(`catalogue/reference/copies/${file}: ${copy.via} is excerpted in ${earlier} already`);
      fileOf.set(copy.via, file);
      out.push({ ...copy, file });
    }
  }
  return out;
}
