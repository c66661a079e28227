/**
 * The operations the product needs from storage — not a key-value leak. Two implementations pass
 * one contract suite (tests/sidecar/store.contract.ts): the embedded store (single process,
 * durable by fsync) and Redis (many instances).
 */
import type { RecordStore } from "../../catalogue/contract/ports.ts";
import type { ReplicationT, StatusRecordT } from "../../catalogue/schema/index.ts";

export { slugCandidates, type Idempotency, type NewList, type StoredList } from "../../catalogue/lists/lists.ts";
export {
  IdempotencyKeyReusedError,
  SlugTakenError,
  StoreOutcomeUnknownError,
  StoreUnavailableError,
  type Feedback,
  type OutboundClick,
} from "../../catalogue/contract/ports.ts";

export interface BucketHit {
  /** Requests counted in the current window, this one included. */
  readonly count: number;
  /** Milliseconds until the window resets. */
  readonly resetMs: number;
}

export interface Store extends RecordStore {
  /** Counts a request against a bucket for a key, atomically across every instance sharing the store. */
  hit(bucket: string, key: string, windowMs: number): Promise<BucketHit>;
  /**
   * hit(), answered at once by a store that counts in this process's memory (the embedded store):
   * it cannot hang, so the limiter races no deadline against it.
   */
  hitNow?(bucket: string, key: string, windowMs: number): BucketHit;
  /**
   * Status history: keeps one sample of every component (the newest STATUS_HISTORY_LIMIT) where
   * it survives a restart: the embedded store's folder, a capped Redis list.
   */
  recordStatusSample(sample: StatusRecordT): Promise<void>;
  /** The kept samples newer than `since`, newest first, at most `limit`. */
  statusSamples(since: Date, limit: number): Promise<StatusRecordT[]>;
  /** Redis with Sentinel only: the primary, its replicas and the last failover, for /v1/status. */
  replication?(): Promise<ReplicationT | undefined>;
  /** Records read back that did not match their schema and were skipped (the embedded store's replay). */
  readonly skipped?: { readonly count: number; readonly first: string | null };
  /** A cheap round trip; throws StoreUnavailableError when the store is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
