import { resolve } from 'node:path';
import { ConfigError } from '@skills/common';
import { loadLauncherConfig } from '../../src/launcher-config';

describe('loadLauncherConfig', () => {
  it('defaults to port 8080, .data, the embedded database and warn-level logs', () => {
    expect(loadLauncherConfig({})).toEqual({
      port: 8080,
      adminToken: undefined,
      dataDir: resolve('.data'),
      databaseUrl: undefined,
      logLevel: 'warn',
      gatewayEnv: {},
      catalogEnv: {},
      collectionsEnv: {},
    });
  });

  it('takes every variable it knows', () => {
    const config = loadLauncherConfig({
      PORT: '9090',
      ADMIN_TOKEN: 't'.repeat(32),
      DATA_DIR: '/tmp/skills',
      DATABASE_URL: 'postgres://u@db:5432/skills',
      LOG_LEVEL: 'debug',
    });
    expect(config).toEqual({
      port: 9090,
      adminToken: 't'.repeat(32),
      dataDir: '/tmp/skills',
      databaseUrl: 'postgres://u@db:5432/skills',
      logLevel: 'debug',
      gatewayEnv: {},
      catalogEnv: {},
      collectionsEnv: {},
    });
  });

  it('passes the gateway rate limit settings on, so a run can raise or disable them', () => {
    const config = loadLauncherConfig({
      RATE_LIMIT_PRO_PER_MINUTE: '0',
      RATE_LIMIT_TEAM_PER_MINUTE: '5000',
      AUTH_FAILURES_PER_MINUTE: '100',
      REDIS_URL: 'redis://127.0.0.1:6379',
      ANSWER_CACHE_TTL_MS: '0',
    });
    expect(config.gatewayEnv).toEqual({
      RATE_LIMIT_PRO_PER_MINUTE: '0',
      RATE_LIMIT_TEAM_PER_MINUTE: '5000',
      AUTH_FAILURES_PER_MINUTE: '100',
      REDIS_URL: 'redis://127.0.0.1:6379',
      ANSWER_CACHE_TTL_MS: '0',
    });
    expect(() => loadLauncherConfig({ RATE_LIMIT_PRO_PER_MINUTE: '-1' })).toThrow(ConfigError);
  });

  it('passes the search cache and index settings on to catalog-service, which validates them', () => {
    const config = loadLauncherConfig({ SEARCH_CACHE_ENTRIES: '0', INDEX_POLL_MS: '20', SEARCH_SHOWS_UNSCANNED: 'false', UNRELATED: 'x' });
    expect(config.catalogEnv).toEqual({ SEARCH_CACHE_ENTRIES: '0', INDEX_POLL_MS: '20', SEARCH_SHOWS_UNSCANNED: 'false' });
  });

  it('passes the report limit on to collections-service, which validates it', () => {
    const config = loadLauncherConfig({
      REPORTS_PER_ACCOUNT_PER_DAY: '1',
      SEARCH_CACHE_ENTRIES: '0',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '10,20',
      WEBHOOK_GIVE_UP_AFTER_MS: '500',
    });
    expect(config.collectionsEnv).toEqual({
      REPORTS_PER_ACCOUNT_PER_DAY: '1',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '10,20',
      WEBHOOK_GIVE_UP_AFTER_MS: '500',
    });
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadLauncherConfig({ PORT: 'eighty', ADMIN_TOKEN: 'short', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'ADMIN_TOKEN', 'DATABASE_URL', 'LOG_LEVEL']) expect(problems).toContain(name);
    expect(problems).toContain('"ADMIN_TOKEN" must be at least 32 characters');
  });
});
