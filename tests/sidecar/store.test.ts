import { spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { DataDirInUseError, EmbeddedStore } from "../../sidecar/store/embedded.ts";
import { describeSkipped } from "../../sidecar/store/records.ts";
import { RedisStore } from "../../sidecar/store/redis.ts";
import { StoreUnavailableError, type Store, type StoredList } from "../../sidecar/store/store.ts";
import { requireComponent } from "../helpers/components.ts";
import { useRedis } from "../helpers/redis.ts";
import { storeContract } from "./store.contract.ts";

const dirs: string[] = [];
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A new empty folder, removed after the file's tests. */
function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "csc-embedded-"));
  dirs.push(dir);
  return dir;
}

/** Opens a store that is closed after the file's tests. */
async function openKept(dir: string): Promise<EmbeddedStore> {
  const store = await EmbeddedStore.open(dir);
  stores.push(store);
  return store;
}

/** Closes a store opened by openKept (so that it is not closed twice). */
async function closeKept(store: Store): Promise<void> {
  stores.splice(stores.indexOf(store), 1);
  await store.close();
}

/** Reopens `dir` and expects each list back, read by its slug. */
async function expectReplayed(dir: string, ...lists: StoredList[]): Promise<void> {
  const store = await openKept(dir);
  for (const list of lists) expect(await store.getList(list.slug!, new Date())).toEqual(list);
}

/** Each contract store's folder, to open it again after a restart. */
const folders = new Map<Store, string>();
storeContract(
  "embedded",
  async () => {
    const dir = newDir();
    const store = await openKept(dir);
    folders.set(store, dir);
    return store;
  },
  async (store) => {
    await closeKept(store);
    return openKept(folders.get(store)!);
  },
);

describe("embedded store log and memory", () => {
  const createdAt = new Date();
  const input = {
    name: null,
    approvedServiceIds: ["aws-s3"],
    createdAt,
    expiresAt: new Date(createdAt.getTime() + 1000 * 86_400_000),
  };
  it("replays acknowledged lists, skips a torn last line and keeps the next write apart from it", async () => {
    const dir = newDir();
    const first = await EmbeddedStore.open(dir);
    const list = await first.createList({ ...input, id: "abc", slug: "kept" });
    await first.close();
    appendFileSync(join(dir, "store.jsonl"), '{"t":"list","list":{"id":"torn"');
    const second = await EmbeddedStore.open(dir);
    expect(await second.getList("kept", new Date())).toEqual(list);
    // The last line cut short: a write that never completed, so was never acknowledged.
    expect(second.skipped.first).toMatch(
      /^line \d+: not JSON: the log's last record, a write cut short by a crash, so never acknowledged$/,
    );
    // The next write must not be glued to the torn line.
    const after = await second.createList({ ...input, id: "after", slug: "after-crash" });
    await second.close();
    await expectReplayed(dir, after);
  });

  /**
   * Makes the log's writes fail as a failing disk would: `fail(call)` says which calls (counted
   * from 0) throw; the first call writes only half its data.
   */
  function failWrites(store: EmbeddedStore, fail: (call: number) => boolean) {
    const log = (store as unknown as { log: FileHandle }).log;
    const write = log.write.bind(log);
    let calls = 0;
    log.write = (async (data: Buffer, offset: number, length: number, position: number) => {
      const call = calls++;
      if (fail(call)) throw Object.assign(new Error("EIO: i/o error, write"), { code: "EIO" });
      return write(data, offset, call === 0 ? Math.floor(length / 2) : length, position);
    }) as typeof log.write;
    return () => (log.write = write);
  }

  it("answers a failed write as unavailable and leaves no part of it in the log", async () => {
    const dir = newDir();
    const store = await EmbeddedStore.open(dir);
    await store.createList({ ...input, id: "before", slug: "before" });
    const path = join(dir, "store.jsonl");
    const logBefore = readFileSync(path, "utf8");
    // Half the batch is written, the rest fails; padding is then written over its place.
    const restore = failWrites(store, (call) => call === 1);
    await expect(store.createList({ ...input, id: "failed", slug: "failed" })).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    expect(readFileSync(path, "utf8")).toBe(logBefore);
    expect(await store.getList("failed", new Date())).toBeUndefined();
    restore();
    const after = await store.createList({ ...input, id: "after", slug: "failed" });
    await store.close();
    const reopened = await openKept(dir);
    expect(await reopened.getList("failed", new Date())).toEqual(after);
    expect(await reopened.getList("before", new Date())).toMatchObject({ id: "before" });
  });

  it("answers a retry sent with the first request by the saved list only once it is on disk", async () => {
    const store = await EmbeddedStore.open(newDir());
    onTestFinished(() => store.close());
    await store.createList({ ...input, id: "before", slug: "before" });
    const restore = failWrites(store, (call) => call === 1);
    // Both in one batch: the second finds the first's list (its Idempotency-Key) not yet written.
    const keyed = { ...input, idempotency: { scope: "retry-key", fingerprint: "body" } };
    const [first, retry] = await Promise.allSettled([
      store.createList({ ...keyed, id: "first" }),
      store.createList({ ...keyed, id: "retry" }),
    ]);
    expect(first).toMatchObject({ status: "rejected", reason: expect.any(StoreUnavailableError) });
    expect(retry).toMatchObject({ status: "rejected", reason: expect.any(StoreUnavailableError) });
    restore();
    const [again, retryAgain] = await Promise.all([
      store.createList({ ...keyed, id: "again" }),
      store.createList({ ...keyed, id: "retry-again" }),
    ]);
    expect(retryAgain).toEqual(again);
  });

  it("keeps working after a failed write whose place could not be padded again", async () => {
    const dir = newDir();
    const store = await EmbeddedStore.open(dir);
    // The first record grows the log, so the failing write below lands in padding.
    const before = await store.createList({ ...input, id: "before", slug: "before" });
    const restore = failWrites(store, (call) => call > 0);
    await expect(store.createList({ ...input, id: "failed", slug: "failed" })).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    expect(await store.getList("failed", new Date())).toBeUndefined();
    restore();
    const after = await store.createList({ ...input, id: "after", slug: "after" });
    await store.close();
    await expectReplayed(dir, before, after);
  });

  it("skips a record torn inside the padding and writes the next one after it", async () => {
    const dir = newDir();
    const first = await EmbeddedStore.open(dir);
    const kept = await first.createList({ ...input, id: "kept", slug: "kept" });
    await first.close();
    const path = join(dir, "store.jsonl");
    const log = readFileSync(path);
    const end = log.lastIndexOf("}") + 2;
    expect(log.length).toBeGreaterThan(end); // padding follows the records
    // A crash mid-write: the start of a record overwrote the start of the padding.
    log.write('{"t":"list","list":{"id":"torn","slug":"to', end);
    writeFileSync(path, log);
    const second = await EmbeddedStore.open(dir);
    expect(await second.getList("kept", new Date())).toEqual(kept);
    expect(await second.getList("torn", new Date())).toBeUndefined();
    const after = await second.createList({ ...input, id: "after", slug: "after-crash" });
    await second.close();
    await expectReplayed(dir, after, kept);
  });

  it("loses only the records a page of zeros overwrote, and counts them truly", async () => {
    const dir = newDir();
    const store = await EmbeddedStore.open(dir);
    const lists: StoredList[] = [];
    for (let i = 0; i < 40; i++)
      lists.push(
        await store.createList({
          ...input,
          id: `page-${i}`,
          slug: `page-${i}`,
          approvedServiceIds: ["aws-s3", "aws-ec2", "gcp-bigquery", `padding-${"x".repeat(i * 3)}`],
        }),
      );
    await store.close();
    const path = join(dir, "store.jsonl");
    const log = readFileSync(path);
    // Each record's bytes, its line break included.
    const spans: { id: string; from: number; to: number }[] = [];
    for (
      let from = 0, at = log.indexOf(0x0a);
      at >= 0 && spans.length < 40;
      from = at + 1, at = log.indexOf(0x0a, from)
    )
      if (at > from)
        spans.push({
          id: (JSON.parse(log.subarray(from, at).toString()) as { list: StoredList }).list.id,
          from,
          to: at,
        });
    expect(spans).toHaveLength(40);
    // A 4 KiB page in the middle of the records is zeroed (a lost write-back, a bad sector).
    const page = { from: 4096, to: 8192 };
    expect(spans.at(-1)!.to).toBeGreaterThan(page.to);
    log.fill(0, page.from, page.to);
    writeFileSync(path, log);
    const lost = new Set(spans.filter((span) => span.from < page.to && span.to >= page.from).map((span) => span.id));
    expect(lost.size).toBeGreaterThan(10);
    const reopened = await openKept(dir);
    for (const list of lists)
      expect(await reopened.getList(list.id, new Date()), list.id).toEqual(lost.has(list.id) ? undefined : list);
    expect(reopened.skipped.count).toBe(lost.size);
    expect(describeSkipped(reopened.skipped)).toMatch(new RegExp(`^${lost.size} unreadable record\\(s\\) skipped`));
    // decisions.md#durable-acknowledgement: these records had been written in full (others follow them): not "never acknowledged".
    expect(reopened.skipped.first).toMatch(
      /not JSON: damaged after it was written in full .* may have been acknowledged$/,
    );
    expect(reopened.skipped.first).not.toMatch(/never acknowledged/);
    // Written after the damage, a list comes back after the next start, and the count holds.
    const after = await reopened.createList({ ...input, id: "after-page", slug: "after-page" });
    await reopened.close();
    stores.splice(stores.indexOf(reopened), 1);
    const again = await openKept(dir);
    expect(await again.getList("after-page", new Date())).toEqual(after);
    expect(again.skipped.count).toBe(lost.size);
    console.log(
      `replay: a 4 KiB page of zeros over ${lost.size} of 40 lists: ${lost.size} lost, ${again.skipped.count} reported, ${40 - lost.size} kept`,
    );
  });

  it("starts past a 600 MB line without holding it, counting it as one unreadable record", async () => {
    const dir = newDir();
    const first = await EmbeddedStore.open(dir);
    const before = await first.createList({ ...input, id: "before-long", slug: "before-long" });
    await first.close();
    const path = join(dir, "store.jsonl");
    // 600 MB without a line break (zeros, so the file is sparse), then a record after it.
    truncateSync(path, statSync(path).size + 600 * 1024 * 1024);
    const later = {
      id: "after-long",
      slug: "after-long",
      name: null,
      approvedServiceIds: ["aws-s3"],
      createdAt: createdAt.toISOString(),
      expiresAt: input.expiresAt.toISOString(),
    };
    appendFileSync(path, `\n${JSON.stringify({ t: "list", list: later })}\n`);
    const started = performance.now();
    const store = await openKept(dir);
    const ms = performance.now() - started;
    expect(await store.getList("before-long", new Date())).toEqual(before);
    expect(await store.getList("after-long", new Date())).toEqual(later);
    expect(store.skipped).toEqual({
      count: 1,
      first: expect.stringMatching(/^line \d+: 629145\d+ bytes without a line break/),
    });
    const rss = process.memoryUsage().rss;
    expect(rss).toBeLessThan(600 * 1024 * 1024);
    console.log(`replay: a 600 MB line skipped in ${Math.round(ms)} ms, RSS ${Math.round(rss / 1048576)} MiB after`);
  }, 60_000);

  it("grows the log ahead of use and replays every record", async () => {
    const dir = newDir();
    const store = await EmbeddedStore.open(dir);
    // About 300 KiB of records: the log grows several times past its first 64 KiB.
    const ids = Array.from({ length: 1500 }, (_, n) => `grow-${n}`);
    await Promise.all(ids.map((id) => store.createList({ ...input, id, derivedSlug: "grown" })));
    await store.close();
    const log = readFileSync(join(dir, "store.jsonl"), "utf8");
    const records = log.split("\n").filter(Boolean);
    expect(records).toHaveLength(ids.length);
    expect(log.length).toBeGreaterThan(log.trimEnd().length);
    const reopened = await openKept(dir);
    expect(await reopened.getList("grown", new Date())).toMatchObject({ id: "grow-0" });
    expect(await reopened.getList("grown-1500", new Date())).toMatchObject({ id: "grow-1499" });
  });

  it("reads and extends a log written without padding", async () => {
    const dir = newDir();
    const list = {
      id: "old",
      slug: "old",
      name: null,
      approvedServiceIds: ["aws-s3"],
      createdAt: createdAt.toISOString(),
      expiresAt: input.expiresAt.toISOString(),
    };
    writeFileSync(join(dir, "store.jsonl"), `${JSON.stringify({ t: "list", list })}\n`);
    const store = await EmbeddedStore.open(dir);
    const added = await store.createList({ ...input, id: "new", slug: "new" });
    await store.close();
    await expectReplayed(dir, list, added);
  });

  it("holds DATA_DIR for one process and takes over the lock of a dead one", async () => {
    const dir = newDir();
    const lock = join(dir, "store.lock");
    const store = await EmbeddedStore.open(dir);
    expect(readFileSync(lock, "utf8").split("\n")[0]).toBe(String(process.pid));
    await expect(EmbeddedStore.open(dir)).rejects.toThrow(DataDirInUseError);
    await store.close();
    expect(existsSync(lock)).toBe(false);
    // A live process of an older version (a pid alone in the file) with the store's log open holds it.
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `require("node:fs").openSync(${JSON.stringify(join(dir, "store.jsonl"))}, "a"); console.log("open"); setTimeout(() => {}, 30000)`,
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    await new Promise((resolve) => holder.stdout.once("data", resolve));
    writeFileSync(lock, String(holder.pid));
    await expect(EmbeddedStore.open(dir)).rejects.toThrow(new RegExp(`in use by process ${holder.pid}`));
    holder.kill();
    // A live process without it (this one's parent: a lock copied with its folder) holds nothing.
    writeFileSync(lock, String(process.ppid));
    await (await EmbeddedStore.open(dir)).close();
    // A killed process left it behind.
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
    writeFileSync(lock, dead);
    await openKept(dir);
    expect(readFileSync(lock, "utf8").split("\n")[0]).toBe(String(process.pid));
  });

  it("forgets expired lists once they are past their expiry", async () => {
    const dir = newDir();
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
  const redis = useRedis(redisBinary!);
  const connectKept = async () => {
    const store = await RedisStore.connect(redis().url);
    stores.push(store);
    return store;
  };
  storeContract("redis", connectKept, async (store) => {
    await closeKept(store);
    return connectKept();
  });

  it("writes lists to the AOF but keeps rate-limit counters out of it", async () => {
    const store = await RedisStore.connect(redis().url);
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
    const aof = readdirSync(join(redis().dir, "appendonlydir"))
      .map((file) => readFileSync(join(redis().dir, "appendonlydir", file), "latin1"))
      .join("");
    expect(aof).toContain(`list-${marker}`);
    expect(aof).not.toContain(`rl:strict:${marker}`);
  });

  it("reports Redis running with appendfsync always as durable", async () => {
    const store = await RedisStore.connect(redis().url);
    stores.push(store);
    await store.checkDurability();
    expect(store.durabilityWarning).toBeNull();
  });
});
