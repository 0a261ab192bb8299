import { ConfigError } from '@skills/common';
import { loadGatewayConfig } from '../../src/config';

const valid = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/skills',
  ADMIN_TOKEN: 'a'.repeat(32),
  PRINCIPAL_SIGNING_KEY_FILE: '/run/secrets/principal-signing-key.pem',
};

describe('loadGatewayConfig', () => {
  it('applies the defaults', () => {
    expect(loadGatewayConfig(valid)).toMatchObject({
      port: 8080,
      keyCacheTtlMs: 1_000,
      upstreamTimeoutMs: 10_000,
      catalogUrl: 'http://127.0.0.1:8081',
      collectionsUrl: 'http://127.0.0.1:8082',
    });
  });

  it('has no default admin token and refuses a short one, naming each bad variable', () => {
    const problems = (env: Record<string, string | undefined>): string => {
      try {
        loadGatewayConfig(env);
      } catch (err) {
        if (err instanceof ConfigError) return err.message;
      }
      throw new Error('expected a ConfigError');
    };
    expect(problems({ ...valid, ADMIN_TOKEN: undefined })).toContain('ADMIN_TOKEN');
    const both = problems({ ...valid, ADMIN_TOKEN: 'short', PRINCIPAL_SIGNING_KEY_FILE: undefined });
    expect(both).toContain('ADMIN_TOKEN');
    expect(both).toContain('PRINCIPAL_SIGNING_KEY_FILE');
  });

  it('binds loopback and trusts no proxy unless told, with a failure budget and the monitoring port by default', () => {
    expect(loadGatewayConfig(valid)).toMatchObject({
      host: '127.0.0.1',
      metricsPort: 9464,
      hstsMaxAgeSeconds: 0,
      trustProxy: false,
      authFailuresPerMinute: 30,
    });
  });

  it('reads TRUST_PROXY as a hop count or a list of addresses, ranges and range names, and refuses "true"', () => {
    expect(loadGatewayConfig({ ...valid, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadGatewayConfig({ ...valid, TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::1',
    ]);
    expect(() => loadGatewayConfig({ ...valid, TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY.*"true"/);
    expect(() => loadGatewayConfig({ ...valid, TRUST_PROXY: '10.0.0.0/8,proxy.example' })).toThrow(/TRUST_PROXY/);
  });

  it('keeps the key cache TTL within the 1 s revocation promise', () => {
    expect(() => loadGatewayConfig({ ...valid, KEY_CACHE_TTL_MS: '5000' })).toThrow(/KEY_CACHE_TTL_MS/);
    expect(loadGatewayConfig({ ...valid, KEY_CACHE_TTL_MS: '250' }).keyCacheTtlMs).toBe(250);
  });

  it('sets the rate limits by plan (600 / 1,200 by default, 0 = off) and takes an optional Redis URL', () => {
    const defaults = loadGatewayConfig(valid);
    expect(defaults.rateLimits).toEqual({ pro: 600, team: 1_200 });
    expect(defaults.redisUrl).toBeUndefined();
    const custom = loadGatewayConfig({
      ...valid,
      RATE_LIMIT_PRO_PER_MINUTE: '0',
      RATE_LIMIT_TEAM_PER_MINUTE: '50',
      REDIS_URL: 'redis://cache:6379/2',
    });
    expect(custom.rateLimits).toEqual({ pro: 0, team: 50 });
    expect(custom.redisUrl).toBe('redis://cache:6379/2');
    expect(() => loadGatewayConfig({ ...valid, RATE_LIMIT_TEAM_PER_MINUTE: '-1' })).toThrow(
      /RATE_LIMIT_TEAM_PER_MINUTE/,
    );
    expect(() => loadGatewayConfig({ ...valid, REDIS_URL: 'http://cache:6379' })).toThrow(/REDIS_URL/);
  });
});

describe('loadGatewayConfig: PUBLIC_URL off loopback', () => {
  it('refuses a HOST off loopback without PUBLIC_URL, naming both variables', () => {
    for (const HOST of ['0.0.0.0', '::', '10.0.0.5', 'gateway']) {
      let message = '';
      try {
        loadGatewayConfig({ ...valid, HOST });
      } catch (err) {
        if (err instanceof ConfigError) message = err.message;
      }
      expect(message).toMatch(/PUBLIC_URL.*HOST/);
    }
  });

  it('accepts loopback without PUBLIC_URL (sign-up left to its loopback default) and any HOST with one', () => {
    for (const HOST of [undefined, '127.0.0.1', '127.0.0.2', 'localhost', '::1']) {
      const config = loadGatewayConfig({ ...valid, HOST });
      expect(config.publicUrl).toBeUndefined();
      expect(config.signUpMode).toBeUndefined();
    }
    const open = loadGatewayConfig({ ...valid, HOST: '0.0.0.0', PUBLIC_URL: 'https://skills.example.com' });
    expect(open).toMatchObject({ host: '0.0.0.0', publicUrl: 'https://skills.example.com' });
    expect(loadGatewayConfig({ ...valid, HOST: '127.0.0.1', PUBLIC_URL: 'http://127.0.0.1:8080' }).publicUrl).toBe(
      'http://127.0.0.1:8080',
    );
  });
});
