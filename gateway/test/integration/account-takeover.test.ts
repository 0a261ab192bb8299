// @store-specific migration 012 upgrading the rows of the version before
/**
 * Holding an account that is not yours, tried as an attacker would, over
 * HTTP: signing another person's address up first, a second sign-up's
 * verification link opened after the owner verified, and an invitation
 * link used with an address its holder does not own. The account lifecycle
 * these pin is docs/security.md "Account lifecycle".
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { createSequelize, runMigrations } from '@skills/common';
import { createTestDatabase } from '@skills/common/testing';
import { GATEWAY_SCHEMA, gatewayMigrations } from '../../src/store/migrations';
import { startHarness, type Harness } from './harness';
import { PASSWORD, waitForLog } from './profile-harness';

const SQUATTER = 'squatters-own-secret-77';

/** Every verification token the gateway logged for `email` (no SMTP on plain loopback), once there are `count`. */
async function verificationTokens(h: Harness, email: string, count: number): Promise<string[]> {
  const links = () =>
    h.logged.filter(
      (l) => l.email === email && typeof l.link === 'string' && l.link.includes('/console/verify#token='),
    );
  await waitForLog(h, () => links().length >= count);
  return links().map((l) => String(l.link).split('#token=')[1] as string);
}

async function sql<T extends object = Record<string, unknown>>(
  h: Harness,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const db = new Client({ connectionString: h.db.url });
  await db.connect();
  try {
    return (await db.query(text, values)).rows as T[];
  } finally {
    await db.end();
  }
}

function suite(config: Parameters<typeof startHarness>[0] = {}) {
  const it = { h: undefined as unknown as Harness };
  beforeAll(async () => {
    it.h = await startHarness(config);
  }, 90_000);
  afterAll(async () => {
    await it.h?.close();
  }, 30_000);
  const post = (path: string, body: object, agent?: ReturnType<typeof request.agent>) =>
    (agent ?? request(it.h.gateway.url)).post(path).set('Origin', it.h.gateway.url).send(body);
  return { it, post };
}

const trail = async (h: Harness, accountId: string) =>
  (await h.admin('get', `/admin/v1/audit-events?accountId=${accountId}&limit=100`).expect(200)).body.data.events as {
    action: string;
    target: string | null;
    details: Record<string, unknown>;
  }[];

describe('an address counts only once verified', () => {
  const { it: s, post } = suite();

  it('signs an unverified account in nowhere: its password answers "verify first" and mails a new link; a wrong one answers as for no account', async () => {
    const victim = `victim-${randomUUID()}@example.com`;
    await post('/api/v1/auth/sign-up', { email: victim, password: SQUATTER }).expect(202);
    await verificationTokens(s.h, victim, 1);

    const right = await post('/api/v1/auth/sign-in', { email: victim, password: SQUATTER });
    expect(right.status).toBe(403);
    expect(right.body).toEqual({ error: 'Verify your email address first: a new link is on its way to it' });
    expect(right.headers['set-cookie']).toBeUndefined();
    const fr = await post('/api/v1/auth/sign-in', { email: victim, password: SQUATTER }).set('Accept-Language', 'fr');
    expect(fr.body).toEqual({ error: "Vérifiez d'abord votre adresse e-mail : un nouveau lien lui a été envoyé" });
    // the new link goes to the address, never to whoever knows the password
    expect(await verificationTokens(s.h, victim, 3)).toHaveLength(3);

    // without the right password nothing tells an unverified, a verified and an absent account apart
    const verified = `verified-${randomUUID()}@example.com`;
    await post('/api/v1/auth/sign-up', { email: verified, password: PASSWORD }).expect(202);
    const [token] = await verificationTokens(s.h, verified, 1);
    await post('/api/v1/auth/verify-email', { token, password: PASSWORD }).expect(200);
    const answers = await Promise.all(
      [victim, verified, `absent-${randomUUID()}@example.com`].map((email) =>
        post('/api/v1/auth/sign-in', { email, password: 'not-the-password-9' }),
      ),
    );
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Wrong email or password' });
    }
  });

  it("gives the account to whoever proves the address with their own sign-up's password, and removes what was made before, each removal audited", async () => {
    const victim = `owner-${randomUUID()}@example.com`;
    await post('/api/v1/auth/sign-up', { email: victim, password: SQUATTER }).expect(202);
    const [squattersLink] = await verificationTokens(s.h, victim, 1);
    const [{ id: accountId }] = await sql<{ id: string }>(s.h, `SELECT id FROM gateway.accounts WHERE email = $1`, [
      victim,
    ]);
    // What an unverified account may hold from an earlier version (or an operator): a session, a key, a linked identity.
    const cookie = randomBytes(32).toString('base64url');
    const sessionId = randomUUID();
    await sql(
      s.h,
      `INSERT INTO gateway.sessions (id, account_id, token_hash, method, created_at, authenticated_at, last_seen_at, idle_expires_at, expires_at)
       VALUES ($1, $2, $3, 'password', now(), now(), now(), now() + interval '1 hour', now() + interval '1 day')`,
      [sessionId, accountId, createHash('sha256').update(cookie).digest()],
    );
    await sql(
      s.h,
      `INSERT INTO gateway.oidc_identities (issuer, subject, account_id) VALUES ('https://idp.example', 'squatter', $1)`,
      [accountId],
    );
    await s.h.admin('patch', `/admin/v1/accounts/${accountId}`, { plan: 'pro' }).expect(200);
    const key = (await s.h.admin('post', `/admin/v1/accounts/${accountId}/api-keys`, { name: 'squatter' }).expect(201))
      .body.data.apiKey;
    await s.h.http.get('/api/v1/auth/session').set('Cookie', `skills_session=${cookie}`).expect(200);
    await s.h.http.get('/api/v1/skills').set('Authorization', `Bearer ${key.key}`).expect(200);

    // The owner signs up: their link, opened with the squatter's password, verifies nothing.
    await post('/api/v1/auth/sign-up', { email: victim, password: PASSWORD }).expect(202);
    const ownersLink = (await verificationTokens(s.h, victim, 2))[1];
    const refused = await post('/api/v1/auth/verify-email', { token: ownersLink, password: SQUATTER }).expect(400);
    expect(refused.body).toEqual({ error: 'This is not the password chosen at the sign-up this link confirms' });
    // Nor does the squatter's own link without the squatter's password.
    await post('/api/v1/auth/verify-email', { token: squattersLink, password: PASSWORD }).expect(400);

    const owner = request.agent(s.h.gateway.url);
    const opened = await post('/api/v1/auth/verify-email', { token: ownersLink, password: PASSWORD }, owner).expect(
      200,
    );
    expect(opened.body.data.account).toMatchObject({ id: accountId, email: victim });
    await owner.get('/api/v1/auth/session').expect(200);
    await s.h.http.get('/api/v1/auth/session').set('Cookie', `skills_session=${cookie}`).expect(401);
    await s.h.http.get('/api/v1/skills').set('Authorization', `Bearer ${key.key}`).expect(401);
    expect(await sql(s.h, `SELECT 1 FROM gateway.oidc_identities WHERE account_id = $1`, [accountId])).toEqual([]);
    await post('/api/v1/auth/sign-in', { email: victim, password: SQUATTER }).expect(401);
    // The squatter's link died with the proof.
    await post('/api/v1/auth/verify-email', { token: squattersLink, password: SQUATTER }).expect(400);

    const events = await trail(s.h, accountId);
    const removals = events.filter((e) => e.details.reason === 'email_verified').map((e) => [e.action, e.target]);
    expect(removals.sort()).toEqual(
      [
        ['api_key.revoke', key.id],
        ['auth.oidc_unlink', 'https://idp.example'],
        ['auth.session_end', sessionId],
      ].sort(),
    );
    expect(events.filter((e) => e.action === 'auth.email_verify')).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ passwordSet: true }) }),
    ]);
  });

  it("never lets a second sign-up's link replace the password once the owner verified: it stops working", async () => {
    const email = `stale-${randomUUID()}@example.com`;
    await post('/api/v1/auth/sign-up', { email, password: PASSWORD }).expect(202);
    const [ownersLink] = await verificationTokens(s.h, email, 1);
    // someone signs the same address up again before the owner opens their mail
    await post('/api/v1/auth/sign-up', { email, password: SQUATTER }).expect(202);
    const staleLink = (await verificationTokens(s.h, email, 2))[1];

    const owner = request.agent(s.h.gateway.url);
    const opened = await post('/api/v1/auth/verify-email', { token: ownersLink, password: PASSWORD }, owner).expect(
      200,
    );
    const csrf = opened.body.data.csrfToken as string;
    const created = await owner
      .post('/api/v1/me/api-keys')
      .set('Origin', s.h.gateway.url)
      .set('X-CSRF-Token', csrf)
      .send({ name: 'mine', scopes: ['search:read'] });
    expect(created.status).toBe(201);

    // the owner opens the second mail too, later: the link is dead, whatever is typed
    for (const body of [{ token: staleLink }, { token: staleLink, password: SQUATTER }]) {
      const res = await post('/api/v1/auth/verify-email', body).expect(400);
      expect(res.body).toEqual({ error: 'This link is invalid, already used or expired' });
    }
    await owner.get('/api/v1/auth/session').expect(200);
    const keys = await owner.get('/api/v1/me/api-keys').expect(200);
    expect(keys.body.data.apiKeys).toEqual([expect.objectContaining({ name: 'mine', revokedAt: null })]);
    await post('/api/v1/auth/sign-in', { email, password: SQUATTER }).expect(401);
    await post('/api/v1/auth/sign-in', { email, password: PASSWORD }).expect(200);
  });
});

describe('invite mode: an invitation link proves no address', () => {
  const { it: s, post } = suite({ signUpMode: 'invite' });

  it('lets its holder ask for an account with any address, which signs in nowhere until that address is verified', async () => {
    const url = (await s.h.admin('post', '/admin/v1/invitations').expect(201)).body.data.invitation.url as string;
    const invitation = url.split('#invitation=')[1];
    const notMine = `someone-else-${randomUUID()}@example.com`;
    await post('/api/v1/auth/sign-up', { email: notMine, password: SQUATTER, invitation }).expect(202);
    await verificationTokens(s.h, notMine, 1);

    const signIn = await post('/api/v1/auth/sign-in', { email: notMine, password: SQUATTER });
    expect(signIn.status).toBe(403);
    expect(signIn.headers['set-cookie']).toBeUndefined();
    expect(signIn.body.error).toMatch(/^Verify your email address first/);
    // the link that verifies is mailed to the address typed, and needs the password chosen with it
    const [token] = await verificationTokens(s.h, notMine, 1);
    const verified = await post('/api/v1/auth/verify-email', { token, password: SQUATTER }).expect(200);
    expect(verified.body.data.account.email).toBe(notMine);
  });
});

describe('the upgrade that makes an address count only once verified (migration 012)', () => {
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it('removes what unverified accounts held before it (sessions, keys, identities), each in the trail, and keeps the verified ones', async () => {
    const db = await createTestDatabase();
    const sequelize = createSequelize({ url: db.url, poolMax: 1 });
    await runMigrations(
      sequelize,
      GATEWAY_SCHEMA,
      gatewayMigrations.slice(
        0,
        gatewayMigrations.findIndex((m) => m.id.startsWith('012')),
      ),
    );
    /** An account of the version before, on the pro plan, with a session cookie, an API key and a linked identity. */
    const holding = async (verified: boolean) => {
      const [id, cookie, key] = [
        randomUUID(),
        randomBytes(32).toString('base64url'),
        `sk_live_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x').slice(0, 32)}`,
      ];
      const sha = (text: string) => createHash('sha256').update(text).digest();
      const run = (sqlText: string, bind: unknown[]) => sequelize.query(sqlText, { bind });
      await run(
        `INSERT INTO gateway.accounts (id, email, plan, password_hash, email_verified_at) VALUES ($1, $2, 'pro', 'x', $3)`,
        [id, `${id}@example.com`, verified ? new Date() : null],
      );
      await run(
        `INSERT INTO gateway.sessions (id, account_id, token_hash, method, created_at, authenticated_at, last_seen_at, idle_expires_at, expires_at)
         VALUES ($1, $2, $3, 'password', now(), now(), now(), now() + interval '1 hour', now() + interval '1 day')`,
        [randomUUID(), id, sha(cookie)],
      );
      await run(`INSERT INTO gateway.api_keys (id, account_id, prefix, key_hash) VALUES ($1, $2, $3, $4)`, [
        randomUUID(),
        id,
        key.slice(0, 12),
        sha(key),
      ]);
      await run(
        `INSERT INTO gateway.oidc_identities (issuer, subject, account_id) VALUES ('https://idp.example', $1, $2)`,
        [id, id],
      );
      return { id, cookie, key };
    };
    const [squatted, owned] = [await holding(false), await holding(true)];
    await sequelize.close();

    h = await startHarness({}, {}, db);
    const session = (cookie: string) => h?.http.get('/api/v1/auth/session').set('Cookie', `skills_session=${cookie}`);
    const search = (key: string) => h?.http.get('/api/v1/skills').set('Authorization', `Bearer ${key}`);
    await session(squatted.cookie)?.expect(401);
    await search(squatted.key)?.expect(401);
    await session(owned.cookie)?.expect(200);
    await search(owned.key)?.expect(200);
    expect(await sql(h, `SELECT account_id FROM gateway.oidc_identities`)).toEqual([{ account_id: owned.id }]);
    const events = await trail(h, squatted.id);
    expect(events.map((e) => [e.action, e.details.reason]).sort()).toEqual([
      ['api_key.revoke', 'unverified'],
      ['auth.oidc_unlink', 'unverified'],
      ['auth.session_end', 'unverified'],
    ]);
    expect(await trail(h, owned.id)).toEqual([]);
  }, 90_000);
});
