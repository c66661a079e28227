/**
 * `npm run build` writes dist/:
 *   dist/api/   discovery document, openapi.json, providers, categories, every page of the services
 *               listing at the default limit, every service detail, the lifecycle list, feed and
 *               calendar, the changes list and feed, catalogue.json (full dump)
 *   dist/text/  Markdown (.md), coloured ANSI (.ansi) and plain (.txt) renderings of every text page
 *   dist/site/  the site: client/ (HTML, assets, Pagefind index) and server/ (the on-demand list page)
 *   .br and .gz beside every text file worth compressing; dist/api/manifest.json listing every file
 *   under dist/ with sha256 and size; dist/build-info.json with the hash of the build's inputs.
 * Each step logs what it wrote and how long it took.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { loadCatalogue, type Catalogue } from "../catalogue/load/load.ts";
import type { StaticFile } from "../catalogue/contract/endpoint.ts";
import type { PublicUrls } from "../catalogue/base/urls.ts";
import type { BuildManifestT } from "../catalogue/schema/index.ts";
import { apiFiles, mirrored, textFiles } from "../catalogue/outputs/static.ts";
import { buildUrls, loadConfig } from "../sidecar/config.ts";
import { Compressor, pruneCache, type FileDigest } from "../build/compress.ts";
import { buildAndSwap } from "../build/dist.ts";
import { buildInputsHash, DIST_DIR, ROOT_DIR, type BuildOptions } from "../build/inputs.ts";

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/**
 * The site (Astro) with its Pagefind index, into <outDir>/site; its pages read the same data, handed
 * over as the validated source this build loaded (assembled in 0.75 s where reading the YAML again
 * took 2, on the build's longest step).
 */
async function buildSite(catalogue: Catalogue, outDir: string, urls: PublicUrls): Promise<{ pages: number }> {
  const handover = await mkdtemp(join(tmpdir(), "csc-site-source-"));
  try {
    const sourceFile = join(handover, "catalogue-source.json");
    await writeFile(sourceFile, JSON.stringify(catalogue.source));
    const env = { ...process.env, CATALOGUE_SOURCE_FILE: sourceFile, SITE_API_URL: urls.apiUrl };
    const args = [join(ROOT_DIR, "scripts", "build-site.ts"), join(outDir, "site"), urls.textUrl];
    const code = await new Promise<number | null>((resolve, reject) =>
      spawn(process.execPath, args, { stdio: "inherit", env }).once("error", reject).once("exit", resolve),
    );
    if (code !== 0) throw new Error(`build: the site's build exited with ${code}`);
  } finally {
    await rm(handover, { recursive: true, force: true });
  }
  const pages = (await listFiles(join(outDir, "site", "client"))).filter((file) => file.endsWith(".html")).length;
  return { pages };
}

/** Writes the files under root; returns their paths relative to root (those the compressor is given). */
async function writeAll(
  root: string,
  files: Iterable<StaticFile>,
): Promise<{ count: number; bytes: number; paths: string[] }> {
  const paths: string[] = [];
  let count = 0;
  let bytes = 0;
  const made = new Set<string>();
  for (const { file, body } of files) {
    const path = join(root, file);
    const dir = dirname(path);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    await writeFile(path, body);
    paths.push(file);
    count++;
    bytes += Buffer.byteLength(body);
  }
  return { count, bytes, paths };
}

export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * The manifest from the digests the compressor computed while writing (every file it was given and
 * every .br/.gz it wrote): no file is read again. A file no step queued is hashed here.
 */
async function writeManifest(
  outDir: string,
  catalogue: Catalogue,
  digests: Map<string, FileDigest>,
): Promise<BuildManifestT> {
  const files = [];
  for (const path of await listFiles(outDir)) {
    if (path === "api/manifest.json" || path.startsWith("api/manifest.json.") || path === "build-info.json") continue;
    // What the mirror row withholds (the site's server bundles) is not published.
    if (!mirrored(path)) continue;
    files.push(digests.get(path) ?? (await digestOf(outDir, path)));
  }
  const manifest: BuildManifestT = { version: 1, lastUpdated: catalogue.lastUpdated, files };
  await writeFile(join(outDir, "api", "manifest.json"), JSON.stringify(manifest));
  return manifest;
}

async function digestOf(outDir: string, path: string): Promise<FileDigest> {
  const body = await readFile(join(outDir, path));
  return { path, sha256: createHash("sha256").update(body).digest("hex"), size: body.length };
}

/** Compressed forms reused from earlier builds (build/compress.ts). */
const DEFAULT_CACHE_DIR = join(ROOT_DIR, ".cache", "compressed");
/** The cache keeps, beyond what this build used, the most recently used entries up to this many times this build's. */
const CACHE_BUDGET_BUILDS = 4;
/**
 * And never less than this (about four builds of the real catalogue), so that a small build (a
 * test's fixture catalogue) does not prune the real catalogue's entries.
 */
const CACHE_BUDGET_MIN_BYTES = 256 * 1024 * 1024;
/** Filesystem timestamps may lag the clock by a tick: what was touched this build is never older than its start minus this. */
const CLOCK_SLACK_MS = 2000;

type StepRunner = <T>(name: string, run: () => Promise<T> | T, describe: (result: T) => string) => Promise<T>;

function stepRunner(options: BuildOptions, log: (line: string) => void): StepRunner {
  return async (name, run, describe) => {
    const t0 = performance.now();
    const result = await run();
    const ms = performance.now() - t0;
    options.onStep?.(name, ms);
    log(`build: ${name.padEnd(10)} ${describe(result)} in ${ms.toFixed(0)} ms`);
    return result;
  };
}

/**
 * The API, text and site steps, each step's files queued on the compressor as soon as written, so
 * they compress while the next steps run. The site builds meanwhile, in a process of its own
 * (scripts/build-site.ts), and the API and text files are written while it does. A failed step fails
 * the build once the others have stopped.
 */
async function writeSteps(
  outDir: string,
  catalogue: Catalogue,
  options: BuildOptions,
  step: StepRunner,
  compressor: Compressor,
): Promise<void> {
  const site = step(
    "site",
    () => buildSite(catalogue, outDir, options.urls),
    (r) => `${r.pages} HTML pages and the Pagefind index → dist/site`,
  );
  const apiAndText = (async () => {
    for (const [name, files] of [
      ["api", () => apiFiles(catalogue, options.urls)],
      ["text", () => textFiles(catalogue, options.urls)],
    ] as const) {
      const written = await step(
        name,
        () => writeAll(join(outDir, name), files()),
        (r) => `${r.count} files, ${kib(r.bytes)} → dist/${name}`,
      );
      compressor.add(written.paths.map((path) => `${name}/${path}`));
    }
  })();
  const failed = (await Promise.allSettled([apiAndText, site])).find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  // The site's server chunks are imported, never served: neither compressed nor listed.
  const siteFiles = await listFiles(join(outDir, "site"));
  compressor.add(siteFiles.filter((file) => !file.startsWith("server/")).map((file) => `site/${file}`));
}

export async function build(options: BuildOptions): Promise<void> {
  const outDir = options.outDir ?? DIST_DIR;
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const log = options.log ?? ((line: string) => console.log(line));
  const started = performance.now();
  const startedAt = Date.now() - CLOCK_SLACK_MS;
  const step = stepRunner(options, log);

  const catalogue = await step(
    "load",
    () => loadCatalogue(options.dataDir),
    (c) =>
      `${c.providers.length} providers, ${c.categories.length} categories, ${c.services.length} services, ${c.groups.length} equivalence groups`,
  );
  await rm(outDir, { recursive: true, force: true });
  const compression = options.compression ?? "best";
  const compressor = new Compressor(outDir, cacheDir, undefined, compression);
  try {
    await writeSteps(outDir, catalogue, options, step, compressor);
  } catch (error) {
    await compressor.stop();
    throw error;
  }
  // What is left to compress once the site is built (the API and text files compressed meanwhile).
  const compressed = await step(
    "compress",
    () => compressor.finish(),
    (r) =>
      `${r.compressed} .br/.gz files (${r.hits} from the cache, ${r.misses} compressed), brotli saved ${kib(r.saved)}`,
  );
  if (compressed.cacheErrors > 0) log(`build: could not store ${compressed.cacheErrors} entries in ${cacheDir}`);
  const manifest = await step(
    "manifest",
    () => writeManifest(outDir, catalogue, compressed.digests),
    (m) => `${m.files.length} files listed → dist/api/manifest.json`,
  );
  await writeFile(
    join(outDir, "build-info.json"),
    JSON.stringify({ inputs: await buildInputsHash(options.urls, options.dataDir), compression }),
  );
  const stored = [...compressed.digests.values()].filter((file) => /\.(br|gz)$/.test(file.path));
  const budget = Math.max(
    CACHE_BUDGET_MIN_BYTES,
    CACHE_BUDGET_BUILDS * stored.reduce((sum, file) => sum + file.size, 0),
  );
  const pruned = await pruneCache(cacheDir, startedAt, budget);
  if (pruned > 0) log(`build: pruned ${kib(pruned)} of compressed files no recent build used`);
  const size = manifest.files.reduce((sum, file) => sum + file.size, 0);
  log(
    `build: done: ${manifest.files.length} files, ${kib(size)} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

if (import.meta.main) {
  const config = loadConfig(process.env);
  try {
    // dist/ is a link to a finished build, swapped atomically (build/dist.ts).
    // --fast: npm start's first build (build/compress.ts), the best one following it.
    const compression = process.argv.includes("--fast") ? "fast" : "best";
    await buildAndSwap({ urls: buildUrls(config), build, compression });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
