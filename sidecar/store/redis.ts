/**
 * The Redis store, for many sidecar instances sharing one Redis. Durability: Redis must run with
 * `appendonly yes` and `appendfsync always` (checked at connect and reported by status), so that a
 * write Redis acknowledged is on disk before we reply. WAITAOF would allow `everysec`, but needs
 * Redis 7.2 and Debian 12 ships 7.0. Every command fails within COMMAND_TIMEOUT_MS when Redis is
 * unreachable (no offline queue), so requests never hang; the client reconnects by itself.
 */
import { createHash } from "node:crypto";
import { createClient, type RedisClientType } from "redis";
import type { StatusRecordT } from "../../catalogue/schema.ts";
import {
  SlugTakenError,
  StoreUnavailableError,
  slugCandidates,
  type BucketHit,
  type Feedback,
  type NewList,
  type OutboundClick,
  type Store,
  type StoredList,
} from "./store.ts";

export const COMMAND_TIMEOUT_MS = 1500;
const PREFIX = "csc:";
const STATUS_KEEP = 1000;

/** INCR with the window set on first hit; returns count and remaining ms. Atomic in Redis. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;
const HIT_SCRIPT_SHA1 = createHash("sha1").update(HIT_SCRIPT).digest("hex");

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
      if (error instanceof StoreUnavailableError || error instanceof SlugTakenError) throw error;
      throw new StoreUnavailableError(`Redis error: ${(error as Error).message}`);
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
    const ttl = input.expiresAt.getTime() - input.createdAt.getTime();
    let slug: string | null = null;
    const claim = (candidate: string) =>
      this.run(() =>
        this.client.set(`${PREFIX}slug:${candidate}`, input.id, {
          condition: "NX",
          expiration: { type: "PX", value: ttl },
        }),
      );
    if (input.slug) {
      if ((await claim(input.slug)) !== "OK") throw new SlugTakenError(input.slug);
      slug = input.slug;
    } else if (input.derivedSlug) {
      for (const candidate of slugCandidates(input.derivedSlug)) {
        if ((await claim(candidate)) === "OK") {
          slug = candidate;
          break;
        }
      }
    }
    const list: StoredList = {
      id: input.id,
      slug,
      name: input.name,
      approvedServiceIds: input.approvedServiceIds,
      createdAt: input.createdAt.toISOString(),
      expiresAt: input.expiresAt.toISOString(),
    };
    await this.run(() =>
      this.client.set(`${PREFIX}list:${list.id}`, JSON.stringify(list), { expiration: { type: "PX", value: ttl } }),
    );
    return list;
  }

  async getList(slugOrId: string, now: Date): Promise<StoredList | undefined> {
    const id = (await this.run(() => this.client.get(`${PREFIX}slug:${slugOrId}`))) ?? slugOrId;
    const raw = await this.run(() => this.client.get(`${PREFIX}list:${id}`));
    if (!raw) return undefined;
    const list = JSON.parse(raw) as StoredList;
    return new Date(list.expiresAt) > now ? list : undefined;
  }

  async recordFeedback(feedback: Feedback): Promise<void> {
    await this.run(() => this.client.rPush(`${PREFIX}feedback`, JSON.stringify(feedback)));
  }

  async recordOutboundClick(click: OutboundClick): Promise<void> {
    await this.run(() => this.client.rPush(`${PREFIX}outbound`, JSON.stringify(click)));
  }

  async hit(bucket: string, key: string, windowMs: number): Promise<BucketHit> {
    const options = { keys: [`${PREFIX}rl:${bucket}:${key}`], arguments: [String(windowMs)] };
    // EVALSHA spares Redis hashing the script on every call; NOSCRIPT (a restarted Redis) loads it again.
    const [count, ttl] = (await this.run(() =>
      this.client
        .evalSha(HIT_SCRIPT_SHA1, options)
        .catch((error: Error) =>
          /NOSCRIPT/.test(error.message) ? this.client.eval(HIT_SCRIPT, options) : Promise.reject(error),
        ),
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
