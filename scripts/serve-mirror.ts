/**
 * `cloud-catalogue serve <dir>`: serves the mirror in <dir>, and follows its updates without a
 * restart. Every FOLLOW_MS it reads where <dir>/current points; when a `cloud-catalogue mirror` run
 * has switched it, it builds both hosts over the new copy (the catalogue, the files, the site),
 * and only when they are ready hands the listening sockets over: the new hosts accept every
 * connection from then on, and the old hosts answer what their kept-alive connections still ask,
 * each answer with `Connection: close`, then close (serve-retire.ts). The copy stays on disk until
 * the last of its connections has closed: `serve` leases it (mirror-leases.ts), `mirror` never
 * deletes a leased copy, and `serve` deletes it when it lets go and `current` names another.
 * A new copy that cannot be loaded is logged and the served one stays.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { loadBuiltCatalogue, type Catalogue } from "../catalogue/load/load.ts";
import { loadConfig } from "../sidecar/config.ts";
import { openStore, prepareServer, type PreparedServer, type RunningServer } from "../sidecar/server.ts";
import { ServedCopies } from "./mirror-leases.ts";
import { currentDir, MirrorError } from "./mirror.ts";
import { retirable, type RetirableHost } from "./serve-retire.ts";

/** How often `serve` looks at where <dir>/current points. */
export const FOLLOW_MS = 1000;

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

/** Both hosts over one copy, tracked so that they can be retired (serve-retire.ts). */
interface Hosts {
  readonly prepared: PreparedServer;
  readonly api: RetirableHost;
  readonly text: RetirableHost;
}

const tracked = (prepared: PreparedServer): Hosts => ({
  prepared,
  api: retirable(prepared.api),
  text: retirable(prepared.text),
});

/** Moves both ports from the old hosts to the new ones. */
async function handOver(old: Hosts, next: Hosts): Promise<void> {
  await moveListener(old.prepared.api, next.prepared.api);
  await moveListener(old.prepared.text, next.prepared.text);
}

export async function serveMirror(
  dir: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void = (line) => console.error(line),
): Promise<MirrorServer> {
  let copy = loadCopy(dir);
  const config = loadConfig({ DATA_DIR: join(dir, "data"), ...env });
  const store = await openStore(config, log);
  const leases = new ServedCopies(dir, log);
  leases.hold(copy.distDir);
  let live = tracked(await prepareServer(config, { ...copy, store }));
  await live.prepared.api.listen({ port: config.PORT, host: config.HOST });
  await live.prepared.text.listen({ port: config.TEXT_PORT, host: config.HOST });
  const retiring = new Map<Hosts, Promise<void>>();
  let following: Promise<void> | undefined;
  let refused: string | undefined;
  const follow = async () => {
    let next: ReturnType<typeof loadCopy>;
    let target: string | undefined;
    try {
      target = realpathSync(currentDir(dir));
      if (target === copy.distDir) return;
      // Leased before it is read, so that a second update cannot delete it meanwhile.
      leases.hold(target);
      next = loadCopy(dir);
    } catch (error) {
      if (target && target !== copy.distDir) leases.letGo(target);
      // Mid-update or broken: keep serving the copy in hand, and say so once.
      const message = (error as Error).message;
      if (message !== refused) log(`serve: still serving ${copy.distDir}: ${message}`);
      refused = message;
      return;
    }
    const prepared = tracked(await prepareServer(config, { ...next, store }));
    await handOver(live, prepared);
    const [old, oldCopy] = [live, copy];
    const retired = Promise.all([old.api.retire(), old.text.retire()])
      .then(() => undefined)
      .catch((error: unknown) => log(`serve: closing the hosts of ${oldCopy.distDir}: ${(error as Error).message}`))
      .finally(() => {
        retiring.delete(old);
        leases.letGo(oldCopy.distDir);
      });
    retiring.set(old, retired);
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
      return live.prepared.api;
    },
    get text() {
      return live.prepared.text;
    },
    store,
    distDir: () => copy.distDir,
    close: () =>
      (closing ??= (async () => {
        clearInterval(timer);
        await following;
        // Shutting down: the draining hosts close now too, whatever they still hold.
        const draining = [...retiring.keys()].flatMap((hosts) => [
          hosts.prepared.api.close(),
          hosts.prepared.text.close(),
        ]);
        await Promise.all([live.prepared.api.close(), live.prepared.text.close(), ...draining, ...retiring.values()]);
        leases.close();
        await store.close();
      })()),
  };
}
