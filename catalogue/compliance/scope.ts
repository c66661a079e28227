/**
 * Generated compliance scope (catalogue/data/scope/<providerId>.yaml, written by scripts/maintenance/aws-scope.ts
 * from the vendor's own scope tables): merged into the service entries at load time, each programme
 * added to the entry's `compliance` and each scope page added to its `sources` (backs compliance,
 * naming the programmes it lists), so that the faces and checks treat them like hand-written ones.
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { issueLines } from "../base/issues.ts";
import { ScopeFile, type ScopeFileT, type ServiceEntryT, type ServiceSourceEntryT } from "../schema/index.ts";

/** A service entry as the loader holds it. */
interface EntryAt {
  readonly providerId: string;
  readonly entry: ServiceEntryT;
}

/** One entry with a scope page's programmes added: to its compliance, and as a source (or onto the source of that URL). */
export function withScope(
  entry: ServiceEntryT,
  source: Omit<ServiceSourceEntryT, "backs" | "programmes">,
  programmes: readonly string[],
): ServiceEntryT {
  const compliance = [...new Set([...(entry.compliance ?? []), ...programmes])];
  const sources = [...(entry.sources ?? [])];
  const at = sources.findIndex((existing) => existing.url === source.url);
  const listed = at >= 0 ? sources[at]! : undefined;
  const merged: ServiceSourceEntryT = {
    ...(listed ?? source),
    backs: [...new Set([...(listed?.backs ?? []), "compliance" as const])],
    programmes: [...new Set([...(listed?.programmes ?? []), ...programmes])].sort(),
  };
  if (at >= 0) sources[at] = merged;
  else sources.push(merged);
  return { ...entry, compliance, sources };
}

/** Problems of one scope file against the catalogue's services and compliance vocabulary. */
function scopeProblems(
  file: ScopeFileT,
  providerId: string,
  entries: ReadonlyMap<string, EntryAt>,
  compliance: ReadonlyMap<string, string>,
): string[] {
  const problems: string[] = [];
  const pages = new Set(file.sources.map((source) => source.id));
  for (const [slug, byPage] of Object.entries(file.services)) {
    const entry = entries.get(slug);
    if (entry?.providerId !== providerId)
      problems.push(`services.${slug}: not a ${providerId} service of the catalogue`);
    const status = entry?.entry.lifecycle?.status;
    if (status === "retired" || status === "preview")
      problems.push(`services.${slug}: a ${status} service carries no compliance programme; re-run the generator`);
    for (const [page, programmes] of Object.entries(byPage)) {
      if (!pages.has(page)) problems.push(`services.${slug}.${page}: no source with id "${page}"`);
      for (const id of programmes)
        if (!compliance.has(id)) problems.push(`services.${slug}.${page}: unknown compliance id "${id}"`);
    }
  }
  return problems;
}

/** Reads data/scope/*.yaml (none is fine) and merges each into `entries`; problems are appended. */
export function mergeScope<T extends EntryAt>(
  dataDir: string,
  entries: Map<string, T>,
  compliance: ReadonlyMap<string, string>,
  problems: string[],
  readYaml: (path: string) => unknown,
): void {
  let files: string[];
  try {
    files = readdirSync(join(dataDir, "scope"))
      .filter((file) => file.endsWith(".yaml"))
      .sort();
  } catch {
    return;
  }
  for (const file of files) {
    const path = join(dataDir, "scope", file);
    const name = relative(process.cwd(), path);
    const parsed = ScopeFile.safeParse(readYaml(path));
    if (!parsed.success) {
      problems.push(...issueLines(parsed.error.issues).map((line) => `${name}: field ${line}`));
      continue;
    }
    const found = scopeProblems(parsed.data, file.replace(/\.yaml$/, ""), entries, compliance);
    problems.push(...found.map((problem) => `${name}: ${problem}`));
    if (found.length > 0) continue;
    const pages = new Map(parsed.data.sources.map(({ id, ...source }) => [id, source]));
    for (const [slug, byPage] of Object.entries(parsed.data.services)) {
      let { entry } = entries.get(slug)!;
      for (const [page, programmes] of Object.entries(byPage)) entry = withScope(entry, pages.get(page)!, programmes);
      // In the vocabulary's order, as a hand-written list would be.
      const order = [...compliance.keys()];
      entry = { ...entry, compliance: order.filter((id) => entry.compliance!.includes(id)) };
      entries.set(slug, { ...entries.get(slug)!, entry });
    }
  }
}
