import { AuthenticationError, NotAllowedError, createLogger, type Plan } from '@skills/common';
import type { KeyLookup, StoredKey } from '../../src/domain/accounts/account';
import { generateApiKey, hashApiKey } from '../../src/domain/keys/api-key';
import { KeyAuthenticator } from '../../src/domain/keys/key-authenticator';

/** A strict in-memory KeyLookup that counts lookups and touches. */
class FakeKeyStore implements KeyLookup {
  readonly rows = new Map<string, StoredKey>();
  lookups = 0;
  touches: string[] = [];
  failTouch = false;
  /** when set, a lookup reads its row, then waits for this before answering (a read racing a write) */
  gate: Promise<void> | undefined;

  add(key: string, plan: Plan, keyId = `key-${this.rows.size}`, accountId = 'acc-1'): StoredKey {
    const row: StoredKey = {
      keyId,
      accountId,
      plan,
      keyHash: hashApiKey(key),
      revoked: false,
      scopes: null,
      expiresAt: null,
    };
    this.rows.set(row.keyHash.toString('hex'), row);
    return row;
  }
  async findByHash(hash: Buffer): Promise<StoredKey | undefined> {
    this.lookups += 1;
    const row = this.rows.get(hash.toString('hex'));
    const copy = row ? { ...row } : undefined;
    await this.gate;
    return copy;
  }
  async touch(keyId: string): Promise<void> {
    this.touches.push(keyId);
    if (this.failTouch) throw new Error('db down');
  }
}

function setup(options: { ttlMs?: number; cacheMaxEntries?: number; negativeCacheMaxEntries?: number } = {}) {
  let now = 10_000;
  const store = new FakeKeyStore();
  const lines: string[] = [];
  const logger = createLogger({
    service: 'test',
    level: 'error',
    destination: { write: (l: string) => lines.push(l) },
  });
  const sut = new KeyAuthenticator({
    keys: store,
    logger,
    cacheTtlMs: options.ttlMs ?? 1_000,
    cacheMaxEntries: options.cacheMaxEntries,
    negativeCacheMaxEntries: options.negativeCacheMaxEntries,
    now: () => now,
  });
  return { sut, store, lines, advance: (ms: number) => (now += ms) };
}

describe('KeyAuthenticator', () => {
  it('resolves a valid key to its account principal', async () => {
    const { sut, store } = setup();
    const key = generateApiKey();
    store.add(key, 'pro', 'k1', 'acc-9');
    await expect(sut.authenticate(`Bearer ${key}`)).resolves.toEqual({
      kind: 'account',
      accountId: 'acc-9',
      plan: 'pro',
      keyId: 'k1',
    });
  });

  it('refuses absent, malformed and unknown keys with 401 auth.invalidKey, malformed ones without a lookup', async () => {
    const { sut, store } = setup();
    for (const header of [undefined, 'Bearer nope', `Token ${generateApiKey()}`]) {
      await expect(sut.authenticate(header)).rejects.toMatchObject({ status: 401, messageKey: 'auth.invalidKey' });
    }
    expect(store.lookups).toBe(0);
    await expect(sut.authenticate(`Bearer ${generateApiKey()}`)).rejects.toBeInstanceOf(AuthenticationError);
    expect(store.lookups).toBe(1);
  });

  it("refuses an expired key with the revoked key's 401 from its expiry instant on, even from the cache", async () => {
    const { sut, store, advance } = setup({ ttlMs: 60_000 });
    const key = generateApiKey();
    store.add(key, 'pro').expiresAt = 10_000 + 5_000;
    await expect(sut.authenticate(`Bearer ${key}`)).resolves.toMatchObject({ keyId: 'key-0' });
    advance(4_999);
    await expect(sut.authenticate(`Bearer ${key}`)).resolves.toMatchObject({ keyId: 'key-0' });
    advance(1);
    await expect(sut.authenticate(`Bearer ${key}`)).rejects.toMatchObject({
      status: 401,
      messageKey: 'auth.invalidKey',
    });
    expect(store.lookups).toBe(1);
  });

  it("refuses a key without the route's scope with 403 naming it; a key made before scopes holds every one", async () => {
    const { sut, store } = setup();
    const reader = generateApiKey();
    store.add(reader, 'pro', 'reader').scopes = ['search:read', 'collections:read'];
    await expect(sut.authenticate(`Bearer ${reader}`, { scope: 'collections:read' })).resolves.toMatchObject({
      keyId: 'reader',
    });
    await expect(sut.authenticate(`Bearer ${reader}`, { scope: 'collections:write' })).rejects.toMatchObject({
      status: 403,
      messageKey: 'auth.missingScope',
      params: { scope: 'collections:write' },
    });
    const legacy = generateApiKey();
    store.add(legacy, 'pro', 'legacy');
    await expect(sut.authenticate(`Bearer ${legacy}`, { scope: 'collections:write' })).resolves.toMatchObject({
      keyId: 'legacy',
    });
  });

  it('refuses a revoked key with 401 and a free plan with 403 auth.planWithoutApi', async () => {
    const { sut, store } = setup();
    const revoked = generateApiKey();
    store.add(revoked, 'pro').revoked = true;
    const free = generateApiKey();
    store.add(free, 'free');
    await expect(sut.authenticate(`Bearer ${revoked}`)).rejects.toBeInstanceOf(AuthenticationError);
    await expect(sut.authenticate(`Bearer ${free}`)).rejects.toBeInstanceOf(NotAllowedError);
    await expect(sut.authenticate(`Bearer ${free}`)).rejects.toMatchObject({ messageKey: 'auth.planWithoutApi' });
  });

  it('reads a key once per TTL, unknown keys included, then again after it', async () => {
    const { sut, store, advance } = setup({ ttlMs: 1_000 });
    const key = generateApiKey();
    store.add(key, 'pro');
    const unknown = `Bearer ${generateApiKey()}`;
    for (let i = 0; i < 5; i += 1) {
      await sut.authenticate(`Bearer ${key}`);
      await expect(sut.authenticate(unknown)).rejects.toBeInstanceOf(AuthenticationError);
    }
    expect(store.lookups).toBe(2);
    advance(1_000);
    await sut.authenticate(`Bearer ${key}`);
    expect(store.lookups).toBe(3);
  });

  it('keeps known keys cached whatever a flood of unknown keys does: they have a cache of their own', async () => {
    const { sut, store } = setup({ cacheMaxEntries: 10, negativeCacheMaxEntries: 5 });
    const known = Array.from({ length: 3 }, () => generateApiKey());
    for (const key of known) {
      store.add(key, 'pro');
      await sut.authenticate(`Bearer ${key}`);
    }
    for (let i = 0; i < 100; i += 1) {
      await expect(sut.authenticate(`Bearer ${generateApiKey()}`)).rejects.toBeInstanceOf(AuthenticationError);
    }
    const before = store.lookups;
    for (const key of known) await sut.authenticate(`Bearer ${key}`);
    expect(store.lookups).toBe(before);
    // and the unknown-key cache stays at its own small bound: the oldest made-up key is read again
    const repeated = `Bearer ${generateApiKey()}`;
    await expect(sut.authenticate(repeated)).rejects.toBeInstanceOf(AuthenticationError);
    await expect(sut.authenticate(repeated)).rejects.toBeInstanceOf(AuthenticationError);
    expect(store.lookups).toBe(before + 1);
  });

  it('asks beforeUnknown before anything but a known key: malformed, unknown, and read from the store', async () => {
    const { sut, store } = setup();
    const key = generateApiKey();
    store.add(key, 'pro');
    const asked: string[] = [];
    const hook = (name: string) => async () => void asked.push(name);
    await sut.authenticate(`Bearer ${key}`, { beforeUnknown: hook('first read') });
    await sut.authenticate(`Bearer ${key}`, { beforeUnknown: hook('cached') });
    await expect(sut.authenticate('Bearer nope', { beforeUnknown: hook('malformed') })).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    const unknown = `Bearer ${generateApiKey()}`;
    await expect(sut.authenticate(unknown, { beforeUnknown: hook('unknown') })).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    await expect(sut.authenticate(unknown, { beforeUnknown: hook('known unknown') })).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    expect(asked).toEqual(['first read', 'malformed', 'unknown', 'known unknown']);
    // a refusal there stops the lookup before the store is read
    const lookups = store.lookups;
    const refuse = async () => {
      throw new Error('blocked');
    };
    await expect(sut.authenticate(`Bearer ${generateApiKey()}`, { beforeUnknown: refuse })).rejects.toThrow('blocked');
    expect(store.lookups).toBe(lookups);
  });

  it('sees a revoke made elsewhere within the TTL, and a local one at once', async () => {
    const { sut, store, advance } = setup({ ttlMs: 1_000 });
    const a = generateApiKey();
    const b = generateApiKey();
    const rowA = store.add(a, 'pro', 'ka');
    const rowB = store.add(b, 'pro', 'kb');
    await sut.authenticate(`Bearer ${a}`);
    await sut.authenticate(`Bearer ${b}`);

    rowA.revoked = true; // another replica revoked it: the cache may serve it until the TTL
    advance(1_000);
    await expect(sut.authenticate(`Bearer ${a}`)).rejects.toBeInstanceOf(AuthenticationError);

    rowB.revoked = true;
    sut.forgetKey('kb'); // revoked through this replica
    await expect(sut.authenticate(`Bearer ${b}`)).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('applies a local plan change on the next request', async () => {
    const { sut, store } = setup({ ttlMs: 1_000 });
    const key = generateApiKey();
    const row = store.add(key, 'pro', 'k1', 'acc-1');
    await sut.authenticate(`Bearer ${key}`);
    row.plan = 'free';
    sut.forgetAccount('acc-1');
    await expect(sut.authenticate(`Bearer ${key}`)).rejects.toBeInstanceOf(NotAllowedError);
  });

  it('records a use at most once a minute per key and only logs a failed write', async () => {
    const { sut, store, lines, advance } = setup({ ttlMs: 1_000 });
    const key = generateApiKey();
    store.add(key, 'team', 'k1');
    store.failTouch = true;
    await sut.authenticate(`Bearer ${key}`);
    advance(30_000);
    await sut.authenticate(`Bearer ${key}`);
    expect(store.touches).toEqual(['k1']);
    advance(30_000);
    await sut.authenticate(`Bearer ${key}`);
    expect(store.touches).toEqual(['k1', 'k1']);
    await new Promise((r) => setImmediate(r));
    expect(lines.join('')).toContain('could not record api key use');
    expect(lines.join('')).not.toContain(key);
  });

  describe('cache refresh', () => {
    const tick = () => new Promise((resolve) => setImmediate(resolve));

    it('shares one store read among concurrent requests for a key it does not hold', async () => {
      const { sut, store } = setup();
      const key = generateApiKey();
      store.add(key, 'pro');
      await Promise.all(Array.from({ length: 5 }, () => sut.authenticate(`Bearer ${key}`)));
      expect(store.lookups).toBe(1);
    });

    it('re-reads a key in use before it expires, so no request waits on the store', async () => {
      const { sut, store, advance } = setup({ ttlMs: 1_000 });
      const key = generateApiKey();
      store.add(key, 'pro');
      await sut.authenticate(`Bearer ${key}`);
      advance(800); // last quarter of its life: answered from the cache, re-read behind it
      await sut.authenticate(`Bearer ${key}`);
      await tick();
      expect(store.lookups).toBe(2);
      advance(400); // past the first read's expiry, within the second's
      await sut.authenticate(`Bearer ${key}`);
      expect(store.lookups).toBe(2);
    });

    it('does not let a read that began before a local revoke put the key back', async () => {
      const { sut, store, advance } = setup({ ttlMs: 1_000 });
      const key = generateApiKey();
      const row = store.add(key, 'pro', 'k1');
      await sut.authenticate(`Bearer ${key}`);
      advance(800);
      let release!: () => void;
      store.gate = new Promise((resolve) => (release = resolve));
      await sut.authenticate(`Bearer ${key}`); // starts a re-read that saw the key unrevoked
      row.revoked = true;
      sut.forgetKey('k1');
      release();
      store.gate = undefined;
      await tick();
      await expect(sut.authenticate(`Bearer ${key}`)).rejects.toMatchObject({ status: 401 });
    });
  });
});
