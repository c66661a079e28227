/**
 * Rate limits never fail open: with the shared store unreachable or hung, both hosts count in
 * memory and still refuse the request past the limit, without waiting on the store each time —
 * except the strict bucket of a shared store, refused outright (each instance counting its own
 * would grant 10 more apiece); IPv6 clients are counted per /64; a proxy's ports are not clients.
 */
import { describe, expect, it } from "vitest";
import {
  clientKey,
  FAIL_CLOSED_DEADLINE_MS,
  FALLBACK_HOLD_MS,
  PROBE_INTERVAL_MS,
} from "../../sidecar/plugins/limit-store.ts";
import { StoreUnavailableError, type Store } from "../../sidecar/store/store.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { build, fixtureCatalogue, tempStore } from "../helpers/app.ts";

/** The store with its rate-limit counter replaced. */
function withHit(store: Store, hit: Store["hit"]): Store {
  return new Proxy(store, {
    get: (target, property) => {
      if (property === "hit") return hit;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The store as a shared one (Redis) is: counted by `hit` only, never in this process's memory. */
function shared(store: Store, hit: Store["hit"]): Store {
  return new Proxy(store, {
    get: (target, property) => {
      if (property === "hit") return hit;
      if (property === "hitNow") return undefined;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const unreachable = (store: Store) => withHit(store, () => Promise.reject(new StoreUnavailableError("down")));
const hung = (store: Store) => withHit(store, () => new Promise(() => undefined));

const scp = (ip: string) => ({
  method: "POST" as const,
  url: "/v1/policies/alpha-scp",
  headers: { "content-type": "application/json", "x-forwarded-for": ip },
  payload: JSON.stringify({ approvedServiceIds: ["aws-s3"] }),
});

describe("rate limits without the shared store", () => {
  for (const [name, broken] of [
    ["unreachable", unreachable],
    ["hung", hung],
  ] as const) {
    it(`refuse the 11th strict request and the 61st text page with the store ${name}, promptly`, async () => {
      const store = broken(await tempStore());
      const api = await build({ store, config: { LOG_LEVEL: "silent", TRUST_PROXY: ["127.0.0.1"] } });
      const started = performance.now();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await api.inject(scp("192.0.2.7"))).statusCode);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses[10]).toBe(429);

      const text = await buildTextApp({
        config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
        catalogue: fixtureCatalogue(),
        store,
      });
      const pages: number[] = [];
      for (let i = 0; i < 61; i++) pages.push((await text.inject("/aws")).statusCode);
      expect(pages.filter((s) => s === 200)).toHaveLength(60);
      expect(pages[60]).toBe(429);
      await text.close();
      // 72 requests: at most one waited for the store.
      expect(performance.now() - started).toBeLessThan(2000);
    });
  }
});

describe("the strict bucket with a shared store that cannot count", () => {
  it("grants no strict request while the store hangs, keeps pages counted in memory, and counts again once it answers", async () => {
    const base = await tempStore();
    let mode: "hung" | "down" | "up" = "hung";
    const store = shared(base, (bucket, key, windowMs) =>
      mode === "up"
        ? base.hit(bucket, key, windowMs)
        : mode === "down"
          ? Promise.reject(new StoreUnavailableError("down"))
          : new Promise(() => undefined),
    );
    const api = await build({ store, config: { LOG_LEVEL: "silent", TRUST_PROXY: ["127.0.0.1"] } });
    const refused = [];
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const started = performance.now();
      refused.push(await api.inject(scp("192.0.2.8")));
      waits.push(performance.now() - started);
    }
    // The first waits for the store (up to a second); the others, within a second of it, do not.
    expect(waits[0]).toBeGreaterThanOrEqual(FAIL_CLOSED_DEADLINE_MS - 50);
    expect(waits.filter((ms) => ms >= 100).length).toBeLessThanOrEqual(2);
    expect(waits.reduce((a, b) => a + b)).toBeLessThan(FAIL_CLOSED_DEADLINE_MS + PROBE_INTERVAL_MS + 500);
    for (const response of refused) {
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        status: 503,
        error: "Service unavailable",
        details: expect.stringMatching(/counted in the shared store, which does not answer/),
      });
      expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
    }
    // The relaxed bucket still counts in this instance's memory.
    const feedback = await api.inject({
      method: "POST",
      url: "/v1/feedback",
      headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.8" },
      payload: JSON.stringify({ type: "bug", message: "hello there" }),
    });
    expect(feedback.statusCode).toBe(201);
    mode = "down";
    expect((await api.inject(scp("192.0.2.9"))).statusCode).toBe(503);
    // The store answers again: within a second a request is counted there, with no hold to sit out.
    mode = "up";
    const recovered = performance.now();
    while ((await api.inject(scp("192.0.2.10"))).statusCode === 503) await new Promise((r) => setTimeout(r, 50));
    expect(performance.now() - recovered).toBeLessThan(PROBE_INTERVAL_MS + FAIL_CLOSED_DEADLINE_MS + 500);
    expect(performance.now() - recovered).toBeLessThan(FALLBACK_HOLD_MS);
    const back = [];
    for (let i = 0; i < 11; i++) back.push((await api.inject(scp("192.0.2.9"))).statusCode);
    expect(back.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(back[10]).toBe(429);
  });

  it("waits for a slow store rather than refuse, and lets requests that came during a probe wait for it", async () => {
    const base = await tempStore();
    let delayMs = 400;
    const store = shared(
      base,
      (bucket, key, windowMs) =>
        new Promise((resolve) => setTimeout(() => resolve(base.hit(bucket, key, windowMs)), delayMs)),
    );
    const api = await build({ store, config: { LOG_LEVEL: "silent", TRUST_PROXY: ["127.0.0.1"] } });
    // 400 ms is slow for a page (the text and relaxed buckets give up at 200 ms) but not hung.
    expect((await api.inject(scp("192.0.2.20"))).statusCode).toBe(200);
    const feedback = await api.inject({
      method: "POST",
      url: "/v1/feedback",
      headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.20" },
      payload: JSON.stringify({ type: "bug", message: "hello there" }),
    });
    expect(feedback.statusCode).toBe(201);
    // The relaxed bucket gave up on the store, so it is avoided: concurrent strict requests share one probe.
    const statuses = await Promise.all(
      Array.from({ length: 5 }, (_, i) => api.inject(scp(`192.0.2.${21 + i}`)).then((r) => r.statusCode)),
    );
    expect(statuses).toEqual(Array(5).fill(200));
    delayMs = 0;
  });
});

describe("proxies that send a port", () => {
  it("count one client whatever port X-Forwarded-For names, IPv4 and bracketed IPv6", async () => {
    const api = await build({ config: { LOG_LEVEL: "silent", TRUST_PROXY: ["127.0.0.1"] } });
    for (const spell of [(i: number) => `10.1.1.1:${40000 + i}`, (i: number) => `[2001:db8::1]:${400 + i}`]) {
      const statuses: number[] = [];
      for (let i = 1; i <= 11; i++) statuses.push((await api.inject(scp(spell(i)))).statusCode);
      expect(statuses.slice(0, 10), spell(0)).toEqual(Array(10).fill(200));
      expect(statuses[10], spell(0)).toBe(429);
    }
    // The same address without a port is the same client.
    expect((await api.inject(scp("10.1.1.1"))).statusCode).toBe(429);
    expect((await api.inject(scp("2001:db8::2"))).statusCode).toBe(429);
  });

  it("are still trusted when they name themselves with a port", async () => {
    const api = await build({ config: { LOG_LEVEL: "silent", TRUST_PROXY: ["127.0.0.1", "10.9.9.9"] } });
    const statuses: number[] = [];
    // Client, then the second proxy (trusted) with its port: the client is the one counted.
    for (let i = 1; i <= 11; i++)
      statuses.push((await api.inject(scp(`198.51.100.4, 10.9.9.9:${5000 + i}`))).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    expect((await api.inject(scp("198.51.100.5, 10.9.9.9:1"))).statusCode).toBe(200);
  });
});

describe("IPv6 clients", () => {
  it("are counted per /64: rotating addresses inside one is limited, another /64 is not", async () => {
    const api = await build({ config: { LOG_LEVEL: "silent", TRUST_PROXY: ["127.0.0.1"] } });
    const statuses: number[] = [];
    for (let i = 1; i <= 11; i++)
      statuses.push((await api.inject(scp(`2001:db8:1:2:${i.toString(16)}::${i}`))).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    expect((await api.inject(scp("2001:db8:1:3::1"))).statusCode).toBe(200);
  });

  it("keys addresses by their /64 in every spelling, IPv4 as is", () => {
    expect(clientKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:0db8:0001:0002::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:DB8:1:2:0:0:0:1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8::1")).toBe("2001:db8::/64");
    expect(clientKey("2001:db8:0:0:ffff::1")).toBe("2001:db8::/64");
    expect(clientKey("::1")).toBe("::/64");
    expect(clientKey("fe80::1%eth0")).toBe("fe80::/64");
    expect(clientKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(clientKey("::ffff:c000:201")).toBe("192.0.2.1");
    expect(clientKey("192.0.2.1")).toBe("192.0.2.1");
    expect(clientKey("192.0.2.1:40001")).toBe("192.0.2.1");
    expect(clientKey("[2001:db8:1:2::1]:443")).toBe("2001:db8:1:2::/64");
    expect(clientKey("[2001:db8:1:2::1]")).toBe("2001:db8:1:2::/64");
    expect(clientKey("[::ffff:192.0.2.1]:80")).toBe("192.0.2.1");
  });
});
