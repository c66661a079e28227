import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { RedisStore } from "../../sidecar/store/redis.ts";
import { StoreUnavailableError, type Store } from "../../sidecar/store/store.ts";
import { cleanup, requireComponent, startRedis, type RedisServer } from "../helpers/components.ts";
import { storeContract } from "./store.contract.ts";

const dirs: string[] = [];
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

storeContract("embedded", async () => {
  const dir = mkdtempSync(join(tmpdir(), "csc-embedded-"));
  dirs.push(dir);
  const store = await EmbeddedStore.open(dir);
  stores.push(store);
  return store;
});

describe("embedded store log and memory", () => {
  const createdAt = new Date();
  const input = {
    name: null,
    approvedServiceIds: ["aws-s3"],
    createdAt,
    expiresAt: new Date(createdAt.getTime() + 1000 * 86_400_000),
  };
  it("replays acknowledged lists, skips a torn last line and keeps the next write apart from it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-embedded-"));
    dirs.push(dir);
    const first = await EmbeddedStore.open(dir);
    const list = await first.createList({ ...input, id: "abc", slug: "kept" });
    await first.close();
    const { appendFileSync } = await import("node:fs");
    appendFileSync(join(dir, "store.jsonl"), '{"t":"list","list":{"id":"torn"');
    const second = await EmbeddedStore.open(dir);
    expect(await second.getList("kept", new Date())).toEqual(list);
    // The next write must not be glued to the torn line.
    const after = await second.createList({ ...input, id: "after", slug: "after-crash" });
    await second.close();
    const third = await EmbeddedStore.open(dir);
    stores.push(third);
    expect(await third.getList("after-crash", new Date())).toEqual(after);
  });

  it("answers a failed append as unavailable and leaves no part of it in the log", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-embedded-"));
    dirs.push(dir);
    const store = await EmbeddedStore.open(dir);
    await store.createList({ ...input, id: "before", slug: "before" });
    const path = join(dir, "store.jsonl");
    const logBefore = readFileSync(path, "utf8");
    // A disk that fills up mid-append: the first call writes half, the next fails.
    const log = (store as unknown as { log: FileHandle }).log;
    const write = log.write.bind(log);
    let calls = 0;
    log.write = (async (data: Buffer, offset: number) => {
      if (calls++ > 0) throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
      return write(data, offset, Math.floor((data.length - offset) / 2));
    }) as typeof log.write;
    await expect(store.createList({ ...input, id: "failed", slug: "failed" })).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    expect(readFileSync(path, "utf8")).toBe(logBefore);
    expect(await store.getList("failed", new Date())).toBeUndefined();
    log.write = write;
    const after = await store.createList({ ...input, id: "after", slug: "failed" });
    await store.close();
    const reopened = await EmbeddedStore.open(dir);
    stores.push(reopened);
    expect(await reopened.getList("failed", new Date())).toEqual(after);
    expect(await reopened.getList("before", new Date())).toMatchObject({ id: "before" });
  });

  it("forgets expired lists once they are past their expiry", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-embedded-"));
    dirs.push(dir);
    const store = await EmbeddedStore.open(dir, createdAt);
    stores.push(store);
    await store.createList({
      ...input,
      id: "short",
      slug: "short",
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 60_000),
    });
    const later = new Date(createdAt.getTime() + 2 * 3_600_000);
    await store.createList({ ...input, id: "later", slug: "later", createdAt: later });
    const memory = store as unknown as { lists: Map<string, unknown>; slugs: Map<string, string> };
    expect([...memory.lists.keys()]).toEqual(["later"]);
    expect([...memory.slugs.keys()]).toEqual(["later"]);
  });
});

const redisBinary = requireComponent("redis-server");
describe.skipIf(!redisBinary)("redis", () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis(redisBinary!);
  });
  afterAll(async () => {
    if (redis) await cleanup(redis);
  });
  storeContract("redis", async () => {
    const store = await RedisStore.connect(redis.url);
    stores.push(store);
    return store;
  });

  it("writes lists to the AOF but keeps rate-limit counters out of it", async () => {
    const store = await RedisStore.connect(redis.url);
    stores.push(store);
    const marker = `aof-${Date.now()}`;
    await store.hit("strict", marker, 60_000);
    await store.createList({
      id: `list-${marker}`,
      name: null,
      approvedServiceIds: ["aws-s3"],
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 60_000),
    });
    const aof = readdirSync(join(redis.dir, "appendonlydir"))
      .map((file) => readFileSync(join(redis.dir, "appendonlydir", file), "latin1"))
      .join("");
    expect(aof).toContain(`list-${marker}`);
    expect(aof).not.toContain(`rl:strict:${marker}`);
  });

  it("reports Redis running with appendfsync always as durable", async () => {
    const store = await RedisStore.connect(redis.url);
    stores.push(store);
    await store.checkDurability();
    expect(store.durabilityWarning).toBeNull();
  });
});
