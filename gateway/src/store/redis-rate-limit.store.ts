import { FailOpenRedis } from '@skills/common/redis';
import type { Logger } from '@skills/common';
import type { SlidingWindowStore, TakeResult } from '../domain/limits/sliding-window';
import { MemoryRateLimitStore } from './memory-rate-limit.store';

/**
 * One sliding-window step, atomic in Redis: the client's hash holds the
 * current fixed window's index and the counts of that window and the one
 * before; the script rolls them forward, weighs the previous count by its
 * overlap (the rule of domain/limits/sliding-window.ts), counts the request when it
 * fits (ARGV[3] = 1) and keeps the hash two windows. Time is Redis's own
 * (TIME), so every replica cuts the same windows; ARGV[4] overrides it in
 * tests. One key per client: a cluster can place it anywhere.
 */
const STEP_SCRIPT = `
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local index = math.floor(now / window)
local elapsed = now - index * window
local stored = redis.call('HMGET', KEYS[1], 'i', 'c', 'p')
local si = tonumber(stored[1])
local cur = tonumber(stored[2]) or 0
local prev = tonumber(stored[3]) or 0
if si == nil or si < index - 1 then
  cur = 0
  prev = 0
elseif si == index - 1 then
  prev = cur
  cur = 0
end
local allowed = 0
if ARGV[3] == '1' and prev * (window - elapsed) / window + cur + 1 <= limit then
  cur = cur + 1
  allowed = 1
  redis.call('HSET', KEYS[1], 'i', index, 'c', cur, 'p', prev)
  redis.call('PEXPIRE', KEYS[1], window * 2)
end
return {allowed, index, cur, prev, elapsed}
`;

export interface RedisRateLimitStoreOptions {
  url: string;
  logger: Logger;
  /** key prefix, so several deployments can share one Redis */
  prefix?: string;
  /** how long a count may take before the local fallback answers */
  commandTimeoutMs?: number;
  /** counts requests while Redis is unreachable */
  fallback?: MemoryRateLimitStore;
  /** tests only: the clock the script uses instead of Redis's TIME */
  now?: () => number;
}

type Step = (
  key: string,
  windowMs: number,
  limit: number,
  count: string,
  now: string,
) => Promise<[number, number, number, number, number]>;

/**
 * Sliding windows shared by every gateway replica through Redis. When Redis
 * does not answer the gateway fails open: the request is counted in this
 * replica's memory instead (a per-replica budget, never a refusal caused by
 * Redis) and a warning is logged, at most once per outage.
 */
export class RedisRateLimitStore implements SlidingWindowStore {
  private readonly redis: FailOpenRedis;
  private readonly fallback: MemoryRateLimitStore;
  private readonly prefix: string;

  constructor(private readonly options: RedisRateLimitStoreOptions) {
    this.prefix = options.prefix ?? 'skills:ratelimit:';
    this.fallback = options.fallback ?? new MemoryRateLimitStore({ now: options.now });
    // Never queue a count behind a reconnect: a request must not wait for Redis.
    this.redis = new FailOpenRedis({
      url: options.url,
      commandTimeoutMs: options.commandTimeoutMs,
      logger: options.logger,
      whileAway: 'rate limit: Redis unavailable, counting per replica in memory until it answers',
      back: 'rate limit: Redis answers again, counting shared windows',
    });
    this.redis.client.defineCommand('skillsSlidingWindow', { numberOfKeys: 1, lua: STEP_SCRIPT });
  }

  /**
   * Waits up to `timeoutMs` for the first connection, so the first requests
   * after start count in Redis; never throws (a Redis that is down is the
   * fail-open case, not a start-up failure).
   */
  async connect(timeoutMs = 1_000): Promise<void> {
    await this.redis.ready(timeoutMs);
  }

  async take(id: string, limit: number, windowMs: number): Promise<TakeResult> {
    try {
      return await this.step(id, limit, windowMs, true);
    } catch (err) {
      this.redis.away(err);
      return this.fallback.takeNow(id, limit, windowMs);
    }
  }

  async peek(id: string, windowMs: number): Promise<Omit<TakeResult, 'allowed'>> {
    try {
      return await this.step(id, 0, windowMs, false);
    } catch (err) {
      this.redis.away(err);
      return this.fallback.peekNow(id, windowMs);
    }
  }

  close(): Promise<void> {
    return this.redis.close();
  }

  private async step(id: string, limit: number, windowMs: number, count: boolean): Promise<TakeResult> {
    // ioredis types custom commands loosely; the script returns {allowed, index, current, previous, elapsed}.
    const run = (this.redis.client as unknown as Record<string, Step>)['skillsSlidingWindow'] as Step;
    const now = this.options.now ? String(this.options.now()) : '';
    const [allowed, index, current, previous, elapsedMs] = await run.call(
      this.redis.client,
      this.prefix + id,
      windowMs,
      limit,
      count ? '1' : '0',
      now,
    );
    this.redis.answered();
    return { allowed: allowed === 1, counts: { index, current, previous }, elapsedMs };
  }
}
