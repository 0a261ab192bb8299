/**
 * When the keys the admin API issues and rolls end: an exact `expiresAt`
 * held to the bounds and words of `expiresInDays`, and a roll that renews
 * a key under today's maximum lifetime (365 days, the default), not under
 * the one in force when the old key was made.
 */
import { Client } from 'pg';
import { ApiError, SkillsAdminClient } from '@skills/client';
import { ADMIN_TOKEN, startHarness, type Harness } from './harness';

const DAY_MS = 86_400_000;

describe('gateway admin API: key expiry', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  const issue = (accountId: string, body: object, language = 'en') =>
    h.admin('post', `/admin/v1/accounts/${accountId}/api-keys`, body).set('Accept-Language', language);
  const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

  /** Sets a stored key's end as if it had been made when another maximum (or none) was in force. */
  async function endedAt(keyId: string, sql: string): Promise<void> {
    const client = new Client({ connectionString: h.db.url });
    await client.connect();
    try {
      await client.query(`UPDATE gateway.api_keys SET expires_at = ${sql} WHERE id = $1`, [keyId]);
    } finally {
      await client.end();
    }
  }

  it('issues a key that ends at the given instant (typed client), and it works until then', async () => {
    const { accountId } = await h.accountWithKey('pro');
    const end = inDays(30);
    const sut = new SkillsAdminClient({ baseUrl: h.gateway.url, adminToken: ADMIN_TOKEN });
    const issued = await sut.issueApiKey(accountId, { name: 'nightly', scopes: ['search:read'], expiresAt: end });
    expect(issued).toMatchObject({
      name: 'nightly',
      scopes: ['search:read'],
      expiresAt: end,
      revokedAt: null,
      key: expect.stringMatching(/^sk_live_/),
    });
    await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${issued.key}`).expect(200);
    const listed = await h.admin('get', `/admin/v1/accounts/${accountId}/api-keys`).expect(200);
    expect(listed.body.data.apiKeys).toContainEqual(expect.objectContaining({ id: issued.id, expiresAt: end }));
    const refused = await sut.issueApiKey(accountId, { expiresAt: inDays(366) }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, message: 'Keys must expire here, after at most 365 days' });
  });

  it('refuses an end past the maximum with the words expiresInDays gets, one too soon, a malformed one, and both ways at once; issuing nothing', async () => {
    const { accountId } = await h.accountWithKey('pro');
    const overDays = await issue(accountId, { expiresInDays: 400 }).expect(400);
    const overAt = await issue(accountId, { expiresAt: inDays(400) }).expect(400);
    expect(overAt.body).toEqual({ error: 'Keys must expire here, after at most 365 days' });
    expect(overAt.body).toEqual(overDays.body);
    const fr = await issue(accountId, { expiresAt: inDays(400) }, 'fr').expect(400);
    expect(fr.body).toEqual({ error: 'Les clés doivent expirer ici, après au plus 365 jours' });
    const soon = await issue(accountId, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() }).expect(400);
    expect(soon.body).toEqual({ error: '"expiresAt" must be between 1 day and 365 days from now' });
    await issue(accountId, { expiresAt: inDays(-1) }).expect(400, soon.body);
    const malformed = await issue(accountId, { expiresAt: 'next tuesday' }).expect(400);
    expect(malformed.body).toEqual({
      error: '"expiresAt" must be an ISO 8601 date and time, e.g. 2030-01-31T12:00:00Z',
    });
    const both = await issue(accountId, { expiresInDays: 30, expiresAt: inDays(30) }).expect(400);
    expect(both.body).toEqual({ error: 'Give at most one of these fields: expiresInDays, expiresAt' });
    const listed = await h.admin('get', `/admin/v1/accounts/${accountId}/api-keys`).expect(200);
    expect(listed.body.data.apiKeys.map((k: { name: string }) => k.name)).toEqual(['ci']);
  });

  it("rolls a key made under a longer maximum, or none, into one that ends within today's maximum", async () => {
    const { accountId } = await h.accountWithKey('pro');
    const tenYears = (await issue(accountId, { name: 'old-long' }).expect(201)).body.data.apiKey;
    const forever = (await issue(accountId, { name: 'old-forever' }).expect(201)).body.data.apiKey;
    await endedAt(tenYears.id, `created_at + interval '3650 days'`);
    await endedAt(forever.id, 'NULL');

    for (const old of [tenYears, forever]) {
      const rolled = await h
        .admin('post', `/admin/v1/api-keys/${old.id as string}/roll`, { graceSeconds: 0 })
        .expect(201);
      const { apiKey } = rolled.body.data;
      expect(apiKey.name).toBe(old.name);
      expect(apiKey.expiresAt).toEqual(expect.any(String));
      const lifetime = Date.parse(apiKey.expiresAt) - Date.parse(apiKey.createdAt);
      expect(lifetime).toBeGreaterThan(364 * DAY_MS);
      expect(lifetime).toBeLessThanOrEqual(365 * DAY_MS + 1_000);
    }
    // a key within the maximum keeps its own lifetime
    const monthly = (await issue(accountId, { name: 'monthly', expiresInDays: 30 }).expect(201)).body.data.apiKey;
    const rolled = (
      await h.admin('post', `/admin/v1/api-keys/${monthly.id as string}/roll`, { graceSeconds: 0 }).expect(201)
    ).body.data.apiKey;
    expect(Date.parse(rolled.expiresAt) - Date.parse(rolled.createdAt)).toBeGreaterThan(29.9 * DAY_MS);
    expect(Date.parse(rolled.expiresAt) - Date.parse(rolled.createdAt)).toBeLessThanOrEqual(30 * DAY_MS + 1_000);
  });
});
