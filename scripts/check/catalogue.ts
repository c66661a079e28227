/**
 * Which catalogue a check is made against, and which release that is (the answer names it):
 *   --catalogue DIR   a mirror (DIR/current/api/catalogue-source.json, what `cloud-catalogue mirror`
 *                     keeps) or a build folder (DIR/api/catalogue-source.json, such as dist/);
 *   the package       the snapshot its build wrote (snapshot/catalogue-source.json: the validated
 *                     source a build ships), read as it is;
 *   the repository    dist/ when it is fresh for the sources, else catalogue/data (a few seconds).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assembleCatalogue, type Catalogue, type CatalogueSource } from "../../catalogue/load/assemble.ts";
import type { CatalogueReleaseT } from "../../catalogue/schema/index.ts";
import { PACKAGED } from "../package/packaged.ts";
import { CheckUsageError } from "./errors.ts";

/** Where the package keeps its snapshot (scripts/package/build.ts writes it there). */
export const SNAPSHOT_FILE = fileURLToPath(new URL("../../snapshot/catalogue-source.json", import.meta.url));

/** What a check was made against: the release, the day its data last changed, and where it came from. */
export interface CatalogueRelease {
  /** The newest release the catalogue holds (catalogue/releases/), when it names one. */
  readonly release?: string;
  /** The day its data last changed (lastUpdated); later than the release when changes are not released yet. */
  readonly dataDate?: string;
  /** The package's snapshot, a mirror or build folder, the repository's data, or an API's URL. */
  readonly from: string;
}

/** The release of a catalogue's change history (newest first), as GET /v1/changes and the source hold it. */
export function releaseOf(changes: readonly CatalogueReleaseT[], lastUpdated: string | undefined, from: string) {
  const release = changes.find((change) => change.released)?.release;
  return {
    ...(release ? { release } : {}),
    ...(lastUpdated ? { dataDate: lastUpdated.slice(0, 10) } : {}),
    from,
  } satisfies CatalogueRelease;
}

/** The release in words: "catalogue release 2026-11-26 (data of 2026-11-28), from the package's snapshot". */
export function releaseText(release: CatalogueRelease): string {
  const data = release.dataDate && release.dataDate !== release.release ? ` (data of ${release.dataDate})` : "";
  const which = release.release
    ? `catalogue release ${release.release}${data}`
    : `catalogue${data || " (release not known)"}`;
  return `${which}, from ${release.from}`;
}

function fromSourceFile(path: string, from: string): { catalogue: Catalogue; release: CatalogueRelease } {
  let source: CatalogueSource;
  try {
    source = JSON.parse(readFileSync(path, "utf8")) as CatalogueSource;
  } catch (error) {
    throw new CheckUsageError(`cannot read the catalogue ${path}: ${(error as Error).message}`);
  }
  let catalogue: Catalogue;
  try {
    catalogue = assembleCatalogue(source);
  } catch (error) {
    throw new CheckUsageError(`${path} is not a catalogue this check can read: ${(error as Error).message}`);
  }
  return { catalogue, release: releaseOf(catalogue.changes, catalogue.lastUpdated, from) };
}

/** --catalogue DIR: a mirror's current copy, or a build folder. */
export function catalogueOfFolder(dir: string): { catalogue: Catalogue; release: CatalogueRelease } {
  for (const [path, what] of [
    [join(dir, "current", "api", "catalogue-source.json"), `the mirror ${dir}`],
    [join(dir, "api", "catalogue-source.json"), `the build ${dir}`],
  ] as const)
    if (existsSync(path)) return fromSourceFile(path, what);
  throw new CheckUsageError(
    `${dir} holds no catalogue: neither a mirror (current/api/catalogue-source.json; cloud-catalogue mirror <api-url> ${dir}) nor a build (api/catalogue-source.json)`,
  );
}

/** The catalogue this copy of the command holds: the package's snapshot, or the repository's. */
export async function ownCatalogue(): Promise<{ catalogue: Catalogue; release: CatalogueRelease }> {
  if (PACKAGED) return fromSourceFile(SNAPSHOT_FILE, "the package's snapshot");
  // The repository: its modules load only here, so the package never holds them.
  const { repositoryCatalogue } = await import("./repository.ts");
  const { catalogue, from } = await repositoryCatalogue();
  return { catalogue, release: releaseOf(catalogue.changes, catalogue.lastUpdated, from) };
}
