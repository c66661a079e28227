/**
 * One process at a time holds a DATA_DIR. The lock itself is a Unix socket bound in Linux's
 * abstract namespace under a name derived from the folder (its device and inode): bind(2) is
 * atomic, so two processes can never both hold it, and the kernel releases it when its holder
 * dies, however it dies — there is no stale lock to detect and take over, so nothing to race on.
 * `store.lock` in the folder names the holder's pid for people and for the refusal message, and on
 * its second line the process's identity (boot id and start time, /proc/<pid>/stat), since a pid
 * alone is reused; only the socket's holder reads or writes it (a new one is written beside it and
 * renamed over, so it is never seen empty). A `store.lock` naming another live process is still
 * respected when that process is the one that wrote it: the same identity, or, for a file of an
 * older version (a pid alone, locked with the file alone), a process that started before the file
 * was written. A pid taken since by an unrelated process refuses nothing.
 *
 * Limits: the abstract namespace is per network namespace, so containers that share DATA_DIR
 * through a volume but not a network namespace are not kept apart (nor were they by pid files).
 */
import { createHash } from "node:crypto";
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { uptime } from "node:os";
import { createServer, type Server } from "node:net";
import { resolve } from "node:path";

/** Another process, or another store in this one, holds DATA_DIR. */
export class DataDirInUseError extends Error {}

/** Folders this process holds, so a second store on one folder is refused here too. */
const held = new Set<string>();

function socketName(dataDir: string): string {
  const { dev, ino } = statSync(dataDir);
  return `\0cloud-catalogue-store-${createHash("sha256").update(`${dev}:${ino}`).digest("hex").slice(0, 40)}`;
}

/** The pid a lock file names, and the identity written with it (absent in an older version's file). */
function holderIn(path: string): { pid: number; identity: string | undefined; writtenMs: number } | undefined {
  try {
    const [first, second] = readFileSync(path, "utf8").split("\n");
    const pid = Number(first!.trim());
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    return { pid, identity: second?.trim() || undefined, writtenMs: statSync(path).mtimeMs };
  } catch {
    return undefined;
  }
}

const pidIn = (path: string): number | undefined => holderIn(path)?.pid;

/** /proc/<pid>/stat's start time (field 22, clock ticks after boot), or undefined (no such process, no /proc). */
function startTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

function bootId(): string {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return "unknown-boot";
  }
}

/** A process's identity across pid reuse: the boot and its start time; undefined without /proc. */
function identityOf(pid: number): string | undefined {
  const ticks = startTicks(pid);
  return ticks === undefined ? undefined : `${bootId()} ${ticks}`;
}

/** /proc's clock ticks are USER_HZ, 100 a second on Linux's architectures but alpha and ia64. */
const TICKS_PER_SECOND = 100;

/**
 * Whether the live process `pid` is the one that wrote the lock file: the identity it names, or,
 * in an older version's file, a process started before the file was written.
 */
function wroteLock(holder: { pid: number; identity: string | undefined; writtenMs: number }): boolean {
  if (!processAlive(holder.pid)) return false;
  if (holder.identity !== undefined) {
    const identity = identityOf(holder.pid);
    return identity === undefined || identity === holder.identity;
  }
  const ticks = startTicks(holder.pid);
  if (ticks === undefined) return true;
  const startedMs = Date.now() - uptime() * 1000 + (ticks / TICKS_PER_SECOND) * 1000;
  // A second's slack for the two clocks' rounding.
  return startedMs <= holder.writtenMs + 1000;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function bind(name: string): Promise<Server | undefined> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once("error", (error: NodeJS.ErrnoException) =>
      error.code === "EADDRINUSE" ? resolvePromise(undefined) : reject(error),
    );
    server.listen({ path: name, exclusive: true }, () => {
      server.unref();
      resolvePromise(server);
    });
  });
}

const inUse = (dataDir: string, pid: number | undefined) =>
  new DataDirInUseError(
    `${dataDir} is in use by ${pid ? `process ${pid}` : "another process"}: one process at a time may use an embedded store (set DATA_DIR, or REDIS_URL to share one store)`,
  );

/** Holds `dataDir` (which must exist) for this process, or throws DataDirInUseError; returns the release. */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  const path = resolve(dataDir, "store.lock");
  if (held.has(path)) throw new DataDirInUseError(`${dataDir} is already open in this process`);
  held.add(path);
  let server: Server | undefined;
  try {
    server = await bind(socketName(dataDir));
    if (!server) throw inUse(dataDir, pidIn(path));
    const named = holderIn(path);
    if (named !== undefined && named.pid !== process.pid && wroteLock(named)) throw inUse(dataDir, named.pid);
    const mine = `${path}.${process.pid}`;
    try {
      const identity = identityOf(process.pid);
      writeFileSync(mine, `${process.pid}\n${identity ?? ""}\n`);
      renameSync(mine, path);
    } catch (error) {
      try {
        unlinkSync(mine);
      } catch {
        // Never written.
      }
      throw error;
    }
  } catch (error) {
    server?.close();
    held.delete(path);
    throw error;
  }
  const socket = server;
  return () => {
    held.delete(path);
    if (pidIn(path) === process.pid) {
      try {
        unlinkSync(path);
      } catch {
        // Already gone.
      }
    }
    socket.close();
  };
}
