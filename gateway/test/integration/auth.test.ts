import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { startHarness, type Harness } from './harness';

const INVALID_KEY = { en: 'Invalid or revoked API key', fr: 'Clé API invalide ou révoquée' };
const NO_API = {
  en: 'API access is available with a plan that includes API access',
  fr: "L'API est disponible avec un plan incluant l’accès API",
};

describe('gateway API key authentication', () => {
  let h: Harness;

  beforeAll(async () => {
    // A small budget so the 429 test is quick; every other test uses at most 3 calls per key.
    h = await startHarness({ rateLimits: { pro: 5, team: 7 } });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it('lets a pro key through to the catalog with its account principal', async () => {
    const { accountId, keyId, key } = await h.accountWithKey('pro');
    const res = await h.http.get('/api/v1/skills?q=pdf').set('Authorization', `Bearer ${key}`).expect(200);
    expect(res.body.data).toMatchObject({
      upstream: 'catalog',
      url: '/api/v1/skills?q=pdf',
      principal: { kind: 'account', accountId, plan: 'pro', keyId },
    });
  });

  it.each([
    ['no Authorization header', undefined],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a Bearer token that is not a key', 'Bearer not-a-key'],
    ['an empty Bearer', 'Bearer '],
    ['an unknown well-formed key', `Bearer sk_live_${'A'.repeat(32)}`],
  ])('answers 401 with the contract text for %s', async (_name, header) => {
    const req = h.http.get('/api/v1/me/collections');
    const res = await (header === undefined ? req : req.set('Authorization', header)).expect(401);
    expect(res.body).toEqual({ error: INVALID_KEY.en });
    expect(res.headers['x-request-id']).toBeTruthy();
    const fr = await (
      header === undefined ? h.http.get('/api/v1/skills') : h.http.get('/api/v1/skills').set('Authorization', header)
    )
      .set('Accept-Language', 'fr-FR,fr;q=0.9')
      .expect(401);
    expect(fr.body).toEqual({ error: INVALID_KEY.fr });
  });

  it('answers 403 with the exact English and French texts for a free plan, and never calls the service', async () => {
    const { key } = await h.accountWithKey('free');
    const calls = h.catalog.received.length + h.collections.received.length;
    const en = await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${key}`).expect(403);
    expect(en.body).toEqual({ error: NO_API.en });
    const fr = await h.http
      .get('/api/v1/workspaces/w1/collections')
      .set('Authorization', `Bearer ${key}`)
      .set('Accept-Language', 'fr')
      .expect(403);
    expect(fr.body).toEqual({ error: NO_API.fr });
    expect(h.catalog.received.length + h.collections.received.length).toBe(calls);
  });

  it('applies a plan change on the very next request, both ways', async () => {
    const { accountId, key } = await h.accountWithKey('free');
    const auth = `Bearer ${key}`;
    await h.http.get('/api/v1/skills').set('Authorization', auth).expect(403);
    await h.admin('patch', `/admin/v1/accounts/${accountId}`, { plan: 'team' }).expect(200);
    const ok = await h.http.get('/api/v1/skills').set('Authorization', auth).expect(200);
    expect(ok.body.data.principal.plan).toBe('team');
    await h.admin('patch', `/admin/v1/accounts/${accountId}`, { plan: 'free' }).expect(200);
    await h.http.get('/api/v1/skills').set('Authorization', auth).expect(403);
  });

  it("refuses a revoked key on the very next request, while the account's other key keeps working", async () => {
    const { accountId, keyId, key } = await h.accountWithKey('pro');
    const other = await h.admin('post', `/admin/v1/accounts/${accountId}/api-keys`, {}).expect(201);
    await h.http.get('/api/v1/me/collections').set('Authorization', `Bearer ${key}`).expect(200);
    await h.admin('delete', `/admin/v1/api-keys/${keyId}`).expect(200, { data: { revoked: true } });
    const res = await h.http.get('/api/v1/me/collections').set('Authorization', `Bearer ${key}`).expect(401);
    expect(res.body).toEqual({ error: INVALID_KEY.en });
    await h.http.get('/api/v1/me/collections').set('Authorization', `Bearer ${other.body.data.apiKey.key}`).expect(200);
  });

  it('stores keys only as SHA-256 hashes with a display prefix, and records their use', async () => {
    const { keyId, key } = await h.accountWithKey('pro');
    await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${key}`).expect(200);
    const client = new Client({ connectionString: h.db.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT row_to_json(k)::text AS json, encode(key_hash, 'hex') AS hash, prefix, last_used_at
           FROM gateway.api_keys k WHERE id = $1`,
        [keyId],
      );
      expect(rows).toHaveLength(1);
      const row = rows[0] as { json: string; hash: string; prefix: string; last_used_at: Date | null };
      expect(row.json).not.toContain(key);
      expect(row.json).not.toContain(key.slice(8));
      expect(row.hash).toBe(createHash('sha256').update(key).digest('hex'));
      expect(row.prefix).toBe(key.slice(0, 12));
      // last_used_at is written fire-and-forget: poll briefly instead of assuming it is done.
      const lastUsed = async () =>
        (await client.query('SELECT last_used_at FROM gateway.api_keys WHERE id = $1', [keyId])).rows[0].last_used_at;
      for (let i = 0; i < 50 && (await lastUsed()) === null; i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(await lastUsed()).not.toBeNull();
    } finally {
      await client.end();
    }
  });

  it('refuses an account over its budget with 429, Retry-After and RateLimit headers, other accounts unaffected', async () => {
    const { key } = await h.accountWithKey('pro');
    for (let i = 4; i >= 0; i -= 1) {
      const ok = await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${key}`).expect(200);
      expect(ok.headers['ratelimit-limit']).toBe('5');
      expect(ok.headers['ratelimit-remaining']).toBe(String(i));
    }
    const over = await h.http
      .get('/api/v1/skills')
      .set('Authorization', `Bearer ${key}`)
      .set('Accept-Language', 'fr')
      .expect(429);
    const seconds = Number(over.headers['retry-after']);
    expect(seconds).toBeGreaterThanOrEqual(1);
    // a sliding window: the budget spent in this window comes back over the next one
    expect(seconds).toBeLessThanOrEqual(120);
    expect(over.headers['ratelimit-remaining']).toBe('0');
    expect(over.body).toEqual({ error: `Limite de requêtes dépassée ; réessayez dans ${seconds} s` });
    const other = await h.accountWithKey('pro');
    await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${other.key}`).expect(200);
  });

  it('gives a team key the team budget', async () => {
    const { key } = await h.accountWithKey('team');
    const ok = await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${key}`).expect(200);
    expect(ok.headers['ratelimit-limit']).toBe('7');
    expect(ok.headers['ratelimit-remaining']).toBe('6');
  });
});
