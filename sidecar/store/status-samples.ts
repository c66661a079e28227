/**
 * The status history as the stores keep it: one record a sample (every component's state), the
 * newest STATUS_HISTORY_LIMIT, read back like any stored record (a record that does not match its
 * schema is skipped, never trusted). The embedded store keeps them in `status.json` in its folder,
 * replaced atomically and synced at each sample, so the history survives a restart and a crash.
 */
import { open, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { STATUS_HISTORY_LIMIT } from "../../catalogue/base/limits.ts";
import { StatusRecord, type StatusRecordT } from "../../catalogue/schema/index.ts";

/** Samples kept: as many as the history shows. */
export const STATUS_SAMPLES_KEPT = STATUS_HISTORY_LIMIT;

/** A stored sample, checked; undefined when it does not match the schema. */
export function parseStatusSample(value: unknown): StatusRecordT | undefined {
  const result = StatusRecord.safeParse(value);
  return result.success ? result.data : undefined;
}

/** The samples newer than `since`, newest first, at most `limit`. */
export function samplesSince(samples: readonly StatusRecordT[], since: Date, limit: number): StatusRecordT[] {
  return samples
    .filter((sample) => new Date(sample.timestamp) > since)
    .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp))
    .slice(0, limit);
}

/** The embedded store's status history file. */
export class StatusFile {
  private samples: StatusRecordT[];
  private readonly path: string;
  private readonly dir: string;
  /** Writes one after another, each of the whole history as it then is. */
  private writing: Promise<void> = Promise.resolve();

  private constructor(dir: string, samples: StatusRecordT[]) {
    this.dir = dir;
    this.path = join(dir, "status.json");
    this.samples = samples;
  }

  /** Reads `status.json` in the folder; missing or unreadable, the history starts empty. */
  static async open(dir: string): Promise<StatusFile> {
    let samples: StatusRecordT[] = [];
    try {
      const stored: unknown = JSON.parse(await readFile(join(dir, "status.json"), "utf8"));
      if (Array.isArray(stored))
        samples = stored.flatMap((value) => parseStatusSample(value) ?? []).slice(0, STATUS_SAMPLES_KEPT);
    } catch {
      // No history yet, or a file this version cannot read: the samples from now on are kept.
    }
    return new StatusFile(dir, samples);
  }

  add(sample: StatusRecordT): Promise<void> {
    this.samples = samplesSince([sample, ...this.samples], new Date(0), STATUS_SAMPLES_KEPT);
    const body = JSON.stringify(this.samples);
    const write = this.writing.then(() => this.replace(body));
    this.writing = write.catch(() => undefined);
    return write;
  }

  since(since: Date, limit: number): StatusRecordT[] {
    return samplesSince(this.samples, since, limit);
  }

  /** Written beside, synced, renamed over the old file, and the folder synced: old or new, never torn. */
  private async replace(body: string): Promise<void> {
    const temporary = `${this.path}.tmp`;
    await writeFile(temporary, body, { flush: true });
    await rename(temporary, this.path);
    const dir = await open(this.dir, "r");
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }

  /** Waits for the last write. */
  async flush(): Promise<void> {
    await this.writing;
  }
}
