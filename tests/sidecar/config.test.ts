/** REDIS_SENTINELS and REDIS_SENTINEL_NAME parse into the Sentinels to ask, or fail with a line naming the variable. */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../sidecar/config.ts";

describe("Sentinel configuration", () => {
  it("parses host:port lists, IPv6 in brackets, with the name they monitor", () => {
    const config = loadConfig({
      REDIS_SENTINELS: "10.0.0.21:26379, sentinel-b:26380,[::1]:26381",
      REDIS_SENTINEL_NAME: "catalogue",
    });
    expect(config.REDIS_SENTINELS).toEqual([
      { host: "10.0.0.21", port: 26379 },
      { host: "sentinel-b", port: 26380 },
      { host: "::1", port: 26381 },
    ]);
    expect(config.REDIS_SENTINEL_NAME).toBe("catalogue");
  });

  it("refuses an entry without a port, a missing name, and REDIS_URL together with Sentinels", () => {
    expect(() => loadConfig({ REDIS_SENTINELS: "10.0.0.21", REDIS_SENTINEL_NAME: "c" })).toThrow(
      /REDIS_SENTINELS: "10.0.0.21" is not host:port/,
    );
    expect(() => loadConfig({ REDIS_SENTINELS: "10.0.0.21:26379" })).toThrow(
      /REDIS_SENTINEL_NAME: REDIS_SENTINELS needs/,
    );
    expect(() =>
      loadConfig({ REDIS_URL: "redis://r:6379", REDIS_SENTINELS: "s:26379", REDIS_SENTINEL_NAME: "c" }),
    ).toThrow(/not both/);
  });
});
