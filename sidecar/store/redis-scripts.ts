/**
 * The Redis store's Lua scripts (./redis.ts runs them): each is atomic in Redis, sent by EVALSHA.
 */
import { createHash } from "node:crypto";
import type { RedisClientType, RedisSentinelType } from "redis";

/** A plain client (REDIS_URL) or a Sentinel-managed one (REDIS_SENTINELS): the same commands. */
export type Client = RedisClientType | RedisSentinelType;

/**
 * A Lua script run by EVALSHA, so Redis does not hash its text on every call; NOSCRIPT (a restarted
 * Redis) loads it again.
 */
export class Script {
  private readonly source: string;
  private readonly sha1: string;
  constructor(source: string) {
    this.source = source;
    this.sha1 = createHash("sha1").update(source).digest("hex");
  }
  run(client: Client, options: { keys: string[]; arguments: string[] }): Promise<unknown> {
    return client
      .evalSha(this.sha1, options)
      .catch((error: Error) =>
        /NOSCRIPT/.test(error.message) ? client.eval(this.source, options) : Promise.reject(error),
      );
  }
  /** EVALSHA's arguments, or EVAL's when `loaded` is false, for a pipeline. */
  args(options: { keys: string[]; arguments: string[] }, loaded = true): string[] {
    return [
      loaded ? "EVALSHA" : "EVAL",
      loaded ? this.sha1 : this.source,
      String(options.keys.length),
      ...options.keys,
      ...options.arguments,
    ];
  }
}

/**
 * For each of KEYS in order, INCR with its window (ARGV[i], ms) set on first hit; returns a count
 * and the remaining ms per key, flattened. Atomic in Redis. REPL_NONE keeps the counters out of
 * the AOF, so with `appendfsync always` they add no fsync (the reply still leaves after the fsync
 * of any write Redis handled in the same event-loop turn).
 */
export const HIT_SCRIPT = new Script(`
redis.set_repl(redis.REPL_NONE)
local answers = {}
for i = 1, #KEYS do
  local count = redis.call('INCR', KEYS[i])
  if count == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[i]) end
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[i]); ttl = tonumber(ARGV[i]) end
  answers[2 * i - 1] = count
  answers[2 * i] = ttl
end
return answers`);

/**
 * Saves the lists of one turn (group commit: one round trip, one fsync, with Sentinel one WAIT).
 * For each list, in order: ARGV holds its number of keys n, then its n + 3 arguments; KEYS its n
 * keys. A list's keys: the list, its Idempotency-Key's key (by scope), then its slug candidates; its
 * arguments: id, TTL in ms, the list's JSON split where the slug goes, the key flag ("1" when it
 * has an Idempotency-Key), then the candidates. A list claims the first free candidate (SET NX)
 * and is saved; answered per list: the index (1-based) of the slug claimed, 0 when no slug was
 * asked for, -1 when every candidate is taken (nothing is written then), or -2 when a live list
 * was saved with its Idempotency-Key (its id then read from that key; nothing is written).
 * Each list sees the lists before it in the call, as if each were its own call. A refusal (OOM,
 * READONLY) comes at the call's first write, so a refused call saves none of its lists.
 */
export const CREATE_LISTS_SCRIPT = new Script(`
local function create(keys, argv)
  if argv[5] == '1' and redis.call('EXISTS', keys[2]) == 1 then return -2 end
  local claimed = 0
  for i = 3, #keys do
    -- A slug this list already holds counts as claimed: a pipeline sent again after a failover
    -- must not lose its own slug to itself.
    if redis.call('SET', keys[i], argv[1], 'NX', 'PX', argv[2]) or redis.call('GET', keys[i]) == argv[1] then
      claimed = i - 2; break
    end
  end
  if #keys > 2 and claimed == 0 then return -1 end
  -- Slugs are [a-z0-9-] only, so they need no JSON escaping.
  local slug = claimed > 0 and ('"' .. argv[5 + claimed] .. '"') or 'null'
  redis.call('SET', keys[1], argv[3] .. slug .. argv[4], 'PX', argv[2])
  if argv[5] == '1' then redis.call('SET', keys[2], argv[1], 'PX', argv[2]) end
  return claimed
end
local answers, k, a = {}, 0, 0
while a < #ARGV do
  local n = tonumber(ARGV[a + 1])
  local keys, argv = {}, {}
  for j = 1, n do keys[j] = KEYS[k + j] end
  for j = 1, n + 3 do argv[j] = ARGV[a + 1 + j] end
  answers[#answers + 1] = create(keys, argv)
  k = k + n
  a = a + n + 4
end
return answers`);

/**
 * Renews one list (docs/decisions.md#list-renewal). KEYS: the list, then its slug's key and its
 * Idempotency-Key's key where it has them; ARGV: id, the expiry it was read with, the new expiry,
 * the new TTL in ms. Answers 1 once the list's expiresAt and every key's TTL are moved; 0, writing
 * nothing, when the list is gone (expired) or its expiry is no longer the one read (another
 * instance renewed it). The JSON is edited in place: `"expiresAt":"<read>"` can only be the field
 * itself, since a quote inside a string value is escaped. A slug or key that now names another list
 * is left alone.
 */
export const RENEW_LIST_SCRIPT = new Script(`
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local field = '"expiresAt":"' .. ARGV[2] .. '"'
local from, to = string.find(raw, field, 1, true)
if not from then return 0 end
local renewed = string.sub(raw, 1, from - 1) .. '"expiresAt":"' .. ARGV[3] .. '"' .. string.sub(raw, to + 1)
redis.call('SET', KEYS[1], renewed, 'PX', ARGV[4])
for i = 2, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
end
return 1`);
