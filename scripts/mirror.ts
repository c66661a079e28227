/**
 * `cloud-catalogue mirror <api-url> <dir>`: copies a deployment's whole build for offline use.
 * Reads <api-url>/manifest.json, fetches every listed file from <api-url>/mirror/<path>, checks
 * each sha256, and only then swaps the new copy in: <dir>/current is a symlink replaced by one
 * rename, so a failed or interrupted run leaves the previous complete mirror as it was. A re-run
 * reuses unchanged files from the current copy and fetches only what changed; an interrupted run
 * resumes from its staging folder. When it replaces an earlier mirror, it prints what the pulled
 * catalogue changed: services added, removed, renamed or moved in lifecycle (catalogue/changes.ts).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, link, mkdir, readFile, readlink, rename, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod";
import { changeLines, changeSummary, diffServices, snapshotServices } from "../catalogue/changes.ts";
import { BuildManifest, type BuildManifestT, type ServiceT } from "../catalogue/schema.ts";

type ManifestFile = BuildManifestT["files"][number];

export interface MirrorResult {
  readonly fetched: number;
  readonly reused: number;
  readonly bytesFetched: number;
  readonly version: string;
  /** What the pulled catalogue changed from the mirror it replaced, one line each (empty on a first mirror). */
  readonly changes: readonly string[];
}

/** The services of a build's catalogue.json, as a release snapshot records them; undefined when unreadable. */
function dumpServices(path: string) {
  try {
    const dump = JSON.parse(readFileSync(path, "utf8")) as { services: ServiceT[] };
    return snapshotServices(dump.services);
  } catch {
    return undefined;
  }
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

export async function mirror(
  apiUrl: string,
  dir: string,
  log: (line: string) => void = (line) => console.error(line),
): Promise<MirrorResult> {
  const base = apiUrl.replace(/\/+$/, "");
  const manifestBytes = await fetchBytes(`${base}/manifest.json`);
  let files: readonly ManifestFile[];
  try {
    files = BuildManifest.parse(JSON.parse(Buffer.from(manifestBytes).toString("utf8"))).files;
  } catch (error) {
    const problem = error instanceof z.ZodError ? z.prettifyError(error).slice(0, 300) : (error as Error).message;
    throw new MirrorError(`${base}/manifest.json is not a catalogue manifest: ${problem}`);
  }
  const version = sha256(manifestBytes).slice(0, 16);
  await mkdir(join(dir, "versions"), { recursive: true });
  const current = currentDir(dir);
  const previous = existsSync(current) ? readManifest(join(current, "api", "manifest.json")) : undefined;
  const previousByPath = new Map((previous ?? []).map((file) => [file.path, file.sha256]));
  const staging = join(dir, "versions", `${version}.partial`);
  const target = join(dir, "versions", version);
  await mkdir(staging, { recursive: true });

  let fetched = 0;
  let reused = 0;
  let bytesFetched = 0;
  let done = 0;
  let lastReport = 0;
  const total = files.length;
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const destination = join(staging, file.path);
      if (!(await hasFile(destination, file.sha256))) {
        await mkdir(dirname(destination), { recursive: true });
        if (previousByPath.get(file.path) === file.sha256 && (await hasFile(join(current, file.path), file.sha256))) {
          await link(join(current, file.path), destination).catch(() =>
            copyFile(join(current, file.path), destination),
          );
          reused++;
        } else {
          const body = await fetchBytes(`${base}/mirror/${file.path.split("/").map(encodeURIComponent).join("/")}`);
          const actual = sha256(body);
          if (actual !== file.sha256)
            throw new MirrorError(
              `integrity check failed for ${file.path}: expected sha256 ${file.sha256}, got ${actual}`,
            );
          await writeFile(destination, body);
          fetched++;
          bytesFetched += body.length;
        }
      } else {
        reused++;
      }
      done++;
      if (done === total || performance.now() - lastReport > 1000) {
        lastReport = performance.now();
        log(
          `mirror: ${done}/${total} files (${fetched} fetched, ${reused} reused, ${(bytesFetched / 1024 / 1024).toFixed(1)} MiB)`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  await writeFile(join(staging, "api", "manifest.json"), manifestBytes);

  const before = previous ? dumpServices(join(current, "api", "catalogue.json")) : undefined;
  const after = dumpServices(join(staging, "api", "catalogue.json"));
  const diff = before && after ? diffServices(before, after) : undefined;
  const changes = diff ? changeLines(diff) : [];

  // Swap: finish the version folder, then point `current` at it with one atomic rename.
  await rm(target, { recursive: true, force: true });
  await rename(staging, target);
  const temporaryLink = join(dir, `.current-${process.pid}`);
  await rm(temporaryLink, { force: true });
  await symlink(join("versions", version), temporaryLink);
  const old = existsSync(current) ? await readlink(current).catch(() => undefined) : undefined;
  await rename(temporaryLink, current);
  // Keep only the version in use; interrupted runs of other versions stay for a resume.
  if (old && old !== join("versions", version)) await rm(join(dir, old), { recursive: true, force: true });
  log(`mirror: done — ${total} files, ${fetched} fetched, ${reused} reused; ${current} → versions/${version}`);
  if (diff) {
    log(`mirror: catalogue changes pulled: ${changeSummary(diff)}`);
    for (const line of changes) log(`  ${line}`);
  }
  return { fetched, reused, bytesFetched, version, changes };
}
