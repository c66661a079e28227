/**
 * decisions.md#serving-performance: compressed files are reused across builds when their content is unchanged (a cache
 * keyed by content hash), and the bytes a build writes are the same whether a .br/.gz came from the
 * cache or was compressed fresh; a torn or corrupted entry is never served; two builds may share
 * the cache at once; the cache is pruned to a bound.
 */
import { randomBytes } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { Compressor, pruneCache } from "../../build/compress.ts";

const base = mkdtempSync(join(tmpdir(), "csc-compress-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Text worth compressing, different per seed; a small file; an image; a file that does not shrink. */
const FILES: Record<string, Buffer> = {
  "api/a.json": Buffer.from(JSON.stringify({ items: Array.from({ length: 400 }, (_, i) => ({ id: `a-${i}` })) })),
  "text/b.md": Buffer.from("# Heading\n\n".concat("A line of Markdown that repeats.\n".repeat(200))),
  "site/c.html": Buffer.from(`<html>${"<p>page</p>".repeat(300)}</html>`),
  "site/small.css": Buffer.from("body{margin:0}"),
  "site/logo.png": randomBytes(4096),
  "site/random.js": randomBytes(8192),
};

let roots = 0;
function builtFolder(): string {
  const root = join(base, `build-${roots++}`);
  for (const [file, body] of Object.entries(FILES)) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), body);
  }
  return root;
}

/** Every file under a folder with its bytes, base64. */
function contents(root: string): Record<string, string> {
  const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return Object.fromEntries(
    files.map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return [relative(root, path), readFileSync(path).toString("base64")];
    }),
  );
}

const cacheEntries = (cacheDir: string) =>
  readdirSync(cacheDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

async function compress(root: string, cacheDir: string) {
  const compressor = new Compressor(root, cacheDir, 2);
  compressor.add(Object.keys(FILES));
  return compressor.finish();
}

describe("the compression cache", () => {
  it("gives the same bytes from the cache as compressed fresh, and compresses nothing twice", async () => {
    const cacheDir = join(base, "cache-reuse");
    const [fresh, again] = [builtFolder(), builtFolder()];
    const first = await compress(fresh, cacheDir);
    expect(first.hits).toBe(0);
    // Three compressible files over 1 KiB, a .br and a .gz each; the random .js does not shrink.
    expect(first.misses).toBe(8);
    expect(first.compressed).toBe(6);
    const second = await compress(again, cacheDir);
    expect(second.misses).toBe(0);
    expect(second.hits).toBe(8);
    expect(contents(again)).toEqual(contents(fresh));
    expect([...second.digests.values()]).toEqual([...first.digests.values()]);
    // What was written decompresses to the file.
    expect(brotliDecompressSync(readFileSync(join(again, "api/a.json.br")))).toEqual(FILES["api/a.json"]);
    expect(gunzipSync(readFileSync(join(again, "text/b.md.gz")))).toEqual(FILES["text/b.md"]);
    expect(readdirSync(again, { recursive: true }).some((file) => String(file).endsWith("small.css.br"))).toBe(false);
  });

  it("never serves a torn or corrupted entry: it compresses again and repairs the entry", async () => {
    const cacheDir = join(base, "cache-corrupt");
    const fresh = builtFolder();
    await compress(fresh, cacheDir);
    const entries = cacheEntries(cacheDir);
    expect(entries).toHaveLength(8);
    const [torn, flipped, emptied] = entries as [string, string, string];
    truncateSync(torn, Math.floor(readFileSync(torn).length / 2));
    const bytes = readFileSync(flipped);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    writeFileSync(flipped, bytes);
    writeFileSync(emptied, "");
    const again = builtFolder();
    const result = await compress(again, cacheDir);
    expect(result.misses).toBe(3);
    expect(result.hits).toBe(5);
    expect(contents(again)).toEqual(contents(fresh));
    // Repaired: the next build takes everything from the cache.
    expect((await compress(builtFolder(), cacheDir)).hits).toBe(8);
  });

  it("lets two builds fill one cache at once, leaving no partial entry", async () => {
    const cacheDir = join(base, "cache-concurrent");
    const roots = [builtFolder(), builtFolder(), builtFolder()];
    await Promise.all(roots.map((root) => compress(root, cacheDir)));
    expect(contents(roots[1]!)).toEqual(contents(roots[0]!));
    expect(contents(roots[2]!)).toEqual(contents(roots[0]!));
    expect(cacheEntries(cacheDir).filter((path) => path.includes(".tmp-"))).toEqual([]);
    expect((await compress(builtFolder(), cacheDir)).hits).toBe(8);
  });

  it("is pruned to its budget, oldest first, never what the running build used", async () => {
    const cacheDir = join(base, "cache-prune");
    const dir = join(cacheDir, "settings", "ab");
    mkdirSync(dir, { recursive: true });
    const day = 24 * 60 * 60 * 1000;
    const now = Date.now();
    const entry = (name: string, ageMs: number) => {
      const path = join(dir, name);
      writeFileSync(path, Buffer.alloc(1000));
      utimesSync(path, new Date(now - ageMs), new Date(now - ageMs));
      return path;
    };
    entry("used-by-this-build.br", 0);
    entry("recent.br", day);
    entry("older.br", 2 * day);
    entry("oldest.br", 3 * day);
    entry("left-by-a-dead-build.br.tmp-1-1", 2 * day);
    entry("being-written.br.tmp-2-1", 0);
    // This build started a minute ago; room for three entries.
    const removed = await pruneCache(cacheDir, now - 60_000, 3000);
    expect(removed).toBe(3000);
    expect(readdirSync(dir).sort()).toEqual(["being-written.br.tmp-2-1", "recent.br", "used-by-this-build.br"]);
  });
});
