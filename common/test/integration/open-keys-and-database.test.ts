// @not-store-specific the services' shared start-up; the database is a fixture
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryTypes } from 'sequelize';
import { ConfigError, openKeysAndDatabase, openPublicKeysFile, type KeyFileOptions, type Migration } from '../../src';
import { createTestDatabase, testPrincipalKeys, type TestDatabase } from '../../src/testing';
import { silentLogger } from '@skills/common/testing';

const logger = silentLogger('keys-and-database-test');
const SCHEMA = 'keys_and_database_test';
const MIGRATIONS: Migration[] = [{ id: '001-notes', up: `CREATE TABLE "${SCHEMA}".notes (id int PRIMARY KEY)` }];

describe('openKeysAndDatabase, the start-up every service shares', () => {
  let db: TestDatabase;
  let dir: string;
  let publicKeysFile: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'keys-and-database-'));
    ({ publicKeysFile } = await testPrincipalKeys().writeTo(dir));
  }, 60_000);
  afterAll(async () => {
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const config = (databaseUrl: string) => ({ databaseUrl, dbPoolMax: 2, principalKeysReloadMs: 0 });
  /** openPublicKeysFile, with a record of whether the file was closed */
  function recordedKeyFile(path: string) {
    const record = { closed: false };
    const open = async (options: KeyFileOptions) => {
      const keys = await openPublicKeysFile(options);
      const close = keys.close.bind(keys);
      return Object.assign(keys, {
        close: () => {
          record.closed = true;
          close();
        },
      });
    };
    return { record, keyFile: { variable: 'PRINCIPAL_PUBLIC_KEYS_FILE', path, open } };
  }

  it("opens the keys and the database with the service's schema migrated, and closes both", async () => {
    const { record, keyFile } = recordedKeyFile(publicKeysFile);
    const opened = await openKeysAndDatabase({
      name: 'test',
      config: config(db.url),
      keyFile,
      schema: SCHEMA,
      migrations: MIGRATIONS,
      logger,
    });
    expect(opened.keys.current().kids).toHaveLength(1);
    const tables = await opened.sequelize.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${SCHEMA}".notes`, {
      type: QueryTypes.SELECT,
    });
    expect(tables).toEqual([{ n: '0' }]);
    await opened.close();
    expect(record.closed).toBe(true);
    await expect(opened.sequelize.query('SELECT 1')).rejects.toThrow();
  });

  it('refuses a bad key file as a ConfigError naming its variable, before any connection is tried', async () => {
    const bad = join(dir, 'not-a-key.pem');
    await writeFile(bad, 'not a key');
    // nothing listens on port 1: reaching the database first would fail differently
    const unreachable = 'postgres://postgres@127.0.0.1:1/none';
    const { keyFile } = recordedKeyFile(bad);
    const opening = openKeysAndDatabase({
      name: 'test',
      config: config(unreachable),
      keyFile,
      schema: SCHEMA,
      migrations: MIGRATIONS,
      logger,
    });
    await expect(opening).rejects.toThrow(ConfigError);
    await expect(opening).rejects.toThrow(/PRINCIPAL_PUBLIC_KEYS_FILE: /);
  });

  it('releases the key file when a migration fails, and reports the migration error', async () => {
    const { record, keyFile } = recordedKeyFile(publicKeysFile);
    const failing: Migration[] = [{ id: '001-broken', up: 'SELECT * FROM no_such_table' }];
    const opening = openKeysAndDatabase({
      name: 'test',
      config: config(db.url),
      keyFile,
      schema: 'broken_schema',
      migrations: failing,
      logger,
    });
    await expect(opening).rejects.toThrow(/no_such_table/);
    expect(record.closed).toBe(true);
  });
});
