/**
 * The principal header: what it binds (method, URL, body), how long it
 * lives, and where "used once" holds. The shared guard runs against the Redis
 * at REDIS_URL (default 127.0.0.1:6379) and is reported skipped without one.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import pino from 'pino';
import {
  EMPTY_BODY,
  PRINCIPAL_TTL_MS,
  PrincipalSigner,
  PrincipalVerifier,
  STREAMED_BODY,
  bodyDigest,
  type Principal,
} from '../src';
import { RedisReplayGuard } from '../src/redis/redis-replay-guard';
import { TEST_REDIS_URL, redisAnswers } from '../src/testing/redis';

const SECRET = 'principal-test-secret-of-enough-length';
const alice: Principal = { kind: 'account', accountId: 'a1', plan: 'pro', keyId: 'k1' };
const logger = pino({ level: 'silent' });

describe('PrincipalSigner and PrincipalVerifier', () => {
  const signer = new PrincipalSigner({ secret: SECRET });

  it('binds the header to the body it was signed for', async () => {
    const body = '{"name":"Renamed"}';
    const header = signer.sign(alice, 'PATCH', '/api/v1/me/collections/c1', bodyDigest(body));
    const verified = await new PrincipalVerifier({ secret: SECRET }).verify(header, 'PATCH', '/api/v1/me/collections/c1');
    expect(verified).toEqual({ principal: alice, body: bodyDigest(body) });
    expect(verified.body).not.toBe(bodyDigest('{"name":"Other"}'));
    await expect(new PrincipalVerifier({ secret: SECRET }).verify(signer.sign(alice, 'GET', '/x'), 'GET', '/x')).resolves.toMatchObject({
      body: EMPTY_BODY,
    });
    expect(STREAMED_BODY).not.toBe(EMPTY_BODY);
  });

  it('lives five seconds', async () => {
    let now = 1_000_000;
    const clockSigner = new PrincipalSigner({ secret: SECRET, now: () => now });
    const verifier = new PrincipalVerifier({ secret: SECRET, now: () => now });
    const header = clockSigner.sign(alice, 'GET', '/api/v1/skills');
    const late = clockSigner.sign(alice, 'GET', '/api/v1/skills');
    expect(PRINCIPAL_TTL_MS).toBe(5_000);
    now += 5_000;
    await expect(verifier.verify(header, 'GET', '/api/v1/skills')).resolves.toMatchObject({ principal: alice });
    now += 1;
    await expect(verifier.verify(late, 'GET', '/api/v1/skills')).rejects.toThrow(/expired/);
  });

  it('accepts a header once per process, whatever the method', async () => {
    const verifier = new PrincipalVerifier({ secret: SECRET });
    for (const method of ['GET', 'DELETE']) {
      const header = signer.sign(alice, method, '/api/v1/me/collections/c1');
      await verifier.verify(header, method, '/api/v1/me/collections/c1');
      await expect(verifier.verify(header, method, '/api/v1/me/collections/c1')).rejects.toThrow(/replayed/);
    }
  });
});

const describeRedis = redisAnswers(TEST_REDIS_URL) ? describe : describe.skip;

describeRedis('RedisReplayGuard on a live Redis', () => {
  const signer = new PrincipalSigner({ secret: SECRET });
  const prefix = `skills-test:${randomUUID()}:`;
  const guards = [0, 1].map(() => new RedisReplayGuard({ url: TEST_REDIS_URL, logger, prefix }));
  const [replicaA, replicaB] = guards.map((replayGuard) => new PrincipalVerifier({ secret: SECRET, replayGuard })) as [
    PrincipalVerifier,
    PrincipalVerifier,
  ];
  beforeAll(async () => {
    await Promise.all(guards.map((g) => g.ready(5_000)));
  });
  afterAll(async () => {
    await Promise.all(guards.map((g) => g.close()));
  });

  it('refuses a write replayed to another replica', async () => {
    const url = '/api/v1/me/collections/c1';
    const header = signer.sign(alice, 'PATCH', url, bodyDigest('{"name":"x"}'));
    await expect(replicaA.verify(header, 'PATCH', url)).resolves.toMatchObject({ principal: alice });
    await expect(replicaB.verify(header, 'PATCH', url)).rejects.toThrow(/replayed/);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const once = signer.sign(alice, method, url);
      await replicaB.verify(once, method, url);
      await expect(replicaA.verify(once, method, url)).rejects.toThrow(/replayed/);
    }
  });

  it('leaves reads to each replica: no Redis round trip on the search path', async () => {
    const header = signer.sign(alice, 'GET', '/api/v1/skills?q=pdf');
    await replicaA.verify(header, 'GET', '/api/v1/skills?q=pdf');
    await expect(replicaA.verify(header, 'GET', '/api/v1/skills?q=pdf')).rejects.toThrow(/replayed/);
    await expect(replicaB.verify(header, 'GET', '/api/v1/skills?q=pdf')).resolves.toMatchObject({ principal: alice });
  });
});

describe('RedisReplayGuard without Redis', () => {
  it('fails open on this process memory, with one warning', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const warnings: string[] = [];
    const recording = { ...logger, warn: (_o: unknown, msg: string) => warnings.push(msg), info: () => undefined } as unknown as pino.Logger;
    const guard = new RedisReplayGuard({ url: `redis://127.0.0.1:${port}`, logger: recording, commandTimeoutMs: 100 });
    try {
      expect(await guard.ready(200)).toBe(false);
      const verifier = new PrincipalVerifier({ secret: SECRET, replayGuard: guard });
      const header = new PrincipalSigner({ secret: SECRET }).sign(alice, 'DELETE', '/api/v1/me/collections/c1');
      await expect(verifier.verify(header, 'DELETE', '/api/v1/me/collections/c1')).resolves.toMatchObject({ principal: alice });
      await expect(verifier.verify(header, 'DELETE', '/api/v1/me/collections/c1')).rejects.toThrow(/replayed/);
      expect(warnings.filter((w) => w.includes('Redis unavailable'))).toHaveLength(1);
    } finally {
      await guard.close();
    }
  });
});
