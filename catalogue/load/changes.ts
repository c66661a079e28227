/**
 * What each catalogue release changed. A release is a snapshot of every service's name, provider
 * and lifecycle (catalogue/releases/<YYYY-MM-DD>.json, written by `npm run release`); the changes
 * of a release are the difference from the snapshot before it, and the current data's difference
 * from the newest snapshot is listed as not yet released. The loader computes the history once
 * (readReleaseHistory) and the catalogue carries it, so mirrors serve it as built.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { z } from "zod";
import { atomInstant, renderAtom, tagUri } from "../format/feeds.ts";
import { IsoDate, LIFECYCLE_STATUSES, type CatalogueReleaseT, type ServiceT } from "../schema/index.ts";
import type { PublicUrls } from "../base/urls.ts";

export const SnapshotEntry = z
  .object({
    name: z.string().min(1),
    providerId: z.string().min(1),
    status: z.enum(LIFECYCLE_STATUSES).optional(),
    sunsetDate: IsoDate.optional(),
  })
  .strict();
export const Snapshot = z.object({ release: IsoDate, services: z.record(z.string(), SnapshotEntry) }).strict();
export type SnapshotEntryT = z.infer<typeof SnapshotEntry>;
export type SnapshotT = z.infer<typeof Snapshot>;

/** What a release records of each service. */
export function snapshotServices(
  services: readonly Pick<ServiceT, "slug" | "name" | "providerId" | "lifecycle">[],
): Record<string, SnapshotEntryT> {
  const entries = [...services]
    .sort((a, b) => a.slug.localeCompare(b.slug))
    .map((service): [string, SnapshotEntryT] => [
      service.slug,
      {
        name: service.name,
        providerId: service.providerId,
        ...(service.lifecycle ? { status: service.lifecycle.status } : {}),
        ...(service.lifecycle?.sunsetDate ? { sunsetDate: service.lifecycle.sunsetDate } : {}),
      },
    ]);
  return Object.fromEntries(entries);
}

/** A snapshot as the repository keeps it: one service per line, so a release's diff reads line by line. */
export function serializeSnapshot(snapshot: SnapshotT): string {
  const lines = Object.entries(snapshot.services).map(
    ([slug, entry]) => `    ${JSON.stringify(slug)}: ${JSON.stringify(entry)}`,
  );
  return `{\n  "release": ${JSON.stringify(snapshot.release)},\n  "services": {\n${lines.join(",\n")}\n  }\n}\n`;
}

type Changes = Omit<CatalogueReleaseT, "release" | "previousRelease" | "released">;

const state = (entry: SnapshotEntryT) =>
  entry.status ? { status: entry.status, ...(entry.sunsetDate ? { sunsetDate: entry.sunsetDate } : {}) } : null;

/** What changed from one set of services to another, each list ordered by slug. */
export function diffServices(
  before: Readonly<Record<string, SnapshotEntryT>>,
  after: Readonly<Record<string, SnapshotEntryT>>,
): Changes {
  const changes: Changes = { added: [], removed: [], renamed: [], lifecycle: [] };
  const slugs = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  for (const slug of slugs) {
    const was = before[slug];
    const now = after[slug];
    if (!was) changes.added.push({ slug, name: now!.name, providerId: now!.providerId });
    else if (!now) changes.removed.push({ slug, name: was.name, providerId: was.providerId });
    else {
      if (was.name !== now.name)
        changes.renamed.push({ slug, providerId: now.providerId, from: was.name, to: now.name });
      if (was.status !== now.status || was.sunsetDate !== now.sunsetDate)
        changes.lifecycle.push({ slug, name: now.name, providerId: now.providerId, from: state(was), to: state(now) });
    }
  }
  return changes;
}

export const changeCount = (changes: Changes): number =>
  changes.added.length + changes.removed.length + changes.renamed.length + changes.lifecycle.length;

/** The release snapshots in a folder, oldest first; a bad file stops the load, naming it. */
export function readSnapshots(dir: string): SnapshotT[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith(".json"));
  } catch {
    return [];
  }
  return files.sort().map((file) => {
    const path = join(dir, file);
    const result = Snapshot.safeParse(JSON.parse(readFileSync(path, "utf8")));
    if (!result.success)
      throw new Error(`${relative(process.cwd(), path)}: not a release snapshot: ${z.prettifyError(result.error)}`);
    if (`${result.data.release}.json` !== file)
      throw new Error(
        `${relative(process.cwd(), path)}: field release: "${result.data.release}" does not match the file name`,
      );
    return result.data;
  });
}

/**
 * Every release's changes, newest first: one per pair of consecutive snapshots, and the current
 * services' changes since the newest snapshot (released: false, dated `today`) when there are any.
 */
export function releaseHistory(
  snapshots: readonly SnapshotT[],
  current: Readonly<Record<string, SnapshotEntryT>>,
  today: string,
): CatalogueReleaseT[] {
  const history: CatalogueReleaseT[] = [];
  for (let index = 1; index < snapshots.length; index++) {
    const previous = snapshots[index - 1]!;
    const release = snapshots[index]!;
    history.push({
      release: release.release,
      previousRelease: previous.release,
      released: true,
      ...diffServices(previous.services, release.services),
    });
  }
  const newest = snapshots.at(-1);
  if (newest) {
    const pending = diffServices(newest.services, current);
    if (changeCount(pending) > 0)
      history.push({ release: today, previousRelease: newest.release, released: false, ...pending });
  }
  return history.reverse();
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** One line per change, for the Atom summary and the mirror's report. */
export function changeLines(changes: Changes): string[] {
  const lifecycleText = (value: { status: string; sunsetDate?: string | undefined } | null) =>
    value ? `${value.status}${value.sunsetDate ? ` ${value.sunsetDate}` : ""}` : "active";
  return [
    ...changes.added.map((s) => `added ${s.slug} (${s.name})`),
    ...changes.removed.map((s) => `removed ${s.slug} (${s.name})`),
    ...changes.renamed.map((s) => `renamed ${s.slug}: ${s.from} → ${s.to}`),
    ...changes.lifecycle.map((s) => `lifecycle ${s.slug}: ${lifecycleText(s.from)} → ${lifecycleText(s.to)}`),
  ];
}

/** "2 added, 6 lifecycle moves". */
export function changeSummary(changes: Changes): string {
  const parts = [
    changes.added.length > 0 ? `${changes.added.length} added` : "",
    changes.removed.length > 0 ? `${changes.removed.length} removed` : "",
    changes.renamed.length > 0 ? `${changes.renamed.length} renamed` : "",
    changes.lifecycle.length > 0 ? count(changes.lifecycle.length, "lifecycle move") : "",
  ].filter(Boolean);
  return parts.join(", ") || "no changes";
}

/**
 * GET /v1/changes.atom: one entry per release. The id names the release it counts from, so the
 * entry of changes not yet released keeps its id once `npm run release` records them.
 */
export function changesAtom(changes: readonly CatalogueReleaseT[], lastUpdated: string, urls: PublicUrls): string {
  return renderAtom({
    id: tagUri(urls, "changes"),
    title: "Cloud Services Catalogue: changes",
    subtitle: "What each catalogue release added, removed, renamed or moved in lifecycle.",
    self: `${urls.apiUrl}/v1/changes.atom`,
    alternate: `${urls.apiUrl}/v1/changes`,
    author: { name: "Cloud Services Catalogue", uri: urls.textUrl },
    fallbackUpdated: lastUpdated.replace(/\.\d+Z$/, "Z"),
    entries: changes.map((release) => ({
      id: tagUri(urls, `changes/since/${release.previousRelease}`),
      title: `${release.released ? "Release" : "Unreleased changes"} ${release.release}: ${changeSummary(release)}`,
      updated: atomInstant(release.release),
      link: `${urls.apiUrl}/v1/changes`,
      summary: `Since ${release.previousRelease}: ${changeLines(release).join("; ")}.`,
    })),
  });
}
