/**
 * OpenID Connect sign-in against a real provider (oidc-provider) started in
 * the test, its login and consent pages driven over HTTP with a small cookie
 * jar: authorization code + PKCE, the account created on first sign-in with
 * the provider's verified email, the same account on the next one, a
 * callback that did not start in this browser refused, and linking from a
 * signed-in session (never by email), re-authentication through the
 * provider for a person without a password.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { startHarness, type Harness } from './harness';
import { Browser } from './oidc-browser';
import { PASSWORD, loggedVerificationToken, signIn as passwordSignIn, signUp } from './profile-harness';

const NAMES: Record<string, string> = { trojan: 'Ev\u202Eil\u2066 Person\u2069', onlybidi: '\u200F \u202E' };

describe('OpenID Connect sign-in', () => {
  let h: Harness;
  let issuer: string;
  const server = createServer();

  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    h = await startHarness({
      oidc: { issuer, clientId: 'skills-console', clientSecret: 'a-client-secret-for-the-test', name: 'Test IdP' },
    });
    const { default: Provider } = await import('oidc-provider');
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'skills-console',
          client_secret: 'a-client-secret-for-the-test',
          redirect_uris: [`${h.gateway.url}/api/v1/auth/oidc/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      // Every login name is a person whose email the provider has verified, except "unverified";
      // "trojan" and "onlybidi" carry names with bidi control characters.
      findAccount: async (_ctx: unknown, sub: string) => ({
        accountId: sub,
        claims: async () => ({
          sub,
          email: `${sub}@idp.example`,
          email_verified: sub !== 'unverified',
          name: NAMES[sub] ?? `Person ${sub}`,
        }),
      }),
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      conformIdTokenClaims: false,
      cookies: { keys: ['cookie-signing-key-of-the-test-provider'] },
    });
    const callback = provider.callback();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => callback(req, res));
  }, 90_000);
  afterAll(async () => {
    await h?.close();
    server.closeAllConnections();
    server.close();
  }, 30_000);

  async function signIn(browser: Browser, login: string): Promise<Response> {
    const start = await browser.fetch(`${h.gateway.url}/api/v1/auth/oidc/start`);
    expect(start.status).toBe(303);
    const authorize = new URL(start.headers.get('location') ?? '');
    expect(authorize.origin).toBe(issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${h.gateway.url}/api/v1/auth/oidc/callback`);
    const callback = await browser.signInAt(authorize.href, login, `${h.gateway.url}/`);
    return browser.fetch(callback);
  }

  it('offers the provider on the sign-in page', async () => {
    const res = await h.http.get('/api/v1/auth/options').expect(200);
    expect(res.body.data.oidc).toEqual({ name: 'Test IdP', startUrl: '/api/v1/auth/oidc/start' });
  });

  it('signs a new person in with authorization code + PKCE: a free account with the verified email, the same one next time', async () => {
    const browser = new Browser();
    const done = await signIn(browser, 'olive');
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/console/');
    const session = await browser.fetch(`${h.gateway.url}/api/v1/auth/session`);
    expect(session.status).toBe(200);
    const { data } = (await session.json()) as {
      data: { account: { id: string; email: string; plan: string; name: string }; session: { method: string } };
    };
    expect(data.account).toMatchObject({ email: 'olive@idp.example', plan: 'free', name: 'Person olive' });
    expect(data.session.method).toBe('oidc');

    const again = new Browser();
    await signIn(again, 'olive');
    const second = (await (await again.fetch(`${h.gateway.url}/api/v1/auth/session`)).json()) as {
      data: { account: { id: string } };
    };
    expect(second.data.account.id).toBe(data.account.id);
  }, 60_000);

  it('signs a person in whose provider name holds bidi control characters, with them removed (a name of only them: none)', async () => {
    const nameAfter = async (login: string): Promise<string | null> => {
      const browser = new Browser();
      expect((await signIn(browser, login)).headers.get('location')).toBe('/console/');
      const session = (await (await browser.fetch(`${h.gateway.url}/api/v1/auth/session`)).json()) as {
        data: { account: { name: string | null } };
      };
      return session.data.account.name;
    };
    expect(await nameAfter('trojan')).toBe('Evil Person');
    expect(await nameAfter('onlybidi')).toBeNull();
  }, 60_000);

  it('never links a provider identity to an existing account by its email: no takeover by signing up first', async () => {
    // Someone signs up with a password using the address the provider will vouch for.
    const squatter = await signUp(h, { email: 'pat@idp.example' });
    const done = await signIn(new Browser(), 'pat');
    expect(decodeURIComponent(done.headers.get('location') ?? '')).toBe('/console/sign-in#error=oidc.linkRequired');
    // Both stay as they were: the password account keeps its password, the identity is linked nowhere.
    const again = await passwordSignIn(h, 'pat@idp.example');
    expect(again.accountId).toBe(squatter.accountId);
    const retried = await signIn(new Browser(), 'pat');
    expect(retried.headers.get('location')).toMatch(/^\/console\/sign-in#error=/);
  }, 60_000);

  /** Signs `email` up with a password in `browser` and opens its verification link there, as the console does; the session's CSRF token. */
  async function signUpIn(browser: Browser, email: string): Promise<{ csrf: string; accountId: string }> {
    const asked = await browser.fetch(`${h.gateway.url}/api/v1/auth/sign-up`, {
      method: 'POST',
      json: { email, password: PASSWORD },
      headers: { origin: h.gateway.url },
    });
    expect(asked.status).toBe(202);
    const token = await loggedVerificationToken(h, email);
    const res = await browser.fetch(`${h.gateway.url}/api/v1/auth/verify-email`, {
      method: 'POST',
      json: { token, password: PASSWORD },
      headers: { origin: h.gateway.url },
    });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { csrfToken: string; account: { id: string } } };
    return { csrf: data.csrfToken, accountId: data.account.id };
  }

  /** Starts linking from the session of `browser` and goes through the provider as `login`; the callback's answer. */
  async function link(browser: Browser, csrf: string, login: string): Promise<Response> {
    const started = await browser.fetch(`${h.gateway.url}/api/v1/auth/oidc/link`, {
      method: 'POST',
      headers: { origin: h.gateway.url, 'x-csrf-token': csrf },
    });
    expect(started.status).toBe(200);
    const { data } = (await started.json()) as { data: { url: string } };
    expect(new URL(data.url).origin).toBe(issuer);
    return browser.fetch(await browser.signInAt(data.url, login, `${h.gateway.url}/`));
  }

  const accountIn = async (browser: Browser) =>
    (
      (await (await browser.fetch(`${h.gateway.url}/api/v1/auth/session`)).json()) as {
        data?: { account: { id: string } };
      }
    ).data?.account.id;

  it('links single sign-on from a signed-in session: the provider then opens that account, and its other sessions end', async () => {
    const browser = new Browser();
    const { csrf, accountId } = await signUpIn(browser, 'quinn@idp.example');
    const elsewhere = await passwordSignIn(h, 'quinn@idp.example');
    // a state change of the session: without its CSRF token, refused
    const forged = await browser.fetch(`${h.gateway.url}/api/v1/auth/oidc/link`, {
      method: 'POST',
      headers: { origin: h.gateway.url },
    });
    expect(forged.status).toBe(403);

    const done = await link(browser, csrf, 'quinn');
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/console/profile');
    expect(await accountIn(browser)).toBe(accountId);
    expect((await elsewhere.agent.get('/api/v1/auth/session')).status).toBe(401);

    // single sign-on now opens the password account, in a browser that never signed in here
    const later = new Browser();
    expect((await signIn(later, 'quinn')).headers.get('location')).toBe('/console/');
    expect(await accountIn(later)).toBe(accountId);
  }, 60_000);

  it('links only to the account that started the link, and an identity to one account only', async () => {
    // a link started by one account, finished after another signed in in the same browser: refused, linked nowhere
    const shared = new Browser();
    const first = await signUpIn(shared, 'rosa@idp.example');
    const started = await shared.fetch(`${h.gateway.url}/api/v1/auth/oidc/link`, {
      method: 'POST',
      headers: { origin: h.gateway.url, 'x-csrf-token': first.csrf },
    });
    const { data } = (await started.json()) as { data: { url: string } };
    const callback = await shared.signInAt(data.url, 'rosa', `${h.gateway.url}/`);
    await shared.fetch(`${h.gateway.url}/api/v1/auth/session`, {
      method: 'DELETE',
      headers: { origin: h.gateway.url, 'x-csrf-token': first.csrf },
    });
    const second = await signUpIn(shared, 'sam@example.com');
    const switched = await shared.fetch(callback);
    expect(decodeURIComponent(switched.headers.get('location') ?? '')).toBe('/console/sign-in#error=oidc.failed');
    const rosa = await signIn(new Browser(), 'rosa');
    expect(decodeURIComponent(rosa.headers.get('location') ?? '')).toBe('/console/sign-in#error=oidc.linkRequired');

    // an identity linked to one account is not linked to a second one
    const owner = new Browser();
    const rosaAccount = await signInWithPassword(owner, 'rosa@idp.example');
    expect((await link(owner, rosaAccount.csrf, 'rosa')).headers.get('location')).toBe('/console/profile');
    const taken = await link(shared, second.csrf, 'rosa');
    expect(decodeURIComponent(taken.headers.get('location') ?? '')).toBe('/console/sign-in#error=oidc.linkedElsewhere');
    const viaProvider = new Browser();
    await signIn(viaProvider, 'rosa');
    expect(await accountIn(viaProvider)).toBe(first.accountId);
  }, 60_000);

  /** Signs `email` in with its password in `browser`; the session's CSRF token. */
  async function signInWithPassword(browser: Browser, email: string): Promise<{ csrf: string }> {
    const res = await browser.fetch(`${h.gateway.url}/api/v1/auth/sign-in`, {
      method: 'POST',
      json: { email, password: PASSWORD },
      headers: { origin: h.gateway.url },
    });
    expect(res.status).toBe(200);
    return { csrf: ((await res.json()) as { data: { csrfToken: string } }).data.csrfToken };
  }

  it('records the sign-up, the sign-in and the linking in the audit trail, with the user agent and never the code, state or verifier', async () => {
    const agent = { 'user-agent': 'AuditBrowser/2.0' };
    const trail = async (accountId: string) =>
      (await h.admin('get', `/admin/v1/audit-events?accountId=${accountId}`).expect(200)).body.data.events as {
        action: string;
        actor: object;
        clientAddress: string;
        details: Record<string, unknown>;
      }[];
    const secrets: string[] = [];
    /** The provider's callback, fetched with the user agent; its code and state are kept to look for in the trail. */
    const back = async (browser: Browser, callback: string) => {
      const url = new URL(callback);
      secrets.push(url.searchParams.get('code') ?? 'no code', url.searchParams.get('state') ?? 'no state');
      return browser.fetch(callback, { headers: agent });
    };

    const browser = new Browser();
    const start = await browser.fetch(`${h.gateway.url}/api/v1/auth/oidc/start`);
    await back(browser, await browser.signInAt(start.headers.get('location') ?? '', 'tess', `${h.gateway.url}/`));
    const tess = await accountIn(browser);
    if (!tess) throw new Error('not signed in');
    const self = { kind: 'account', accountId: tess };
    expect((await trail(tess)).map((e) => [e.action, e.actor, e.details.method, e.details.userAgent])).toEqual([
      ['auth.sign_in', self, 'oidc', 'AuditBrowser/2.0'],
      ['auth.sign_up', self, 'oidc', 'AuditBrowser/2.0'],
    ]);

    const owner = new Browser();
    const { csrf, accountId } = await signUpIn(owner, 'uma@idp.example');
    const started = await owner.fetch(`${h.gateway.url}/api/v1/auth/oidc/link`, {
      method: 'POST',
      headers: { origin: h.gateway.url, 'x-csrf-token': csrf },
    });
    const { data } = (await started.json()) as { data: { url: string } };
    expect(
      (await back(owner, await owner.signInAt(data.url, 'uma', `${h.gateway.url}/`))).headers.get('location'),
    ).toBe('/console/profile');
    const events = await trail(accountId);
    expect(events[0]).toMatchObject({
      action: 'auth.oidc_link',
      actor: { kind: 'account', accountId },
      clientAddress: expect.stringMatching(/127\.0\.0\.1/),
      details: { issuer, userAgent: 'AuditBrowser/2.0' },
    });
    expect(events.map((e) => e.action)).toEqual([
      'auth.oidc_link',
      'auth.sign_in',
      'auth.email_verify',
      'auth.sign_up',
    ]);

    const json = JSON.stringify([...(await trail(tess)), ...events]);
    for (const secret of [...secrets, PASSWORD, 'a-client-secret-for-the-test']) expect(json).not.toContain(secret);
  }, 60_000);

  it('re-authenticates a person without a password through the provider before a key change, with their own identity only', async () => {
    const browser = new Browser();
    await signIn(browser, 'vera');
    const session = (await (await browser.fetch(`${h.gateway.url}/api/v1/auth/session`)).json()) as {
      data: { csrfToken: string; account: { id: string } };
    };
    const { csrfToken: csrf, account } = session.data;
    await h.admin('patch', `/admin/v1/accounts/${account.id}`, { plan: 'pro' }).expect(200);
    const post = (path: string, json?: object) =>
      browser.fetch(`${h.gateway.url}${path}`, {
        method: 'POST',
        json,
        headers: { origin: h.gateway.url, 'x-csrf-token': csrf },
      });
    const createKey = () => post('/api/v1/me/api-keys', { name: 'ci', scopes: ['search:read'], expiresInDays: 30 });
    // as if the single sign-on were 11 minutes old
    const db = new Client({ connectionString: h.db.url });
    await db.connect();
    await db.query(
      `UPDATE gateway.sessions SET authenticated_at = now() - interval '11 minutes' WHERE account_id = $1`,
      [account.id],
    );
    await db.end();
    expect((await createKey()).status).toBe(403);

    /** Confirms through the provider as `login`: where the callback sends the browser. */
    const confirmAs = async (login: string) => {
      const started = await post('/api/v1/auth/oidc/reauthenticate');
      expect(started.status).toBe(200);
      const { data } = (await started.json()) as { data: { url: string } };
      browser.forget(issuer);
      const done = await browser.fetch(await browser.signInAt(data.url, login, `${h.gateway.url}/`));
      return decodeURIComponent(done.headers.get('location') ?? '');
    };
    // someone else at the provider proves nothing about this session's holder
    expect(await confirmAs('walt')).toBe('/console/sign-in#error=oidc.reauthenticateOther');
    expect((await createKey()).status).toBe(403);

    expect(await confirmAs('vera')).toBe('/console/keys');
    expect(await accountIn(browser)).toBe(account.id);
    expect((await createKey()).status).toBe(201);
    const trail = await h
      .admin('get', `/admin/v1/audit-events?action=auth.reauthenticate&accountId=${account.id}`)
      .expect(200);
    expect(trail.body.data.events).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ method: 'oidc', issuer }) }),
    ]);
  }, 60_000);

  /** As if the session's sign-in were 11 minutes old: a session cookie someone else holds. */
  async function staleSession(accountId: string): Promise<void> {
    const db = new Client({ connectionString: h.db.url });
    await db.connect();
    await db.query(
      `UPDATE gateway.sessions SET authenticated_at = now() - interval '11 minutes' WHERE account_id = $1`,
      [accountId],
    );
    await db.end();
  }

  it('links nothing with a session cookie alone: linking needs a recent sign-in, which a foreign identity cannot give it', async () => {
    const browser = new Browser();
    const { csrf, accountId } = await signUpIn(browser, 'wes@idp.example');
    await staleSession(accountId);
    const post = (path: string, json?: object) =>
      browser.fetch(`${h.gateway.url}${path}`, {
        method: 'POST',
        json,
        headers: { origin: h.gateway.url, 'x-csrf-token': csrf },
      });
    const refused = await post('/api/v1/auth/oidc/link');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: 'Enter your password again to do this (you signed in more than 10 minutes ago)',
    });
    // the provider vouches only for an identity already linked: the holder of the cookie cannot make it recent
    const confirm = (await (await post('/api/v1/auth/oidc/reauthenticate')).json()) as { data: { url: string } };
    const back = await browser.fetch(await browser.signInAt(confirm.data.url, 'mallory', `${h.gateway.url}/`));
    expect(decodeURIComponent(back.headers.get('location') ?? '')).toBe(
      '/console/sign-in#error=oidc.reauthenticateOther',
    );
    expect((await post('/api/v1/auth/oidc/link')).status).toBe(403);
    expect((await identitiesOf(browser)).identities).toEqual([]);

    // the password again: the owner links their own
    expect((await post('/api/v1/auth/reauthenticate', { password: PASSWORD })).status).toBe(200);
    browser.forget(issuer);
    expect((await link(browser, csrf, 'wes')).headers.get('location')).toBe('/console/profile');
    expect((await identitiesOf(browser)).identities).toEqual([expect.objectContaining({ issuer, subject: 'wes' })]);
  }, 60_000);

  const identitiesOf = async (browser: Browser) =>
    (
      (await (await browser.fetch(`${h.gateway.url}/api/v1/me/identities`)).json()) as {
        data: { identities: { id: string; subject: string }[] };
      }
    ).data;

  it('lists the identities linked to an account on its profile and removes one, audited; another account neither sees nor removes it', async () => {
    const owner = new Browser();
    const { csrf, accountId } = await signUpIn(owner, 'xena@idp.example');
    expect((await link(owner, csrf, 'xena')).headers.get('location')).toBe('/console/profile');
    const [identity] = (await identitiesOf(owner)).identities;
    expect(identity).toEqual({ id: expect.any(String), issuer, subject: 'xena', createdAt: expect.any(String) });
    const remove = (browser: Browser, token?: string) =>
      browser.fetch(`${h.gateway.url}/api/v1/me/identities/${identity?.id}`, {
        method: 'DELETE',
        headers: { origin: h.gateway.url, ...(token ? { 'x-csrf-token': token } : {}) },
      });

    const other = new Browser();
    const stranger = await signUpIn(other, `stranger-${Date.now()}@example.com`);
    expect((await identitiesOf(other)).identities).toEqual([]);
    expect((await remove(other, stranger.csrf)).status).toBe(404);
    expect((await remove(owner)).status).toBe(403);
    expect((await identitiesOf(owner)).identities).toHaveLength(1);

    const removed = await remove(owner, csrf);
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ data: { removed: true } });
    expect((await identitiesOf(owner)).identities).toEqual([]);
    const viaProvider = await signIn(new Browser(), 'xena');
    expect(decodeURIComponent(viaProvider.headers.get('location') ?? '')).toBe(
      '/console/sign-in#error=oidc.linkRequired',
    );
    const trail = await h
      .admin('get', `/admin/v1/audit-events?action=auth.oidc_unlink&accountId=${accountId}`)
      .expect(200);
    expect(trail.body.data.events).toEqual([
      expect.objectContaining({
        target: issuer,
        actor: { kind: 'account', accountId },
        details: expect.objectContaining({ subject: 'xena', reason: 'profile' }),
      }),
    ]);
  }, 60_000);

  it("keeps an account's only way in: the one identity of an account without a password is not removed", async () => {
    const browser = new Browser();
    await signIn(browser, 'yuri');
    const session = (await (await browser.fetch(`${h.gateway.url}/api/v1/auth/session`)).json()) as {
      data: { csrfToken: string };
    };
    const [identity] = (await identitiesOf(browser)).identities;
    const res = await browser.fetch(`${h.gateway.url}/api/v1/me/identities/${identity?.id}`, {
      method: 'DELETE',
      headers: { origin: h.gateway.url, 'x-csrf-token': session.data.csrfToken },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: 'This identity is the only way to sign in to this account: set a password first (a reset link sets one)',
    });
    expect((await identitiesOf(browser)).identities).toHaveLength(1);
  }, 60_000);

  it('offers to unlink every identity with a password reset', async () => {
    const owner = new Browser();
    const { csrf, accountId } = await signUpIn(owner, 'zoe@idp.example');
    await link(owner, csrf, 'zoe');
    const url = (
      await h.admin('post', `/admin/v1/accounts/${accountId}/links`, { purpose: 'password-reset' }).expect(201)
    ).body.data.link.url as string;
    const token = url.split('#token=')[1];
    const reset = await new Browser().fetch(`${h.gateway.url}/api/v1/auth/password-reset`, {
      method: 'POST',
      json: { token, password: 'a-fresh-passphrase-of-zoe', unlinkIdentities: true },
      headers: { origin: h.gateway.url },
    });
    expect(reset.status).toBe(200);
    const viaProvider = await signIn(new Browser(), 'zoe');
    expect(decodeURIComponent(viaProvider.headers.get('location') ?? '')).toBe(
      '/console/sign-in#error=oidc.linkRequired',
    );
    const trail = await h
      .admin('get', `/admin/v1/audit-events?action=auth.oidc_unlink&accountId=${accountId}`)
      .expect(200);
    expect(trail.body.data.events).toEqual([
      expect.objectContaining({ target: issuer, details: expect.objectContaining({ reason: 'password_reset' }) }),
    ]);
  }, 60_000);

  it('refuses an unverified email, and a callback this browser did not start', async () => {
    const unverified = await signIn(new Browser(), 'unverified');
    expect(decodeURIComponent(unverified.headers.get('location') ?? '')).toBe(
      '/console/sign-in#error=oidc.emailNotVerified',
    );

    const victim = new Browser();
    const start = await victim.fetch(`${h.gateway.url}/api/v1/auth/oidc/start`);
    const callback = await victim.signInAt(start.headers.get('location') ?? '', 'mallory', `${h.gateway.url}/`);
    // the code and state replayed in another browser, which has no flow cookie
    const stolen = await new Browser().fetch(callback);
    expect(stolen.status).toBe(303);
    expect(decodeURIComponent(stolen.headers.get('location') ?? '')).toBe('/console/sign-in#error=oidc.failed');
  }, 60_000);
});
