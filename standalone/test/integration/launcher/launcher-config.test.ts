import { resolve } from 'node:path';
import { ConfigError } from '@skills/common';
import { loadLauncherConfig } from '../../../src/launcher-config';

const NOTHING_PASSED = { gateway: {}, catalog: {}, collections: {} };

function problemsOf(vars: Record<string, string>): string[] {
  try {
    loadLauncherConfig(vars);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('loadLauncherConfig', () => {
  it('defaults to port 8080, .data, the embedded database and warn-level logs', () => {
    expect(loadLauncherConfig({})).toEqual({
      port: 8080,
      adminToken: undefined,
      dataDir: resolve('.data'),
      databaseUrl: undefined,
      logLevel: 'warn',
      passedOn: NOTHING_PASSED,
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
      passedOn: NOTHING_PASSED,
    });
  });

  it("passes on every setting of a service's own table to that service: mail, address, sign-up, single sign-on, throttles", () => {
    const gateway = {
      SMTP_URL: 'smtp://mail.example.com:587',
      MAIL_FROM: 'Skills <no-reply@example.com>',
      PUBLIC_URL: 'https://skills.example.com',
      HOST: '0.0.0.0',
      SIGNUP_MODE: 'invite',
      OIDC_ISSUER: 'https://id.example.com',
      OIDC_CLIENT_ID: 'skills',
      OIDC_CLIENT_SECRET: 's'.repeat(40),
      SIGN_IN_ATTEMPTS_PER_ADDRESS: '10',
      MAIL_QUOTA_PER_ADDRESS: '5',
      RATE_LIMIT_PRO_PER_MINUTE: '0',
      TRUST_PROXY: 'loopback',
      METRICS_PORT: '9464',
    };
    const config = loadLauncherConfig({
      ...gateway,
      SEARCH_CACHE_ENTRIES: '0',
      WEBHOOK_GIVE_UP_AFTER_MS: '500',
      REDIS_URL: 'redis://127.0.0.1:6379',
      UNRELATED: 'x',
    });
    expect(config.passedOn).toEqual({
      gateway: { ...gateway, REDIS_URL: 'redis://127.0.0.1:6379' },
      catalog: { SEARCH_CACHE_ENTRIES: '0', REDIS_URL: 'redis://127.0.0.1:6379' },
      collections: { WEBHOOK_GIVE_UP_AFTER_MS: '500', REDIS_URL: 'redis://127.0.0.1:6379' },
    });
  });

  it('keeps what it sets itself and what the embedded run does not use: ports, database, keys, loopback services, the event log and engine', () => {
    const config = loadLauncherConfig({
      HOST: '127.0.0.1',
      CATALOG_URL: 'http://elsewhere:1',
      PRINCIPAL_SIGNING_KEY_FILE: '/etc/key.pem',
      EVENT_LOG: 'kafka',
      SEARCH_ENGINE: 'elasticsearch',
      ELASTICSEARCH_URL: 'http://127.0.0.1:9201',
      KAFKA_BROKERS: 'kafka:9092',
      ITEMS_READER_TOKEN: 'i'.repeat(40),
    });
    // HOST is the gateway's listen address; the services stay on loopback
    expect(config.passedOn).toEqual({ gateway: { HOST: '127.0.0.1' }, catalog: {}, collections: {} });
  });

  it('passes the event-loop shedding bound on to both services: each runs on an event loop of its own', () => {
    const config = loadLauncherConfig({ SHED_EVENT_LOOP_DELAY_MS: '250' });
    expect(config.passedOn).toEqual({
      gateway: {},
      catalog: { SHED_EVENT_LOOP_DELAY_MS: '250' },
      collections: { SHED_EVENT_LOOP_DELAY_MS: '250' },
    });
  });

  it("names a bad service setting before anything starts, with the service's own words", () => {
    expect(problemsOf({ RATE_LIMIT_PRO_PER_MINUTE: '-1', SMTP_URL: 'smtp://mail.example.com' })).toEqual([
      '"RATE_LIMIT_PRO_PER_MINUTE" must be greater than or equal to 0',
      '"MAIL_FROM" is required',
    ]);
    expect(problemsOf({ HOST: '0.0.0.0' })).toEqual([
      '"PUBLIC_URL" is required when HOST is not a loopback address: set it to the address browsers reach the gateway at (e.g. https://skills.example.com)',
    ]);
    expect(problemsOf({ SEARCH_SHOWS_UNSCANNED: 'maybe', REPORTS_PER_ACCOUNT_PER_DAY: '0' })).toEqual([
      '"SEARCH_SHOWS_UNSCANNED" must be a boolean',
      '"REPORTS_PER_ACCOUNT_PER_DAY" must be greater than or equal to 1',
    ]);
  });

  it('names every bad variable at once', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      ADMIN_TOKEN: 'short',
      DATABASE_URL: 'mysql://x',
      LOG_LEVEL: 'loud',
      SIGNUP_MODE: 'everyone',
    }).join('\n');
    for (const name of ['PORT', 'ADMIN_TOKEN', 'DATABASE_URL', 'LOG_LEVEL', 'SIGNUP_MODE'])
      expect(problems).toContain(name);
    expect(problems).toContain('"ADMIN_TOKEN" must be at least 32 characters');
  });
});
