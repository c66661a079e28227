/**
 * `cloud-catalogue serve <dir>`: serves the mirror in <dir>, and follows its updates without a
 * restart. Every FOLLOW_MS it reads where <dir>/current points; when a `cloud-catalogue mirror` run
 * has switched it, it builds both hosts over the new copy (the catalogue, the files, the site),
 * and only when they are ready hands the listening sockets over: the new hosts accept every
 * connection from then on, and the old hosts finish the requests they hold before closing. The mirror run
 * keeps the copy it replaced until its next update, so the old hosts never read a deleted folder.
 * A new copy that cannot be loaded is logged and the served one stays.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { loadBuiltCatalogue, type Catalogue } from "../catalogue/load/load.ts";
import { loadConfig } from "../sidecar/config.ts";
import { openStore, prepareServer, type PreparedServer, type RunningServer } from "../sidecar/server.ts";
import { currentDir, MirrorError } from "./mirror.ts";

/** How often `serve` looks at where <dir>/current points. */
export const FOLLOW_MS = 1000;
/** How long the hosts of a replaced copy may finish the requests they hold. */
const DRAIN_MS = 10_000;

export interface MirrorServer extends RunningServer {
  /** The copy being served (the resolved <dir>/current). */
  distDir(): string;
}

/** The copy <dir>/current names and its catalogue; a MirrorError when it is not a complete mirror. */
function loadCopy(dir: string): { distDir: string; catalogue: Catalogue } {
  try {
    const distDir = realpathSync(currentDir(dir));
    return { distDir, catalogue: loadBuiltCatalogue(distDir) };
  } catch {
    throw new MirrorError(`${dir} holds no complete mirror; run: cloud-catalogue mirror <api-url> ${dir}`);
  }
}

/** A listening socket, as node's `server.listen(handle)` takes it (net.Server keeps it as `_handle`). */
interface ListeningServer {
  _handle: object | null;
}

/**
 * Moves a host's listening socket to its successor: the successor listens on the same socket
 * (node's `server.listen({ handle })`), so no connection is refused or reset in between, not even
 * one waiting in the socket's backlog; the old server lets go of it so that closing it later does
 * not close the socket, and finishes the requests it holds.
 */
async function moveListener(from: FastifyInstance, to: FastifyInstance): Promise<void> {
  const old = from.server as unknown as ListeningServer;
  const handle = old._handle;
  if (!handle) throw new Error("the served host is not listening");
  await to.listen({ handle } as { port?: number });
  old._handle = null;
}

/** Moves both ports from the old hosts to the new ones; the old ones close once their requests are done. */
async function handOver(old: PreparedServer, next: PreparedServer): Promise<void> {
  await moveListener(old.api, next.api);
  await moveListener(old.text, next.text);
  // Kept-alive connections stay with the old hosts (their copy is still on disk) until idle for
  // the keep-alive limit (http-limits.ts, 5 s); whatever is left after DRAIN_MS is closed.
  const drained = setTimeout(() => void Promise.all([old.api.close(), old.text.close()]), DRAIN_MS);
  drained.unref();
}

export async function serveMirror(
  dir: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void = (line) => console.error(line),
): Promise<MirrorServer> {
  let copy = loadCopy(dir);
  const config = loadConfig({ DATA_DIR: join(dir, "data"), ...env });
  const store = await openStore(config, log);
  let live = await prepareServer(config, { ...copy, store });
  await live.api.listen({ port: config.PORT, host: config.HOST });
  await live.text.listen({ port: config.TEXT_PORT, host: config.HOST });
  let following: Promise<void> | undefined;
  let refused: string | undefined;
  const follow = async () => {
    let next: ReturnType<typeof loadCopy>;
    try {
      if (realpathSync(currentDir(dir)) === copy.distDir) return;
      next = loadCopy(dir);
    } catch (error) {
      // Mid-update or broken: keep serving the copy in hand, and say so once.
      const message = (error as Error).message;
      if (message !== refused) log(`serve: still serving ${copy.distDir}: ${message}`);
      refused = message;
      return;
    }
    const prepared = await prepareServer(config, { ...next, store });
    await handOver(live, prepared);
    [live, copy, refused] = [prepared, next, undefined];
    log(`serve: now serving ${copy.distDir}`);
  };
  const timer = setInterval(() => {
    following ??= follow()
      .catch((error: unknown) => log(`serve: cannot follow ${currentDir(dir)}: ${(error as Error).message}`))
      .finally(() => (following = undefined));
  }, FOLLOW_MS);
  let closing: Promise<void> | undefined;
  return {
    get api() {
      return live.api;
    },
    get text() {
      return live.text;
    },
    store,
    distDir: () => copy.distDir,
    close: () =>
      (closing ??= (async () => {
        clearInterval(timer);
        await following;
        await Promise.all([live.api.close(), live.text.close()]);
        await store.close();
      })()),
  };
}
