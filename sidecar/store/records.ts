/**
 * What the stores read back is checked like a request body: every record of the embedded store's
 * log at replay, every list read from Redis. A record that does not match is skipped and counted
 * (`/v1/status` and the start log say how many), never trusted and never a crash.
 */
import { z } from "zod";
import type { StoredList } from "./store.ts";

export const StoredListRecord = z.object({
  id: z.string().min(1),
  // Lists saved before slugs existed have no slug key.
  slug: z.string().nullable().default(null),
  name: z.string().nullable().default(null),
  approvedServiceIds: z.array(z.string()),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  // Lists saved before keys were scoped to the client had a bare `idempotencyKey`: dropped here, so
  // such a key no longer finds its list (it was shared by every client).
  idempotency: z.object({ scope: z.string(), fingerprint: z.string() }).optional(),
});

export const LogRecord = z.discriminatedUnion("t", [
  z.object({ t: z.literal("list"), list: StoredListRecord }),
  z.object({ t: z.literal("feedback"), feedback: z.object({ message: z.string(), receivedAt: z.string() }).loose() }),
  z.object({ t: z.literal("click"), click: z.object({ url: z.string(), at: z.string() }).loose() }),
]);

/** Records skipped when reading the store back, and why the first one was. */
export interface SkippedRecords {
  count: number;
  first: string | null;
}

export function parseStoredList(value: unknown): StoredList | undefined {
  const result = StoredListRecord.safeParse(value);
  return result.success ? result.data : undefined;
}

/** The record on a log line, or why it cannot be used. */
export function parseLogLine(line: string): z.infer<typeof LogRecord> | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { problem: "not JSON (a write torn by a crash was never acknowledged)" };
  }
  const result = LogRecord.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  return { problem: `${issue.path.join(".") || "record"}: ${issue.message}` };
}

export function describeSkipped(skipped: SkippedRecords): string | null {
  return skipped.count === 0 ? null : `${skipped.count} unreadable record(s) skipped at start; first: ${skipped.first}`;
}
