import type { Redis } from 'ioredis';
import { failOpenRedis, readyWithin } from '@skills/common/redis';
import type { Logger } from '@skills/common';
import type { RateLimitStore, WindowHit } from '../domain/rate-limiter';
import { MemoryRateLimitStore } from './memory-rate-limit.store';

/**
 * INCR and the window's expiry in one atomic step: the first request of a
 * window sets its PEXPIRE, so every replica sees the same window. A key left
 * without expiry (a crash between the two is impossible inside a script, but
 * an operator may PERSIST it) gets one again.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
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
}

/**
 * Windows shared by every gateway replica through Redis. When Redis does not
 * answer the gateway fails open: the request is counted in this replica's
 * memory instead (a per-replica budget, never a refusal caused by Redis) and
 * a warning is logged, at most once per outage.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private readonly fallback: MemoryRateLimitStore;
  private readonly prefix: string;
  private degraded = false;

  constructor(private readonly options: RedisRateLimitStoreOptions) {
    this.prefix = options.prefix ?? 'skills:ratelimit:';
    this.fallback = options.fallback ?? new MemoryRateLimitStore();
    // Never queue a count behind a reconnect: a request must not wait for Redis.
    this.redis = failOpenRedis(options.url, options.commandTimeoutMs);
    this.redis.defineCommand('skillsRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    // Without a listener ioredis prints every connection error itself.
    this.redis.on('error', (err: Error) => this.warn(err));
    this.redis.on('ready', () => {
      if (this.degraded) this.options.logger.warn('rate limit: Redis answers again, counting shared windows');
      this.degraded = false;
    });
  }

  /**
   * Waits up to `timeoutMs` for the first connection, so the first requests
   * after start count in Redis; never throws (a Redis that is down is the
   * fail-open case, not a start-up failure).
   */
  async connect(timeoutMs = 1_000): Promise<void> {
    await readyWithin(this.redis, timeoutMs);
  }

  async hit(id: string, windowMs: number): Promise<WindowHit> {
    try {
      // ioredis types custom commands loosely; the script returns {count, ttl}.
      const run = (this.redis as unknown as Record<string, (key: string, ms: number) => Promise<[number, number]>>)['skillsRateHit'];
      const [count, ttl] = await run.call(this.redis, this.prefix + id, windowMs);
      return { count, resetMs: ttl };
    } catch (err) {
      this.warn(err);
      return this.fallback.hitNow(id, windowMs);
    }
  }

  async close(): Promise<void> {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  private warn(err: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    this.options.logger.warn({ err }, 'rate limit: Redis unavailable, counting per replica in memory until it answers');
  }
}
