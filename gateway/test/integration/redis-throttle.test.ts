/**
 * The account throttles shared through the Redis at REDIS_URL (default
 * 127.0.0.1:6379), skipped and reported as skipped when it does not answer:
 * two gateways (two replicas) on one Redis allow the limits once, not twice,
 * and a parallel burst split between them still counts before verifying.
 * The fail-open test needs no Redis: it points the store at a closed port.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import request from 'supertest';
import { TEST_REDIS_URL, redisAnswers, recordingLogger } from '@skills/common/testing';
import { SignInThrottle } from '../../src/domain/limits/sign-in-throttle';
import { RedisThrottleStore } from '../../src/store/redis-throttle.store';
import { startHarness, type Harness } from './harness';

const THROTTLE = {
  perAddress: 20,
  addressMaxDelayMs: 60_000,
  freeFailures: 3,
  signUpsPerAddress: 10,
  linksPerAddress: 10,
  linksPerEmail: 3,
  windowMs: 15 * 60_000,
};
const describeRedis = redisAnswers(TEST_REDIS_URL) ? describe : describe.skip;

/** A client address no earlier run used: the counters outlive a run by their window. */
const freshClient = (): string => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;

function signIn(h: Harness, client: string, email: string) {
  const origin = h.gateway.url;
  return request(origin)
    .post('/api/v1/auth/sign-in')
    .set('Origin', origin)
    .set('X-Forwarded-For', client)
    .send({ email, password: 'wrong-guess-xyz' });
}

function signUp(h: Harness, client: string) {
  const origin = h.gateway.url;
  return request(origin)
    .post('/api/v1/auth/sign-up')
    .set('Origin', origin)
    .set('X-Forwarded-For', client)
    .send({ email: `${randomUUID()}@example.com`, password: 'a long enough password 42' });
}

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

describeRedis('sign-in throttle shared by two gateways through Redis', () => {
  let a: Harness;
  let b: Harness;
  beforeAll(async () => {
    const config = {
      trustProxy: ['loopback'],
      signInThrottle: THROTTLE,
      redisUrl: TEST_REDIS_URL,
      hashing: { concurrency: 2, queue: 64 },
    };
    [a, b] = await Promise.all([startHarness(config), startHarness(config)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  }, 30_000);

  it('slows one address after 20 unsuccessful sign-ins in all, whichever replica it reaches, by a delay both share', async () => {
    const client = freshClient();
    const statuses: number[] = [];
    // Alternating replicas, other emails each time: only the address's budget applies.
    for (let i = 0; i < 20; i += 1)
      statuses.push((await signIn(i % 2 ? b : a, client, `someone${i}@example.com`)).status);
    expect(statuses).toEqual(Array(20).fill(401));
    // at once, on both replicas, within the first delay's one second even on a slow machine
    const refused = await Promise.all([a, b, a, b].map((h, i) => signIn(h, client, `someone-else${i}@example.com`)));
    expect(refused.map((r) => [r.status, r.headers['retry-after']])).toEqual(Array(4).fill([429, '1']));
    expect(refused[1].body.error).toMatch(/Too many failed sign-in attempts/);
    // a second later the other replica lets one more through, and the next wait is twice as long
    await new Promise((r) => setTimeout(r, 1_100));
    await signIn(a, client, 'someone-later@example.com').expect(401);
    expect((await signIn(b, client, 'someone-else@example.com').expect(429)).headers['retry-after']).toBe('2');
  });

  it('gives one email from one address 3 guesses across replicas, even in a parallel burst', async () => {
    const client = freshClient();
    const email = `victim-${randomUUID()}@example.com`;
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signIn(i % 2 ? b : a, client, email).then((r) => r.status)),
    );
    expect(tally(statuses)).toEqual({ 401: 3, 429: 9 });
    // the progressive delay is the shared one: the other replica makes the next guess wait too
    const next = await signIn(a, client, email).expect(429);
    expect(Number(next.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // a different address is not slowed
    await signIn(b, freshClient(), email).expect(401);
  });

  it('allows one address 10 sign-ups in all across replicas', async () => {
    const client = freshClient();
    const statuses = await Promise.all(
      Array.from({ length: 14 }, (_, i) => signUp(i % 2 ? b : a, client).then((r) => r.status)),
    );
    expect(tally(statuses)).toEqual({ 202: 10, 429: 4 });
  }, 60_000);
});

describeRedis('RedisThrottleStore', () => {
  const stores: RedisThrottleStore[] = [];
  const replica = async (prefix: string, now?: () => number): Promise<SignInThrottle> => {
    const store = new RedisThrottleStore({
      url: TEST_REDIS_URL,
      logger: recordingLogger().logger,
      prefix,
      ...(now ? { now } : {}),
    });
    await store.connect();
    stores.push(store);
    return new SignInThrottle(THROTTLE, { store });
  };
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
  });

  it('doubles the shared delay after each further failure and forgets it after a success on another replica', async () => {
    const clock = { now: Date.now() };
    const prefix = `skills-test:${randomUUID()}:`;
    const [one, two] = [await replica(prefix, () => clock.now), await replica(prefix, () => clock.now)];
    for (let i = 0; i < 3; i += 1) await one.beginSignIn('x@example.com', '192.0.2.1');
    await expect(two.beginSignIn('x@example.com', '192.0.2.1')).rejects.toMatchObject({ status: 429 });
    clock.now += 1_000;
    await two.beginSignIn('x@example.com', '192.0.2.1');
    clock.now += 1_000;
    await expect(one.beginSignIn('x@example.com', '192.0.2.1')).rejects.toMatchObject({
      status: 429,
      headers: { 'Retry-After': '1' },
    });
    clock.now += 1_000;
    const attempt = await one.beginSignIn('x@example.com', '192.0.2.1');
    await two.succeeded(attempt);
    // the pair starts afresh: three free tries again
    for (let i = 0; i < 3; i += 1) await one.beginSignIn('x@example.com', '192.0.2.1');
  });

  it('counts reset requests per email and address on every replica; another address asking for the same email is not held back', async () => {
    const prefix = `skills-test:${randomUUID()}:`;
    const [one, two] = [await replica(prefix), await replica(prefix)];
    await one.beginLinkRequest('192.0.2.1', 'Target@example.com');
    await two.beginLinkRequest('192.0.2.1', 'target@example.com');
    await one.beginLinkRequest('192.0.2.1', 'target@example.com');
    await expect(two.beginLinkRequest('192.0.2.1', 'target@example.com')).rejects.toMatchObject({ status: 429 });
    await one.beginLinkRequest('192.0.2.2', 'target@example.com');
  });
});

describe('RedisThrottleStore when Redis is down', () => {
  it("fails open: keeps the limits in this replica's memory and logs one warning", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const { logger, warnings } = recordingLogger();
    const store = new RedisThrottleStore({ url: `redis://127.0.0.1:${port}`, logger });
    try {
      const throttle = new SignInThrottle(THROTTLE, { store });
      for (let i = 0; i < 3; i += 1) await throttle.beginSignIn('x@example.com', '192.0.2.1');
      await expect(throttle.beginSignIn('x@example.com', '192.0.2.1')).rejects.toMatchObject({ status: 429 });
      expect(warnings.filter((w) => w.includes('Redis unavailable'))).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});
