/**
 * The embedded store: state in memory, every acknowledged write appended to a JSON-lines log in
 * DATA_DIR and synced (O_DSYNC) before the promise resolves, so it survives kill -9. The log is
 * replayed at start; expired lists are skipped at replay and forgotten hourly while running. Writes
 * go through one queue with group commit, which also makes slug allocation atomic within the
 * process.
 */
import { constants, createReadStream, mkdirSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { StatusRecordT } from "../../catalogue/schema.ts";
import {
  SlugTakenError,
  StoreUnavailableError,
  slugCandidates,
  type BucketHit,
  type Feedback,
  type NewList,
  type OutboundClick,
  type Store,
  type StoredList,
} from "./store.ts";

interface PendingWrite {
  make: () => LogRecord;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Rate-limit counters kept; past this the oldest windows are dropped first. */
const MAX_BUCKETS = 100_000;

type LogRecord =
  { t: "list"; list: StoredList } | { t: "feedback"; feedback: Feedback } | { t: "click"; click: OutboundClick };

const STATUS_KEEP = 1000;
/** How often createList drops expired lists from memory (they are already invisible to reads). */
const SWEEP_INTERVAL_MS = 3_600_000;

/** O_DSYNC: an append returns once its data is on disk, one thread-pool call instead of two. */
const LOG_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_DSYNC;

export class EmbeddedStore implements Store {
  readonly kind = "embedded";
  readonly available = true;
  private readonly lists = new Map<string, StoredList>();
  private readonly slugs = new Map<string, string>();
  private readonly buckets = new Map<string, { count: number; resetAt: number }>();
  private status: StatusRecordT[] = [];
  private pending: PendingWrite[] = [];
  private flushing: Promise<void> | undefined;
  private sweptAt = 0;

  private readonly log: FileHandle;
  /**
   * The log's length in bytes, so a failed append can be cut back off; undefined after a cut that
   * failed, when the log may end in a torn line.
   */
  private logSize: number | undefined;

  private constructor(log: FileHandle, logSize: number) {
    this.log = log;
    this.logSize = logSize;
  }

  static async open(dataDir: string, now = new Date()): Promise<EmbeddedStore> {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, "store.jsonl");
    const log = await open(path, LOG_FLAGS);
    // A crash mid-append can leave a torn last line: end it, or the next record would be glued to
    // it and lost at the following replay.
    let { size } = await log.stat();
    const reader = await open(path, "r");
    try {
      if (size > 0 && (await reader.read(Buffer.alloc(1), 0, 1, size - 1)).buffer[0] !== 0x0a)
        size += (await log.write("\n")).bytesWritten;
    } finally {
      await reader.close();
    }
    const store = new EmbeddedStore(log, size);
    // Streamed line by line: the log also holds every feedback and click, so it may outgrow the
    // largest string V8 can read at once; only live lists stay in memory.
    for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
      if (!line) continue;
      let record: LogRecord;
      try {
        record = JSON.parse(line) as LogRecord;
      } catch {
        // A line torn by a crash mid-write was never acknowledged; skip it.
        continue;
      }
      if (record.t === "list" && new Date(record.list.expiresAt) > now) store.index(record.list);
    }
    store.sweptAt = now.getTime();
    return store;
  }

  private index(list: StoredList) {
    this.lists.set(list.id, list);
    if (list.slug) this.slugs.set(list.slug, list.id);
  }

  /**
   * Appends the record `make` returns and resolves once it is on disk. Concurrent writes share one
   * synchronous append (group commit); `make` runs in arrival order, one at a time, so what it
   * decides (a free slug) holds for the record it returns.
   */
  private append(make: () => LogRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ make, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    // Yield first, so `this.flushing` is assigned before this can finish and clear it.
    await null;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      const lines: string[] = [];
      const written: PendingWrite[] = [];
      for (const item of batch) {
        try {
          lines.push(JSON.stringify(item.make()));
          written.push(item);
        } catch (error) {
          item.reject(error);
        }
      }
      if (written.length === 0) continue;
      try {
        await this.write(`${lines.join("\n")}\n`);
        for (const item of written) item.resolve();
      } catch (error) {
        for (const item of written) item.reject(error);
      }
    }
    // Cleared in the same tick as the empty-queue check above, so no write is left waiting.
    this.flushing = undefined;
  }

  /**
   * Appends `text` whole (a short write is continued). On failure (a full disk, an I/O error) the
   * partial append is cut off, so no part of an unacknowledged batch comes back at replay.
   */
  private async write(text: string): Promise<void> {
    const size = this.logSize;
    // After a failed cut the log may end mid-line: start a new one.
    const data = Buffer.from(size === undefined ? `\n${text}` : text);
    try {
      for (let offset = 0; offset < data.length;) offset += (await this.log.write(data, offset)).bytesWritten;
    } catch (error) {
      this.logSize = undefined;
      if (size !== undefined)
        await this.log
          .truncate(size)
          .then(() => this.log.datasync())
          .then(() => (this.logSize = size))
          .catch(() => undefined);
      throw new StoreUnavailableError(`Could not append to the store's log: ${(error as Error).message}`);
    }
    this.logSize =
      size === undefined
        ? await this.log.stat().then(
            (stat) => stat.size,
            () => undefined,
          )
        : size + data.length;
  }

  private slugFree(slug: string, now: Date): boolean {
    const id = this.slugs.get(slug);
    return !id || new Date(this.lists.get(id)!.expiresAt) <= now;
  }

  /** Forgets expired lists, so a long-running process does not keep every list ever made. */
  private sweep(now: Date) {
    if (now.getTime() - this.sweptAt < SWEEP_INTERVAL_MS) return;
    this.sweptAt = now.getTime();
    for (const list of this.lists.values()) {
      if (new Date(list.expiresAt) > now) continue;
      this.lists.delete(list.id);
      // The slug may belong to a newer list by now.
      if (list.slug && this.slugs.get(list.slug) === list.id) this.slugs.delete(list.slug);
    }
  }

  async createList(input: NewList): Promise<StoredList> {
    this.sweep(input.createdAt);
    let list: StoredList | undefined;
    const allocate = (): LogRecord => {
      let slug: string | null = null;
      if (input.slug) {
        if (!this.slugFree(input.slug, input.createdAt)) throw new SlugTakenError(input.slug);
        slug = input.slug;
      } else if (input.derivedSlug) {
        for (const candidate of slugCandidates(input.derivedSlug)) {
          if (this.slugFree(candidate, input.createdAt)) {
            slug = candidate;
            break;
          }
        }
      }
      list = {
        id: input.id,
        slug,
        name: input.name,
        approvedServiceIds: input.approvedServiceIds,
        createdAt: input.createdAt.toISOString(),
        expiresAt: input.expiresAt.toISOString(),
      };
      // Reserve before the fsync so a concurrent request sees the slug taken.
      this.index(list);
      return { t: "list", list };
    };
    try {
      await this.append(allocate);
    } catch (error) {
      if (list && !(error instanceof SlugTakenError)) {
        this.lists.delete(list.id);
        if (list.slug) this.slugs.delete(list.slug);
      }
      throw error;
    }
    return list!;
  }

  async getList(slugOrId: string, now: Date): Promise<StoredList | undefined> {
    const id = this.slugs.get(slugOrId);
    const list = (id && this.lists.get(id)) || this.lists.get(slugOrId);
    return list && new Date(list.expiresAt) > now ? list : undefined;
  }

  recordFeedback(feedback: Feedback): Promise<void> {
    return this.append(() => ({ t: "feedback", feedback }));
  }

  recordOutboundClick(click: OutboundClick): Promise<void> {
    return this.append(() => ({ t: "click", click }));
  }

  async hit(bucket: string, key: string, windowMs: number): Promise<BucketHit> {
    const now = Date.now();
    const id = `${bucket}\0${key}`;
    let entry = this.buckets.get(id);
    if (!entry || entry.resetAt <= now) {
      // Re-inserted at the end, so the Map stays ordered by window start.
      this.buckets.delete(id);
      entry = { count: 0, resetAt: now + windowMs };
      this.buckets.set(id, entry);
      if (this.buckets.size > MAX_BUCKETS) {
        for (const old of this.buckets.keys()) {
          if (this.buckets.size <= MAX_BUCKETS * 0.9) break;
          this.buckets.delete(old);
        }
      }
    }
    entry.count++;
    return { count: entry.count, resetMs: entry.resetAt - now };
  }

  async appendStatus(records: readonly StatusRecordT[]): Promise<void> {
    this.status = [...records, ...this.status].slice(0, STATUS_KEEP);
  }

  async statusHistory(since: Date, limit: number): Promise<StatusRecordT[]> {
    return this.status.filter((record) => new Date(record.timestamp) > since).slice(0, limit);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    await this.flushing;
    await this.log.close();
  }
}
