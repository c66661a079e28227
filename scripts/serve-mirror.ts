/**
 * `cloud-catalogue serve <dir>`: serves the mirror in <dir>, and follows its updates without a
 * restart. Every FOLLOW_MS it reads where <dir>/current points; when a `cloud-catalogue mirror` run
 * has switched it, it builds both hosts over the new copy (the catalogue, the files, the site) in
 * turns of the event loop, answering meanwhile, and only when they are ready hands the listening
 * sockets over: the new hosts accept every connection from then on and answer every later request
 * of the old hosts' kept-alive connections, each with `Connection: close` (serve-retire.ts). The
 * copy stays on disk until the old hosts' own answers are done: `serve` leases it
 * (mirror-leases.ts), `mirror` never deletes a leased copy, and `serve` deletes it when it lets go
 * and `current` names another. A new copy that cannot be loaded is logged and the served one stays.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import type { Catalogue } from "../catalogue/load/load.ts";
import { loadBuiltCatalogueInTurns } from "../sidecar/catalogue-in-turns.ts";
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

/** The copy <dir>/current names and its catalogue, loaded in turns; a MirrorError when it is not a complete mirror. */
async function loadCopy(dir: string, distDir?: string): Promise<{ distDir: string; catalogue: Catalogue }> {
  try {
    distDir ??= realpathSync(currentDir(dir));
    return { distDir, catalogue: await loadBuiltCatalogueInTurns(distDir) };
  } catch {
    throw new MirrorError(`${dir} holds no complete mirror; run: cloud-catalogue mirror <api-url> ${dir}`);
  }
}

/** The longest the event loop went without turning, in ms, from now until `stop` (a timer's lateness). */
function longestTurn(): { stop(): number } {
  const every = 10;
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - every);
    last = now;
  }, every);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(0, Math.round(Math.max(longest, performance.now() - last - every)));
    },
  };
}

export async function serveMirror(
  dir: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void = (line) => console.error(line),
): Promise<MirrorServer> {
  let copy = await loadCopy(dir);
  const config = loadConfig({ DATA_DIR: join(dir, "data"), ...env });
  const store = await openStore(config, log);
  const leases = new ServedCopies(dir, log);
  leases.hold(copy.distDir);
  const hosts = await LiveHosts.listen(await prepareServer(config, { ...copy, store }), config);
  let following: Promise<void> | undefined;
  let refused: string | undefined;
  const follow = async () => {
    let next: Awaited<ReturnType<typeof loadCopy>>;
    let target: string | undefined;
    const started = performance.now();
    const loop = longestTurn();
    try {
      target = realpathSync(currentDir(dir));
      if (target === copy.distDir) return;
      // Leased before it is read, so that a second update cannot delete it meanwhile.
      leases.hold(target);
      next = await loadCopy(dir, target);
    } catch (error) {
      loop.stop();
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
    const longest = loop.stop();
    log(
      `serve: now serving ${copy.distDir} (ready in ${Math.round(performance.now() - started)} ms, the event loop held at most ${longest} ms)`,
    );
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
