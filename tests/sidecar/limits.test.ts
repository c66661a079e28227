/**
 * Rate limits never fail open: with the shared store unreachable or hung, both hosts count in
 * memory and still refuse the request past the limit, without waiting on the store each time;
 * IPv6 clients are counted per /64.
 */
import { describe, expect, it } from "vitest";
import { clientKey } from "../../sidecar/plugins/limit-store.ts";
import { StoreUnavailableError, type Store } from "../../sidecar/store/store.ts";
import { buildTextApp } from "../../sidecar/text.ts";
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
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(clientKey("192.0.2.1")).toBe("192.0.2.1");
  });
});
