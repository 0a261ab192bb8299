/**
 * Budgets before and after authentication: failed authentications per
 * client address (with the trusted-proxy setting that decides the
 * address), and the rate limit per account.
 */
import { randomBytes } from 'node:crypto';
import { ADMIN_TOKEN, startHarness, type Harness } from './harness';

const madeUpKey = () => `Bearer sk_live_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x').slice(0, 32)}`;

async function keyMisses(h: Harness): Promise<number> {
  const metrics = await h.monitor.get('/metrics').expect(200);
  return Number(/skills_key_cache_lookups_total\{result="miss",service="gateway"\} (\d+)/.exec(metrics.text)?.[1] ?? 0);
}

describe('failed authentications per client address', () => {
  let h: Harness;
  beforeAll(async () => {
    // a key cache long enough that the working key stays known however slowly a loaded machine runs the loop
    h = await startHarness({ authFailuresPerMinute: 5, trustProxy: ['loopback'], keyCacheTtlMs: 120_000 });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);
  const from = (address: string, authorization: string) =>
    h.http.get('/api/v1/skills').set('X-Forwarded-For', address).set('Authorization', authorization);

  it('refuses an address with 429 once it spent its budget, before any key is looked up; known keys still pass', async () => {
    const { key } = await h.accountWithKey('pro');
    await from('203.0.113.7', `Bearer ${key}`).expect(200); // a working client behind the same address
    for (let i = 0; i < 5; i++) await from('203.0.113.7', i % 2 ? 'Bearer nope' : madeUpKey()).expect(401);
    const misses = await keyMisses(h);
    const blocked = await from('203.0.113.7', madeUpKey()).set('Accept-Language', 'fr').expect(429);
    const seconds = Number(blocked.headers['retry-after']);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(blocked.body).toEqual({
      error: `Trop d'échecs d'authentification depuis cette adresse ; réessayez dans ${seconds} s`,
    });
    // the flood goes on, and the working client beside it keeps working (its key stays in the cache while in use)
    for (let i = 0; i < 20; i++) {
      await from('203.0.113.7', madeUpKey()).expect(429);
      await from('203.0.113.7', `Bearer ${key}`).expect(200);
    }
    await from('203.0.113.7', '').expect(429);
    expect(await keyMisses(h)).toBe(misses); // not one more database read
    // another address is not affected
    await from('203.0.113.8', madeUpKey()).expect(401);
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as its IPv4 address', async () => {
    // walking the /64, a fresh address per try, spends one budget
    for (let i = 1; i <= 5; i++) await from(`2001:db8:7:7::${i.toString(16)}`, madeUpKey()).expect(401);
    await from('2001:db8:7:7:ffff:1:2:3', madeUpKey()).expect(429);
    await from('2001:db8:7:8::1', madeUpKey()).expect(401); // the next /64 is someone else
    for (let i = 0; i < 5; i++) await from('192.0.2.55', madeUpKey()).expect(401);
    await from('::ffff:192.0.2.55', madeUpKey()).expect(429);
  });

  it('counts a wrong admin token too, and still lets the right one through', async () => {
    const admin = (token: string) =>
      h.http
        .get('/admin/v1/accounts/00000000-0000-0000-0000-000000000000')
        .set('X-Forwarded-For', '198.51.100.4')
        .set('Authorization', `Bearer ${token}`);
    for (let i = 0; i < 5; i++) await admin('not-the-token').expect(401);
    await admin('not-the-token').expect(429);
    await admin(ADMIN_TOKEN).expect(404);
  });
});

describe('the client address without a trusted proxy', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ authFailuresPerMinute: 3 });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it('ignores X-Forwarded-For: a client cannot escape its budget by sending another one', async () => {
    for (let i = 0; i < 3; i++)
      await h.http
        .get('/api/v1/skills')
        .set('X-Forwarded-For', `192.0.2.${i}`)
        .set('Authorization', madeUpKey())
        .expect(401);
    await h.http
      .get('/api/v1/skills')
      .set('X-Forwarded-For', '192.0.2.99')
      .set('Authorization', madeUpKey())
      .expect(429);
  });
});

describe('rate limit per account', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rateLimits: { pro: 3, team: 100 } });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it('counts every key of an account against one budget', async () => {
    const first = await h.accountWithKey('pro');
    const second = await h
      .admin('post', `/admin/v1/accounts/${first.accountId}/api-keys`, { name: 'second' })
      .expect(201);
    const keys = [first.key, second.body.data.apiKey.key as string];
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${keys[i % 2]}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // another account has its own
    const other = await h.accountWithKey('pro');
    await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${other.key}`).expect(200);
  });
});
