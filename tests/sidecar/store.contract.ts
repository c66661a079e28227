/** The one contract suite every Store implementation passes (embedded and Redis). */
import { describe, expect, it } from "vitest";
import { STATUS_HISTORY_LIMIT, STATUS_SAMPLE_MINUTES } from "../../catalogue/base/limits.ts";
import { statusRecord } from "../../catalogue/contract/status.ts";
import { IdempotencyKeyReusedError, SlugTakenError, type Store } from "../../sidecar/store/store.ts";

const day = 86_400_000;

/** An Idempotency-Key as a store is given it: `scope` stands for client and key, `fingerprint` for the body. */
const withKey = (scope: string, fingerprint = "body-1") => ({ idempotency: { scope, fingerprint } });

/**
 * `open` gives a new store; `restart` closes one and opens what it kept again (the embedded store's
 * folder, the same Redis), as a restarted server would.
 */
export function storeContract(name: string, open: () => Promise<Store>, restart: (store: Store) => Promise<Store>) {
  describe(`${name} store`, () => {
    const newList = (id: string, extra: object = {}, createdAt = new Date("2026-01-01T00:00:00Z")) => ({
      id,
      name: "Team",
      approvedServiceIds: ["aws-s3"],
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 90 * day),
      ...extra,
    });

    it("creates and reads a list by id and by slug", async () => {
      const store = await open();
      const list = await store.createList(newList(`id-${Math.random()}`, { slug: `s-${Date.now()}` }));
      const now = new Date("2026-01-02T00:00:00Z");
      expect(await store.getList(list.id, now)).toEqual(list);
      expect(await store.getList(list.slug!, now)).toEqual(list);
      expect(await store.getList("missing", now)).toBeUndefined();
    });

    it("returns the live list saved with an Idempotency-Key instead of saving another, even concurrently", async () => {
      const store = await open();
      const key = `key-${Math.random()}`;
      const slug = `idem-${Date.now()}`;
      const lists = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          store.createList(newList(`idem-${i}-${Math.random()}`, { slug, ...withKey(key) })),
        ),
      );
      expect(new Set(lists.map((list) => list.id)).size).toBe(1);
      const derived = await store.createList(
        newList(`d-${Math.random()}`, { derivedSlug: "idem-derived", ...withKey(`${key}-2`) }),
      );
      expect(
        await store.createList(newList(`e-${Math.random()}`, { derivedSlug: "idem-derived", ...withKey(`${key}-2`) })),
      ).toEqual(derived);
      // Another key is another list.
      await expect(store.createList(newList(`f-${Math.random()}`, { slug, ...withKey(`${key}-3`) }))).rejects.toThrow(
        SlugTakenError,
      );
    });

    it("refuses a key used with another body, and keeps one client's key from another's list", async () => {
      const store = await open();
      const now = new Date("2026-01-02T00:00:00Z");
      const key = `scope-${Math.random()}`;
      const first = await store.createList(newList(`g-${Math.random()}`, withKey(key, "body-a")));
      // The same key (scope) with another body: refused, whether sent alone or beside a retry.
      await expect(store.createList(newList(`h-${Math.random()}`, withKey(key, "body-b")))).rejects.toBeInstanceOf(
        IdempotencyKeyReusedError,
      );
      const [retry, other] = await Promise.allSettled([
        store.createList(newList(`i-${Math.random()}`, withKey(key, "body-a"))),
        store.createList(newList(`j-${Math.random()}`, withKey(key, "body-c"))),
      ]);
      expect(retry).toEqual({ status: "fulfilled", value: first });
      expect(other).toMatchObject({ status: "rejected", reason: expect.any(IdempotencyKeyReusedError) });
      // Another client's scope with the same body: a list of its own.
      const theirs = await store.createList(newList(`k-${Math.random()}`, withKey(`${key}-other-client`, "body-a")));
      expect(theirs.id).not.toBe(first.id);
      expect(await store.getList(first.id, now)).toEqual(first);
      expect(await store.getList(theirs.id, now)).toEqual(theirs);
      // Two concurrent first requests with one key and different bodies: one list, one refusal.
      const race = `race-${Math.random()}`;
      const outcomes = await Promise.allSettled([
        store.createList(newList(`l-${Math.random()}`, withKey(race, "body-a"))),
        store.createList(newList(`m-${Math.random()}`, withKey(race, "body-b"))),
      ]);
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect(outcomes.find((outcome) => outcome.status === "rejected")).toMatchObject({
        reason: expect.any(IdempotencyKeyReusedError),
      });
    });

    it("refuses a taken explicit slug and suffixes derived ones", async () => {
      const store = await open();
      const base = `team-${Date.now()}`;
      await store.createList(newList(`a-${base}`, { slug: base }));
      await expect(store.createList(newList(`b-${base}`, { slug: base }))).rejects.toBeInstanceOf(SlugTakenError);
      const derived = await store.createList(newList(`c-${base}`, { derivedSlug: base }));
      const derived3 = await store.createList(newList(`d-${base}`, { derivedSlug: base }));
      expect([derived.slug, derived3.slug]).toEqual([`${base}-2`, `${base}-3`]);
    });

    it("keeps suffixing past -17 and stores any name as given", async () => {
      const store = await open();
      const base = `crowd-${Date.now()}`;
      const slugs: (string | null)[] = [];
      for (let i = 0; i < 20; i++)
        slugs.push((await store.createList(newList(`m${i}-${base}`, { derivedSlug: base }))).slug);
      expect(slugs).toEqual([base, ...Array.from({ length: 19 }, (_, i) => `${base}-${i + 2}`)]);
      const odd = await store.createList(newList(`n-${base}`, { name: 'Team "\u0000slug\u0000" \\ é 🙂' }));
      expect(odd.slug).toBeNull();
      expect(await store.getList(odd.id, new Date("2026-01-02T00:00:00Z"))).toEqual(odd);
    });

    it("allocates distinct slugs to concurrent creates", async () => {
      const store = await open();
      const base = `race-${Date.now()}`;
      const lists = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.createList(newList(`r${i}-${base}`, { derivedSlug: base }))),
      );
      expect(new Set(lists.map((list) => list.slug)).size).toBe(8);
    });

    it("gives each of a turn's creates its own outcome (Redis saves them in one call)", async () => {
      const store = await open();
      const base = `turn-${Date.now()}`;
      await store.createList(newList(`taken-${base}`, { slug: `${base}-taken` }));
      const key = `turn-key-${Math.random()}`;
      const outcomes = await Promise.allSettled([
        store.createList(newList(`a-${base}`, { slug: `${base}-free` })),
        store.createList(newList(`b-${base}`, { slug: `${base}-taken` })),
        store.createList(newList(`c-${base}`, { derivedSlug: `${base}-taken` })),
        store.createList(newList(`d-${base}`)),
        store.createList(newList(`e-${base}`, { derivedSlug: `${base}-keyed`, ...withKey(key) })),
        store.createList(newList(`f-${base}`, { derivedSlug: `${base}-keyed`, ...withKey(key) })),
      ]);
      const [free, taken, derived, plain, keyed, again] = outcomes.map((outcome) =>
        outcome.status === "fulfilled" ? outcome.value : outcome.reason,
      );
      expect(free).toMatchObject({ id: `a-${base}`, slug: `${base}-free` });
      expect(taken).toBeInstanceOf(SlugTakenError);
      expect(derived).toMatchObject({ id: `c-${base}`, slug: `${base}-taken-2` });
      expect(plain).toMatchObject({ id: `d-${base}`, slug: null });
      expect(keyed).toMatchObject({ id: `e-${base}`, slug: `${base}-keyed` });
      expect(again).toEqual(keyed);
      const now = new Date("2026-01-02T00:00:00Z");
      for (const list of [free, derived, plain, keyed]) expect(await store.getList(list.id, now)).toEqual(list);
      expect(await store.getList(`b-${base}`, now)).toBeUndefined();
      expect(await store.getList(`f-${base}`, now)).toBeUndefined();
    });

    it("renews a list: its later expiry read by id and slug, kept across a restart, Idempotency-Key included", async () => {
      let store = await open();
      const createdAt = new Date();
      const base = `renew-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const input = newList(`r-${base}`, { slug: base, ...withKey(`k-${base}`) }, createdAt);
      const list = await store.createList(input);
      const now = new Date(createdAt.getTime() + 10 * day);
      const later = new Date(now.getTime() + 90 * day);
      expect(await store.renewList(list, later, now)).toBe(true);
      const renewed = { ...list, expiresAt: later.toISOString() };
      expect(await store.getList(list.id, now)).toEqual(renewed);
      expect(await store.getList(base, now)).toEqual(renewed);
      // Past the first expiry, the list is there, and a retry with its key still returns it.
      const past = new Date(createdAt.getTime() + 95 * day);
      store = await restart(store);
      expect(await store.getList(base, past)).toEqual(renewed);
      expect(await store.createList({ ...input, id: `other-${base}`, createdAt: past })).toEqual(renewed);
      expect(await store.getList(base, new Date(later.getTime()))).toBeUndefined();
    });

    it("renews nothing from a stale read, a missing list or an expired one", async () => {
      const store = await open();
      const createdAt = new Date();
      const list = await store.createList(newList(`stale-${Date.now()}-${Math.random()}`, {}, createdAt));
      const now = new Date(createdAt.getTime() + 5 * day);
      expect(await store.renewList(list, new Date(now.getTime() + 90 * day), now)).toBe(true);
      // `list` holds the expiry before that renewal: another server's read, already overtaken.
      expect(await store.renewList(list, new Date(now.getTime() + 91 * day), now)).toBe(false);
      expect((await store.getList(list.id, now))!.expiresAt).toBe(new Date(now.getTime() + 90 * day).toISOString());
      expect(
        await store.renewList({ ...list, id: `missing-${Math.random()}` }, new Date(now.getTime() + day), now),
      ).toBe(false);
      const gone = await store.createList(newList(`gone-${Date.now()}-${Math.random()}`, {}, createdAt));
      const after = new Date(createdAt.getTime() + 91 * day);
      expect(await store.renewList(gone, new Date(after.getTime() + 90 * day), after)).toBe(false);
      expect(await store.getList(gone.id, after)).toBeUndefined();
    });

    it("hides expired lists", async () => {
      const store = await open();
      const list = await store.createList(newList(`e-${Date.now()}`, {}, new Date()));
      expect(await store.getList(list.id, new Date(Date.now() + 89 * day))).toBeDefined();
      expect(await store.getList(list.id, new Date(Date.now() + 91 * day))).toBeUndefined();
    });

    it("counts bucket hits atomically and independently per bucket and key", async () => {
      const store = await open();
      const key = `k-${Math.random()}`;
      const hits = await Promise.all(Array.from({ length: 20 }, () => store.hit("strict", key, 60_000)));
      expect(hits.map((hit) => hit.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect((await store.hit("relaxed", key, 60_000)).count).toBe(1);
      expect((await store.hit("strict", `${key}-other`, 60_000)).count).toBe(1);
      const hit = await store.hit("strict", key, 60_000);
      expect(hit.resetMs).toBeGreaterThan(0);
      expect(hit.resetMs).toBeLessThanOrEqual(60_000);
      // Hits of several keys and windows at once (Redis answers a turn's hits in one call): each
      // gets its own key's count and its own window.
      const mixed = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 3 === 0 ? store.hit("text", `${key}-mixed`, 5_000) : store.hit("strict", `${key}-${i % 3}`, 60_000),
        ),
      );
      expect(mixed.map((answer) => answer.count)).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
      for (const [i, answer] of mixed.entries())
        expect(answer.resetMs).toBeLessThanOrEqual(i % 3 === 0 ? 5_000 : 60_000);
      expect(mixed[0]!.resetMs).toBeGreaterThan(0);
    });

    it("keeps feedback and clicks", async () => {
      const store = await open();
      await store.recordFeedback({ type: "bug", message: "hello there", receivedAt: new Date().toISOString() });
      await store.recordOutboundClick({ url: "https://aws.amazon.com/", at: new Date().toISOString() });
      await store.ping();
    });

    it("keeps the status history, one record a sample, newest first, capped, across a restart", async () => {
      let store = await open();
      const t = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
      const sample = (timestamp: string, status: "ok" | "down" = "ok") =>
        statusRecord(
          [
            { component: "catalogue", status: "ok", latencyMs: 0, message: null },
            { component: "store", status, latencyMs: 1.5, message: status === "ok" ? null : "x" },
            { component: "sidecar", status: "ok", latencyMs: 0.2, message: null },
          ],
          timestamp,
        );
      await store.recordStatusSample(sample(t(30 * 60)));
      await store.recordStatusSample(sample(t(10)));
      await store.recordStatusSample(sample(t(5), "down"));
      const dayAgo = () => new Date(Date.now() - 24 * 3_600_000);
      let history = await store.statusSamples(dayAgo(), 200);
      expect(history.slice(0, 2).map((record) => [record.status, record.message])).toEqual([
        ["down", "store: x"],
        ["ok", null],
      ]);
      expect(history[0]!.components.map((c) => c.component)).toEqual(["catalogue", "store", "sidecar"]);
      expect(history.every((record) => Date.parse(record.timestamp) > dayAgo().getTime())).toBe(true);

      // A day of samples every STATUS_SAMPLE_MINUTES fits in the rows; more than the rows are not kept.
      expect((24 * 60) / STATUS_SAMPLE_MINUTES).toBeLessThanOrEqual(STATUS_HISTORY_LIMIT);
      for (let i = STATUS_HISTORY_LIMIT + 4; i > 0; i--) await store.recordStatusSample(sample(t(i / 100)));
      history = await store.statusSamples(dayAgo(), 10_000);
      expect(history).toHaveLength(STATUS_HISTORY_LIMIT);
      const times = history.map((record) => Date.parse(record.timestamp));
      expect(times).toEqual([...times].sort((a, b) => b - a));

      store = await restart(store);
      expect(await store.statusSamples(dayAgo(), 10_000)).toEqual(history);
      expect(await store.statusSamples(dayAgo(), 3)).toEqual(history.slice(0, 3));
    });
  });
}
