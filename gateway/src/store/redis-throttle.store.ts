import { FailOpenRedis } from '@skills/common/redis';
import type { Logger } from '@skills/common';
import type { ThrottleCounter, ThrottleStore } from '../domain/limits/throttle-store';
import { MemoryThrottleStore } from './memory-throttle.store';

/**
 * One throttled attempt, atomic in Redis (the rule of waitSeconds in
 * domain/limits/throttle-store.ts, in Lua): every counter's hash holds when its
 * window started (s), its count (c) and its last attempt (l). The script
 * first finds the longest wait over all counters; only when there is none
 * does it count the attempt in each, so two replicas never both let the
 * 21st attempt through. Time is Redis's own (TIME), ARGV[2] overrides it in
 * tests. ARGV[3..] are each counter's limit, free attempts and longest delay.
 */
const BEGIN_SCRIPT = `
local window = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local wait = 0
local states = {}
for i = 1, #KEYS do
  local limit = tonumber(ARGV[3 * i])
  local free = tonumber(ARGV[1 + 3 * i])
  local maxDelay = tonumber(ARGV[2 + 3 * i])
  local h = redis.call('HMGET', KEYS[i], 's', 'c', 'l')
  local s = tonumber(h[1])
  local c = tonumber(h[2]) or 0
  local l = tonumber(h[3]) or 0
  if s == nil or now - s >= window then
    s = nil
    c = 0
  end
  states[i] = s
  if limit > 0 and c >= limit then wait = math.max(wait, math.max(1, s + window - now)) end
  if free > 0 and c >= free then
    wait = math.max(wait, l + math.min(1000 * 2 ^ (c - free), maxDelay) - now)
  end
end
if wait > 0 then return math.ceil(wait / 1000) end
for i = 1, #KEYS do
  if states[i] == nil then
    redis.call('DEL', KEYS[i])
    redis.call('HSET', KEYS[i], 's', now, 'c', 1, 'l', now)
    redis.call('PEXPIRE', KEYS[i], window)
  else
    redis.call('HINCRBY', KEYS[i], 'c', 1)
    redis.call('HSET', KEYS[i], 'l', now)
  end
end
return 0
`;

/** A success: the first key starts afresh, the second gives one attempt back (never below 0). */
const FORGIVE_SCRIPT = `
redis.call('DEL', KEYS[1])
local c = tonumber(redis.call('HGET', KEYS[2], 'c'))
if c and c > 0 then redis.call('HINCRBY', KEYS[2], 'c', -1) end
return 0
`;

export interface RedisThrottleStoreOptions {
  url: string;
  logger: Logger;
  /** key prefix, so several deployments can share one Redis */
  prefix?: string;
  commandTimeoutMs?: number;
  /** tests only: the clock the script uses instead of Redis's TIME */
  now?: () => number;
}

type Begin = (...args: (string | number)[]) => Promise<number>;

/**
 * Throttle counters shared by every gateway replica. An attempt's counters
 * go to one Redis (not a cluster: the script reads several keys). When Redis
 * does not answer, the attempt is counted in this replica's memory instead
 * (the per-replica limits, never a refusal caused by Redis), with one warning
 * per outage, as the rate-limit store does.
 */
export class RedisThrottleStore implements ThrottleStore {
  private readonly redis: FailOpenRedis;
  private readonly fallback: MemoryThrottleStore;
  private readonly prefix: string;

  constructor(private readonly options: RedisThrottleStoreOptions) {
    this.prefix = options.prefix ?? 'skills:throttle:';
    this.fallback = new MemoryThrottleStore({ now: options.now });
    this.redis = new FailOpenRedis({
      url: options.url,
      commandTimeoutMs: options.commandTimeoutMs,
      logger: options.logger,
      whileAway: 'sign-in throttle: Redis unavailable, counting per replica in memory until it answers',
      back: 'sign-in throttle: Redis answers again, counting shared windows',
    });
    this.redis.client.defineCommand('skillsThrottleBegin', { lua: BEGIN_SCRIPT });
    this.redis.client.defineCommand('skillsThrottleForgive', { numberOfKeys: 2, lua: FORGIVE_SCRIPT });
  }

  /** Waits up to `timeoutMs` for the first connection; never throws (Redis away is the fail-open case). */
  async connect(timeoutMs = 1_000): Promise<void> {
    await this.redis.ready(timeoutMs);
  }

  async begin(counters: readonly ThrottleCounter[], windowMs: number): Promise<number> {
    try {
      const run = this.command('skillsThrottleBegin');
      const now = this.options.now ? String(this.options.now()) : '';
      const limits = counters.flatMap((c) => [c.limit, c.freeAttempts, c.maxDelayMs ?? windowMs]);
      const seconds = await run.call(
        this.redis.client,
        counters.length,
        ...counters.map((c) => this.prefix + c.id),
        windowMs,
        now,
        ...limits,
      );
      this.redis.answered();
      return Number(seconds);
    } catch (err) {
      this.redis.away(err);
      return this.fallback.beginNow(counters, windowMs);
    }
  }

  async forgive(reset: string, giveBack: string, windowMs: number): Promise<void> {
    try {
      await this.command('skillsThrottleForgive').call(this.redis.client, this.prefix + reset, this.prefix + giveBack);
      this.redis.answered();
    } catch (err) {
      this.redis.away(err);
      this.fallback.forgiveNow(reset, giveBack, windowMs);
    }
  }

  close(): Promise<void> {
    return this.redis.close();
  }

  private command(name: string): Begin {
    // ioredis types custom commands loosely; both scripts return an integer.
    return (this.redis.client as unknown as Record<string, Begin>)[name] as Begin;
  }
}
