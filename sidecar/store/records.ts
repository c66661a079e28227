/**
 * What the stores read back is checked like a request body: every record of the embedded store's
 * log at replay, every list read from Redis. A record that does not match is skipped and counted
 * (`/v1/status` and the start log say how many), never trusted and never a crash.
 */
import { open } from "node:fs/promises";
import { z } from "zod";
import { issueLines } from "../../catalogue/base/issues.ts";
import type { StoredList } from "./store.ts";

export const StoredListRecord = z.object({
  id: z.string().min(1),
  // Lists saved before slugs existed have no slug key.
  slug: z.string().nullable().default(null),
  name: z.string().nullable().default(null),
  approvedServiceIds: z.array(z.string()),
  // Lists saved before jobs used existed, or without them, have no jobsUsed key.
  jobsUsed: z.record(z.string(), z.array(z.string())).optional(),
  // Lists saved before data volumes existed, or without them, have no dataGb key.
  dataGb: z.record(z.string(), z.number()).optional(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  // Lists saved before keys were scoped to the client had a bare `idempotencyKey`: dropped here, so
  // such a key no longer finds its list (it was shared by every client).
  idempotency: z.object({ scope: z.string(), fingerprint: z.string() }).optional(),
});

/** A record's place in the log, counted from 0 (absent in logs written before it was kept). */
const Sequence = z.object({ n: z.number().int().nonnegative().optional() });

/** Every kind of record carries its number, whatever its other fields. */
export const LogRecord = z.intersection(
  Sequence,
  z.discriminatedUnion("t", [
    z.object({ t: z.literal("list"), list: StoredListRecord }),
    z.object({
      t: z.literal("feedback"),
      feedback: z.object({ message: z.string(), receivedAt: z.string() }).loose(),
    }),
    z.object({ t: z.literal("click"), click: z.object({ url: z.string(), at: z.string() }).loose() }),
  ]),
);

/**
 * The longest log line read: a record is at most a 64 KiB body, escaped. A longer line (damage, a
 * foreign file) is skipped without being held in memory.
 */
export const MAX_LOG_LINE_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;

/** A line of the log, or the length of one too long to read. */
export type LogLine = { readonly text: string } | { readonly tooLong: number };

/**
 * The lines of the log's first `end` bytes, read in chunks: no line longer than MAX_LOG_LINE_BYTES
 * is assembled (readline would build it whole, and one over V8's largest string throws RangeError).
 */
export async function* logLines(path: string, end: number, maxBytes = MAX_LOG_LINE_BYTES): AsyncGenerator<LogLine> {
  const file = await open(path, "r");
  try {
    const chunk = Buffer.alloc(256 * 1024);
    let pieces: Buffer[] = [];
    let length = 0;
    for (let position = 0; position < end;) {
      const { bytesRead } = await file.read(chunk, 0, Math.min(chunk.length, end - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let from = 0;
      for (let at = chunk.indexOf(NEWLINE, from); at >= 0 && at < bytesRead; at = chunk.indexOf(NEWLINE, from)) {
        length += at - from;
        if (length <= maxBytes) pieces.push(chunk.subarray(from, at));
        yield length <= maxBytes ? { text: Buffer.concat(pieces).toString("utf8") } : { tooLong: length };
        pieces = [];
        length = 0;
        from = at + 1;
      }
      length += bytesRead - from;
      // Copied: the chunk is read into again.
      if (length <= maxBytes) pieces.push(Buffer.from(chunk.subarray(from, bytesRead)));
      else pieces = [];
    }
    if (length > 0) yield length <= maxBytes ? { text: Buffer.concat(pieces).toString("utf8") } : { tooLong: length };
  } finally {
    await file.close();
  }
}

/** Records skipped when reading the store back, and why the first one was. */
export interface SkippedRecords {
  count: number;
  first: string | null;
}

export function parseStoredList(value: unknown): StoredList | undefined {
  const result = StoredListRecord.safeParse(value);
  return result.success ? result.data : undefined;
}

/** Why a line is skipped when it does not parse; replay says what else is known (tornOrDamaged). */
export const NOT_JSON = "not JSON";

/**
 * What is known of a line that is not JSON: the last record was a write cut short by a crash, so never
 * acknowledged; one with readable records after it was written in full before them (a page of
 * zeros or other damage since), so the records it held may well have been acknowledged.
 */
export function tornOrDamaged(recordsAfter: boolean): string {
  return recordsAfter
    ? `${NOT_JSON}: damaged after it was written in full (records follow it), so what it held may have been acknowledged`
    : `${NOT_JSON}: the log's last record, a write cut short by a crash, so never acknowledged`;
}

/** The record on a log line, or why it cannot be used. */
export function parseLogLine(line: string): z.infer<typeof LogRecord> | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { problem: NOT_JSON };
  }
  const result = LogRecord.safeParse(value);
  if (result.success) return result.data;
  return { problem: issueLines(result.error.issues, { limit: 1, whole: "record" })[0]! };
}

export function describeSkipped(skipped: SkippedRecords): string | null {
  return skipped.count === 0 ? null : `${skipped.count} unreadable record(s) skipped at start; first: ${skipped.first}`;
}
