/** REDIS_SENTINELS and REDIS_SENTINEL_NAME parse into the Sentinels to ask, or fail with a line naming the variable. */
import { describe, expect, it } from "vitest";
import { buildUrls, CANONICAL_URLS, loadConfig, publicUrls } from "../../sidecar/config.ts";

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

describe("the URLs a build bakes in", () => {
  it("are the PUBLIC_* URLs when set, else the canonical ones, whatever the listen port", () => {
    const moved = loadConfig({ PORT: "9100", TEXT_PORT: "9101", HOST: "0.0.0.0" });
    expect(buildUrls(moved)).toEqual(CANONICAL_URLS);
    expect(publicUrls(moved)).toEqual({ apiUrl: "http://localhost:9100", textUrl: "http://localhost:9101" });
    // The defaults serve the canonical URLs as built: nothing to rewrite.
    expect(publicUrls(loadConfig({}))).toEqual(CANONICAL_URLS);
    const configured = loadConfig({ PORT: "9100", PUBLIC_API_URL: "https://api.example.org/" });
    expect(buildUrls(configured)).toEqual({ apiUrl: "https://api.example.org", textUrl: CANONICAL_URLS.textUrl });
  });
});
