import { afterEach, describe, expect, it, vi } from "vitest";
import { STATUS_HISTORY_LIMIT } from "../../catalogue/limits.ts";
import { SAMPLE_INTERVAL_MS, StatusSampler } from "../../sidecar/status.ts";
import { fixtureCatalogue, tempStore } from "../helpers/app.ts";

afterEach(() => vi.useRealTimers());

describe("the status sampler", () => {
  it("samples every component at start and every 5 minutes; history is newest first, 24 hours, at most 200 rows", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    vi.setSystemTime(new Date("2026-11-22T00:00:00Z"));
    const store = await tempStore();
    const sampler = new StatusSampler(fixtureCatalogue(), store);
    sampler.start();
    await vi.waitFor(async () => expect(await sampler.history()).toHaveLength(3));
    expect((await sampler.history()).map((r) => r.component).sort()).toEqual(["catalogue", "sidecar", "store"]);
    // A day and a half of samples: only the last 24 hours count, capped at 200 rows.
    for (let i = 0; i < 432; i++) {
      vi.setSystemTime(new Date(Date.now() + SAMPLE_INTERVAL_MS));
      await vi.advanceTimersByTimeAsync(SAMPLE_INTERVAL_MS);
    }
    const history = await sampler.history();
    expect(history).toHaveLength(STATUS_HISTORY_LIMIT);
    const times = history.map((r) => Date.parse(r.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(Date.now() - times.at(-1)!).toBeLessThanOrEqual(24 * 3_600_000);
    sampler.stop();
  });
});
