/** The soft memory guard collects above its limit once the heap and Buffers grew, and never while idle. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { CHECK_EVERY_MS, collectGarbage, guardMemory } from "../../sidecar/memory-guard.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("guardMemory", () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it("collects once above the limit, not again while idle, and again after the heap grew", async () => {
    let collections = 0;
    const collect = () => {
      collections++;
      collectGarbage();
    };
    // A limit every process is over, and a growth any heap has had since it started: only the
    // growth since the guard's last collection decides.
    stop = guardMemory({ limitMb: 0, growthMb: 4, collect });
    // Waited for, not slept: on a loaded machine the guard's check may come after a fixed sleep.
    await vi.waitFor(() => expect(collections).toBe(1), { timeout: 10_000, interval: CHECK_EVERY_MS });
    await sleep(CHECK_EVERY_MS * 6);
    expect(collections, "idle: nothing grew").toBe(1);
    const held = Array.from({ length: 40 }, () => Buffer.alloc(1024 * 1024, 1));
    await vi.waitFor(() => expect(collections).toBe(2), { timeout: 10_000, interval: CHECK_EVERY_MS });
    expect(held).toHaveLength(40);
  });

  it("does nothing under its limit", async () => {
    let collections = 0;
    stop = guardMemory({ limitMb: 1024 * 1024, growthMb: 0, collect: () => collections++ });
    await sleep(CHECK_EVERY_MS * 5);
    expect(collections).toBe(0);
  });
});
