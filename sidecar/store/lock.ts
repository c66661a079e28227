/**
 * One process at a time holds a DATA_DIR. The lock itself is a Unix socket bound in Linux's
 * abstract namespace under a name derived from the folder (its device and inode): bind(2) is
 * atomic, so two processes can never both hold it, and the kernel releases it when its holder
 * dies, however it dies — there is no stale lock to detect and take over, so nothing to race on.
 * `store.lock` in the folder names the holder's pid for people and for the refusal message, and on
 * its second line the process's identity (boot id and start time, /proc/<pid>/stat), since a pid
 * alone is reused; only the socket's holder reads or writes it (a new one is written beside it and
 * renamed over, so it is never seen empty).
 *
 * Who the file names is a holder only while it is one (decisions.md#durable-acknowledgement): a process that is gone, a zombie
 * (state Z: killed, not yet reaped by its parent), or another process with the same pid (another
 * start time) is not. The kernel frees the socket only once every thread of a killed process has
 * finished (one in the middle of an fsync can take seconds), so when the socket is still bound and
 * the file names no live holder, the opener waits for it, up to RELEASE_WAIT_MS, instead of
 * refusing. A file of an older version (a pid alone, locked with the file alone), or one copied
 * with its folder (`cp` gives it a new time, so any older process looks like its writer), names a
 * holder only if that process has this folder's store.jsonl open (/proc/<pid>/fd); where that
 * cannot be read (another user's process), only if it is a node process started before the file
 * was written. A replaced older file is reported in one line.
 *
 * Limits: the abstract namespace is per network namespace, so containers that share DATA_DIR
 * through a volume but not a network namespace are not kept apart (nor were they by pid files).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { uptime } from "node:os";
import { createServer, type Server } from "node:net";
import { resolve } from "node:path";

/** Another process, or another store in this one, holds DATA_DIR. */
export class DataDirInUseError extends Error {}

/** Folders this process holds, so a second store on one folder is refused here too. */
const held = new Set<string>();

/** The abstract socket's name for `dataDir` (exported for the tests that hold it). */
export function lockSocketName(dataDir: string): string {
  const { dev, ino } = statSync(dataDir);
  return `\0cloud-catalogue-store-${createHash("sha256").update(`${dev}:${ino}`).digest("hex").slice(0, 40)}`;
}

/** The pid a lock file names, and the identity written with it (absent in an older version's file). */
function holderIn(path: string): Holder | undefined {
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

/** /proc/<pid>/stat's fields after the command name (which is in parentheses and may hold spaces). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** /proc/<pid>/stat's start time (field 22, clock ticks after boot), or undefined (no such process, no /proc). */
function startTicks(pid: number): number | undefined {
  const ticks = Number(statFields(pid)?.[19]);
  return Number.isFinite(ticks) ? ticks : undefined;
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

/** How long an opener waits for the socket of a holder that is dying (a zombie, or gone) to be freed. */
export const RELEASE_WAIT_MS = 15_000;

interface Holder {
  readonly pid: number;
  readonly identity: string | undefined;
  readonly writtenMs: number;
}

/**
 * Whether `pid` runs: false when kill(pid, 0) finds no such process or /proc says it is a zombie
 * (Z) or dead (X), which kill(pid, 0) cannot tell from a live one.
 */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const state = statFields(pid)?.[0];
  return state !== "Z" && state !== "X";
}

/** Whether the live process named still is the one that wrote the file (same identity; an older file: started before it). */
function sameProcess(holder: Holder): boolean {
  if (!running(holder.pid)) return false;
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

/** Whether process `pid` has `file` open; undefined when its descriptors cannot be read (another user's). */
function hasOpen(pid: number, file: string): boolean | undefined {
  let target: { dev: number; ino: number };
  try {
    target = statSync(file);
  } catch {
    return false;
  }
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return undefined;
  }
  return fds.some((fd) => {
    try {
      const { dev, ino } = statSync(`/proc/${pid}/fd/${fd}`);
      return dev === target.dev && ino === target.ino;
    } catch {
      return false;
    }
  });
}

function isNode(pid: number): boolean {
  try {
    return /(^|\/)node(js)?(\0|$)/.test(readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0")[0] + "\0");
  } catch {
    return false;
  }
}

/**
 * Whether the process a lock file names holds `dataDir` though this process could bind the socket:
 * only a process that locked with the file alone (an older version), so only one that has the
 * store's log open — or, where its descriptors cannot be read, a node process that wrote the file.
 */
function holdsWithoutSocket(holder: Holder, dataDir: string): boolean {
  if (!sameProcess(holder)) return false;
  const open = hasOpen(holder.pid, resolve(dataDir, "store.jsonl"));
  return open ?? isNode(holder.pid);
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

const sleep = (ms: number) => new Promise((resolvePromise) => setTimeout(resolvePromise, ms));

/**
 * Binds the folder's socket. While another process holds it: refuses at once when the lock file
 * names a live holder; else (the one named is a zombie, gone, or its pid reused: a killed holder
 * whose last threads are still ending, or an opener that has not written the file yet) tries again
 * until RELEASE_WAIT_MS have passed.
 */
async function bindOrWait(dataDir: string, path: string): Promise<Server> {
  const name = lockSocketName(dataDir);
  const deadline = Date.now() + RELEASE_WAIT_MS;
  for (;;) {
    const server = await bind(name);
    if (server) return server;
    const named = holderIn(path);
    if (named !== undefined && named.pid !== process.pid && sameProcess(named)) throw inUse(dataDir, named.pid);
    if (Date.now() >= deadline)
      throw new DataDirInUseError(
        `${inUse(dataDir, undefined).message}; ${named ? `store.lock names process ${named.pid}, which no longer runs, but` : "no store.lock names it, and"} the lock was not released in ${RELEASE_WAIT_MS / 1000} s`,
      );
    await sleep(100);
  }
}

/** Holds `dataDir` (which must exist) for this process, or throws DataDirInUseError; returns the release. */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  const path = resolve(dataDir, "store.lock");
  if (held.has(path)) throw new DataDirInUseError(`${dataDir} is already open in this process`);
  held.add(path);
  let server: Server | undefined;
  try {
    server = await bindOrWait(dataDir, path);
    const named = holderIn(path);
    if (named !== undefined && named.pid !== process.pid) {
      if (holdsWithoutSocket(named, dataDir)) throw inUse(dataDir, named.pid);
      if (named.identity === undefined)
        console.error(
          `store: ${path} is an older version's lock (a pid alone) naming process ${named.pid}, which does not hold ${dataDir} (it has not its store.jsonl open); replaced`,
        );
    }
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
