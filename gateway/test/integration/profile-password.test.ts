/**
 * What a stolen session cookie can no longer do (docs/security.md "Console sessions"): mint or
 * roll a key without the password entered in the last 10 minutes, or a key
 * that never expires; and what a person can now do: change the password,
 * which ends every other session and, if asked, revokes the API keys (a
 * reset link offers the same choice).
 */
import { Client } from 'pg';
import { startHarness, type Harness } from './harness';
import { PASSWORD, signIn, signUp, write, type Browser } from './profile-harness';

const NEW_PASSWORD = 'marmalade-otter-93-lantern';

describe('gateway password and recent sign-in', () => {
  let h: Harness;

  beforeAll(async () => {
    // the deployed defaults: no keyPolicy given
    h = await startHarness();
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  async function sql(text: string, values: unknown[]): Promise<void> {
    const client = new Client({ connectionString: h.db.url });
    await client.connect();
    try {
      await client.query(text, values);
    } finally {
      await client.end();
    }
  }

  /** As if the person signed in 11 minutes ago and has not entered the password since. */
  const signedInLongAgo = (b: Browser) =>
    sql(`UPDATE gateway.sessions SET authenticated_at = now() - interval '11 minutes' WHERE account_id = $1`, [
      b.accountId,
    ]);

  async function proPerson(): Promise<Browser> {
    const b = await signUp(h);
    await h.admin('patch', `/admin/v1/accounts/${b.accountId}`, { plan: 'pro' }).expect(200);
    return b;
  }

  const keyBody = { name: 'ci', scopes: ['search:read'], expiresInDays: 30 };

  it('asks for the password again before a key is created or rolled once the sign-in is 10 minutes old', async () => {
    const b = await proPerson();
    const first = await write(b, 'post', '/api/v1/me/api-keys', keyBody).expect(201);
    await signedInLongAgo(b);

    const refused = await write(b, 'post', '/api/v1/me/api-keys', keyBody).expect(403);
    expect(refused.body.error).toMatch(/^Enter your password again to do this/);
    const fr = await write(b, 'post', `/api/v1/me/api-keys/${first.body.data.apiKey.id as string}/roll`, {
      graceSeconds: 0,
    })
      .set('Accept-Language', 'fr')
      .expect(403);
    expect(fr.body.error).toMatch(/^Saisissez de nouveau votre mot de passe/);
    const session = await b.agent.get('/api/v1/auth/session').expect(200);
    expect(Date.parse(session.body.data.session.recentSignInUntil)).toBeLessThan(Date.now());
    // nothing was made or rolled
    const listed = await b.agent.get('/api/v1/me/api-keys').expect(200);
    expect(listed.body.data.apiKeys).toEqual([
      expect.objectContaining({ id: first.body.data.apiKey.id, revokedAt: null }),
    ]);

    const wrong = await write(b, 'post', '/api/v1/auth/reauthenticate', { password: 'not-the-password-at-all' }).expect(
      400,
    );
    expect(wrong.body).toEqual({ error: 'The current password is not right' });
    await write(b, 'post', '/api/v1/me/api-keys', keyBody).expect(403);

    const again = await write(b, 'post', '/api/v1/auth/reauthenticate', { password: PASSWORD }).expect(200);
    expect(Date.parse(again.body.data.session.recentSignInUntil)).toBeGreaterThan(Date.now() + 9 * 60_000);
    await write(b, 'post', '/api/v1/me/api-keys', keyBody).expect(201);
    await write(b, 'post', `/api/v1/me/api-keys/${first.body.data.apiKey.id as string}/roll`, {
      graceSeconds: 0,
    }).expect(201);
    const trail = await h
      .admin('get', `/admin/v1/audit-events?action=auth.reauthenticate&accountId=${b.accountId}`)
      .expect(200);
    expect(trail.body.data.events).toHaveLength(1);
  });

  it('gives keys a year at most by default: "never" is refused, and the list says the maximum', async () => {
    const b = await proPerson();
    const never = await write(b, 'post', '/api/v1/me/api-keys', { ...keyBody, expiresInDays: null }).expect(400);
    expect(never.body).toEqual({ error: 'Keys must expire here, after at most 365 days' });
    await write(b, 'post', '/api/v1/me/api-keys', { ...keyBody, expiresInDays: 366 }).expect(400);
    const longest = await write(b, 'post', '/api/v1/me/api-keys', { name: 'default', scopes: ['search:read'] }).expect(
      201,
    );
    expect(Date.parse(longest.body.data.apiKey.expiresAt) - Date.now()).toBeGreaterThan(364 * 86_400_000);
    const listed = await b.agent.get('/api/v1/me/api-keys').expect(200);
    expect(listed.body.data.maxLifetimeDays).toBe(365);
    const admin = await h
      .admin('post', `/admin/v1/accounts/${b.accountId}/api-keys`, { name: 'op', expiresInDays: null })
      .expect(400);
    expect(admin.body.error).toMatch(/at most 365 days/);
  });

  it('changes the password: the old one stops working, other sessions end, this one stays, the keys stay unless asked', async () => {
    const b = await proPerson();
    const other = await signIn(h, b.email);
    const key = (await write(b, 'post', '/api/v1/me/api-keys', keyBody).expect(201)).body.data.apiKey.key as string;

    const wrong = await write(b, 'post', '/api/v1/auth/password', {
      currentPassword: 'wrong-wrong-wrong',
      newPassword: NEW_PASSWORD,
    }).expect(400);
    expect(wrong.body).toEqual({ error: 'The current password is not right' });
    const weak = await write(b, 'post', '/api/v1/auth/password', {
      currentPassword: PASSWORD,
      newPassword: 'short',
    }).expect(400);
    expect(weak.body.error).toMatch(/12 characters/);
    await other.agent.get('/api/v1/auth/session').expect(200);

    const changed = await write(b, 'post', '/api/v1/auth/password', {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    }).expect(200);
    expect(changed.body.data).toEqual({ changed: true, revokedApiKeys: 0 });
    await b.agent.get('/api/v1/auth/session').expect(200);
    await other.agent.get('/api/v1/auth/session').expect(401);
    await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${key}`).expect(200);
    await expect(signIn(h, b.email, PASSWORD)).rejects.toThrow(/401/);
    await signIn(h, b.email, NEW_PASSWORD);
    const trail = await h
      .admin('get', `/admin/v1/audit-events?action=auth.password_change&accountId=${b.accountId}`)
      .expect(200);
    expect(trail.body.data.events).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ revokedApiKeys: false }) }),
    ]);
  });

  it('revokes every API key with the password when asked, at once', async () => {
    const b = await proPerson();
    const keys = await Promise.all(
      [1, 2].map(
        async () => (await write(b, 'post', '/api/v1/me/api-keys', keyBody).expect(201)).body.data.apiKey.key as string,
      ),
    );
    // used once, so this replica has them cached: the change must reach the cache too
    for (const key of keys) await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${key}`).expect(200);
    const changed = await write(b, 'post', '/api/v1/auth/password', {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      revokeApiKeys: true,
    }).expect(200);
    expect(changed.body.data).toEqual({ changed: true, revokedApiKeys: 2 });
    for (const key of keys) await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${key}`).expect(401);
  });

  it('offers the same choice on a reset link: keys kept by default, revoked when asked', async () => {
    for (const revokeApiKeys of [false, true]) {
      const b = await proPerson();
      const key = (await write(b, 'post', '/api/v1/me/api-keys', keyBody).expect(201)).body.data.apiKey.key as string;
      await h.http.get('/api/v1/skills').set('Authorization', `Bearer ${key}`).expect(200);
      const link = await h
        .admin('post', `/admin/v1/accounts/${b.accountId}/links`, { purpose: 'password-reset' })
        .expect(201);
      const token = new URL(String(link.body.data.link.url)).hash.replace('#token=', '');
      await h.http
        .post('/api/v1/auth/password-reset')
        .set('Origin', b.origin)
        .send({ token, password: NEW_PASSWORD, revokeApiKeys })
        .expect(200);
      await h.http
        .get('/api/v1/skills')
        .set('Authorization', `Bearer ${key}`)
        .expect(revokeApiKeys ? 401 : 200);
    }
  });
});
