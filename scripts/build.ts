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
import { createHash } from "node:crypto";
import { mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import { loadCatalogue, type Catalogue } from "../catalogue/load.ts";
import type { StaticFile } from "../catalogue/endpoint.ts";
import type { PublicUrls } from "../catalogue/urls.ts";
import type { BuildManifestT } from "../catalogue/schema/index.ts";
import { apiFiles, mirrored, textFiles } from "../catalogue/static.ts";
import { buildUrls, loadConfig } from "../sidecar/config.ts";
import { buildAndSwap } from "./dist.ts";
import { buildInputsHash, DIST_DIR, ROOT_DIR, type BuildOptions } from "./inputs.ts";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Files smaller than this are not worth compressing. */
const COMPRESS_MIN_BYTES = 1024;
const COMPRESSIBLE = /\.(json|md|ansi|txt|html|css|js|mjs|svg|xml|atom|ics|webmanifest)$/;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The site (Astro) with its Pagefind index, into <outDir>/site; its pages read the same data. */
async function buildSite(outDir: string, urls: PublicUrls, dataDir: string | undefined): Promise<{ pages: number }> {
  const { build: astroBuild } = await import("astro");
  const previous = { data: process.env.CATALOGUE_DATA_DIR, api: process.env.SITE_API_URL };
  process.env.CATALOGUE_DATA_DIR = dataDir ?? join(ROOT_DIR, "catalogue", "data");
  process.env.SITE_API_URL = urls.apiUrl;
  try {
    await astroBuild({ root: ROOT_DIR, outDir: join(outDir, "site"), logLevel: "warn", site: urls.textUrl });
  } finally {
    for (const [key, value] of [
      ["CATALOGUE_DATA_DIR", previous.data],
      ["SITE_API_URL", previous.api],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  const pages = (await listFiles(join(outDir, "site", "client"))).filter((file) => file.endsWith(".html")).length;
  return { pages };
}

async function writeAll(root: string, files: Iterable<StaticFile>): Promise<{ count: number; bytes: number }> {
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
    count++;
    bytes += Buffer.byteLength(body);
  }
  return { count, bytes };
}

export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/** Runs jobs with bounded concurrency (the zlib thread pool does the work). */
async function eachLimit<T>(items: readonly T[], limit: number, job: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await job(items[next++]!);
    }),
  );
}

async function compressAll(outDir: string): Promise<{ count: number; saved: number }> {
  // The site's server chunks are imported, never served: nothing to compress.
  const files = (await listFiles(outDir)).filter((file) => COMPRESSIBLE.test(file) && !file.startsWith("site/server/"));
  let count = 0;
  let saved = 0;
  await eachLimit(files, 8, async (file) => {
    const path = join(outDir, file);
    const body = await readFile(path);
    if (body.length < COMPRESS_MIN_BYTES) return;
    const [br, gzipped] = await Promise.all([
      brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 10, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
      gz(body, { level: 9 }),
    ]);
    if (br.length < body.length) {
      await writeFile(`${path}.br`, br);
      count++;
    }
    if (gzipped.length < body.length) {
      await writeFile(`${path}.gz`, gzipped);
      count++;
    }
    saved += body.length - br.length;
  });
  return { count, saved };
}

async function writeManifest(outDir: string, catalogue: Catalogue): Promise<BuildManifestT> {
  const files = [];
  for (const path of await listFiles(outDir)) {
    if (path === "api/manifest.json" || path.startsWith("api/manifest.json.") || path === "build-info.json") continue;
    // What the mirror row withholds (the site's server bundles) is not published.
    if (!mirrored(path)) continue;
    const body = await readFile(join(outDir, path));
    files.push({ path, sha256: createHash("sha256").update(body).digest("hex"), size: body.length });
  }
  const manifest: BuildManifestT = { version: 1, lastUpdated: catalogue.lastUpdated, files };
  await writeFile(join(outDir, "api", "manifest.json"), JSON.stringify(manifest));
  return manifest;
}

export async function build(options: BuildOptions): Promise<void> {
  const outDir = options.outDir ?? DIST_DIR;
  const log = options.log ?? ((line: string) => console.log(line));
  const started = performance.now();
  const step = async <T>(name: string, run: () => Promise<T> | T, describe: (result: T) => string): Promise<T> => {
    const t0 = performance.now();
    const result = await run();
    const ms = performance.now() - t0;
    options.onStep?.(name, ms);
    log(`build: ${name.padEnd(10)} ${describe(result)} in ${ms.toFixed(0)} ms`);
    return result;
  };

  const catalogue = await step(
    "load",
    () => loadCatalogue(options.dataDir),
    (c) =>
      `${c.providers.length} providers, ${c.categories.length} categories, ${c.services.length} services, ${c.groups.length} equivalence groups`,
  );
  await rm(outDir, { recursive: true, force: true });
  await step(
    "api",
    () => writeAll(join(outDir, "api"), apiFiles(catalogue, options.urls)),
    (r) => `${r.count} files, ${kib(r.bytes)} → dist/api`,
  );
  await step(
    "text",
    () => writeAll(join(outDir, "text"), textFiles(catalogue)),
    (r) => `${r.count} files, ${kib(r.bytes)} → dist/text`,
  );
  await step(
    "site",
    () => buildSite(outDir, options.urls, options.dataDir),
    (r) => `${r.pages} HTML pages and the Pagefind index → dist/site`,
  );
  await step(
    "compress",
    () => compressAll(outDir),
    (r) => `${r.count} .br/.gz files, brotli saved ${kib(r.saved)}`,
  );
  const manifest = await step(
    "manifest",
    () => writeManifest(outDir, catalogue),
    (m) => `${m.files.length} files listed → dist/api/manifest.json`,
  );
  await writeFile(
    join(outDir, "build-info.json"),
    JSON.stringify({ inputs: await buildInputsHash(options.urls, options.dataDir) }),
  );
  const size = manifest.files.reduce((sum, file) => sum + file.size, 0);
  log(
    `build: done: ${manifest.files.length} files, ${kib(size)} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

if (import.meta.main) {
  const config = loadConfig(process.env);
  try {
    // dist/ is a link to a finished build, swapped atomically (scripts/dist.ts).
    await buildAndSwap({ urls: buildUrls(config), build });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
