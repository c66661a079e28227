/**
 * What a mirror run pulled, as its summary says it: the release changes of the services (added,
 * removed, renamed, moved in lifecycle — catalogue/load/changes.ts) and every other difference
 * between the two builds' catalogue.json: providers, categories and equivalence groups added,
 * removed or changed, and services whose other fields changed. "No changes" only when the two
 * catalogues are the same.
 */
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { changeLines, changeSummary, diffServices, snapshotServices } from "../catalogue/load/changes.ts";
import type { ServiceT } from "../catalogue/schema/index.ts";

/** An entry of catalogue.json with an identity: `slug` for services, `id` for the others. */
type Entry = Record<string, unknown>;
interface CatalogueDump {
  readonly providers: Entry[];
  readonly categories: Entry[];
  readonly services: Entry[];
  readonly equivalenceGroups: Entry[];
}

/** A build's catalogue.json; undefined when it cannot be read. */
export function readCatalogueDump(path: string): CatalogueDump | undefined {
  try {
    const dump = JSON.parse(readFileSync(path, "utf8")) as Partial<CatalogueDump>;
    if (!Array.isArray(dump.services)) return undefined;
    return {
      providers: dump.providers ?? [],
      categories: dump.categories ?? [],
      services: dump.services,
      equivalenceGroups: dump.equivalenceGroups ?? [],
    };
  } catch {
    return undefined;
  }
}

export interface PulledChanges {
  /** One line per change. */
  readonly lines: string[];
  /** "1 renamed, 1 provider changed", or "no changes". */
  readonly summary: string;
}

const keyOf = (entry: Entry): string => {
  const key = entry.slug ?? entry.id;
  return typeof key === "string" ? key : JSON.stringify(entry);
};

/** The fields of one entry that differ from another, "regions, headOffice". */
const changedFields = (was: Entry, now: Entry): string =>
  [...new Set([...Object.keys(was), ...Object.keys(now)])]
    .filter((field) => !isDeepStrictEqual(was[field], now[field]))
    .join(", ");

/** One kind of entry, compared by identity: lines for what was added, removed or changed. */
function diffEntries(kind: string, before: Entry[], after: Entry[], skip: ReadonlySet<string> = new Set()) {
  const was = new Map(before.map((entry) => [keyOf(entry), entry]));
  const now = new Map(after.map((entry) => [keyOf(entry), entry]));
  const counts = { added: 0, removed: 0, changed: 0 };
  const lines: string[] = [];
  for (const key of [...new Set([...was.keys(), ...now.keys()])].sort()) {
    if (skip.has(key)) continue;
    const a = was.get(key);
    const b = now.get(key);
    const [what, line] = !a
      ? (["added", `${kind} added: ${key}`] as const)
      : !b
        ? (["removed", `${kind} removed: ${key}`] as const)
        : isDeepStrictEqual(a, b)
          ? []
          : (["changed", `${kind} ${key}: ${changedFields(a, b)} changed`] as const);
    if (!what) continue;
    counts[what]++;
    lines.push(line);
  }
  return { counts, lines };
}

const NOUNS = {
  service: "services",
  provider: "providers",
  category: "categories",
  "equivalence group": "equivalence groups",
} as const;
const counted = (n: number, kind: keyof typeof NOUNS) => `${n} ${n === 1 ? kind : NOUNS[kind]}`;

/**
 * A service's own fields: its equivalents by slug, as catalogue.json embeds each equivalent whole
 * and a rename of one would otherwise show as a change of all its equivalents.
 */
function ownFields(service: Entry): Entry {
  const equivalents = service.equivalents;
  if (!Array.isArray(equivalents)) return service;
  return { ...service, equivalents: equivalents.map((other) => (other as Entry).slug) };
}

/** Everything the pulled catalogue changed from the one it replaces. */
export function pulledChanges(before: CatalogueDump, after: CatalogueDump): PulledChanges {
  const services = diffServices(
    snapshotServices(before.services as unknown as ServiceT[]),
    snapshotServices(after.services as unknown as ServiceT[]),
  );
  const serviceLines = changeLines(services);
  // Services the release diff already reports (added, removed) are not repeated as "changed".
  const reported = new Set([...services.added, ...services.removed].map((service) => service.slug));
  const renamedOrMoved = new Set([...services.renamed, ...services.lifecycle].map((service) => service.slug));
  const serviceFields = diffEntries("service", before.services.map(ownFields), after.services.map(ownFields), reported);
  const otherServiceLines = serviceFields.lines.filter(
    (line) => !renamedOrMoved.has(line.replace(/^service (\S+): .*$/, "$1")),
  );
  const kinds = [
    ["provider", diffEntries("provider", before.providers, after.providers)],
    ["category", diffEntries("category", before.categories, after.categories)],
    ["equivalence group", diffEntries("equivalence group", before.equivalenceGroups, after.equivalenceGroups)],
  ] as const;
  const parts = changeSummary(services) === "no changes" ? [] : [changeSummary(services)];
  if (otherServiceLines.length > 0) parts.push(`${counted(otherServiceLines.length, "service")} otherwise changed`);
  for (const [kind, { counts }] of kinds)
    for (const [what, n] of Object.entries(counts)) if (n > 0) parts.push(`${counted(n, kind)} ${what}`);
  return {
    lines: [...serviceLines, ...otherServiceLines, ...kinds.flatMap(([, diff]) => diff.lines)],
    summary: parts.join(", ") || "no changes",
  };
}
