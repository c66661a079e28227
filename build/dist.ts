/**
 * dist/ as `npm start` and `npm run build` leave it: a symbolic link to one finished build in
 * .cache/builds/<inputs hash>/, replaced by one atomic rename when a build for other inputs (another
 * PORT or public URL, new data) is ready. A build is never rewritten under a running server: each
 * build is written to a folder of its own and only then linked; a server resolves the link when it
 * starts and marks the build it serves, so pruning keeps it. A build for inputs seen before (back
 * to the previous PORT) is linked again without building.
 */
import { existsSync, lstatSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, readdir, rename, rm, stat, symlink, utimes } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import type { PublicUrls } from "../catalogue/base/urls.ts";
import type { Compression } from "./compress.ts";
// build.ts's command line calls buildAndSwap with its build function; its options live in inputs.ts.
import { buildInputsHash, buildIsFresh, DIST_DIR, type BuildOptions } from "./inputs.ts";

export interface SwapOptions {
  readonly urls: PublicUrls;
  readonly dataDir?: string;
  /** The link the servers read (dist/). */
  readonly link?: string;
  /** Where the builds are kept; by default .cache/builds beside the link. */
  readonly buildsDir?: string;
  readonly log?: (line: string) => void;
  /** Builds this many kept beside the linked one, most recently linked first (plus any being served). */
  readonly keep?: number;
  /** scripts/build.ts's build(). */
  readonly build: (options: BuildOptions) => Promise<void>;
  /** "fast" builds into a folder of its own, unless the best build for these inputs is there. */
  readonly compression?: Compression;
}

export const buildsDirOf = (link: string) => join(dirname(link), ".cache", "builds");
const STAGING = ".staging-";

/** Staging folders of builds whose process is gone (killed mid-build): removed. */
export async function cleanStaleStaging(buildsDir: string): Promise<string[]> {
  const entries = await readdir(buildsDir).catch(() => [] as string[]);
  const stale = entries.filter((entry) => {
    const at = entry.lastIndexOf(STAGING);
    return at >= 0 && !isAlive(Number(entry.slice(at + STAGING.length)));
  });
  for (const entry of stale) await rm(join(buildsDir, entry), { recursive: true, force: true });
  return stale;
}
const IN_USE = ".in-use.";

/** Builds when needed, then points the link at the build for these inputs. Returns that build's folder. */
export async function buildAndSwap(options: SwapOptions): Promise<string> {
  const link = options.link ?? DIST_DIR;
  const buildsDir = options.buildsDir ?? buildsDirOf(link);
  const log = options.log ?? ((line: string) => console.log(line));
  const inputs = await buildInputsHash(options.urls, options.dataDir);
  const best = join(buildsDir, inputs.slice(0, 16));
  const compression = options.compression === "fast" && !(await buildIsFresh(best, inputs, true)) ? "fast" : "best";
  const target = compression === "fast" ? `${best}-fast` : best;
  await mkdir(buildsDir, { recursive: true });
  await adoptLegacyDist(link, buildsDir);
  if (await buildIsFresh(target, inputs, compression === "best")) {
    log(`build: reusing ${relative(dirname(link), target)}, built earlier for the same inputs`);
  } else {
    await cleanStaleStaging(buildsDir);
    const staging = `${target}${STAGING}${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    // Stopped mid-build (the stdio server quits, Ctrl-C): the half-written folder goes too.
    const stop = (signal: NodeJS.Signals) => {
      rmSync(staging, { recursive: true, force: true });
      process.kill(process.pid, signal);
    };
    process.once("SIGTERM", stop).once("SIGINT", stop).once("SIGHUP", stop);
    try {
      await options.build({
        urls: options.urls,
        outDir: staging,
        log,
        compression,
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      });
    } finally {
      process.off("SIGTERM", stop).off("SIGINT", stop).off("SIGHUP", stop);
    }
    await publish(staging, target, inputs);
  }
  const previous = existsSync(link) ? realpathSync(link) : undefined;
  const temporary = `${link}.swap-${process.pid}`;
  await rm(temporary, { force: true });
  await symlink(relative(dirname(link), target), temporary);
  await rename(temporary, link);
  // Most recently linked first when pruning.
  const now = new Date();
  await utimes(target, now, now);
  log(`build: ${basename(link)} → ${relative(dirname(link), target)}`);
  await prune(buildsDir, [target, ...(previous ? [previous] : [])], options.keep ?? 1);
  return target;
}

/**
 * Moves a finished build into place. Two starts for the same inputs at once both build; the one
 * that finishes second keeps the first one's folder, which a server may already serve, and drops
 * its own.
 */
async function publish(staging: string, target: string, inputs: string): Promise<void> {
  try {
    await rename(staging, target);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
  }
  if (await buildIsFresh(target, inputs)) {
    await rm(staging, { recursive: true, force: true });
    return;
  }
  await rm(target, { recursive: true, force: true });
  await rename(staging, target);
}

/** A dist/ folder from before builds were linked: moved under the builds, so it can be linked again. */
async function adoptLegacyDist(link: string, buildsDir: string): Promise<void> {
  if (!lstatSync(link, { throwIfNoEntry: false })?.isDirectory()) return;
  await rename(link, join(buildsDir, `legacy-${Date.now()}`));
}

/**
 * Removes the builds neither linked, nor among the `keep` most recently linked others, nor served by
 * a live process (serving() marks them).
 */
async function prune(buildsDir: string, linked: readonly string[], keep: number): Promise<void> {
  const entries = await readdir(buildsDir);
  const served = new Set<string>();
  for (const entry of entries) {
    const at = entry.lastIndexOf(IN_USE);
    if (at < 0) continue;
    if (isAlive(Number(entry.slice(at + IN_USE.length)))) served.add(entry.slice(0, at));
    else await rm(join(buildsDir, entry), { force: true });
  }
  const builds = [];
  for (const entry of entries) {
    if (entry.includes(IN_USE) || entry.includes(STAGING)) continue;
    const path = join(buildsDir, entry);
    builds.push({ path, entry, mtime: (await stat(path)).mtimeMs });
  }
  builds.sort((a, b) => b.mtime - a.mtime);
  let kept = 0;
  for (const { path, entry } of builds) {
    if (linked.includes(path) || served.has(entry)) continue;
    if (kept++ < keep) continue;
    await rm(path, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The build a link points at, resolved once, marked as served by this process until it exits so
 * that later builds do not prune it. Serve from the returned folder, never through the link.
 */
export function serving(link: string = DIST_DIR): string {
  const target = realpathSync(link);
  // A dist/ folder from before builds were linked has no builds folder to mark.
  if (!lstatSync(link).isSymbolicLink()) return target;
  return markServed(target);
}

/** A build folder (buildAndSwap's answer) marked as served by this process until it exits. */
export function markServed(target: string): string {
  const marker = `${target}${IN_USE}${process.pid}`;
  writeFileSync(marker, "");
  process.once("exit", () => rmSync(marker, { force: true }));
  return target;
}

/**
 * The API URL a build was made for, as its discovery document names it (api/index.json's OpenAPI
 * link): a local build's PUBLIC_API_URL or the default address, a mirror's origin. Undefined when
 * the build has none.
 */
export function builtApiUrl(distDir: string): string | undefined {
  try {
    const discovery = JSON.parse(readFileSync(join(distDir, "api", "index.json"), "utf8")) as {
      documentation?: { openapi?: unknown };
    };
    const openapi = discovery.documentation?.openapi;
    return typeof openapi === "string" && openapi.endsWith("/openapi.json")
      ? openapi.slice(0, -"/openapi.json".length)
      : undefined;
  } catch {
    return undefined;
  }
}
