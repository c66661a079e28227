/**
 * The operations the product needs from storage — not a key-value leak. Two implementations pass
 * one contract suite (tests/sidecar/store.contract.ts): the embedded store (single process,
 * durable by fsync) and Redis (many instances).
 */
import type { StatusRecordT } from "../../catalogue/schema.ts";

export interface StoredList {
  readonly id: string;
  readonly slug: string | null;
  readonly name: string | null;
  readonly approvedServiceIds: readonly string[];
  readonly createdAt: string;
  readonly expiresAt: string;
  /** The Idempotency-Key of the request that saved it, kept for the list's lifetime. */
  readonly idempotencyKey?: string;
}

export interface NewList {
  readonly id: string;
  readonly name: string | null;
  readonly approvedServiceIds: readonly string[];
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** An explicit slug: taken → SlugTakenError. */
  readonly slug?: string;
  /** A derived slug: on collision -2, -3, … is appended until unique. */
  readonly derivedSlug?: string;
  /** When a live list was saved with this key, createList returns it and saves nothing. */
  readonly idempotencyKey?: string;
}

export interface Feedback {
  readonly type: string;
  readonly message: string;
  readonly email?: string;
  readonly page?: string;
  readonly receivedAt: string;
}

export interface OutboundClick {
  readonly url: string;
  readonly serviceId?: string;
  readonly kind?: string;
  readonly page?: string;
  readonly at: string;
}

export interface BucketHit {
  /** Requests counted in the current window, this one included. */
  readonly count: number;
  /** Milliseconds until the window resets. */
  readonly resetMs: number;
}

export class SlugTakenError extends Error {
  readonly slug: string;
  constructor(slug: string) {
    super(`slug "${slug}" is taken`);
    this.slug = slug;
  }
}

/** The store cannot be reached or did not answer in time. */
export class StoreUnavailableError extends Error {}

/**
 * A write was sent but its answer never came (a timeout, a connection lost mid-command): it may
 * or may not have been applied.
 */
export class StoreOutcomeUnknownError extends StoreUnavailableError {}

export interface Store {
  readonly kind: "embedded" | "redis";
  /** Whether the store is connected now, known without a round trip (for the health probe). */
  readonly available: boolean;
  /** Saves a list; resolves only once the write is durable. */
  createList(list: NewList): Promise<StoredList>;
  /** By slug first, then by id; undefined when neither matches or the list expired. */
  getList(slugOrId: string, now: Date): Promise<StoredList | undefined>;
  recordFeedback(feedback: Feedback): Promise<void>;
  recordOutboundClick(click: OutboundClick): Promise<void>;
  /** Counts a request against a bucket for a key, atomically across every instance sharing the store. */
  hit(bucket: string, key: string, windowMs: number): Promise<BucketHit>;
  appendStatus(records: readonly StatusRecordT[]): Promise<void>;
  /** Samples newer than `since`, newest first, at most `limit`. */
  statusHistory(since: Date, limit: number): Promise<StatusRecordT[]>;
  /** Records read back that did not match their schema and were skipped (the embedded store's replay). */
  readonly skipped?: { readonly count: number; readonly first: string | null };
  /** A cheap round trip; throws StoreUnavailableError when the store is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const slugCandidates = function* (base: string): Generator<string> {
  yield base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    yield `${base.slice(0, 64 - suffix.length).replace(/-+$/, "")}${suffix}`;
  }
};
