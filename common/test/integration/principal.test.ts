/**
 * The principal header: who may sign it (only the holder of the gateway's
 * private key), whom it is for (`aud`), which keys a service accepts (one or
 * two, by `kid`), what it binds (method, URL, body), how long it lives, and
 * where "used once" holds. The shared guard runs against the Redis at
 * REDIS_URL (default 127.0.0.1:6379) and is reported skipped without one.
 */
import { createHmac, createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import pino from 'pino';
import {
  EMPTY_BODY,
  PRINCIPAL_TTL_MS,
  PrincipalKeyError,
  PrincipalVerifier,
  STREAMED_BODY,
  bodyDigest,
  fixedKeys,
  keyIdOf,
  parsePublicKeys,
  parseSigningKey,
  type Principal,
} from '../../src';
import { RedisReplayGuard } from '../../src/redis/redis-replay-guard';
import { TEST_REDIS_URL, redisAnswers, testPrincipalKeys } from '../../src/testing';
import { silentLogger } from '@skills/common/testing';

const alice: Principal = { kind: 'account', accountId: 'a1', plan: 'pro', keyId: 'k1' };
const logger = silentLogger();
const keys = testPrincipalKeys();
const COLLECTIONS = 'collections-service';

function parts(header: string): { head: Record<string, unknown>; claims: Record<string, unknown> } {
  const [head, claims] = header
    .split('.')
    .slice(0, 2)
    .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>);
  return { head: head ?? {}, claims: claims ?? {} };
}

describe('PrincipalSigner and PrincipalVerifier', () => {
  const signer = keys.signer();

  it('signs a JWS with EdDSA, names the key and the one service the header is for', async () => {
    const header = signer.sign(alice, 'catalog-service', 'GET', '/api/v1/skills');
    const { head, claims } = parts(header);
    expect(head).toEqual({ alg: 'EdDSA', typ: 'skills-principal+v2', kid: keys.kid });
    expect(claims).toMatchObject({ aud: 'catalog-service', p: alice, m: 'GET', u: '/api/v1/skills' });
    await expect(keys.verifier('catalog-service').verify(header, 'GET', '/api/v1/skills')).resolves.toMatchObject({
      principal: alice,
    });
    // The same header, sent to the other service, is refused there.
    await expect(keys.verifier(COLLECTIONS).verify(header, 'GET', '/api/v1/skills')).rejects.toThrow(/audience/);
  });

  it('names each key by its RFC 7638 thumbprint', () => {
    // The thumbprint of the RFC 8037 appendix A.3 example key.
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' };
    const publicKey = createPublicKey({ key: jwk, format: 'jwk' });
    expect(keyIdOf(publicKey)).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it('refuses a header signed with a key the service does not hold, or with the old shared secret', async () => {
    const stranger = testPrincipalKeys();
    const header = stranger.signer().sign(alice, COLLECTIONS, 'GET', '/x');
    await expect(keys.verifier(COLLECTIONS).verify(header, 'GET', '/x')).rejects.toThrow(/: key$/);
    // Claims under a valid kid but signed with another private key.
    const [head, payload] = signer.sign(alice, COLLECTIONS, 'GET', '/x').split('.');
    const forged = `${head}.${payload}.${stranger.signer().sign(alice, COLLECTIONS, 'GET', '/x').split('.')[2]}`;
    await expect(keys.verifier(COLLECTIONS).verify(forged, 'GET', '/x')).rejects.toThrow(/signature/);
    // An HMAC over the claims (what a holder of a shared secret could make) is no EdDSA signature.
    const mac = createHmac('sha256', 'principal-test-secret-of-enough-length')
      .update(`${head}.${payload}`)
      .digest('base64url');
    await expect(keys.verifier(COLLECTIONS).verify(`${head}.${payload}.${mac}`, 'GET', '/x')).rejects.toThrow(
      /signature/,
    );
    const hs256 = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'skills-principal+v2', kid: keys.kid })).toString(
      'base64url',
    );
    await expect(keys.verifier(COLLECTIONS).verify(`${hs256}.${payload}.${mac}`, 'GET', '/x')).rejects.toThrow(
      /malformed/,
    );
  });

  it('accepts two keys during a rotation, and only the keys it holds', async () => {
    const next = testPrincipalKeys();
    const both = new PrincipalVerifier({
      audience: COLLECTIONS,
      keys: fixedKeys(parsePublicKeys(keys.publicKeyPem + next.publicKeyPem)),
    });
    await expect(both.verify(signer.sign(alice, COLLECTIONS, 'GET', '/x'), 'GET', '/x')).resolves.toMatchObject({
      principal: alice,
    });
    await expect(both.verify(next.signer().sign(alice, COLLECTIONS, 'GET', '/x'), 'GET', '/x')).resolves.toMatchObject({
      principal: alice,
    });
    const third = testPrincipalKeys();
    expect(() => parsePublicKeys(keys.publicKeyPem + next.publicKeyPem + third.publicKeyPem)).toThrow(/at most 2/);
  });

  it('takes Ed25519 keys only', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(() => parseSigningKey(rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString())).toThrow(
      PrincipalKeyError,
    );
    expect(() => parsePublicKeys(rsa.publicKey.export({ format: 'pem', type: 'spki' }).toString())).toThrow(/Ed25519/);
    expect(() => parseSigningKey('not a key')).toThrow(/not a PEM private key/);
    expect(() => parsePublicKeys(keys.signingKeyPem)).toThrow(/no "BEGIN PUBLIC KEY"/);
  });

  it('binds the header to the body it was signed for', async () => {
    const body = '{"name":"Renamed"}';
    const header = signer.sign(alice, COLLECTIONS, 'PATCH', '/api/v1/me/collections/c1', bodyDigest(body));
    const verified = await keys.verifier(COLLECTIONS).verify(header, 'PATCH', '/api/v1/me/collections/c1');
    expect(verified).toEqual({ principal: alice, body: bodyDigest(body) });
    expect(verified.body).not.toBe(bodyDigest('{"name":"Other"}'));
    await expect(
      keys.verifier(COLLECTIONS).verify(signer.sign(alice, COLLECTIONS, 'GET', '/x'), 'GET', '/x'),
    ).resolves.toMatchObject({
      body: EMPTY_BODY,
    });
    expect(STREAMED_BODY).not.toBe(EMPTY_BODY);
  });

  it('lives five seconds', async () => {
    let now = 1_000_000;
    const clockSigner = keys.signer({ now: () => now });
    const verifier = keys.verifier('catalog-service', { now: () => now });
    const header = clockSigner.sign(alice, 'catalog-service', 'GET', '/api/v1/skills');
    const late = clockSigner.sign(alice, 'catalog-service', 'GET', '/api/v1/skills');
    expect(PRINCIPAL_TTL_MS).toBe(5_000);
    now += 5_000;
    await expect(verifier.verify(header, 'GET', '/api/v1/skills')).resolves.toMatchObject({ principal: alice });
    now += 1;
    await expect(verifier.verify(late, 'GET', '/api/v1/skills')).rejects.toThrow(/expired/);
  });

  it('accepts a header once per process, whatever the method', async () => {
    const verifier = keys.verifier(COLLECTIONS);
    for (const method of ['GET', 'DELETE']) {
      const header = signer.sign(alice, COLLECTIONS, method, '/api/v1/me/collections/c1');
      await verifier.verify(header, method, '/api/v1/me/collections/c1');
      await expect(verifier.verify(header, method, '/api/v1/me/collections/c1')).rejects.toThrow(/replayed/);
    }
  });
});

const describeRedis = redisAnswers(TEST_REDIS_URL) ? describe : describe.skip;

describeRedis('RedisReplayGuard on a live Redis', () => {
  const signer = keys.signer();
  const prefix = `skills-test:${randomUUID()}:`;
  const guards = [0, 1].map(() => new RedisReplayGuard({ url: TEST_REDIS_URL, logger, prefix }));
  const [replicaA, replicaB] = guards.map((replayGuard) => keys.verifier(COLLECTIONS, { replayGuard })) as [
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
    const header = signer.sign(alice, COLLECTIONS, 'PATCH', url, bodyDigest('{"name":"x"}'));
    await expect(replicaA.verify(header, 'PATCH', url)).resolves.toMatchObject({ principal: alice });
    await expect(replicaB.verify(header, 'PATCH', url)).rejects.toThrow(/replayed/);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const once = signer.sign(alice, COLLECTIONS, method, url);
      await replicaB.verify(once, method, url);
      await expect(replicaA.verify(once, method, url)).rejects.toThrow(/replayed/);
    }
  });

  it('leaves reads to each replica: no Redis round trip on the search path', async () => {
    const header = signer.sign(alice, COLLECTIONS, 'GET', '/api/v1/skills?q=pdf');
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
    const recording = {
      ...logger,
      warn: (_o: unknown, msg: string) => warnings.push(msg),
      info: () => undefined,
    } as unknown as pino.Logger;
    const guard = new RedisReplayGuard({ url: `redis://127.0.0.1:${port}`, logger: recording, commandTimeoutMs: 100 });
    try {
      expect(await guard.ready(200)).toBe(false);
      const verifier = keys.verifier(COLLECTIONS, { replayGuard: guard });
      const header = keys.signer().sign(alice, COLLECTIONS, 'DELETE', '/api/v1/me/collections/c1');
      await expect(verifier.verify(header, 'DELETE', '/api/v1/me/collections/c1')).resolves.toMatchObject({
        principal: alice,
      });
      await expect(verifier.verify(header, 'DELETE', '/api/v1/me/collections/c1')).rejects.toThrow(/replayed/);
      expect(warnings.filter((w) => w.includes('Redis unavailable'))).toHaveLength(1);
    } finally {
      await guard.close();
    }
  });
});
