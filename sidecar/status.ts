/**
 * Samples every component (catalogue, store, sidecar) at start and every STATUS_SAMPLE_MINUTES, one
 * record a sample, into the store, for GET /v1/status/history; answers GET /v1/status with a live check. /v1/health and status
 * share one ping probe with a timeout, so a hung store is reported, and pinged at most once a second.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Catalogue } from "../catalogue/load/load.ts";
import {
  MINUTE_MS,
  STATUS_HISTORY_HOURS,
  STATUS_HISTORY_LIMIT,
  STATUS_SAMPLE_MINUTES,
} from "../catalogue/base/limits.ts";
import type { ComponentStateT, ReplicationT, StatusRecordT } from "../catalogue/schema/index.ts";
import { statusRecord } from "../catalogue/contract/status.ts";
import { describeSkipped } from "./store/records.ts";
import type { Store } from "./store/store.ts";

export const SAMPLE_INTERVAL_MS = STATUS_SAMPLE_MINUTES * MINUTE_MS;
const HISTORY_WINDOW_MS = STATUS_HISTORY_HOURS * 60 * MINUTE_MS;
/** A store that does not answer a ping within this is reported down (health: degraded). */
export const PROBE_TIMEOUT_MS = 1000;
/** Slower than this, the store is reported degraded. */
export const SLOW_STORE_MS = 250;
const PROBE_REUSE_MS = 1000;

interface StoreProbe {
  readonly ok: boolean;
  readonly latencyMs: number;
  readonly message: string | null;
}

export class StatusSampler {
  private timer: NodeJS.Timeout | undefined;
  private readonly loopDelay = monitorEventLoopDelay({ resolution: 20 });
  private lastProbe: { at: number; result: Promise<StoreProbe>; pending: boolean; ok: boolean } | undefined;

  private readonly catalogue: Catalogue;
  private readonly store: Store;
  private readonly now: () => Date;

  constructor(catalogue: Catalogue, store: Store, now: () => Date = () => new Date()) {
    this.catalogue = catalogue;
    this.store = store;
    this.now = now;
    this.loopDelay.enable();
  }

  async current(): Promise<ComponentStateT[]> {
    const storeState = await this.checkStore();
    const delayMs = this.loopDelay.percentile(99) / 1e6;
    this.loopDelay.reset();
    return [
      {
        component: "catalogue",
        status: this.catalogue.services.length > 0 ? "ok" : "down",
        latencyMs: 0,
        message: this.catalogue.services.length > 0 ? null : "the catalogue is empty",
      },
      storeState,
      {
        component: "sidecar",
        status: delayMs > 500 ? "degraded" : "ok",
        latencyMs: Math.round(delayMs * 10) / 10,
        message: delayMs > 500 ? `event loop delay p99 ${delayMs.toFixed(0)} ms` : null,
      },
    ];
  }

  /**
   * Pings the store, giving up after PROBE_TIMEOUT_MS (a hung Redis accepts the connection and
   * never answers); one probe at a time, and a success reused for PROBE_REUSE_MS, so health checks
   * cost a healthy store at most one ping a second and a hung one one ping in flight.
   */
  probeStore(): Promise<StoreProbe> {
    const now = Date.now();
    const last = this.lastProbe;
    if (last && (last.pending || (last.ok && now - last.at < PROBE_REUSE_MS))) return last.result;
    const result = (async (): Promise<StoreProbe> => {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          this.store.ping(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`the store did not answer within ${PROBE_TIMEOUT_MS} ms`)),
              PROBE_TIMEOUT_MS,
            );
          }),
        ]);
        const latencyMs = Math.round((performance.now() - started) * 10) / 10;
        return {
          ok: true,
          latencyMs,
          message: latencyMs > SLOW_STORE_MS ? `slow: ${latencyMs} ms to answer a ping` : null,
        };
      } catch (error) {
        return {
          ok: false,
          latencyMs: Math.round((performance.now() - started) * 10) / 10,
          message: (error as Error).message,
        };
      } finally {
        clearTimeout(timer);
      }
    })();
    const probe = { at: now, result, pending: true, ok: false };
    this.lastProbe = probe;
    void result.then((outcome) => {
      probe.pending = false;
      probe.ok = outcome.ok;
    });
    return result;
  }

  /** For /v1/health: connected, and answering a ping in time. */
  async storeResponds(): Promise<boolean> {
    return this.store.available && (await this.probeStore()).ok;
  }

  private async checkStore(): Promise<ComponentStateT> {
    const probe = await this.probeStore();
    let status: ComponentStateT["status"] = probe.ok ? (probe.message ? "degraded" : "ok") : "down";
    let message = probe.message;
    const warning = (this.store as { durabilityWarning?: string | null }).durabilityWarning;
    if (probe.ok && warning) {
      status = "degraded";
      message = warning;
    }
    const skipped = this.store.skipped;
    return {
      component: "store",
      status,
      latencyMs: probe.latencyMs,
      message: message ?? describeSkipped(skipped ?? { count: 0, first: null }),
      ...(skipped && skipped.count > 0 ? { skippedRecords: skipped.count } : {}),
    };
  }

  /** One record of every component's state, kept by the store (a store that fails it loses that sample). */
  async sample(): Promise<void> {
    const timestamp = this.now().toISOString();
    await this.store.recordStatusSample(statusRecord(await this.current(), timestamp)).catch(() => undefined);
  }

  start(): void {
    void this.sample();
    this.timer = setInterval(() => void this.sample(), SAMPLE_INTERVAL_MS);
    this.timer.unref();
  }

  async replication(): Promise<ReplicationT | undefined> {
    return this.store.replication?.();
  }

  history(): Promise<StatusRecordT[]> {
    return this.store.statusSamples(new Date(this.now().getTime() - HISTORY_WINDOW_MS), STATUS_HISTORY_LIMIT);
  }

  stop(): void {
    clearInterval(this.timer);
    this.loopDelay.disable();
  }
}
