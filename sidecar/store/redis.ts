/**
 * The Redis store, for many sidecar instances sharing one Redis. Durability: Redis must run with
 * `appendonly yes` and `appendfsync always` (checked at connect and reported by status), so that a
 * write Redis acknowledged is on disk before we reply. WAITAOF would allow `everysec`, but needs
 * Redis 7.2 and Debian 12 ships 7.0. Rate-limit counters are kept out of the AOF (and replicas), so
 * counting a request adds no fsync of its own; a Redis restart at worst resets a one-minute window.
 * Every command fails within COMMAND_TIMEOUT_MS when Redis is unreachable (no offline queue), so
 * requests never hang; the client reconnects by itself.
 *
 * With Sentinel (REDIS_SENTINELS), the client asks the Sentinels for the primary and follows a
 * failover by itself (node-redis `createSentinel`). A list or feedback write is then acknowledged
 * only once the primary has it on disk and a replica has it too: the write and `WAIT 1` go in one
 * pipeline on one connection, so a reconnect can never answer the WAIT for a write it did not see.
 * Sentinel promotes the replica with the largest replication offset, so a failover keeps every
 * acknowledged write (https://redis.io/docs/latest/commands/wait/).
 */
import { createClient, createSentinel, type RedisClientType, type RedisSentinelType } from "redis";
import type { ReplicationT, StatusRecordT } from "../../catalogue/schema/index.ts";
import {
  IdempotencyKeyReusedError,
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
import { CREATE_LISTS_SCRIPT, HIT_SCRIPT, RENEW_LIST_SCRIPT, type Client } from "./redis-scripts.ts";
import { parseStatusSample, samplesSince, STATUS_SAMPLES_KEPT } from "./status-samples.ts";

export const COMMAND_TIMEOUT_MS = 1500;
/** How long a write waits for a replica's acknowledgement; leaves the write itself time to answer. */
export const WAIT_TIMEOUT_MS = 1000;
/** Primary connections for replicated writes (with Sentinel). */
const WRITERS = 4;
const PREFIX = "csc:";
/** The status history's list (one record a sample; `csc:status`, a row per component, is no longer written). */
const STATUS_SAMPLES_KEY = `${PREFIX}status-samples`;
/** Derived-slug candidates tried per round trip once the base slug is taken. */
const SLUG_BATCH = 16;
/** Lists saved by one script call at most (a turn's creates beyond it go in further calls). */
const LISTS_PER_CALL = 64;
/** Stands for the slug in a list's JSON until the create script knows which slug it claimed. */
const SLUG_MARK = "\u0000slug\u0000";
const SLUG_MARK_JSON = JSON.stringify(SLUG_MARK);

export interface SentinelTarget {
  /** The Sentinels to ask for the primary (any one that answers will do). */
  readonly sentinels: readonly { readonly host: string; readonly port: number }[];
  /** The name the Sentinels monitor the primary under (`sentinel monitor <name> …`). */
  readonly name: string;
}

/** Redis refused the write outright: nothing was saved. */
const REFUSED = /^(NOREPLICAS|READONLY|OOM|MISCONF|NOSCRIPT|ERR|WRONGTYPE)/;

const nodeName = (node: { host: string; port: number } | undefined) => (node ? `${node.host}:${node.port}` : null);

export class RedisStore implements Store {
  readonly kind = "redis";

  get available(): boolean {
    return this.client?.isReady ?? false;
  }
  /** Why durability is not guaranteed, when it is not; null when Redis fsyncs every write. */
  durabilityWarning: string | null = null;

  /** Undefined only while a Sentinel client has not connected yet. */
  private client: Client | undefined;
  private readonly sentinel: RedisSentinelType | undefined;
  /**
   * With Sentinel: the primary connections replicated writes take in turn. A connection blocked in
   * WAIT holds the commands behind it, so writes spread over a few of them.
   */
  private readonly writers: Awaited<ReturnType<RedisSentinelType["acquire"]>>[] = [];
  private nextWriter = 0;
  private lastFailover: ReplicationT["lastFailover"] = null;
  private closed = false;
  private hits: {
    keys: string[];
    arguments: string[];
    waiting: { resolve: (hit: BucketHit) => void; reject: (error: unknown) => void }[];
  } = { keys: [], arguments: [], waiting: [] };
  /** This turn's lists to save, sent together (`sendCreates`). */
  private creates: {
    keys: string[];
    arguments: string[];
    resolve: (claimed: number) => void;
    reject: (error: unknown) => void;
  }[] = [];

  private constructor(client: Client | undefined, sentinel?: RedisSentinelType) {
    this.client = client;
    this.sentinel = sentinel;
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
   * Asks the Sentinels for the primary and follows its failovers. Starts even when no Sentinel
   * answers: node-redis gives up its first connection after `maxCommandRediscovers` tries, so
   * another starts 2 s later, until one succeeds; writes answer 503 meanwhile.
   */
  static async connectSentinel(
    target: SentinelTarget,
    onError: (error: Error) => void = () => undefined,
  ): Promise<RedisStore> {
    const socket = {
      connectTimeout: COMMAND_TIMEOUT_MS,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000),
    };
    const sentinel: RedisSentinelType = createSentinel({
      name: target.name,
      sentinelRootNodes: target.sentinels.map((node) => ({ ...node })),
      nodeClientOptions: { disableOfflineQueue: true, socket },
      sentinelClientOptions: { disableOfflineQueue: true, socket },
      commandOptions: { timeout: 0 },
      // Replicated writes hold WRITERS connections of their own (see `writers`), so a WAIT never
      // holds up reads and rate-limit counts, which share the last one.
      masterPoolSize: WRITERS + 1,
      // Each rediscovery waits 1 s; a command gives up (and `run` has answered long before).
      maxCommandRediscovers: 5,
      // Besides the Sentinels' +switch-master messages, look again every 5 s.
      scanInterval: 5000,
    });
    const store = new RedisStore(undefined, sentinel);
    sentinel.on("error", (error: unknown) => onError(error instanceof Error ? error : new Error(String(error))));
    let primary: string | null = null;
    sentinel.on("topology-change", (event: { type: string; node?: { host: string; port: number } }) => {
      if (event.type !== "MASTER_CHANGE") return;
      const next = nodeName(event.node);
      if (primary && next && next !== primary) {
        store.lastFailover = { at: new Date().toISOString(), from: primary, to: next };
        onError(new Error(`Sentinel failover: the primary is now ${next} (was ${primary})`));
      }
      primary = next;
      // The new primary's settings decide durability now.
      void store.checkDurability().catch(() => undefined);
    });
    const attempt = async (): Promise<void> => {
      try {
        await sentinel.connect();
        // Leased for good: node-redis's per-call lease (`use`) costs about 30 ms a call.
        for (let i = 0; i < WRITERS; i++) store.writers.push(await sentinel.acquire());
        store.client = sentinel;
        await store.checkDurability().catch(() => undefined);
      } catch (error) {
        onError(error as Error);
        if (!store.closed) setTimeout(() => void attempt(), 2000).unref();
      }
    };
    const connecting = attempt();
    await Promise.race([connecting, new Promise((resolve) => setTimeout(resolve, 3 * COMMAND_TIMEOUT_MS).unref())]);
    return store;
  }

  /**
   * Runs `command` on the client within COMMAND_TIMEOUT_MS. `write` marks a command that changes
   * what users were promised: once it may have reached Redis, a timeout or a lost connection
   * leaves its outcome unknown (StoreOutcomeUnknownError), while a refusal means nothing was saved.
   */
  private async run<T>(command: (client: Client) => Promise<T>, write = false): Promise<T> {
    const client = this.client;
    if (!client?.isReady) throw new StoreUnavailableError("Redis is not connected");
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        command(client),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                write
                  ? new StoreOutcomeUnknownError("Redis did not confirm the write in time")
                  : new StoreUnavailableError("Redis did not answer in time"),
              ),
            COMMAND_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      const message = (error as Error).message;
      if (write && !REFUSED.test(message) && !/offline/i.test(message))
        throw new StoreOutcomeUnknownError(`Redis error: ${message}`);
      throw new StoreUnavailableError(`Redis error: ${message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A write that must survive a failover. With Sentinel: the command, then `WAIT 1`, in one
   * pipeline on one leased connection; acknowledged only when a replica has it. Without: the
   * command alone (one Redis, `appendfsync always`). The pipeline's arguments are made only when
   * it is sent: a turn's create call has hundreds, which the command alone never needs.
   */
  private async replicated(
    alone: (client: Client) => Promise<unknown>,
    args: () => string[],
    retryArgs?: () => string[],
  ): Promise<unknown> {
    if (!this.sentinel) return this.run(alone, true);
    const writer = this.writers[this.nextWriter++ % Math.max(this.writers.length, 1)];
    if (!writer) throw new StoreUnavailableError("Redis Sentinel has not named a primary yet");
    return this.run(async () => {
      const pipeline = (commandArgs: string[]) =>
        writer
          .multi()
          .addCommand(false, commandArgs)
          .addCommand(false, ["WAIT", "1", String(WAIT_TIMEOUT_MS)])
          .execAsPipeline();
      let replies: unknown[];
      try {
        replies = await pipeline(args());
      } catch (error) {
        // A failed command rejects the pipeline with its own error reply (NOSCRIPT: a restarted
        // or newly promoted Redis that has not seen the script yet).
        if (!retryArgs || !/^NOSCRIPT/.test(reason(error).message)) throw reason(error);
        replies = await pipeline(retryArgs()).catch((again: unknown) => Promise.reject(reason(again)));
      }
      if (Number(replies[1]) < 1)
        throw new StoreOutcomeUnknownError(`no replica confirmed the write within ${WAIT_TIMEOUT_MS} ms`);
      return replies[0];
    }, true);
  }

  async checkDurability(): Promise<void> {
    const config = await this.run((client) => client.configGet(["append*", "min-replicas-to-write"]));
    const problems: string[] = [];
    if (config.appendonly !== "yes" || config.appendfsync !== "always")
      problems.push(
        `Redis runs with appendonly=${config.appendonly} appendfsync=${config.appendfsync}; set appendonly yes and appendfsync always so acknowledged writes survive a crash`,
      );
    if (this.sentinel && Number(config["min-replicas-to-write"] ?? 0) < 1)
      problems.push(
        "the Redis primary runs with min-replicas-to-write 0; set it to 1 so a primary cut off from its replicas refuses writes",
      );
    this.durabilityWarning = problems.length > 0 ? problems.join("; ") : null;
  }

  async createList(input: NewList): Promise<StoredList> {
    const ttl = String(input.expiresAt.getTime() - input.createdAt.getTime());
    const list = {
      id: input.id,
      slug: null as string | null,
      name: input.name,
      approvedServiceIds: input.approvedServiceIds,
      ...(input.jobsUsed ? { jobsUsed: input.jobsUsed } : {}),
      ...(input.dataGb ? { dataGb: input.dataGb } : {}),
      createdAt: input.createdAt.toISOString(),
      expiresAt: input.expiresAt.toISOString(),
      ...(input.idempotency ? { idempotency: input.idempotency } : {}),
    };
    // Keys saved before they were scoped to the client lived under `idempotency:`; these never meet them.
    const idempotencyKey = `${PREFIX}idem:${input.idempotency?.scope ?? ""}`;
    /** Set when the Idempotency-Key names a list saved earlier: that list is the answer. */
    let earlier: StoredList | undefined;
    // The slug follows the id (a nanoid), so the first mark is the slug's even if the name held one.
    const json = JSON.stringify({ ...list, slug: SLUG_MARK });
    const at = json.indexOf(SLUG_MARK_JSON);
    const [head, tail] = [json.slice(0, at), json.slice(at + SLUG_MARK_JSON.length)];
    const save = async (candidates: string[]): Promise<string | null | undefined> => {
      const claimed = await this.saveInTurn(
        [`${PREFIX}list:${list.id}`, idempotencyKey, ...candidates.map((slug) => `${PREFIX}slug:${slug}`)],
        [list.id, ttl, head, tail, input.idempotency ? "1" : "0", ...candidates],
      );
      if (claimed === -2) {
        const id = await this.run((client) => client.get(idempotencyKey));
        earlier = id ? await this.getList(id, input.createdAt) : undefined;
        // Expired between the two calls (a matter of milliseconds): the client may retry.
        if (!earlier) throw new StoreUnavailableError("the list saved with this Idempotency-Key just expired");
        if (earlier.idempotency?.fingerprint !== input.idempotency?.fingerprint) throw new IdempotencyKeyReusedError();
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

  /** One list's part of this turn's create call (CREATE_LISTS_SCRIPT): what the script answers for it. */
  private saveInTurn(keys: string[], args: string[]): Promise<number> {
    return new Promise((resolve, reject) => {
      // Sent once this tick's work is done: the creates that a turn's answered counts let through go together.
      if (this.creates.push({ keys, arguments: args, resolve, reject }) === 1)
        process.nextTick(() => this.sendCreates());
    });
  }

  /**
   * This turn's lists in as few script calls as LISTS_PER_CALL allows. Per list, the outcome is
   * what its own call would have had: the lists are saved in order, and a call that fails (or
   * whose outcome is unknown) fails for each of its lists.
   */
  private sendCreates(): void {
    const creates = this.creates;
    this.creates = [];
    for (let start = 0; start < creates.length; start += LISTS_PER_CALL) {
      const part = creates.slice(start, start + LISTS_PER_CALL);
      const options = {
        keys: part.flatMap((create) => create.keys),
        arguments: part.flatMap((create) => [String(create.keys.length), ...create.arguments]),
      };
      this.replicated(
        (client) => CREATE_LISTS_SCRIPT.run(client, options),
        () => CREATE_LISTS_SCRIPT.args(options),
        () => CREATE_LISTS_SCRIPT.args(options, false),
      ).then(
        (answers) => {
          for (let i = 0; i < part.length; i++) part[i]!.resolve(Number((answers as unknown[])[i]));
        },
        (error: unknown) => {
          for (const create of part) create.reject(error);
        },
      );
    }
  }

  async getList(slugOrId: string, now: Date): Promise<StoredList | undefined> {
    const id = (await this.run((client) => client.get(`${PREFIX}slug:${slugOrId}`))) ?? slugOrId;
    const raw = await this.run((client) => client.get(`${PREFIX}list:${id}`));
    if (!raw) return undefined;
    const list = parseStoredList(parseJson(raw));
    return list && new Date(list.expiresAt) > now ? list : undefined;
  }

  /**
   * Moves the list's expiry and its keys' TTLs in one script call (RENEW_LIST_SCRIPT), replicated
   * like the create it extends: a renewal acknowledged survives a failover.
   */
  async renewList(list: StoredList, expiresAt: Date, now: Date): Promise<boolean> {
    const ttl = expiresAt.getTime() - now.getTime();
    if (ttl <= 0 || new Date(list.expiresAt) <= now) return false;
    const keys = [
      `${PREFIX}list:${list.id}`,
      ...(list.slug ? [`${PREFIX}slug:${list.slug}`] : []),
      ...(list.idempotency ? [`${PREFIX}idem:${list.idempotency.scope}`] : []),
    ];
    const options = { keys, arguments: [list.id, list.expiresAt, expiresAt.toISOString(), String(ttl)] };
    const answer = await this.replicated(
      (client) => RENEW_LIST_SCRIPT.run(client, options),
      () => RENEW_LIST_SCRIPT.args(options),
      () => RENEW_LIST_SCRIPT.args(options, false),
    );
    return Number(answer) === 1;
  }

  async recordFeedback(feedback: Feedback): Promise<void> {
    const entry = JSON.stringify(feedback);
    await this.replicated(
      (client) => client.rPush(`${PREFIX}feedback`, entry),
      () => ["RPUSH", `${PREFIX}feedback`, entry],
    );
  }

  /** Telemetry: saved like any write, but not held up waiting for a replica. */
  async recordOutboundClick(click: OutboundClick): Promise<void> {
    await this.run((client) => client.rPush(`${PREFIX}outbound`, JSON.stringify(click)), true);
  }

  hit(bucket: string, key: string, windowMs: number): Promise<BucketHit> {
    return new Promise((resolve, reject) => {
      // Sent once this tick's work is done: the requests of a batch reach their limit in one tick.
      if (this.hits.keys.length === 0) process.nextTick(() => this.sendHits());
      this.hits.keys.push(`${PREFIX}rl:${bucket}:${key}`);
      this.hits.arguments.push(String(windowMs));
      this.hits.waiting.push({ resolve, reject });
    });
  }

  /** The hits of one turn (the requests a batch answers reach their limit together) in one script call. */
  private sendHits(): void {
    const { keys, arguments: windows, waiting } = this.hits;
    this.hits = { keys: [], arguments: [], waiting: [] };
    this.run((client) => HIT_SCRIPT.run(client, { keys, arguments: windows })).then(
      (answers) => {
        const numbers = answers as number[];
        for (let i = 0; i < waiting.length; i++)
          waiting[i]!.resolve({ count: numbers[2 * i]!, resetMs: numbers[2 * i + 1]! });
      },
      (error: unknown) => {
        for (const hit of waiting) hit.reject(error);
      },
    );
  }

  /** The status history: a list capped at STATUS_SAMPLES_KEPT, newest first, each sample checked on read. */
  async recordStatusSample(sample: StatusRecordT): Promise<void> {
    await this.run((client) =>
      client
        .multi()
        .lPush(STATUS_SAMPLES_KEY, JSON.stringify(sample))
        .lTrim(STATUS_SAMPLES_KEY, 0, STATUS_SAMPLES_KEPT - 1)
        .exec(),
    );
  }

  async statusSamples(since: Date, limit: number): Promise<StatusRecordT[]> {
    const raw = await this.run((client) => client.lRange(STATUS_SAMPLES_KEY, 0, STATUS_SAMPLES_KEPT - 1));
    const samples = raw.flatMap((line) => {
      try {
        return parseStatusSample(JSON.parse(line)) ?? [];
      } catch {
        return [];
      }
    });
    return samplesSince(samples, since, limit);
  }

  /** With Sentinel: the primary, the replicas it reports, and the last failover this instance followed. */
  async replication(): Promise<ReplicationT | undefined> {
    const sentinel = this.sentinel;
    if (!sentinel) return undefined;
    const info = await this.run((client) => client.info("replication")).catch(() => "");
    const replicas = [...info.matchAll(/^slave\d+:(.*)$/gm)].map((match) => {
      const fields = Object.fromEntries(match[1]!.split(",").map((pair) => pair.split("=") as [string, string]));
      return {
        address: `${fields.ip}:${fields.port}`,
        state: fields.state ?? "unknown",
        lagSeconds: Number(fields.lag ?? 0),
      };
    });
    return { primary: nodeName(sentinel.getMasterNode()), replicas, lastFailover: this.lastFailover };
  }

  async ping(): Promise<void> {
    await this.run((client) => client.ping());
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.sentinel ?? this.client;
    for (const writer of this.writers) await writer.release();
    try {
      await client?.close();
    } catch {
      await client?.destroy();
    }
  }
}

/** An error out of a replicated pipeline, as `run` classifies it: the failed reply's message. */
function reason(error: unknown): Error {
  const replies = (error as { replies?: unknown[] }).replies;
  const failed = replies?.find((reply) => reply instanceof Error);
  return failed ?? (error as Error);
}

/** A value read back from Redis, or undefined when it is not JSON (then not ours to trust). */
function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
