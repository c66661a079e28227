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
import { loadBuiltCatalogue, type Catalogue } from "../catalogue/load/load.ts";
import { loadConfig } from "../sidecar/config.ts";
import { openStore, prepareServer, type RunningServer } from "../sidecar/server.ts";
import { ServedCopies } from "./mirror-leases.ts";
import { currentDir, MirrorError } from "./mirror.ts";
import { LiveHosts } from "./serve-retire.ts";

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
  const hosts = await LiveHosts.listen(await prepareServer(config, { ...copy, store }), config);
  let following: Promise<void> | undefined;
  let refused: string | undefined;
  const follow = async () => {
    let next: ReturnType<typeof loadCopy>;
    let target: string | undefined;
    try {
      target = realpathSync(currentDir(dir));
      if (target === copy.distDir) return;
      // Loading a copy holds the event loop: idle kept-alive connections wait for it (serve-retire.ts).
      hosts.hold();
      // Leased before it is read, so that a second update cannot delete it meanwhile.
      leases.hold(target);
      next = loadCopy(dir);
    } catch (error) {
      hosts.release();
      if (target && target !== copy.distDir) leases.letGo(target);
      // Mid-update or broken: keep serving the copy in hand, and say so once.
      const message = (error as Error).message;
      if (message !== refused) log(`serve: still serving ${copy.distDir}: ${message}`);
      refused = message;
      return;
    }
    const oldCopy = copy;
    await hosts.replaceWith(
      () => prepareServer(config, { ...next, store }),
      (error) => {
        if (error) log(`serve: closing the hosts of ${oldCopy.distDir}: ${error.message}`);
        leases.letGo(oldCopy.distDir);
      },
    );
    [copy, refused] = [next, undefined];
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
      return hosts.api;
    },
    get text() {
      return hosts.text;
    },
    store,
    distDir: () => copy.distDir,
    close: () =>
      (closing ??= (async () => {
        clearInterval(timer);
        await following;
        // Shutting down: the draining hosts close now too, whatever they still hold.
        await hosts.close();
        leases.close();
        await store.close();
      })()),
  };
}
