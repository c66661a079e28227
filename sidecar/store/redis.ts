/**
 * The Redis store, for many sidecar instances sharing one Redis. Durability: Redis must run with
 * `appendonly yes` and `appendfsync always` (checked at connect and reported by status), so that a
 * write Redis acknowledged is on disk before we reply. WAITAOF would allow `everysec`, but needs
 * Redis 7.2 and Debian 12 ships 7.0. Rate-limit counters are kept out of the AOF (and replicas), so
 * counting a request adds no fsync of its own; a Redis restart at worst resets a one-minute window.
 * Every command fails within COMMAND_TIMEOUT_MS when Redis is unreachable (no offline queue), so
 * requests never hang; the client reconnects by itself.
 */
import { createHash } from "node:crypto";
import { createClient, ErrorReply, type RedisClientType } from "redis";
import type { StatusRecordT } from "../../catalogue/schema.ts";
import {
  SlugTakenError,
  StoreOutcomeUnknownError,
  StoreUnavailableError,
  slugCandidates,
  type BucketHit,
  type Feedback,
  type NewList,
  type OutboundClick,
  type Store,
  type StoredList,
} from "./store.ts";
import { parseStoredList } from "./records.ts";

export const COMMAND_TIMEOUT_MS = 1500;
const PREFIX = "csc:";
const STATUS_KEEP = 1000;
/** Derived-slug candidates tried per round trip once the base slug is taken. */
const SLUG_BATCH = 16;
/** Stands for the slug in a list's JSON until the create script knows which slug it claimed. */
const SLUG_MARK = "\u0000slug\u0000";
const SLUG_MARK_JSON = JSON.stringify(SLUG_MARK);

/**
 * A Lua script run by EVALSHA, so Redis does not hash its text on every call; NOSCRIPT (a restarted
 * Redis) loads it again.
 */
class Script {
  private readonly source: string;
  private readonly sha1: string;
  constructor(source: string) {
    this.source = source;
    this.sha1 = createHash("sha1").update(source).digest("hex");
  }
  run(client: RedisClientType, options: { keys: string[]; arguments: string[] }): Promise<unknown> {
    return client
      .evalSha(this.sha1, options)
      .catch((error: Error) =>
        /NOSCRIPT/.test(error.message) ? client.eval(this.source, options) : Promise.reject(error),
      );
  }
}

/**
 * INCR with the window set on first hit; returns count and remaining ms. Atomic in Redis.
 * REPL_NONE keeps the counter out of the AOF, so with `appendfsync always` it adds no fsync (its
 * reply still leaves after the fsync of any write Redis handled in the same event-loop turn).
 */
const HIT_SCRIPT = new Script(`
redis.set_repl(redis.REPL_NONE)
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`);

/**
 * Claims the first free slug key among KEYS[3..] (SET NX) and saves the list under KEYS[1], in one
 * round trip and one fsync. KEYS[2] is the Idempotency-Key's key when ARGV[5] is "1": a live list
 * saved with it is answered (-2, its id then read from KEYS[2]) and nothing is written. ARGV: list
 * id, TTL in ms, the list's JSON split where the slug goes, the key flag, then the slugs of
 * KEYS[3..]. Returns the index (1-based) of the slug claimed, 0 when no slug was asked for, -1 when
 * every candidate is taken (nothing is written then), or -2.
 */
const CREATE_LIST_SCRIPT = new Script(`
if ARGV[5] == '1' and redis.call('EXISTS', KEYS[2]) == 1 then return -2 end
local claimed = 0
for i = 3, #KEYS do
  if redis.call('SET', KEYS[i], ARGV[1], 'NX', 'PX', ARGV[2]) then claimed = i - 2; break end
end
if #KEYS > 2 and claimed == 0 then return -1 end
-- Slugs are [a-z0-9-] only, so they need no JSON escaping.
local slug = claimed > 0 and ('"' .. ARGV[5 + claimed] .. '"') or 'null'
redis.call('SET', KEYS[1], ARGV[3] .. slug .. ARGV[4], 'PX', ARGV[2])
if ARGV[5] == '1' then redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2]) end
return claimed`);

export class RedisStore implements Store {
  readonly kind = "redis";

  get available(): boolean {
    return this.client.isReady;
  }
  /** Why durability is not guaranteed, when it is not; null when Redis fsyncs every write. */
  durabilityWarning: string | null = null;

  private readonly client: RedisClientType;

  private constructor(client: RedisClientType) {
    this.client = client;
  }

  static async connect(url: string, onError: (error: Error) => void = () => undefined): Promise<RedisStore> {
    const client: RedisClientType = createClient({
      url,
      disableOfflineQueue: true,
      // No per-command AbortSignal.timeout: it cannot be cancelled, so each command would leave a
      // timer that fires seconds later. `run` keeps its own, cleared on the answer.
      commandOptions: { timeout: 0 },
      socket: {
        connectTimeout: COMMAND_TIMEOUT_MS,
        reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000),
      },
    });
    client.on("error", onError);
    const store = new RedisStore(client);
    // Wait for the first connection a short while, but start even when Redis is down: the client
    // keeps reconnecting, writes answer 503 meanwhile and status reports the store down.
    const connecting = client.connect().catch(onError);
    await Promise.race([connecting, new Promise((resolve) => setTimeout(resolve, COMMAND_TIMEOUT_MS).unref())]);
    await store.checkDurability().catch(() => undefined);
    return store;
  }

  /**
   * Runs a command that changes data: once sent, a timeout or a lost connection leaves its outcome
   * unknown (StoreOutcomeUnknownError); an error reply means Redis refused it.
   */
  private async write<T>(command: () => Promise<T>): Promise<T> {
    if (!this.client.isReady) throw new StoreUnavailableError("Redis is not connected");
    try {
      return await this.run(command);
    } catch (error) {
      if (error instanceof StoreUnavailableError && !(error.cause instanceof ErrorReply))
        throw new StoreOutcomeUnknownError(error.message, { cause: error.cause });
      throw error;
    }
  }

  private async run<T>(command: () => Promise<T>): Promise<T> {
    if (!this.client.isReady) throw new StoreUnavailableError("Redis is not connected");
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        command(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new StoreUnavailableError("Redis did not answer in time")),
            COMMAND_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      throw new StoreUnavailableError(`Redis error: ${(error as Error).message}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  async checkDurability(): Promise<void> {
    const config = await this.run(() => this.client.configGet("append*"));
    this.durabilityWarning =
      config.appendonly === "yes" && config.appendfsync === "always"
        ? null
        : `Redis runs with appendonly=${config.appendonly} appendfsync=${config.appendfsync}; set appendonly yes and appendfsync always so acknowledged writes survive a crash`;
  }

  async createList(input: NewList): Promise<StoredList> {
    const ttl = String(input.expiresAt.getTime() - input.createdAt.getTime());
    const list = {
      id: input.id,
      slug: null as string | null,
      name: input.name,
      approvedServiceIds: input.approvedServiceIds,
      createdAt: input.createdAt.toISOString(),
      expiresAt: input.expiresAt.toISOString(),
      ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
    };
    const idempotencyKey = `${PREFIX}idempotency:${input.idempotencyKey ?? ""}`;
    /** Set when the Idempotency-Key names a list saved earlier: that list is the answer. */
    let earlier: StoredList | undefined;
    // The slug follows the id (a nanoid), so the first mark is the slug's even if the name held one.
    const json = JSON.stringify({ ...list, slug: SLUG_MARK });
    const at = json.indexOf(SLUG_MARK_JSON);
    const [head, tail] = [json.slice(0, at), json.slice(at + SLUG_MARK_JSON.length)];
    const save = async (candidates: string[]): Promise<string | null | undefined> => {
      const claimed = (await this.write(() =>
        CREATE_LIST_SCRIPT.run(this.client, {
          keys: [`${PREFIX}list:${list.id}`, idempotencyKey, ...candidates.map((slug) => `${PREFIX}slug:${slug}`)],
          arguments: [list.id, ttl, head, tail, input.idempotencyKey ? "1" : "0", ...candidates],
        }),
      )) as number;
      if (claimed === -2) {
        const id = await this.run(() => this.client.get(idempotencyKey));
        earlier = id ? await this.getList(id, input.createdAt) : undefined;
        // Expired between the two calls (a matter of milliseconds): the client may retry.
        if (!earlier) throw new StoreUnavailableError("the list saved with this Idempotency-Key just expired");
      }
      return claimed > 0 ? candidates[claimed - 1] : claimed === 0 ? null : undefined;
    };
    if (input.slug) {
      const slug = await save([input.slug]);
      if (earlier) return earlier;
      if (slug === undefined) throw new SlugTakenError(input.slug);
      return { ...list, slug };
    }
    if (input.derivedSlug) {
      // The base slug is usually free, so it goes alone (16 candidates cost both sides about a
      // fifth more CPU per list); after it, batches keep even a crowded base to few round trips.
      const candidates = slugCandidates(input.derivedSlug);
      for (let size = 1; ; size = SLUG_BATCH) {
        const batch = Array.from({ length: size }, () => candidates.next().value as string);
        const slug = await save(batch);
        if (earlier) return earlier;
        if (slug !== undefined) return { ...list, slug };
      }
    }
    await save([]);
    return earlier ?? list;
  }

  async getList(slugOrId: string, now: Date): Promise<StoredList | undefined> {
    const id = (await this.run(() => this.client.get(`${PREFIX}slug:${slugOrId}`))) ?? slugOrId;
    const raw = await this.run(() => this.client.get(`${PREFIX}list:${id}`));
    if (!raw) return undefined;
    const list = parseStoredList(parseJson(raw));
    return list && new Date(list.expiresAt) > now ? list : undefined;
  }

  async recordFeedback(feedback: Feedback): Promise<void> {
    await this.write(() => this.client.rPush(`${PREFIX}feedback`, JSON.stringify(feedback)));
  }

  async recordOutboundClick(click: OutboundClick): Promise<void> {
    await this.write(() => this.client.rPush(`${PREFIX}outbound`, JSON.stringify(click)));
  }

  async hit(bucket: string, key: string, windowMs: number): Promise<BucketHit> {
    const [count, ttl] = (await this.run(() =>
      HIT_SCRIPT.run(this.client, { keys: [`${PREFIX}rl:${bucket}:${key}`], arguments: [String(windowMs)] }),
    )) as [number, number];
    return { count, resetMs: ttl };
  }

  async appendStatus(records: readonly StatusRecordT[]): Promise<void> {
    if (records.length === 0) return;
    await this.run(() =>
      this.client
        .multi()
        .lPush(
          `${PREFIX}status`,
          [...records].reverse().map((record) => JSON.stringify(record)),
        )
        .lTrim(`${PREFIX}status`, 0, STATUS_KEEP - 1)
        .exec(),
    );
  }

  async statusHistory(since: Date, limit: number): Promise<StatusRecordT[]> {
    const raw = await this.run(() => this.client.lRange(`${PREFIX}status`, 0, STATUS_KEEP - 1));
    return raw
      .map((line) => JSON.parse(line) as StatusRecordT)
      .filter((record) => new Date(record.timestamp) > since)
      .slice(0, limit);
  }

  async ping(): Promise<void> {
    await this.run(() => this.client.ping());
  }

  async close(): Promise<void> {
    try {
      await this.client.close();
    } catch {
      this.client.destroy();
    }
  }
}

/** A value read back from Redis, or undefined when it is not JSON (then not ours to trust). */
function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
