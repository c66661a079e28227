/**
 * What a build depends on, hashed: the catalogue (data and code), the site, the build scripts, the
 * lockfile and the public URLs baked into the files (config.ts buildUrls: PUBLIC_* or the canonical
 * ones, never the listen port: a server on another port rewrites them, sidecar/files.ts). `npm start` rebuilds when the hash differs
 * from the one dist/build-info.json recorded (content, not mtimes: a fresh clone has new mtimes).
 */
import { createHash } from "node:crypto";
import { readFile, readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { PublicUrls } from "../catalogue/base/urls.ts";
import type { Compression } from "./compress.ts";

/** What `build` (build.ts) is given; here so dist.ts can name it without importing build.ts. */
export interface BuildOptions {
  readonly dataDir?: string;
  readonly outDir?: string;
  readonly urls: PublicUrls;
  readonly log?: (line: string) => void;
  /** Where compressed files are kept between builds; by default .cache/compressed (build/compress.ts). */
  readonly cacheDir?: string;
  /** Per-step timings are reported here (used by the build bench). */
  readonly onStep?: (step: string, ms: number) => void;
  /** "best" unless said: "fast" is npm start's first build (build/compress.ts). */
  readonly compression?: Compression;
}

export const ROOT_DIR = fileURLToPath(new URL("../", import.meta.url));
export const DIST_DIR = join(ROOT_DIR, "dist");
const INPUTS = [
  "catalogue",
  "site",
  "scripts/build.ts",
  "build/compress.ts",
  "build/compress-worker.ts",
  "build/inputs.ts",
  "package-lock.json",
  "astro.config.mjs",
];
const SKIP = /(^|\/)(node_modules|\.astro)(\/|$)/;

async function filesUnder(path: string): Promise<string[]> {
  try {
    const entries = await readdir(path, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return [path];
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

export async function buildInputsHash(urls: PublicUrls, dataDir?: string): Promise<string> {
  const hash = createHash("sha256").update(JSON.stringify(urls));
  const roots = [...INPUTS.map((input) => join(ROOT_DIR, input)), ...(dataDir ? [dataDir] : [])];
  const files = (await Promise.all(roots.map(filesUnder)))
    .flat()
    .filter((file) => !SKIP.test(relative(ROOT_DIR, file)))
    .sort();
  for (const file of files) hash.update(`${relative(ROOT_DIR, file)}\0`).update(await readFile(file));
  return hash.digest("hex");
}

interface BuildInfo {
  readonly inputs?: string;
  readonly compression?: Compression;
}

async function buildInfo(distDir: string): Promise<BuildInfo> {
  try {
    return JSON.parse(await readFile(join(distDir, "build-info.json"), "utf8")) as BuildInfo;
  } catch {
    return {};
  }
}

/** Whether dist/ was built from exactly these inputs (`best`: and compressed at its best). */
export async function buildIsFresh(distDir: string, expected: string, best = false): Promise<boolean> {
  const info = await buildInfo(distDir);
  return info.inputs === expected && (!best || info.compression !== "fast");
}
