import { ConfigError } from '@skills/common';
import { loadCollectionsConfig } from '../../src/config';

const keysFile = '/run/secrets/principal-public-keys.pem';

describe('loadCollectionsConfig', () => {
  it('applies the defaults and freezes the result', () => {
    const config = loadCollectionsConfig({
      DATABASE_URL: 'postgres://u@db:5432/x',
      PRINCIPAL_PUBLIC_KEYS_FILE: keysFile,
    });
    expect(config).toEqual({
      port: 8082,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@db:5432/x',
      principalPublicKeysFile: keysFile,
      principalKeysReloadMs: 10_000,
      dbPoolMax: 10,
      logLevel: 'info',
      shedEventLoopDelayMs: 500,
      eventLog: 'postgres',
      outboxRetentionMs: 86_400_000,
      outboxPruneIntervalMs: 60_000,
      reportsPerAccountPerDay: 20,
      webhooks: {
        allowPrivateTargets: false,
        retryScheduleMs: [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000],
        giveUpAfterMs: 86_400_000,
      },
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names every bad variable at once and has no default secret', () => {
    let error: unknown;
    try {
      loadCollectionsConfig({ PORT: 'eighty', ITEMS_READER_TOKEN: 'short' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'PRINCIPAL_PUBLIC_KEYS_FILE', 'ITEMS_READER_TOKEN'])
      expect(text).toContain(name);
  });

  it('reads the pool size and log level', () => {
    const config = loadCollectionsConfig({
      DATABASE_URL: 'postgresql://db/x',
      PRINCIPAL_PUBLIC_KEYS_FILE: keysFile,
      DB_POOL_MAX: '25',
      LOG_LEVEL: 'warn',
      PORT: '9000',
    });
    expect(config).toMatchObject({ dbPoolMax: 25, logLevel: 'warn', port: 9000 });
  });

  it('reads the outbox retention and prune interval; 0 turns pruning off', () => {
    const base = { DATABASE_URL: 'postgresql://db/x', PRINCIPAL_PUBLIC_KEYS_FILE: keysFile };
    expect(
      loadCollectionsConfig({ ...base, OUTBOX_RETENTION_MS: '3600000', OUTBOX_PRUNE_INTERVAL_MS: '5000' }),
    ).toMatchObject({
      outboxRetentionMs: 3_600_000,
      outboxPruneIntervalMs: 5000,
    });
    expect(loadCollectionsConfig({ ...base, OUTBOX_RETENTION_MS: '0', OUTBOX_PRUNE_INTERVAL_MS: '0' })).toMatchObject({
      outboxRetentionMs: 0,
      outboxPruneIntervalMs: 0,
    });
  });

  it('names a bad outbox retention or prune interval', () => {
    for (const [name, value] of [
      ['OUTBOX_RETENTION_MS', '-1'],
      ['OUTBOX_RETENTION_MS', 'a day'],
      ['OUTBOX_PRUNE_INTERVAL_MS', '10'],
      ['OUTBOX_PRUNE_INTERVAL_MS', '7200000'],
    ]) {
      let error: unknown;
      try {
        loadCollectionsConfig({
          DATABASE_URL: 'postgresql://db/x',
          PRINCIPAL_PUBLIC_KEYS_FILE: keysFile,
          [name as string]: value,
        });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n')).toContain(name);
    }
  });

  it('reads the report limit per account and names a bad one', () => {
    const base = { DATABASE_URL: 'postgresql://db/x', PRINCIPAL_PUBLIC_KEYS_FILE: keysFile };
    expect(loadCollectionsConfig({ ...base, REPORTS_PER_ACCOUNT_PER_DAY: '5' })).toMatchObject({
      reportsPerAccountPerDay: 5,
    });
    for (const value of ['0', '-1', '2.5', 'twenty', '10001']) {
      let error: unknown;
      try {
        loadCollectionsConfig({ ...base, REPORTS_PER_ACCOUNT_PER_DAY: value });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n')).toContain('REPORTS_PER_ACCOUNT_PER_DAY');
    }
  });
});
