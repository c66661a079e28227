/**
 * Samples each component (catalogue, store, sidecar) at start and every 5 minutes into the store,
 * for GET /v1/status/history; answers GET /v1/status with a live check. (/v1/health stays cheap:
 * it reads the store's connection state and never touches the network.)
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Catalogue } from "../catalogue/load.ts";
import type { ComponentStateT, StatusRecordT } from "../catalogue/schema.ts";
import { describeSkipped } from "./store/records.ts";
import type { Store } from "./store/store.ts";

export const SAMPLE_INTERVAL_MS = 5 * 60_000;
export const HISTORY_WINDOW_MS = 24 * 3_600_000;
export const HISTORY_LIMIT = 200;

export class StatusSampler {
  private timer: NodeJS.Timeout | undefined;
  private readonly loopDelay = monitorEventLoopDelay({ resolution: 20 });

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

  private async checkStore(): Promise<ComponentStateT> {
    const started = performance.now();
    let status: ComponentStateT["status"] = "ok";
    let message: string | null = null;
    try {
      await this.store.ping();
      const warning = (this.store as { durabilityWarning?: string | null }).durabilityWarning;
      if (warning) {
        status = "degraded";
        message = warning;
      }
    } catch (error) {
      status = "down";
      message = (error as Error).message;
    }
    const skipped = this.store.skipped;
    return {
      component: "store",
      status,
      latencyMs: Math.round((performance.now() - started) * 10) / 10,
      message: message ?? describeSkipped(skipped ?? { count: 0, first: null }),
      ...(skipped && skipped.count > 0 ? { skippedRecords: skipped.count } : {}),
    };
  }

  async sample(): Promise<void> {
    const timestamp = this.now().toISOString();
    const records: StatusRecordT[] = (await this.current()).map((state) => ({ ...state, timestamp }));
    await this.store.appendStatus(records).catch(() => undefined);
  }

  start(): void {
    void this.sample();
    this.timer = setInterval(() => void this.sample(), SAMPLE_INTERVAL_MS);
    this.timer.unref();
  }

  history(): Promise<StatusRecordT[]> {
    return this.store.statusHistory(new Date(this.now().getTime() - HISTORY_WINDOW_MS), HISTORY_LIMIT);
  }

  stop(): void {
    clearInterval(this.timer);
    this.loopDelay.disable();
  }
}
