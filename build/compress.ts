/**
 * The build's compression and hashing, spread over the cores: one worker thread per core
 * (compress-worker.ts) reads each built file, hashes it for the manifest and writes its .br and .gz.
 * Compressed forms are kept in a cache keyed by the content's sha256 and the compression settings
 * (.cache/compressed/<settings>/<sha256>.br|.gz), so a file whose content did not change is not
 * compressed again; an entry is used only when it decompresses to exactly the file's content, so a
 * build's bytes are the same from the cache as fresh. Files are queued as steps write them, so the
 * API and text files compress while the site builds.
 */
import { createHash } from "node:crypto";
import { readdir, rm, stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";

/** What every worker is started with. */
export interface CompressSettings {
  readonly cacheDir: string;
  /** The settings' own folder in the cache: a change of quality or of zlib/brotli never reuses old entries. */
  readonly tag: string;
  readonly brotliQuality: number;
  readonly gzipLevel: number;
  /** Files smaller than this are not worth compressing. */
  readonly minBytes: number;
  /** The source of the regular expression of compressible file names. */
  readonly compressible: string;
}

export interface FileDigest {
  readonly path: string;
  readonly sha256: string;
  readonly size: number;
}

/** One built file: its digest and those of the .br/.gz written beside it; brotli's saving in bytes. */
export interface FileResult {
  readonly files: FileDigest[];
  readonly saved: number;
}

export interface CompressJob {
  readonly id: number;
  readonly root: string;
  readonly files: readonly string[];
}

interface JobReply {
  readonly id: number;
  readonly results: FileResult[];
  readonly counts: { hits: number; misses: number; cacheErrors: number };
}

export interface CompressSummary {
  /** Every file given and every .br/.gz written, by path. */
  readonly digests: Map<string, FileDigest>;
  readonly compressed: number;
  readonly saved: number;
  /** Compressed forms taken from the cache, made fresh, and not stored because the cache could not be written. */
  readonly hits: number;
  readonly misses: number;
  readonly cacheErrors: number;
}

const COMPRESSIBLE = /\.(json|md|ansi|txt|html|css|js|mjs|svg|xml|atom|ics|webmanifest)$/;
/**
 * "best" is what a deployment publishes. "fast" is `npm start`'s first build, served at once while
 * the best is built behind it: on the real catalogue brotli at quality 10 took 40 CPU-s for files
 * 9% smaller than quality 5's, which took 2.5.
 */
export type Compression = "best" | "fast";
const SETTINGS: Record<Compression, Omit<CompressSettings, "cacheDir" | "tag">> = {
  best: { brotliQuality: 10, gzipLevel: 9, minBytes: 1024, compressible: COMPRESSIBLE.source },
  fast: { brotliQuality: 5, gzipLevel: 6, minBytes: 1024, compressible: COMPRESSIBLE.source },
};
/** Files sent to a worker at once, and batches kept queued per worker so it never waits on a busy main thread. */
const BATCH = 16;
const QUEUED_PER_WORKER = 2;
/** Workers at most, whatever the cores: each holds its own heap and zlib state. */
const MAX_WORKERS = 8;

/** The cache folder of these settings and of this Node's zlib and brotli (their output may differ between versions). */
function settingsTag(settings: (typeof SETTINGS)[Compression]): string {
  const versions = { zlib: process.versions.zlib, brotli: process.versions.brotli };
  return createHash("sha256")
    .update(JSON.stringify({ ...settings, ...versions }))
    .digest("hex")
    .slice(0, 12);
}

/** The compression workers of one build; add() files as they are written, then finish(). */
export class Compressor {
  readonly #root: string;
  readonly #workers: { worker: Worker; queued: number }[];
  readonly #waiting: string[] = [];
  readonly #pending = new Map<number, (reply: JobReply) => void>();
  readonly #replies: Promise<JobReply>[] = [];
  #nextId = 0;
  #failed: Error | undefined;

  /** Compresses files under `root`; `workers` defaults to the cores this process may use (at most MAX_WORKERS). */
  constructor(
    root: string,
    cacheDir: string,
    workers: number = Math.min(availableParallelism(), MAX_WORKERS),
    compression: Compression = "best",
  ) {
    this.#root = root;
    const settings = SETTINGS[compression];
    const workerData: CompressSettings = { ...settings, cacheDir, tag: settingsTag(settings) };
    this.#workers = Array.from({ length: Math.max(1, workers) }, () => {
      const slot = { worker: new Worker(new URL("./compress-worker.ts", import.meta.url), { workerData }), queued: 0 };
      slot.worker.on("message", (reply: JobReply) => {
        slot.queued--;
        this.#pending.get(reply.id)?.(reply);
        this.#pending.delete(reply.id);
        this.#dispatch();
      });
      slot.worker.on("error", (error: Error) => this.#fail(error));
      return slot;
    });
  }

  /** Queues files (paths relative to the root) to hash and, when compressible, compress. */
  add(files: Iterable<string>): void {
    this.#waiting.push(...files);
    this.#dispatch();
  }

  #dispatch(): void {
    for (const slot of this.#workers) {
      while (slot.queued < QUEUED_PER_WORKER && this.#waiting.length > 0 && !this.#failed) {
        const job: CompressJob = { id: this.#nextId++, root: this.#root, files: this.#waiting.splice(0, BATCH) };
        this.#replies.push(new Promise((resolve) => this.#pending.set(job.id, resolve)));
        slot.queued++;
        slot.worker.postMessage(job);
      }
    }
  }

  #fail(error: Error): void {
    this.#failed ??= error;
    // Nothing more will answer: release whoever waits, finish() then throws.
    for (const resolve of this.#pending.values()) resolve({ id: -1, results: [], counts: zeroCounts() });
    this.#pending.clear();
  }

  /** Waits for every file added, stops the workers and sums up. */
  async finish(): Promise<CompressSummary> {
    try {
      const replies = [];
      // Jobs dispatched while waiting (a worker freed up) join #replies: wait until none is left.
      for (let seen = 0; seen < this.#replies.length || this.#waiting.length > 0;) {
        if (seen === this.#replies.length) await new Promise((resolve) => setImmediate(resolve));
        else replies.push(await this.#replies[seen++]!);
        if (this.#failed) throw this.#failed;
      }
      return summarise(replies);
    } finally {
      await this.stop();
    }
  }

  /** Stops the workers, whatever they were doing (a step failed). */
  async stop(): Promise<void> {
    await Promise.all(this.#workers.map(({ worker }) => worker.terminate()));
  }
}

const zeroCounts = () => ({ hits: 0, misses: 0, cacheErrors: 0 });

function summarise(replies: readonly JobReply[]): CompressSummary {
  const digests = new Map<string, FileDigest>();
  const totals = { compressed: 0, saved: 0, ...zeroCounts() };
  for (const reply of replies) {
    totals.hits += reply.counts.hits;
    totals.misses += reply.counts.misses;
    totals.cacheErrors += reply.counts.cacheErrors;
    for (const result of reply.results) {
      totals.saved += result.saved;
      totals.compressed += result.files.length - 1;
      for (const file of result.files) digests.set(file.path, file);
    }
  }
  return { digests, ...totals };
}

/** Temporary entries older than this were left by a build that died. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;

/**
 * Keeps the cache bounded: entries used or written since `since` (this build's start; a build that
 * runs at the same time touches what it uses, so it keeps its entries too) always stay; of the
 * others, the most recently used stay while the whole cache is within `budget` bytes. Returns the
 * bytes removed.
 */
export async function pruneCache(cacheDir: string, since: number, budget: number): Promise<number> {
  let entries;
  try {
    entries = await readdir(cacheDir, { recursive: true, withFileTypes: true });
  } catch {
    return 0;
  }
  const files = [];
  for (const entry of entries.filter((each) => each.isFile())) {
    const path = join(entry.parentPath, entry.name);
    // Gone meanwhile (another build pruned it): nothing to count.
    const info = await stat(path).catch(() => undefined);
    if (info) files.push({ path, size: info.size, used: info.mtimeMs, temporary: entry.name.includes(".tmp-") });
  }
  files.sort((a, b) => b.used - a.used);
  let total = 0;
  let removed = 0;
  for (const file of files) {
    const stale = file.temporary
      ? file.used < since - STALE_TEMPORARY_MS
      : file.used < since && total + file.size > budget;
    if (stale) {
      await rm(file.path, { force: true });
      removed += file.size;
    } else total += file.size;
  }
  return removed;
}
