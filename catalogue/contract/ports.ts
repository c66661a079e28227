/**
 * What the product's operations need from the outside world, named in its own terms; the sidecar's
 * stores (sidecar/store) and status sampler provide them.
 */
import type { NewList, StoredList } from "../lists/lists.ts";
import type { ComponentStateT, ReplicationT, StatusRecordT } from "../schema/index.ts";

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

export class SlugTakenError extends Error {
  readonly slug: string;
  constructor(slug: string) {
    super(`slug "${slug}" is taken`);
    this.slug = slug;
  }
}

/**
 * A live list was saved with this client's Idempotency-Key from a different request body: the key
 * cannot stand for a second request (IETF httpapi Idempotency-Key draft: 422).
 */
export class IdempotencyKeyReusedError extends Error {
  constructor() {
    super("the Idempotency-Key was used with another request body");
  }
}

/** The store cannot be reached or did not answer in time. */
export class StoreUnavailableError extends Error {}

/**
 * A write may have been saved, or not: it reached the store, but its confirmation (or, with
 * Sentinel, a replica's) never came. The caller should check before retrying.
 */
export class StoreOutcomeUnknownError extends StoreUnavailableError {}

/** Lists, feedback and telemetry, durable before they resolve. */
export interface RecordStore {
  readonly kind: "embedded" | "redis";
  /** Whether the store is connected now, known without a round trip (for the health probe). */
  readonly available: boolean;
  /** Saves a list; resolves only once the write is durable. */
  createList(list: NewList): Promise<StoredList>;
  /**
   * By slug first, then by id; undefined when neither matches or the list expired. A peek: a
   * user's read goes through readList (./read-list.ts), which also renews the list.
   */
  getList(slugOrId: string, now: Date): Promise<StoredList | undefined>;
  /**
   * Moves the expiry of `list`, as it was read, to `expiresAt`, with its slug's and
   * Idempotency-Key's, once the write is durable: true. False, writing nothing, when the list is
   * gone or expired at `now`, or its expiry is no longer the one read (another read renewed it).
   */
  renewList(list: StoredList, expiresAt: Date, now: Date): Promise<boolean>;
  recordFeedback(feedback: Feedback): Promise<void>;
  recordOutboundClick(click: OutboundClick): Promise<void>;
}

/** Each component's state now, the sampled history, and replication where the store has it. */
export interface StatusSource {
  current(): Promise<ComponentStateT[]>;
  /** Connected, and answering a ping in time (the health probe). */
  storeResponds(): Promise<boolean>;
  history(): Promise<StatusRecordT[]>;
  replication(): Promise<ReplicationT | undefined>;
}
