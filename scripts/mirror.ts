/**
 * `cloud-catalogue mirror <api-url> <dir>`: copies a deployment's whole build for offline use.
 * Reads <api-url>/manifest.json, fetches every listed file from <api-url>/mirror/<path>, checks
 * each sha256, and only then swaps the new copy in: <dir>/current is a symlink replaced by one
 * rename, so a failed or interrupted run, killed at any moment, leaves the previous complete mirror
 * as it was; the copy it replaces is kept until the next update, for a running `serve` to move off
 * (scripts/serve-mirror.ts follows `current`), and any copy a `serve` still answers from is kept
 * until it lets go of it (mirror-leases.ts). A re-run with nothing changed leaves it untouched. A re-run
 * reuses unchanged files from the current copy and fetches only what changed; an interrupted run
 * resumes from its staging folder. When it replaces an earlier mirror, it prints what the pulled
 * catalogue changed: services added, removed, renamed or moved in lifecycle, and any other change to
 * services, providers, categories or equivalence groups (mirror-changes.ts).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, link, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { BuildManifest, type BuildManifestT } from "../catalogue/schema/index.ts";
import { pulledChanges, readCatalogueDump } from "./mirror-changes.ts";
import { leasedVersions } from "./mirror-leases.ts";

type ManifestFile = BuildManifestT["files"][number];

export interface MirrorResult {
  readonly fetched: number;
  readonly reused: number;
  readonly bytesFetched: number;
  readonly version: string;
  /** What the pulled catalogue changed from the mirror it replaced, one line each (empty on a first mirror or none). */
  readonly changes: readonly string[];
}

export class MirrorError extends Error {}

const sha256 = (body: Uint8Array) => createHash("sha256").update(body).digest("hex");

async function fetchBytes(url: string, timeoutMs = 30_000): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { "accept-encoding": "identity" } });
  } catch (error) {
    throw new MirrorError(`cannot reach ${url}: ${(error as Error).message}`);
  }
  if (!response.ok) throw new MirrorError(`${url} answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Where an existing mirror keeps its files and manifest. */
export function currentDir(dir: string): string {
  return join(dir, "current");
}

function readManifest(path: string): ManifestFile[] | undefined {
  try {
    return BuildManifest.parse(JSON.parse(readFileSync(path, "utf8"))).files;
  } catch {
    return undefined;
  }
}

async function hasFile(path: string, sha: string): Promise<boolean> {
  try {
    return sha256(await readFile(path)) === sha;
  } catch {
    return false;
  }
}

/** The served manifest: its bytes (kept as the mirror's own) and its files. */
async function fetchManifest(base: string): Promise<{ bytes: Uint8Array; files: readonly ManifestFile[] }> {
  const bytes = await fetchBytes(`${base}/manifest.json`);
  try {
    return { bytes, files: BuildManifest.parse(JSON.parse(Buffer.from(bytes).toString("utf8"))).files };
  } catch (error) {
    const problem = error instanceof z.ZodError ? z.prettifyError(error).slice(0, 300) : (error as Error).message;
    throw new MirrorError(`${base}/manifest.json is not a catalogue manifest: ${problem}`);
  }
}

/** Where one mirror run reads from and writes to. */
interface MirrorRun {
  readonly base: string;
  /** The version folder being filled. */
  readonly staging: string;
  /** The version in use, and its files by path → sha256 (empty when there is none). */
  readonly current: string;
  readonly previousByPath: ReadonlyMap<string, string>;
  readonly log: (line: string) => void;
}

/**
 * Fills the staging folder with every file of the manifest, eight at a time: a file already there
 * (an interrupted run) or unchanged in the version in use is reused (hard-linked, else copied);
 * any other is fetched and checked against its sha256.
 */
async function fetchFiles(run: MirrorRun, files: readonly ManifestFile[]) {
  const counts = { fetched: 0, reused: 0, bytesFetched: 0, fromCurrent: 0 };
  let done = 0;
  let lastReport = 0;
  const fetchOne = async (file: ManifestFile) => {
    const destination = join(run.staging, file.path);
    if (await hasFile(destination, file.sha256)) {
      counts.reused++;
      return;
    }
    await mkdir(dirname(destination), { recursive: true });
    const existing = join(run.current, file.path);
    if (run.previousByPath.get(file.path) === file.sha256 && (await hasFile(existing, file.sha256))) {
      await link(existing, destination).catch(() => copyFile(existing, destination));
      counts.reused++;
      counts.fromCurrent++;
      return;
    }
    // A stale file here may be a hard link to the served copy's: replace it, never write through it.
    await rm(destination, { force: true });
    const body = await fetchBytes(`${run.base}/mirror/${file.path.split("/").map(encodeURIComponent).join("/")}`);
    const actual = sha256(body);
    if (actual !== file.sha256)
      throw new MirrorError(`integrity check failed for ${file.path}: expected sha256 ${file.sha256}, got ${actual}`);
    await writeFile(destination, body);
    counts.fetched++;
    counts.bytesFetched += body.length;
  };
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      await fetchOne(file);
      done++;
      if (done === files.length || performance.now() - lastReport > 1000) {
        lastReport = performance.now();
        const mib = (counts.bytesFetched / 1024 / 1024).toFixed(1);
        run.log(
          `mirror: ${done}/${files.length} files (${counts.fetched} fetched, ${counts.reused} reused, ${mib} MiB)`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return counts;
}

/**
 * Moves the complete staging folder in as a new version folder (a name never used before, so the
 * copy being served is never touched), then points `current` at it with one atomic rename. A kill
 * at any moment leaves `current` naming a complete copy: the old one until the rename, the new one after.
 */
export async function swapCurrent(dir: string, staging: string, version: string): Promise<string> {
  const name = `${version}-${Date.now().toString(36)}`;
  await rename(staging, join(dir, "versions", name));
  const temporaryLink = join(dir, `.current-${process.pid}`);
  await rm(temporaryLink, { force: true });
  await symlink(join("versions", name), temporaryLink);
  const replaced = await readlink(currentDir(dir)).catch(() => undefined);
  await rename(temporaryLink, currentDir(dir));
  await dropOldVersions(dir, [name, ...(replaced ? [basename(replaced)] : [])]);
  return name;
}

/**
 * Removes the version folders neither in use, nor just replaced (a running `serve` may not have
 * followed `current` yet), nor leased by a running `serve` whose hosts still answer from them
 * (mirror-leases.ts), and links left by killed runs. Staging folders of interrupted runs stay for a resume.
 */
async function dropOldVersions(dir: string, keep: readonly string[]): Promise<void> {
  const leased = leasedVersions(dir);
  for (const entry of await readdir(join(dir, "versions"))) {
    if (keep.includes(entry) || leased.has(entry) || entry.endsWith(".partial")) continue;
    await rm(join(dir, "versions", entry), { recursive: true, force: true });
  }
  for (const entry of await readdir(dir))
    if (/^\.current-\d+$/.test(entry) && entry !== `.current-${process.pid}`)
      await rm(join(dir, entry), { force: true });
}

export async function mirror(
  apiUrl: string,
  dir: string,
  log: (line: string) => void = (line) => console.error(line),
): Promise<MirrorResult> {
  const base = apiUrl.replace(/\/+$/, "");
  const manifest = await fetchManifest(base);
  const version = sha256(manifest.bytes).slice(0, 16);
  await mkdir(join(dir, "versions"), { recursive: true });
  const current = currentDir(dir);
  const previous = existsSync(current) ? readManifest(join(current, "api", "manifest.json")) : undefined;
  const previousByPath = new Map((previous ?? []).map((file) => [file.path, file.sha256]));
  const staging = join(dir, "versions", `${version}.partial`);
  await mkdir(staging, { recursive: true });

  const { fetched, reused, bytesFetched, fromCurrent } = await fetchFiles(
    { base, staging, current, previousByPath, log },
    manifest.files,
  );
  await writeFile(join(staging, "api", "manifest.json"), manifest.bytes);

  const before = previous ? readCatalogueDump(join(current, "api", "catalogue.json")) : undefined;
  const after = readCatalogueDump(join(staging, "api", "catalogue.json"));
  const diff = before && after ? pulledChanges(before, after) : undefined;
  const changes = diff?.lines ?? [];

  let inUse = basename(await readlink(current).catch(() => ""));
  if (fromCurrent === manifest.files.length && inUse.startsWith(`${version}-`)) {
    // Nothing changed and every file in use checked against its sha256: the served copy stays as it is.
    await rm(staging, { recursive: true, force: true });
  } else inUse = await swapCurrent(dir, staging, version);
  const total = manifest.files.length;
  log(`mirror: done — ${total} files, ${fetched} fetched, ${reused} reused; ${current} → versions/${inUse}`);
  if (diff) {
    log(`mirror: catalogue changes pulled: ${diff.summary}`);
    for (const line of changes) log(`  ${line}`);
  }
  return { fetched, reused, bytesFetched, version, changes };
}
