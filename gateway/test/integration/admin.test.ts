import { createHash, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { ADMIN_TOKEN, startHarness, type Harness } from './harness';

describe('gateway admin API', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it.each([
    ['no token', undefined],
    ['a wrong token', `Bearer ${ADMIN_TOKEN.slice(0, -1)}x`],
    ['the token without the scheme', ADMIN_TOKEN],
    ['an API key', `Bearer sk_live_${'a'.repeat(32)}`],
  ])('answers 401 for %s, on local and proxied routes alike', async (_name, header) => {
    for (const req of [
      h.http.post('/admin/v1/accounts').send({}),
      h.http.put('/admin/v1/skills/x').send({}),
      h.http.get('/admin/v1/nope'),
    ]) {
      const res = await (header === undefined ? req : req.set('Authorization', header)).expect(401);
      expect(res.body).toEqual({ error: 'Invalid admin token' });
    }
    const fr = await h.http.get('/admin/v1/items').set('Accept-Language', 'fr').expect(401);
    expect(fr.body).toEqual({ error: "Jeton d'administration invalide" });
  });

  it('creates an account, refuses its email again in any case, and validates the body', async () => {
    const created = await h
      .admin('post', '/admin/v1/accounts', { email: 'Ann@Example.com', name: 'Ann', plan: 'pro' })
      .expect(201);
    expect(created.body).toEqual({
      data: {
        account: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: 'Ann@Example.com', name: 'Ann', plan: 'pro' },
      },
    });
    const dup = await h.admin('post', '/admin/v1/accounts', { email: 'ann@example.COM', plan: 'free' }).expect(409);
    expect(dup.body).toEqual({ error: 'An account with this email already exists' });
    const badPlan = await h.admin('post', '/admin/v1/accounts', { email: 'b@example.com', plan: 'gold' }).expect(400);
    expect(badPlan.body).toEqual({ error: '"plan" must be one of: free, pro, team' });
    await h.admin('post', '/admin/v1/accounts', { email: 'not-an-email', plan: 'pro' }).expect(400);
    await h.admin('post', '/admin/v1/accounts', { email: 'c@example.com', plan: 'pro', role: 'x' }).expect(400);
  });

  it('shows an account with its keys, never their secret, and the key once at creation', async () => {
    const { accountId, keyId, key } = await h.accountWithKey('team');
    const second = await h.admin('post', `/admin/v1/accounts/${accountId}/api-keys`).expect(201);
    expect(second.body.data.apiKey).toEqual({
      id: expect.any(String),
      name: null,
      prefix: second.body.data.apiKey.key.slice(0, 12),
      key: expect.stringMatching(/^sk_live_/),
      // without scopes or expiry in the body: every scope, the longest lifetime allowed (365 days by default)
      scopes: ['search:read', 'collections:read', 'collections:write', 'workspaces:manage'],
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
      // the admin API makes unbound keys (docs/governance.md)
      workspaceId: null,
    });
    expect(
      Date.parse(second.body.data.apiKey.expiresAt) - Date.parse(second.body.data.apiKey.createdAt),
    ).toBeGreaterThanOrEqual(365 * 86_400_000);
    await h.admin('delete', `/admin/v1/api-keys/${keyId}`).expect(200);
    const shown = await h.admin('get', `/admin/v1/accounts/${accountId}`).expect(200);
    expect(shown.body.data.account).toMatchObject({ id: accountId, plan: 'team' });
    expect(shown.body.data.apiKeys).toEqual([
      {
        id: keyId,
        name: 'ci',
        prefix: key.slice(0, 12),
        scopes: ['search:read', 'collections:read', 'collections:write', 'workspaces:manage'],
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        lastUsedAt: null,
        revokedAt: expect.any(String),
        workspaceId: null,
      },
      expect.objectContaining({ id: second.body.data.apiKey.id, revokedAt: null }),
    ]);
    const text = JSON.stringify(shown.body);
    expect(text).not.toContain(key);
    expect(text).not.toContain(createHash('sha256').update(key).digest('hex'));
  });

  it('answers 404 for unknown accounts and keys, and revokes idempotently', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      await h.admin('get', `/admin/v1/accounts/${id}`).expect(404, { error: 'Account not found' });
      await h.admin('patch', `/admin/v1/accounts/${id}`, { plan: 'pro' }).expect(404);
      await h.admin('post', `/admin/v1/accounts/${id}/api-keys`, {}).expect(404);
      await h.admin('delete', `/admin/v1/api-keys/${id}`).expect(404, { error: 'API key not found' });
    }
    const { keyId } = await h.accountWithKey('pro');
    await h.admin('delete', `/admin/v1/api-keys/${keyId}`).expect(200, { data: { revoked: true } });
    await h.admin('delete', `/admin/v1/api-keys/${keyId}`).expect(200, { data: { revoked: true } });
    await h.admin('put', `/admin/v1/api-keys/${keyId}`).expect(405).expect('Allow', 'DELETE');
  });

  it('checks the account exists before proxying calls made for it', async () => {
    const ghost = randomUUID();
    const calls = h.collections.received.length;
    await h
      .admin('post', `/admin/v1/accounts/${ghost}/private-skills`, { name: 's' })
      .expect(404, { error: 'Account not found' });
    await h
      .admin('post', '/admin/v1/workspaces', { name: 'w', ownerAccountId: ghost })
      .expect(404, { error: 'Account not found' });
    await h.admin('put', `/admin/v1/workspaces/${randomUUID()}/members/${ghost}`, { role: 'member' }).expect(404);
    const missing = await h.admin('post', '/admin/v1/workspaces', { name: 'w' }).expect(400);
    expect(missing.body).toEqual({ error: '"ownerAccountId" is required' });
    expect(h.collections.received.length).toBe(calls);
  });

  it('proxies admin calls for an existing account with the admin principal and the body re-serialised', async () => {
    const { accountId } = await h.accountWithKey('pro');
    const ws = await h.admin('post', '/admin/v1/workspaces', { name: 'Team', ownerAccountId: accountId }).expect(201);
    expect(ws.body.data).toMatchObject({
      upstream: 'collections',
      url: '/admin/v1/workspaces',
      principal: { kind: 'admin' },
    });
    expect(JSON.parse(ws.body.data.bodyText)).toEqual({ name: 'Team', ownerAccountId: accountId });
    expect(ws.body.data.headers['content-length']).toBe(String(Buffer.byteLength(ws.body.data.bodyText)));
    const member = await h.admin('put', `/admin/v1/workspaces/w1/members/${accountId}`, { role: 'admin' }).expect(200);
    expect(member.body.data.principal).toEqual({ kind: 'admin' });
    await h.admin('post', `/admin/v1/accounts/${accountId}/private-skills`, { name: 'mine' }).expect(201);
    const reindex = await h.admin('post', '/admin/v1/reindex').expect(201);
    expect(reindex.body.data).toMatchObject({ upstream: 'catalog', principal: { kind: 'admin' } });
    await h.admin('get', '/admin/v1/reindex/job-1').expect(200);
    const items = await h.admin('get', '/admin/v1/items?status=deleted').expect(200);
    expect(items.body.data).toMatchObject({ upstream: 'collections', url: '/admin/v1/items?status=deleted' });
  });

  it('streams an NDJSON import of several megabytes through intact', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) =>
      JSON.stringify({
        slug: `skill-${i}`,
        name: `Skill ${i}`,
        description: 'd'.repeat(200),
        type: 'skill',
        category: 'dev',
      }),
    );
    const payload = Buffer.from(`${lines.join('\n')}\n`);
    const sha = createHash('sha256').update(payload).digest('hex');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${h.gateway.url}/admin/v1/skills:import`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/x-ndjson' },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      // Written in uneven chunks without Content-Length: the gateway must stream, not buffer and re-encode.
      for (let offset = 0; offset < payload.length; offset += 65_537)
        req.write(payload.subarray(offset, offset + 65_537));
      req.end();
    });
    expect(answer.status).toBe(201);
    const echo = JSON.parse(answer.body).data;
    expect(echo).toMatchObject({
      upstream: 'collections',
      principal: { kind: 'admin' },
      bodyLength: payload.length,
      bodySha256: sha,
    });
    expect(echo.headers['content-type']).toBe('application/x-ndjson');
  });
});
