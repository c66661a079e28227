/**
 * One compression worker (build/compress.ts runs one per core). For each built file it is sent:
 * reads it, hashes it (the manifest's sha256), and for a compressible file writes the .br and .gz
 * beside it, taken from the compression cache when an entry for the same content and settings
 * decompresses to exactly that content, compressed fresh otherwise (and then stored: written to a
 * temporary name and renamed, so a reader never sees half an entry). Synchronous zlib on a thread of
 * its own: the libuv pool stays free for the rest of the build (the site's file I/O).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parentPort, threadId, workerData } from "node:worker_threads";
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync, gzipSync } from "node:zlib";
import type { CompressJob, CompressSettings, FileDigest, FileResult } from "./compress.ts";

const settings = workerData as CompressSettings;

const sha256 = (body: Buffer) => createHash("sha256").update(body).digest("hex");

const FORMATS = {
  br: {
    compress: (body: Buffer) =>
      brotliCompressSync(body, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: settings.brotliQuality, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
    decompress: (body: Buffer) => brotliDecompressSync(body),
  },
  gz: {
    compress: (body: Buffer) => gzipSync(body, { level: settings.gzipLevel }),
    decompress: (body: Buffer) => gunzipSync(body),
  },
} as const;
type Format = keyof typeof FORMATS;

const counts = { hits: 0, misses: 0, cacheErrors: 0 };

/** The cached form of `body`, only when it decompresses to exactly `body` (a torn or corrupted entry is a miss). */
function cached(entry: string, format: Format, body: Buffer): Buffer | undefined {
  let stored: Buffer;
  try {
    stored = readFileSync(entry);
  } catch {
    return undefined;
  }
  try {
    if (!FORMATS[format].decompress(stored).equals(body)) return undefined;
  } catch {
    return undefined;
  }
  // Used by this build: pruning keeps what was touched since a build began (compress.ts).
  try {
    const now = new Date();
    utimesSync(entry, now, now);
  } catch {
    // Pruned by another build meanwhile: the bytes read are still good.
  }
  return stored;
}

function store(entry: string, compressed: Buffer): void {
  const temporary = `${entry}.tmp-${process.pid}-${threadId}`;
  try {
    mkdirSync(dirname(entry), { recursive: true });
    writeFileSync(temporary, compressed);
    renameSync(temporary, entry);
  } catch {
    // A cache that cannot be written costs the next build time, never this build its output.
    counts.cacheErrors++;
    rmSync(temporary, { force: true });
  }
}

function compressed(format: Format, body: Buffer, digest: string): Buffer {
  const entry = join(settings.cacheDir, settings.tag, digest.slice(0, 2), `${digest}.${format}`);
  const hit = cached(entry, format, body);
  if (hit) {
    counts.hits++;
    return hit;
  }
  counts.misses++;
  const fresh = FORMATS[format].compress(body);
  store(entry, fresh);
  return fresh;
}

function digestFile(root: string, file: string): FileResult {
  const body = readFileSync(join(root, file));
  const digest = sha256(body);
  const files: FileDigest[] = [{ path: file, sha256: digest, size: body.length }];
  let saved = 0;
  if (new RegExp(settings.compressible).test(file) && body.length >= settings.minBytes) {
    for (const format of Object.keys(FORMATS) as Format[]) {
      const output = compressed(format, body, digest);
      if (format === "br") saved = body.length - output.length;
      // Not worth keeping when it does not shrink the file.
      if (output.length >= body.length) continue;
      const path = `${file}.${format}`;
      writeFileSync(join(root, path), output);
      files.push({ path, sha256: sha256(output), size: output.length });
    }
  }
  return { files, saved };
}

parentPort!.on("message", (job: CompressJob) => {
  const results = job.files.map((file) => digestFile(job.root, file));
  parentPort!.postMessage({ id: job.id, results, counts: { ...counts } });
  counts.hits = counts.misses = counts.cacheErrors = 0;
});
