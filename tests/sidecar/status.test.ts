import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StatusRecord } from "../../catalogue/schema/index.ts";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { STATUS_HISTORY_LIMIT } from "../../catalogue/base/limits.ts";
import { SAMPLE_INTERVAL_MS, StatusSampler } from "../../sidecar/status.ts";
import { fixtureCatalogue, tempStore } from "../helpers/app.ts";

afterEach(() => vi.useRealTimers());

describe("the status sampler", () => {
  it("keeps one record of every component a sample, at start and every 10 minutes: a full 24 hours within 200 rows", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    // After the fixture's newest source (2026-11-25): the loader refuses a source checked in the future.
    vi.setSystemTime(new Date("2026-12-01T00:00:00Z"));
    const store = await tempStore();
    const sampler = new StatusSampler(fixtureCatalogue(), store);
    sampler.start();
    await vi.waitFor(async () => expect(await sampler.history()).toHaveLength(1));
    const [first] = await sampler.history();
    expect(first!.component).toBe("all");
    expect(first!.components.map((c) => c.component).sort()).toEqual(["catalogue", "sidecar", "store"]);
    expect(StatusRecord.safeParse(first).success).toBe(true);
    // A day and a half of samples: the history reaches back the whole 24 hours, within the rows.
    // (Advancing the fake timers advances the fake clock with them.)
    for (let i = 0; i < (36 * 3_600_000) / SAMPLE_INTERVAL_MS; i++)
      await vi.advanceTimersByTimeAsync(SAMPLE_INTERVAL_MS);
    const history = await sampler.history();
    expect(history.length).toBeLessThanOrEqual(STATUS_HISTORY_LIMIT);
    const times = history.map((r) => Date.parse(r.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(Date.now() - times.at(-1)!).toBeLessThanOrEqual(24 * 3_600_000);
    // The rows span the whole day, to within one sample (5-minute samples spanned under 6 hours).
    expect(times[0]! - times.at(-1)!).toBeGreaterThanOrEqual(24 * 3_600_000 - 2 * SAMPLE_INTERVAL_MS);
    sampler.stop();
  });

  it("keeps the history across a restart of the embedded store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-status-"));
    try {
      let store = await EmbeddedStore.open(dir);
      let sampler = new StatusSampler(fixtureCatalogue(), store);
      await sampler.sample();
      await sampler.sample();
      const before = await sampler.history();
      expect(before).toHaveLength(2);
      sampler.stop();
      await store.close();
      store = await EmbeddedStore.open(dir);
      sampler = new StatusSampler(fixtureCatalogue(), store);
      expect(await sampler.history()).toEqual(before);
      sampler.stop();
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
