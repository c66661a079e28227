/**
 * Reading a saved list keeps it alive (issue 99, docs/decisions.md#list-renewal): every read row
 * (the list, its calendar, its exit plan) moves its expiry to the read + 90 days, at most once a
 * day per list, through the API app on the embedded store and on a real redis-server, whose keys'
 * TTLs move with it. A kept answer never outlives the moment a read would renew.
 */
import { createClient } from "redis";
import { describe, expect, it, onTestFinished } from "vitest";
import { LIST_LIFETIME_MS, LIST_RENEWAL_MS } from "../../catalogue/base/limits.ts";
import { readList } from "../../catalogue/contract/read-list.ts";
import { renewedExpiry } from "../../catalogue/lists/lists.ts";
import { RedisStore } from "../../sidecar/store/redis.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { StoreUnavailableError, type Store } from "../../sidecar/store/store.ts";
import { build, postJson, realCatalogue, tempStore } from "../helpers/app.ts";
import { requireComponent } from "../helpers/components.ts";
import { useRedis } from "../helpers/redis.ts";

const DAY = 86_400_000;
const T0 = new Date("2026-01-01T00:00:00.000Z");
const at = (days: number) => new Date(T0.getTime() + days * DAY);
const iso = (date: Date) => date.toISOString();

describe("the renewal rule", () => {
  it("moves the expiry to now + 90 days when that moves it by a day or more, else leaves it", () => {
    const expiresAt = iso(new Date(T0.getTime() + LIST_LIFETIME_MS));
    expect(renewedExpiry({ expiresAt }, new Date(T0.getTime() + LIST_RENEWAL_MS - 1))).toBeUndefined();
    expect(renewedExpiry({ expiresAt }, at(1))).toEqual(new Date(at(1).getTime() + LIST_LIFETIME_MS));
    expect(renewedExpiry({ expiresAt }, at(89))).toEqual(new Date(at(89).getTime() + LIST_LIFETIME_MS));
  });
});

describe("a saved list's expiry", () => {
  it("expires exactly 90 days after creation or its last renewing read, freeing the slug", async () => {
    let now = new Date("2026-01-01T00:00:00.000Z");
    const app = await build({ store: await tempStore(), now: () => now });
    const list = (await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"], slug: "expiring" }))).json();
    expect(list.expiresAt).toBe("2026-04-01T00:00:00.000Z");
    const unread = (await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"] }))).json();
    now = new Date("2026-03-31T23:59:59.999Z");
    // A read renews the list (docs/decisions.md#list-renewal); the unread one keeps its expiry.
    const read = await app.inject("/v1/lists/expiring");
    expect(read.statusCode).toBe(200);
    expect(read.json().expiresAt).toBe("2026-06-29T23:59:59.999Z");
    now = new Date("2026-04-01T00:00:00.000Z");
    expect((await app.inject(`/v1/lists/${unread.id}`)).statusCode).toBe(404);
    expect((await app.inject("/v1/lists/expiring")).statusCode).toBe(200);
    now = new Date("2026-06-29T23:59:59.999Z");
    expect((await app.inject("/v1/lists/expiring")).statusCode).toBe(404);
    expect((await app.inject(`/v1/lists/${list.id}`)).statusCode).toBe(404);
    expect(
      (await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"], slug: "expiring" }))).statusCode,
    ).toBe(200);
  });
});

describe("readList", () => {
  const list = {
    id: "l",
    slug: null,
    name: null,
    approvedServiceIds: ["aws-s3"],
    createdAt: iso(T0),
    expiresAt: iso(at(90)),
  };
  const now = at(10);

  it("answers the list with the expiry it had when the store cannot write, and throws a bug on", async () => {
    const refusing = {
      getList: () => Promise.resolve(list),
      renewList: () => Promise.reject(new StoreUnavailableError("read-only")),
    };
    expect(await readList(refusing, "l", now)).toEqual(list);
    const broken = { getList: () => Promise.resolve(list), renewList: () => Promise.reject(new TypeError("bug")) };
    await expect(readList(broken, "l", now)).rejects.toThrow("bug");
  });

  it("answers the list as the store has it when another read renewed it first", async () => {
    const renewed = { ...list, expiresAt: iso(at(100)) };
    let reads = 0;
    const raced = {
      getList: () => Promise.resolve(reads++ === 0 ? list : renewed),
      renewList: () => Promise.resolve(false),
    };
    expect(await readList(raced, "l", now)).toEqual(renewed);
  });
});

/** The read rows of one list, on a store, with a clock the test moves. */
function renewalSuite(name: string, store: () => Promise<Store>) {
  describe(`reading a saved list (${name})`, () => {
    async function saved() {
      let now = T0;
      const app = await build({ store: await store(), now: () => now });
      const slug = `team-${Math.random().toString(36).slice(2, 10)}`;
      const created = await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"], slug }));
      expect(created.statusCode).toBe(200);
      expect(created.json().expiresAt).toBe(iso(at(90)));
      const expiresAt = async (day: number) => {
        now = at(day);
        const response = await app.inject(`/v1/lists/${slug}`);
        expect(response.statusCode, `day ${day}`).toBe(200);
        return response.json().expiresAt as string;
      };
      return { app, slug, expiresAt, setDay: (day: number) => (now = at(day)) };
    }

    it("moves expiresAt to the read + 90 days, at most once a day, the same read answering it", async () => {
      const { expiresAt } = await saved();
      // Within the first day: no write, the expiry stays the creation's.
      expect(await expiresAt(0.5)).toBe(iso(at(90)));
      expect(await expiresAt(10)).toBe(iso(at(100)));
      // A day's reads cost one write: half a day later the expiry has not moved.
      expect(await expiresAt(10.5)).toBe(iso(at(100)));
      // Read every two days (a kept answer must not hide the read from the store), the list outlives 90 days.
      for (let day = 12; day <= 200; day += 2) expect(await expiresAt(day)).toBe(iso(at(day + 90)));
    });

    it("answers the renewed expiry to reads that race the renewing one", async () => {
      const { app, slug, setDay } = await saved();
      const id = ((await app.inject(`/v1/lists/${slug}`)).json() as { id: string }).id;
      setDay(10);
      const reads = await Promise.all([app.inject(`/v1/lists/${slug}`), app.inject(`/v1/lists/${id}`)]);
      expect(reads.map((read) => read.json().expiresAt)).toEqual([iso(at(100)), iso(at(100))]);
    });

    it("renews on a read of the calendar or the exit plan too, and an unread list then expires", async () => {
      const { app, slug, expiresAt, setDay } = await saved();
      setDay(30);
      expect((await app.inject(`/v1/lists/${slug}/lifecycle.ics`)).statusCode).toBe(200);
      expect(await expiresAt(30.2)).toBe(iso(at(120)));
      setDay(60);
      expect((await app.inject(`/v1/lists/${slug}/exit-plan?sovereignOption=true`)).statusCode).toBe(200);
      expect(await expiresAt(60.2)).toBe(iso(at(150)));
      setDay(150);
      const gone = await app.inject(`/v1/lists/${slug}`);
      expect(gone.statusCode).toBe(404);
    });

    it("keeps and lets caches keep an answer only until a read would renew the list", async () => {
      const { app, slug, expiresAt, setDay } = await saved();
      expect(await expiresAt(10)).toBe(iso(at(100)));
      expect((await app.inject(`/v1/lists/${slug}`)).headers["cache-control"]).toBe("public, max-age=300");
      // Renewable from day 11 (a day after the renewal): 100 s before, caches may keep it 100 s.
      setDay(11 - 100_000 / DAY);
      expect((await app.inject(`/v1/lists/${slug}`)).headers["cache-control"]).toBe("public, max-age=100");
      expect(await expiresAt(11)).toBe(iso(at(101)));
    });
  });
}

renewalSuite("embedded store", () => tempStore());

describe("the text host's list page", () => {
  it("renews the list it shows, and shows the new expiry", async () => {
    const store = await tempStore();
    const text = await buildTextApp({
      config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
      catalogue: realCatalogue(),
      store,
    });
    onTestFinished(() => text.close());
    const createdAt = new Date(Date.now() - 30 * DAY);
    await store.createList({
      id: "text-host-read",
      slug: "text-host-read",
      name: "Read on the text host",
      approvedServiceIds: ["aws-s3"],
      createdAt,
      expiresAt: new Date(createdAt.getTime() + LIST_LIFETIME_MS),
    });
    const before = Date.now();
    const page = await text.inject("/lists/text-host-read?format=md");
    expect(page.statusCode).toBe(200);
    const expiresAt = Date.parse((await store.getList("text-host-read", new Date()))!.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + LIST_LIFETIME_MS);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + LIST_LIFETIME_MS);
    expect(page.body).toContain(`expires ${new Date(expiresAt).toISOString().slice(0, 10)}`);
  });
});

const redisBinary = requireComponent("redis-server");
describe.skipIf(!redisBinary)("redis", () => {
  const redis = useRedis(redisBinary!);
  const connect = async () => {
    const store = await RedisStore.connect(redis().url);
    onTestFinished(() => store.close());
    return store;
  };
  renewalSuite("redis", connect);

  it("moves the TTL of the list's key, its slug's and its Idempotency-Key's with its expiry", async () => {
    const store = await connect();
    const client = createClient({ url: redis().url });
    await client.connect();
    onTestFinished(() => client.close());
    // Saved now with a minute to live, read a day later (by the app's clock): its keys then live 90 days.
    let now = new Date();
    const app = await build({ store, now: () => now });
    const slug = `ttl-${Math.random().toString(36).slice(2, 10)}`;
    const created = await app.inject({
      ...postJson("/v1/lists", { approvedServiceIds: ["aws-s3"], slug }),
      headers: { "content-type": "application/json", "idempotency-key": `key-${slug}` },
    });
    expect(created.statusCode).toBe(200);
    const { id } = created.json() as { id: string };
    const idemKeys = await client.keys("csc:idem:*");
    const ttls = async () =>
      Promise.all(
        [`csc:list:${id}`, `csc:slug:${slug}`, ...idemKeys].map(async (key) => [key, await client.pTTL(key)] as const),
      );
    for (const [, ttl] of await ttls()) expect(ttl).toBeGreaterThan(89 * DAY);
    // The stored list as if saved 89 days ago: a minute left in Redis too.
    const raw = (await client.get(`csc:list:${id}`))!;
    const short = new Date(now.getTime() + 60_000).toISOString();
    const stored = JSON.parse(raw) as { expiresAt: string };
    await client.set(`csc:list:${id}`, raw.replace(`"expiresAt":"${stored.expiresAt}"`, `"expiresAt":"${short}"`), {
      PX: 60_000,
    });
    for (const key of [`csc:slug:${slug}`, ...idemKeys]) await client.pExpire(key, 60_000);
    now = new Date(now.getTime() + 1000);
    const read = await app.inject(`/v1/lists/${slug}`);
    expect(read.statusCode).toBe(200);
    const renewed = read.json().expiresAt as string;
    expect(Date.parse(renewed)).toBe(now.getTime() + LIST_LIFETIME_MS);
    expect(JSON.parse((await client.get(`csc:list:${id}`))!).expiresAt).toBe(renewed);
    const after = await ttls();
    expect(after.length).toBeGreaterThanOrEqual(3);
    for (const [key, ttl] of after) expect(ttl, key).toBeGreaterThan(89 * DAY);
  });
});
