/**
 * The Redis store against the Redis at REDIS_URL (default 127.0.0.1:6379):
 * skipped, and reported as skipped, when it does not answer. The fail-open
 * test needs no Redis: it points the store at a closed port.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { Logger } from '@skills/common';
import { TEST_REDIS_URL, redisAnswers } from '@skills/common/testing';
import { RateLimiter } from '../../src/domain/rate-limiter';
import { RedisRateLimitStore } from '../../src/store/redis-rate-limit.store';

const REDIS_URL = TEST_REDIS_URL;

function recordingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const record = (...args: unknown[]): void => {
    warnings.push(String(args.find((a) => typeof a === 'string') ?? ''));
  };
  // Only warn is used by the store; the other levels are no-ops.
  const logger = { warn: record, info: () => {}, debug: () => {}, error: record } as unknown as Logger;
  return { logger, warnings };
}

const describeRedis = redisAnswers(REDIS_URL) ? describe : describe.skip;

describeRedis('RedisRateLimitStore on a live Redis', () => {
  const prefix = `skills-test:${randomUUID()}:`;
  const { logger } = recordingLogger();
  const replicaA = new RedisRateLimitStore({ url: REDIS_URL, logger, prefix });
  const replicaB = new RedisRateLimitStore({ url: REDIS_URL, logger, prefix });
  beforeAll(async () => {
    await Promise.all([replicaA.connect(), replicaB.connect()]);
  });
  afterAll(async () => {
    await Promise.all([replicaA.close(), replicaB.close()]);
  });

  it('shares one window between replicas and refuses past the plan budget', async () => {
    const a = new RateLimiter({ limits: { pro: 3, team: 5 }, store: replicaA });
    const b = new RateLimiter({ limits: { pro: 3, team: 5 }, store: replicaB });
    expect(await a.take('key-1', 'pro')).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
    expect(await b.take('key-1', 'pro')).toMatchObject({ allowed: true, remaining: 1 });
    expect(await a.take('key-1', 'pro')).toMatchObject({ allowed: true, remaining: 0 });
    const over = await b.take('key-1', 'pro');
    expect(over).toMatchObject({ allowed: false, remaining: 0 });
    expect(over?.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(over?.resetSeconds).toBeLessThanOrEqual(60);
    expect(await b.take('key-2', 'pro')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('sets the window expiry on the first request only', async () => {
    const first = await replicaA.hit('key-3', 60_000);
    const second = await replicaB.hit('key-3', 1_000);
    expect(first.count).toBe(1);
    expect(second.count).toBe(2);
    // the second call's shorter window did not replace the one already running
    expect(second.resetMs).toBeGreaterThan(1_000);
  });
});

describe('RedisRateLimitStore when Redis is down', () => {
  it('fails open: counts in memory and logs one warning', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const { logger, warnings } = recordingLogger();
    const store = new RedisRateLimitStore({ url: `redis://127.0.0.1:${port}`, logger });
    try {
      const limiter = new RateLimiter({ limits: { pro: 2, team: 2 }, store });
      expect(await limiter.take('k', 'pro')).toMatchObject({ allowed: true, remaining: 1 });
      expect(await limiter.take('k', 'pro')).toMatchObject({ allowed: true, remaining: 0 });
      // still a budget, kept by this replica
      expect(await limiter.take('k', 'pro')).toMatchObject({ allowed: false });
      expect(warnings.filter((w) => w.includes('Redis unavailable'))).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});
