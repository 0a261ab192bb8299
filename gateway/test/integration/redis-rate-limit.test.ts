/**
 * The Redis store against the Redis at REDIS_URL (default 127.0.0.1:6379):
 * skipped, and reported as skipped, when it does not answer. The fail-open
 * test needs no Redis: it points the store at a closed port.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL, redisAnswers, recordingLogger } from '@skills/common/testing';
import { RateLimiter } from '../../src/domain/limits/rate-limiter';
import { RedisRateLimitStore } from '../../src/store/redis-rate-limit.store';
import { describeSlidingWindowStore } from '../unit/sliding-window.conformance';

const REDIS_URL = TEST_REDIS_URL;

const describeRedis = redisAnswers(REDIS_URL) ? describe : describe.skip;

/** A plain client to look at what the store wrote. */
function failOpenProbe(url: string): Redis {
  return new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1 });
}

if (redisAnswers(REDIS_URL)) {
  // the same rule as the in-memory store, on Redis's side of the script, with the test's clock
  describeSlidingWindowStore('RedisRateLimitStore', async (clock) => {
    const { logger, warnings } = recordingLogger();
    const store = new RedisRateLimitStore({
      url: REDIS_URL,
      logger,
      prefix: `skills-test:${randomUUID()}:`,
      now: () => clock.now,
    });
    await store.connect();
    // counted in Redis, not in the fallback: a warning would say Redis did not answer
    const close = store.close.bind(store);
    store.close = async () => {
      await close();
      expect(warnings).toEqual([]);
    };
    return store;
  });
}

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

  it("shares one window between replicas (on Redis's clock) and refuses past the plan budget", async () => {
    const a = new RateLimiter({ limits: { pro: 3, team: 5 }, store: replicaA });
    const b = new RateLimiter({ limits: { pro: 3, team: 5 }, store: replicaB });
    expect(await a.take('account-1', 'pro')).toMatchObject({ allowed: true, limit: 3 });
    expect(await b.take('account-1', 'pro')).toMatchObject({ allowed: true });
    expect(await a.take('account-1', 'pro')).toMatchObject({ allowed: true, remaining: 0 });
    const over = await b.take('account-1', 'pro');
    expect(over).toMatchObject({ allowed: false, remaining: 0 });
    expect(over?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(over?.retryAfterSeconds).toBeLessThanOrEqual(120);
    expect(await b.take('account-2', 'pro')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it("keeps a client's hash two windows, then lets Redis drop it", async () => {
    const raw = failOpenProbe(REDIS_URL);
    try {
      await replicaA.take('expiring', 5, 1_000);
      // the key expires two windows after its last counted request
      expect(await raw.pttl(`${prefix}expiring`)).toBeGreaterThan(1_000);
      expect(await raw.pttl(`${prefix}expiring`)).toBeLessThanOrEqual(2_000);
    } finally {
      raw.disconnect();
    }
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
