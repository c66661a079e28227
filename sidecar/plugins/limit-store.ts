/**
 * The counters behind both hosts' rate limits (@fastify/rate-limit's store interface), one module
 * for the API's buckets and the text host's 60 a minute. Counts go to the shared Store (Redis when
 * there are many instances), but limits never fail open: when the store errs or does not answer
 * within STORE_HIT_DEADLINE_MS, the request is counted in this instance's memory instead, and the
 * store is left alone for FALLBACK_HOLD_MS — so a hung Redis costs a page at most one short wait
 * every few seconds, not a command timeout each.
 *
 * A bucket that fails closed (the strict one, 10 a minute) is not counted in memory: each instance
 * would grant its own 10 more while Redis hangs. Its requests wait up to FAIL_CLOSED_DEADLINE_MS
 * for the store, and are refused (503) when it does not count them; while it is avoided, one
 * request every PROBE_INTERVAL_MS asks it (the others meanwhile wait for that answer), so within
 * about a second of its recovery requests are counted there again.
 *
 * Clients are keyed by clientKey(): an IPv4 address, or the /64 of an IPv6 one (a host gets a
 * whole /64 and can rotate addresses inside it at will); a port a proxy added is dropped.
 */
import { isIPv6 } from "node:net";
import proxyAddr from "@fastify/proxy-addr";
import { normalizeIP } from "@fastify/rate-limit";
import type { BucketHit, Store } from "../store/store.ts";
import { WindowCounters } from "../store/window-counters.ts";

export const STORE_HIT_DEADLINE_MS = 200;
export const FALLBACK_HOLD_MS = 5_000;
/**
 * A fail-closed bucket's request waits this long for the store: a refusal is an error the client
 * sees, a wait only latency, and Redis answering within a second is not hung.
 */
export const FAIL_CLOSED_DEADLINE_MS = 1_000;
/** While the store is avoided, a fail-closed bucket asks it again at most this often. */
export const PROBE_INTERVAL_MS = 1_000;
/** A host gets a whole /64 and can rotate addresses inside it at will: one client. */
const IPV6_CLIENT_PREFIX = 64;
/** Counters kept in memory; past this the oldest windows are dropped first. */
const MAX_KEYS = 100_000;

/** Per store, so both hosts of one process share the fallback state and the in-memory counts. */
class LimitCounter {
  private readonly store: Store;
  private readonly memory = new WindowCounters(MAX_KEYS);
  private storeAvoidedUntil = 0;
  /** While the store is avoided: the fail-closed request asking it, resolving to whether it answered. */
  private probe: Promise<boolean> | undefined;
  /** When a fail-closed request may next ask the avoided store. */
  private nextProbeAt = 0;

  constructor(store: Store) {
    this.store = store;
  }

  /** Whether the store is being avoided now (it erred or was slow within FALLBACK_HOLD_MS). */
  get avoiding(): boolean {
    return Date.now() < this.storeAvoidedUntil;
  }

  /**
   * The request's count in the store, or in memory while the store is avoided; undefined when the
   * store could not count a request of a fail-closed bucket (it is then refused).
   */
  async hit(bucket: string, key: string, windowMs: number, failClosed = false): Promise<BucketHit | undefined> {
    const deadline = failClosed ? FAIL_CLOSED_DEADLINE_MS : STORE_HIT_DEADLINE_MS;
    if (this.avoiding) {
      if (!failClosed) return this.memory.hit(`${bucket}\0${key}`, windowMs);
      // One request asks the avoided store, at most once a PROBE_INTERVAL_MS; those that come
      // meanwhile wait for its answer, and ask the store themselves once it has answered.
      if (this.probe) {
        if (!(await this.probe)) return undefined;
      } else if (Date.now() < this.nextProbeAt) return undefined;
      else {
        const asked = this.ask(bucket, key, windowMs, deadline);
        this.probe = asked.then((hit) => hit !== undefined);
        try {
          return await asked;
        } finally {
          this.probe = undefined;
          this.nextProbeAt = Date.now() + PROBE_INTERVAL_MS;
        }
      }
    }
    return (
      (await this.ask(bucket, key, windowMs, deadline)) ??
      (failClosed ? undefined : this.memory.hit(`${bucket}\0${key}`, windowMs))
    );
  }

  /** The store's count within `deadlineMs`, or undefined (and the store avoided for FALLBACK_HOLD_MS). */
  private async ask(bucket: string, key: string, windowMs: number, deadlineMs: number): Promise<BucketHit | undefined> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const hit = await Promise.race([
        this.store.hit(bucket, key, windowMs),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("slow")), deadlineMs);
        }),
      ]);
      this.storeAvoidedUntil = 0;
      return hit;
    } catch {
      this.storeAvoidedUntil = Date.now() + FALLBACK_HOLD_MS;
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}

const counters = new WeakMap<Store, LimitCounter>();

function counterOf(store: Store): LimitCounter {
  let counter = counters.get(store);
  if (!counter) counters.set(store, (counter = new LimitCounter(store)));
  return counter;
}

/** Whether `store` cannot count rate limits now, so fail-closed buckets refuse (for the refusal's message). */
export const limitsUncounted = (store: Store): boolean => !store.hitNow && counterOf(store).avoiding;

/**
 * A store class for @fastify/rate-limit that counts in `bucket` of `store`, never failing open.
 * `failClosed(key)` names the keys of buckets refused, not counted in memory, when the store cannot
 * count: such a request gets a count past any limit.
 */
export function limitStore(store: Store, bucket: string, failClosed: (key: string) => boolean = () => false) {
  const shared = counterOf(store);
  return class LimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ) {
      // Counted in this process's memory (the embedded store): at once, with no deadline to race.
      const now = store.hitNow?.(bucket, key, timeWindow);
      if (now) return callback(null, { current: now.count, ttl: now.resetMs });
      void shared
        .hit(bucket, key, timeWindow, failClosed(key))
        .then((hit) =>
          callback(null, hit ? { current: hit.count, ttl: hit.resetMs } : { current: Infinity, ttl: FALLBACK_HOLD_MS }),
        );
    }
    child() {
      return new LimitStore();
    }
  };
}

const TRUST_DECISIONS = 1024;

/**
 * Whether an address is one of TRUST_PROXY's proxies: proxy-addr's compiled check, its answer
 * remembered per address. Only the proxies' own addresses are asked (the socket's, then each hop
 * that is trusted), a handful of strings, and proxy-addr parses each with ipaddr.js on every call:
 * 5–7 % of the server's time on requests that come through a proxy.
 */
export function trustedProxy(trustProxy: readonly string[]): (address: string, hop: number) => boolean {
  const trusted = proxyAddr.compile([...trustProxy]);
  const decisions = new Map<string, boolean>();
  return (address, hop) => {
    let decision = decisions.get(address);
    if (decision === undefined) {
      // A proxy named with its port is still the proxy.
      decision = trusted(withoutPort(address), hop);
      if (decisions.size >= TRUST_DECISIONS) decisions.clear();
      decisions.set(address, decision);
    }
    return decision;
  };
}

/**
 * An address without the port a proxy may have added to X-Forwarded-For (`10.1.1.1:40001`,
 * `[2001:db8::1]:443`, `[2001:db8::1]`); anything else as is.
 */
export function withoutPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address);
  if (bracketed) return bracketed[1]!;
  const ipv4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(address);
  return ipv4 ? ipv4[1]! : address;
}

/**
 * The rate-limit key of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64 in
 * RFC 5952 form ("2001:db8:1:2::/64"), by @fastify/rate-limit's own normalizeIP (its default key);
 * a port is dropped first, so a proxy that sends one does not make each connection a new client.
 */
export function clientKey(address: string): string {
  const ip = normalizeIP(withoutPort(address), IPV6_CLIENT_PREFIX);
  return isIPv6(ip) ? `${ip}/${IPV6_CLIENT_PREFIX}` : ip;
}
