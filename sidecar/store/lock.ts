/**
 * One process at a time holds a DATA_DIR. The lock itself is a Unix socket bound in Linux's
 * abstract namespace under a name derived from the folder (its device and inode): bind(2) is
 * atomic, so two processes can never both hold it, and the kernel releases it when its holder
 * dies, however it dies — there is no stale lock to detect and take over, so nothing to race on.
 * `store.lock` in the folder names the holder's pid for people and for the refusal message; only
 * the socket's holder reads or writes it (a new one is written beside it and renamed over, so it
 * is never seen empty). A `store.lock` naming another live process — one of an older version,
 * which locked with the file alone — is still respected.
 *
 * Limits: the abstract namespace is per network namespace, so containers that share DATA_DIR
 * through a volume but not a network namespace are not kept apart (nor were they by pid files).
 */
import { createHash } from "node:crypto";
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
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

function pidIn(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
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
    const named = pidIn(path);
    if (named !== undefined && named !== process.pid && processAlive(named)) throw inUse(dataDir, named);
    const mine = `${path}.${process.pid}`;
    try {
      writeFileSync(mine, String(process.pid));
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
