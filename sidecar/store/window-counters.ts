/**
 * Fixed-window request counters in this process's memory: the embedded store's rate-limit buckets,
 * and the limiter's own when a shared store errs or hangs (plugins/limit-store.ts).
 */
import type { BucketHit } from "./store.ts";

export class WindowCounters {
  private readonly entries = new Map<string, { count: number; resetAt: number }>();
  private readonly maxKeys: number;

  /** Past `maxKeys` counters the oldest windows are dropped first. */
  constructor(maxKeys: number) {
    this.maxKeys = maxKeys;
  }

  hit(id: string, windowMs: number): BucketHit {
    const now = Date.now();
    let entry = this.entries.get(id);
    if (!entry || entry.resetAt <= now) {
      // Re-inserted at the end, so the Map stays ordered by window start.
      this.entries.delete(id);
      entry = { count: 0, resetAt: now + windowMs };
      this.entries.set(id, entry);
      if (this.entries.size > this.maxKeys) {
        for (const old of this.entries.keys()) {
          if (this.entries.size <= this.maxKeys * 0.9) break;
          this.entries.delete(old);
        }
      }
    }
    entry.count++;
    return { count: entry.count, resetMs: entry.resetAt - now };
  }
}
