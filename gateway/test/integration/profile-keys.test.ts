/**
 * The API keys section through the gateway: a session creates, lists,
 * revokes and rolls its own keys; scopes and revocation hold on the proxied
 * routes; an API key never manages keys; keys made before scopes keep every
 * one; the admin API does the same for any account.
 */
import { Client } from 'pg';
import { startHarness, type Harness } from './harness';
import { signUp, write, type Browser } from './profile-harness';

const MISSING_WRITE = {
  en: 'This API key does not have the "collections:write" scope',
  fr: "Cette clé API n'a pas la portée « collections:write »",
};

describe('gateway API keys of the console', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ keyPolicy: { maxActiveKeys: 3, maxLifetimeDays: null } });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  /** A signed-up person whose plan the operator moved to pro (new accounts are free). */
  async function proPerson(): Promise<Browser> {
    const b = await signUp(h);
    await h.admin('patch', `/admin/v1/accounts/${b.accountId}`, { plan: 'pro' }).expect(200);
    return b;
  }

  async function createKey(b: Browser, body: object): Promise<{ id: string; key: string; [k: string]: unknown }> {
    const res = await write(b, 'post', '/api/v1/me/api-keys', body).expect(201);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.body.data.apiKey;
  }

  it('creates a read-only key shown once: it searches (200) and is refused a collection write (403 naming the scope, EN/FR)', async () => {
    const b = await proPerson();
    const created = await createKey(b, {
      name: 'reader',
      scopes: ['search:read', 'collections:read'],
      expiresInDays: 30,
    });
    expect(created).toMatchObject({
      name: 'reader',
      scopes: ['search:read', 'collections:read'],
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(Date.parse(String(created.expiresAt)) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${created.key}`).expect(200);
    await h.http.get('/api/v1/me/collections').set('Authorization', `Bearer ${created.key}`).expect(200);
    const calls = h.collections.received.length;
    const en = await h.http
      .patch('/api/v1/me/collections/c1')
      .set('Authorization', `Bearer ${created.key}`)
      .send({ name: 'x' })
      .expect(403);
    expect(en.body).toEqual({ error: MISSING_WRITE.en });
    const fr = await h.http
      .delete('/api/v1/me/collections/c1')
      .set('Authorization', `Bearer ${created.key}`)
      .set('Accept-Language', 'fr')
      .expect(403);
    expect(fr.body).toEqual({ error: MISSING_WRITE.fr });
    expect(h.collections.received.length).toBe(calls);
    const listed = await b.agent.get('/api/v1/me/api-keys').expect(200);
    expect(listed.body.data.apiKeys).toEqual([
      expect.objectContaining({ id: created.id, prefix: created.key.slice(0, 12) }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(created.key);
  });

  it("answers the plan refusal first for a free account's key, whatever its scopes", async () => {
    const b = await signUp(h);
    const created = await createKey(b, { name: 'free', scopes: ['search:read'] });
    const res = await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${created.key}`).expect(403);
    expect(res.body.error).toBe('API access is available with a plan that includes API access');
  });

  it('revokes a key: 401 with the contract text on every later call', async () => {
    const b = await proPerson();
    const created = await createKey(b, { name: 'ci', scopes: ['search:read'] });
    await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${created.key}`).expect(200);
    await write(b, 'delete', `/api/v1/me/api-keys/${created.id}`).expect(200);
    const res = await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${created.key}`).expect(401);
    expect(res.body).toEqual({ error: 'Invalid or revoked API key' });
    const listed = await b.agent.get('/api/v1/me/api-keys').expect(200);
    expect(listed.body.data.apiKeys[0].revokedAt).toEqual(expect.any(String));
  });

  it('holds the cap of active keys when they are created at the same moment (on the server, counting alone let each see room)', async () => {
    const b = await proPerson();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        write(b, 'post', '/api/v1/me/api-keys', { name: `k${i}`, scopes: ['search:read'] }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    const listed = await b.agent.get('/api/v1/me/api-keys').expect(200);
    expect(listed.body.data.apiKeys).toHaveLength(3);
  });

  it('rolls a key at the cap once (the old one counts as replaced for its grace), but not again during that grace', async () => {
    const b = await proPerson();
    const keys = await Promise.all(['a', 'b', 'c'].map((name) => createKey(b, { name, scopes: ['search:read'] })));
    const rolled = await write(b, 'post', `/api/v1/me/api-keys/${keys[0]!.id}/roll`, { graceSeconds: 3600 }).expect(
      201,
    );
    // 4 active for the grace: the cap plus the key being replaced
    const refused = await write(b, 'post', `/api/v1/me/api-keys/${rolled.body.data.apiKey.id as string}/roll`, {
      graceSeconds: 3600,
    }).expect(409);
    expect(refused.body).toEqual({ error: expect.stringContaining('3') });
    await write(b, 'post', '/api/v1/me/api-keys', { name: 'd', scopes: ['search:read'] }).expect(409);
    // a roll that ends the old key at once leaves the count as it was
    await write(b, 'post', `/api/v1/me/api-keys/${keys[1]!.id}/roll`, { graceSeconds: 0 }).expect(201);
  });

  it('rolls a key: the new one has the same name and scopes, both work during the grace, 0 grace revokes at once', async () => {
    const b = await proPerson();
    const old = await createKey(b, { name: 'deploy', scopes: ['search:read', 'collections:write'] });
    const rolled = await write(b, 'post', `/api/v1/me/api-keys/${old.id}/roll`, { graceSeconds: 3600 }).expect(201);
    const { apiKey, previous } = rolled.body.data;
    expect(apiKey).toMatchObject({ name: 'deploy', scopes: ['search:read', 'collections:write'] });
    expect(apiKey.key).not.toBe(old.key);
    expect(Date.parse(previous.expiresAt) - Date.now()).toBeGreaterThan(3500_000);
    for (const key of [old.key, apiKey.key])
      await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${key}`).expect(200);

    const again = await write(b, 'post', `/api/v1/me/api-keys/${apiKey.id as string}/roll`, { graceSeconds: 0 }).expect(
      201,
    );
    await h.http
      .get('/api/v1/skills')
      .set('Authorization', `Bearer ${apiKey.key as string}`)
      .expect(401);
    await h.http
      .get('/api/v1/skills')
      .set('Authorization', `Bearer ${again.body.data.apiKey.key as string}`)
      .expect(200);
    await write(b, 'post', `/api/v1/me/api-keys/${apiKey.id as string}/roll`, { graceSeconds: 0 }).expect(409);
  });

  it('refuses an API key on every key and session operation (403), and a missing session (401)', async () => {
    const b = await proPerson();
    const created = await createKey(b, {
      name: 'ci',
      scopes: ['search:read', 'collections:read', 'collections:write'],
    });
    const withKey = await h.http.get('/api/v1/me/api-keys').set('Authorization', `Bearer ${created.key}`).expect(403);
    expect(withKey.body).toEqual({ error: 'Only a signed-in console session can do this, not an API key' });
    await h.http
      .post('/api/v1/me/api-keys')
      .set('Authorization', `Bearer ${created.key}`)
      .send({ name: 'x', scopes: ['search:read'] })
      .expect(403);
    await h.http.get('/api/v1/me/sessions').set('Authorization', `Bearer ${created.key}`).expect(403);
    const none = await h.http.get('/api/v1/me/api-keys').expect(401);
    expect(none.body).toEqual({ error: 'You are not signed in' });
  });

  it("hides another account's key (404) and checks the body (400), the CSRF token and the cap on active keys (409)", async () => {
    const a = await proPerson();
    const b = await proPerson();
    const theirs = await createKey(b, { name: 'theirs', scopes: ['search:read'] });
    await write(a, 'delete', `/api/v1/me/api-keys/${theirs.id}`).expect(404);
    await write(a, 'post', `/api/v1/me/api-keys/${theirs.id}/roll`, { graceSeconds: 0 }).expect(404);
    await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${theirs.key}`).expect(200);

    const bad = await write(a, 'post', '/api/v1/me/api-keys', { name: 'x', scopes: ['admin:all'] }).expect(400);
    expect(bad.body.error).toBe(
      '"scopes.0" must be one of: search:read, collections:read, collections:write, workspaces:manage',
    );
    await write(a, 'post', '/api/v1/me/api-keys', { name: 'x', scopes: [] }).expect(400);
    const bidi = await write(a, 'post', '/api/v1/me/api-keys', {
      name: 'ci\u202Etset',
      scopes: ['search:read'],
    }).expect(400);
    expect(bidi.body).toEqual({ error: '"name" must not contain bidirectional control characters' });
    await a.agent
      .post('/api/v1/me/api-keys')
      .set('Origin', a.origin)
      .send({ name: 'x', scopes: ['search:read'] })
      .expect(403);

    for (let i = 0; i < 3; i += 1) await createKey(a, { name: `k${i}`, scopes: ['search:read'] });
    const capped = await write(a, 'post', '/api/v1/me/api-keys', { name: 'one more', scopes: ['search:read'] }).expect(
      409,
    );
    expect(capped.body).toEqual({ error: 'At most 3 active API keys per account' });
  });

  it('keeps every scope for a key made before scopes existed', async () => {
    // never used yet, so no replica has it cached
    const { key, keyId } = await h.accountWithKey('pro');
    const client = new Client({ connectionString: h.db.url });
    await client.connect();
    try {
      await client.query('UPDATE gateway.api_keys SET scopes = NULL WHERE id = $1', [keyId]);
    } finally {
      await client.end();
    }
    await h.http
      .patch('/api/v1/me/collections/c1')
      .set('Authorization', `Bearer ${key}`)
      .send({ name: 'x' })
      .expect(200);
    await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${key}`).expect(200);
  });

  it("lets the admin API list, scope, expire and roll any account's keys", async () => {
    const { accountId, keyId } = await h.accountWithKey('team');
    const scoped = await h
      .admin('post', `/admin/v1/accounts/${accountId}/api-keys`, {
        name: 'bot',
        scopes: ['search:read'],
        expiresInDays: 7,
      })
      .expect(201);
    await h.http
      .patch('/api/v1/me/collections/c1')
      .set('Authorization', `Bearer ${scoped.body.data.apiKey.key as string}`)
      .send({})
      .expect(403);
    const rolled = await h.admin('post', `/admin/v1/api-keys/${keyId}/roll`, { graceSeconds: 0 }).expect(201);
    expect(rolled.body.data.previous.revokedAt).toEqual(expect.any(String));
    const listed = await h.admin('get', `/admin/v1/accounts/${accountId}/api-keys`).expect(200);
    expect(listed.body.data.apiKeys.map((k: { name: string }) => k.name)).toEqual(['ci', 'bot', 'ci']);
  });
});
