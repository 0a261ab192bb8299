// @store-specific the key lookup's query on the real unique index
/**
 * How a key is found, not how fast: the authenticator looks a key up only by
 * its SHA-256 (the unique index of gateway.api_keys), never by the key or a
 * prefix, and accepts the row only after a constant-time comparison of the
 * hashes (crypto.timingSafeEqual). No timing is measured here: the code path
 * is asserted, which is what makes the comparison constant-time.
 */
import crypto from 'node:crypto';
import { createTestDatabase, type TestDatabase, silentLogger } from '@skills/common/testing';
import { QueryTypes } from 'sequelize';
import { createSequelize, runMigrations } from '@skills/common';
import type { KeyLookup, StoredKey } from '../../src/domain/accounts/account';
import { generateApiKey, hashApiKey } from '../../src/domain/keys/api-key';
import { KeyAuthenticator } from '../../src/domain/keys/key-authenticator';
import { GATEWAY_SCHEMA, gatewayMigrations } from '../../src/store/migrations';

/** A store that answers every lookup with `row` and records what it was asked. */
class RecordingStore implements KeyLookup {
  readonly asked: Buffer[] = [];
  constructor(private readonly row: StoredKey | undefined) {}
  async findByHash(hash: Buffer): Promise<StoredKey | undefined> {
    this.asked.push(Buffer.from(hash));
    return this.row;
  }
  async touch(): Promise<void> {}
}

const logger = silentLogger();

describe('KeyAuthenticator lookup', () => {
  afterEach(() => jest.restoreAllMocks());

  it('asks the store only for the SHA-256 of the key, then compares the hashes with timingSafeEqual', async () => {
    const key = generateApiKey();
    const hash = hashApiKey(key);
    expect(hash).toEqual(crypto.createHash('sha256').update(key).digest());
    const store = new RecordingStore({
      keyId: 'k1',
      accountId: 'a1',
      plan: 'pro',
      keyHash: hash,
      revoked: false,
      scopes: null,
      expiresAt: null,
    });
    const compare = jest.spyOn(crypto, 'timingSafeEqual');
    const sut = new KeyAuthenticator({ keys: store, logger, cacheTtlMs: 0 });

    await expect(sut.authenticate(`Bearer ${key}`)).resolves.toMatchObject({ keyId: 'k1' });

    expect(store.asked).toEqual([hash]);
    expect(compare).toHaveBeenCalledTimes(1);
    expect(compare).toHaveBeenCalledWith(hash, hash);
  });

  it('refuses a row whose hash differs from the key (an index or cache bug), through the same comparison', async () => {
    const key = generateApiKey();
    const other = hashApiKey(generateApiKey());
    const store = new RecordingStore({
      keyId: 'k2',
      accountId: 'a2',
      plan: 'pro',
      keyHash: other,
      revoked: false,
      scopes: null,
      expiresAt: null,
    });
    const compare = jest.spyOn(crypto, 'timingSafeEqual');
    const sut = new KeyAuthenticator({ keys: store, logger, cacheTtlMs: 0 });

    await expect(sut.authenticate(`Bearer ${key}`)).rejects.toMatchObject({
      status: 401,
      messageKey: 'auth.invalidKey',
    });
    expect(compare).toHaveBeenCalledWith(other, hashApiKey(key));
  });
});

describe('gateway.api_keys', () => {
  let db: TestDatabase;
  afterAll(async () => db?.drop());

  it('has a unique index on key_hash, the only column a key is looked up by', async () => {
    db = await createTestDatabase();
    const sequelize = createSequelize({ url: db.url, poolMax: 1, logger, applicationName: 'lookup-test' });
    try {
      await runMigrations(sequelize, GATEWAY_SCHEMA, gatewayMigrations, logger);
      const indexes = await sequelize.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = 'gateway' AND tablename = 'api_keys'`,
        {
          type: QueryTypes.SELECT,
        },
      );
      expect(indexes.map((i) => i.indexdef)).toContainEqual(
        expect.stringMatching(/^CREATE UNIQUE INDEX .* USING btree \(key_hash\)$/),
      );
    } finally {
      await sequelize.close();
    }
  });
});
