/**
 * The store that stands in when the embedded store cannot open (full disk, read-only or
 * unwritable DATA_DIR): the catalogue needs no disk, so it is still served, read-only. Every list,
 * feedback and click operation answers StoreUnavailableError (a 503 that says nothing was saved),
 * status reports the store down with the reason, and rate limits count in memory.
 */
import type { StatusRecordT } from "../../catalogue/schema/index.ts";
import { StoreUnavailableError, type BucketHit, type Store, type StoredList } from "./store.ts";

export class UnavailableStore implements Store {
  readonly kind = "embedded";
  readonly available = false;
  readonly reason: string;
  private readonly buckets = new Map<string, { count: number; resetAt: number }>();

  constructor(reason: string) {
    this.reason = reason;
  }

  private refuse(): Promise<never> {
    return Promise.reject(new StoreUnavailableError(this.reason));
  }

  createList(): Promise<StoredList> {
    return this.refuse();
  }
  getList(): Promise<StoredList | undefined> {
    return this.refuse();
  }
  renewList(): Promise<boolean> {
    return this.refuse();
  }
  recordFeedback(): Promise<void> {
    return this.refuse();
  }
  recordOutboundClick(): Promise<void> {
    return this.refuse();
  }
  async hit(bucket: string, key: string, windowMs: number): Promise<BucketHit> {
    const now = Date.now();
    const id = `${bucket}\0${key}`;
    let entry = this.buckets.get(id);
    if (!entry || entry.resetAt <= now) {
      if (this.buckets.size > 100_000) this.buckets.clear();
      entry = { count: 0, resetAt: now + windowMs };
      this.buckets.set(id, entry);
    }
    entry.count++;
    return { count: entry.count, resetMs: entry.resetAt - now };
  }
  /** No store to keep it in: the sample is dropped, and the history answers 503. */
  async recordStatusSample(_sample: StatusRecordT): Promise<void> {}
  statusSamples(): Promise<StatusRecordT[]> {
    return this.refuse();
  }
  ping(): Promise<void> {
    return this.refuse();
  }
  async close(): Promise<void> {}
}

/** One line for the operator: what failed, on which folder, and what the server does about it. */
export function cannotOpenLine(dataDir: string, error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const why = e.code ? `${e.code}: ${e.message.replace(/^\w+: /, "")}` : String(e.message ?? error);
  return `store: cannot open ${dataDir} (${why}); serving the catalogue read-only, saving lists and feedback answers 503 until the folder is fixed and the server restarted`;
}
