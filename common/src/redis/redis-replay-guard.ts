/**
 * The replay guard shared by every replica of a service: `SET key 1 NX PX`
 * in Redis, so a header used on one replica is refused on all of them. Only
 * writes pay the round trip (see isSafeMethod); every request is also checked
 * in this process's memory first, which catches a replay to the same replica
 * without asking Redis.
 *
 * Redis down or slow (a command timeout of 250 ms): the write is let through
 * on the memory check alone and one warning is logged per outage. Refusing
 * every write while Redis is away would turn a cache outage into a write
 * outage; the window this leaves is a header captured inside the deployment
 * and replayed to another replica within its 5 s lifetime, during the outage.
 */
import type { Logger } from 'pino';
import { FailOpenRedis } from './fail-open-redis';
import { MemoryReplayGuard, isSafeMethod, type ReplayGuard } from '../replay-guard';

export interface RedisReplayGuardOptions {
  url: string;
  logger: Logger;
  /** key prefix, so several deployments (or services) can share one Redis */
  prefix?: string;
  commandTimeoutMs?: number;
  now?: () => number;
}

/** Clock skew allowance on top of a header's own lifetime, so no replica forgets an id before another stops accepting it. */
const SKEW_MS = 1_000;

export class RedisReplayGuard implements ReplayGuard {
  private readonly redis: FailOpenRedis;
  private readonly local: MemoryReplayGuard;
  private readonly prefix: string;
  private readonly now: () => number;

  constructor(options: RedisReplayGuardOptions) {
    this.prefix = options.prefix ?? 'skills:principal:';
    this.now = options.now ?? Date.now;
    this.local = new MemoryReplayGuard({ now: this.now });
    this.redis = new FailOpenRedis({
      url: options.url,
      commandTimeoutMs: options.commandTimeoutMs,
      logger: options.logger,
      whileAway: 'replay guard: Redis unavailable, writes are checked in this process only',
      back: 'replay guard: Redis answers again',
    });
  }

  /** Waits for Redis at most `timeoutMs`; true when it answers. */
  ready(timeoutMs = 1_000): Promise<boolean> {
    return this.redis.ready(timeoutMs);
  }

  async firstUse(jti: string, expiresAt: number, method: string): Promise<boolean> {
    if (!this.local.take(jti, expiresAt)) return false;
    if (isSafeMethod(method)) return true;
    const ttl = Math.max(1, Math.ceil(expiresAt - this.now() + SKEW_MS));
    try {
      const set = await this.redis.client.set(`${this.prefix}${jti}`, '1', 'PX', ttl, 'NX');
      this.redis.answered();
      return set === 'OK';
    } catch (err) {
      this.redis.away(err);
      return true;
    }
  }

  close(): Promise<void> {
    return this.redis.close();
  }
}
