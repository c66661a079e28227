/**
 * Which mirror copies running `serve` processes still read. Each `serve` keeps a lease,
 * <dir>/serving/<pid>.json, naming the version folders its hosts serve — the current one and any
 * replaced one whose connections have not all closed yet. `mirror` never deletes a leased copy,
 * and `serve` deletes a copy it let go of once nobody holds it and `current` no longer names it:
 * two updates in a row can no longer delete a copy that draining hosts still answer from.
 * A lease whose process is gone counts for nothing and is removed.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { spawn } from "node:child_process";
import { setPriority } from "node:os";
import { basename, dirname, join } from "node:path";

const leaseDir = (dir: string) => join(dir, "serving");

/** Whether process `pid` still runs (signal 0 only checks; EPERM means it runs as someone else). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Records the versions this process serves (replacing its lease at once, by rename). */
export function writeLease(dir: string, versions: Iterable<string>): void {
  mkdirSync(leaseDir(dir), { recursive: true });
  const path = join(leaseDir(dir), `${process.pid}.json`);
  writeFileSync(`${path}.tmp`, JSON.stringify({ versions: [...new Set(versions)] }));
  renameSync(`${path}.tmp`, path);
}

export function removeLease(dir: string): void {
  rmSync(join(leaseDir(dir), `${process.pid}.json`), { force: true });
}

/** The versions leased by running processes, other than `exceptPid`'s; leases of dead ones are removed. */
export function leasedVersions(dir: string, exceptPid?: number): Set<string> {
  const versions = new Set<string>();
  let entries: string[];
  try {
    entries = readdirSync(leaseDir(dir));
  } catch {
    return versions;
  }
  for (const entry of entries) {
    const match = /^(\d+)\.json$/.exec(entry);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === exceptPid) continue;
    const path = join(leaseDir(dir), entry);
    if (!running(pid)) {
      rmSync(path, { force: true });
      continue;
    }
    try {
      const lease = JSON.parse(readFileSync(path, "utf8")) as { versions?: unknown };
      if (Array.isArray(lease.versions)) for (const name of lease.versions) versions.add(String(name));
    } catch {
      // Leases are replaced by rename, never written in place: an unreadable one is not ours to honour.
    }
  }
  return versions;
}

/**
 * Deletes version folder `name` when `current` does not name it and no other running process leases
 * it; resolves whether it did. A copy is some 30,000 files: deleting it in place held `serve`'s loop
 * for seconds (issue 116), and through fs/promises it filled this process's libuv thread pool with
 * unlinks, so the new copy's first file reads waited behind them for seconds, right after each
 * switch (issue 126). So a child process deletes it, at the lowest priority.
 */
export async function dropIfUnheld(dir: string, name: string): Promise<boolean> {
  const inUse = (() => {
    try {
      return basename(readlinkSync(join(dir, "current")));
    } catch {
      return undefined;
    }
  })();
  if (name === inUse || leasedVersions(dir, process.pid).has(name)) return false;
  await removeElsewhere(join(dir, "versions", name));
  return true;
}

/** Removes `path` (recursively) in a child process at the lowest priority; rejects when it could not. */
function removeElsewhere(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["-e", "require('node:fs').rmSync(process.argv[1], { recursive: true, force: true })", path],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let error = "";
    child.stderr.on("data", (chunk: Buffer) => (error += chunk.toString()));
    try {
      if (child.pid !== undefined) setPriority(child.pid, 19);
    } catch {
      // Not allowed: it runs at this process's priority, still off its thread pool.
    }
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(error.trim() || `rm exited ${code}`))));
  });
}

/** The copies one `serve` holds, kept in its lease: the copy served, and replaced ones still draining. */
export class ServedCopies {
  private readonly held = new Set<string>();
  private readonly dir: string;
  private readonly log: (line: string) => void;

  constructor(dir: string, log: (line: string) => void) {
    this.dir = dir;
    this.log = log;
  }

  /** The version folder a served copy is, when it is one of <dir>/versions. */
  private versionOf(distDir: string): string | undefined {
    return dirname(distDir) === realpathSync(join(this.dir, "versions")) ? basename(distDir) : undefined;
  }

  hold(distDir: string): void {
    const version = this.versionOf(distDir);
    if (version) this.held.add(version);
    writeLease(this.dir, this.held);
  }

  /** Lets go of a copy, and deletes it when `current` names another and no other `serve` holds it. */
  letGo(distDir: string): void {
    const version = this.versionOf(distDir);
    if (!version) return;
    this.held.delete(version);
    writeLease(this.dir, this.held);
    void dropIfUnheld(this.dir, version).then(
      (removed) => removed && this.log(`serve: removed ${distDir}, its last connection closed`),
      (error: unknown) => this.log(`serve: could not remove ${distDir}: ${(error as Error).message}`),
    );
  }

  close(): void {
    removeLease(this.dir);
  }
}
