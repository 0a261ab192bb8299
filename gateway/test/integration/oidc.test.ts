/**
 * OpenID Connect sign-in against a real provider (oidc-provider) started in
 * the test, its login and consent pages driven over HTTP with a small cookie
 * jar: authorization code + PKCE, the account created on first sign-in with
 * the provider's verified email, the same account on the next one, a
 * callback that did not start in this browser refused, and linking from a
 * signed-in session (never by email).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHarness, type Harness } from './harness';
import { PASSWORD, loggedVerificationToken, signIn as passwordSignIn, signUp } from './profile-harness';

/** Cookies by origin, as a browser keeps them (enough for two loopback servers). */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  async fetch(url: string, init: { method?: string; form?: Record<string, string>; json?: object; headers?: Record<string, string> } = {}): Promise<Response> {
    const origin = new URL(url).origin;
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    const headers: Record<string, string> = { ...init.headers, cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    if (init.json) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const res = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || pair.slice(eq + 1) === '';
      if (expired) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1));
    }
    return res;
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(origin)?.get(name);
  }

  /**
   * Follows redirects from `url`, submitting the provider's login (as `login`)
   * and consent pages, until a redirect leaves for `until`; that Location.
   */
  async signInAt(url: string, login: string, until: string): Promise<string> {
    let next = url;
    for (let step = 0; step < 20; step += 1) {
      const res = await this.fetch(next);
      const location = res.headers.get('location');
      if (location) {
        next = new URL(location, next).href;
        if (!next.startsWith(until)) continue;
        return next;
      }
      const page = await res.text();
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      if (res.status !== 200 || !prompt) throw new Error(`unexpected provider page ${res.status} at ${next}: ${page.slice(0, 300)}`);
      const submitted = await this.fetch(next, { method: 'POST', form: prompt === 'login' ? { prompt, login, password: 'any' } : { prompt } });
      next = new URL(submitted.headers.get('location') ?? '', next).href;
    }
    throw new Error('the sign-in did not come back within 20 steps');
  }
}

const NAMES: Record<string, string> = { trojan: 'Ev\u202Eil\u2066 Person\u2069', onlybidi: '\u200F \u202E' };

describe('OpenID Connect sign-in', () => {
  let h: Harness;
  let issuer: string;
  const server = createServer();

  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    h = await startHarness({ oidc: { issuer, clientId: 'skills-console', clientSecret: 'a-client-secret-for-the-test', name: 'Test IdP' } });
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
        claims: async () => ({ sub, email: `${sub}@idp.example`, email_verified: sub !== 'unverified', name: NAMES[sub] ?? `Person ${sub}` }),
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
    const { data } = (await session.json()) as { data: { account: { id: string; email: string; plan: string; name: string }; session: { method: string } } };
    expect(data.account).toMatchObject({ email: 'olive@idp.example', plan: 'free', name: 'Person olive' });
    expect(data.session.method).toBe('oidc');

    const again = new Browser();
    await signIn(again, 'olive');
    const second = (await (await again.fetch(`${h.gateway.url}/api/v1/auth/session`)).json()) as { data: { account: { id: string } } };
    expect(second.data.account.id).toBe(data.account.id);
  }, 60_000);

  it('signs a person in whose provider name holds bidi control characters, with them removed (a name of only them: none)', async () => {
    const nameAfter = async (login: string): Promise<string | null> => {
      const browser = new Browser();
      expect((await signIn(browser, login)).headers.get('location')).toBe('/console/');
      const session = (await (await browser.fetch(`${h.gateway.url}/api/v1/auth/session`)).json()) as { data: { account: { name: string | null } } };
      return session.data.account.name;
    };
    expect(await nameAfter('trojan')).toBe('Evil Person');
    expect(await nameAfter('onlybidi')).toBeNull();
  }, 60_000);

  it('never links a provider identity to an existing account by its email: no takeover by signing up first', async () => {
    // Someone signs up with a password using the address the provider will vouch for.
    const squatter = await signUp(h, { email: 'pat@idp.example' });
    const done = await signIn(new Browser(), 'pat');
    expect(decodeURIComponent(done.headers.get('location') ?? '')).toBe(
      '/console/sign-in#error=oidc.linkRequired',
    );
    // Both stay as they were: the password account keeps its password, the identity is linked nowhere.
    const again = await passwordSignIn(h, 'pat@idp.example');
    expect(again.accountId).toBe(squatter.accountId);
    const retried = await signIn(new Browser(), 'pat');
    expect(retried.headers.get('location')).toMatch(/^\/console\/sign-in#error=/);
  }, 60_000);

  /** Signs `email` up with a password in `browser` and opens its verification link there, as the console does; the session's CSRF token. */
  async function signUpIn(browser: Browser, email: string): Promise<{ csrf: string; accountId: string }> {
    const asked = await browser.fetch(`${h.gateway.url}/api/v1/auth/sign-up`, { method: 'POST', json: { email, password: PASSWORD }, headers: { origin: h.gateway.url } });
    expect(asked.status).toBe(202);
    const token = await loggedVerificationToken(h, email);
    const res = await browser.fetch(`${h.gateway.url}/api/v1/auth/verify-email`, { method: 'POST', json: { token }, headers: { origin: h.gateway.url } });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { csrfToken: string; account: { id: string } } };
    return { csrf: data.csrfToken, accountId: data.account.id };
  }

  /** Starts linking from the session of `browser` and goes through the provider as `login`; the callback's answer. */
  async function link(browser: Browser, csrf: string, login: string): Promise<Response> {
    const started = await browser.fetch(`${h.gateway.url}/api/v1/auth/oidc/link`, { method: 'POST', headers: { origin: h.gateway.url, 'x-csrf-token': csrf } });
    expect(started.status).toBe(200);
    const { data } = (await started.json()) as { data: { url: string } };
    expect(new URL(data.url).origin).toBe(issuer);
    return browser.fetch(await browser.signInAt(data.url, login, `${h.gateway.url}/`));
  }

  const accountIn = async (browser: Browser) =>
    ((await (await browser.fetch(`${h.gateway.url}/api/v1/auth/session`)).json()) as { data?: { account: { id: string } } }).data?.account.id;

  it('links single sign-on from a signed-in session: the provider then opens that account, and its other sessions end', async () => {
    const browser = new Browser();
    const { csrf, accountId } = await signUpIn(browser, 'quinn@idp.example');
    const elsewhere = await passwordSignIn(h, 'quinn@idp.example');
    // a state change of the session: without its CSRF token, refused
    const forged = await browser.fetch(`${h.gateway.url}/api/v1/auth/oidc/link`, { method: 'POST', headers: { origin: h.gateway.url } });
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
    const started = await shared.fetch(`${h.gateway.url}/api/v1/auth/oidc/link`, { method: 'POST', headers: { origin: h.gateway.url, 'x-csrf-token': first.csrf } });
    const { data } = (await started.json()) as { data: { url: string } };
    const callback = await shared.signInAt(data.url, 'rosa', `${h.gateway.url}/`);
    await shared.fetch(`${h.gateway.url}/api/v1/auth/session`, { method: 'DELETE', headers: { origin: h.gateway.url, 'x-csrf-token': first.csrf } });
    const second = await signUpIn(shared, 'sam@example.com');
    const switched = await shared.fetch(callback);
    expect(decodeURIComponent(switched.headers.get('location') ?? '')).toBe('/console/sign-in#error=oidc.failed');
    const rosa = await signIn(new Browser(), 'rosa');
    expect(decodeURIComponent(rosa.headers.get('location') ?? '')).toBe(
      '/console/sign-in#error=oidc.linkRequired',
    );

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
    const res = await browser.fetch(`${h.gateway.url}/api/v1/auth/sign-in`, { method: 'POST', json: { email, password: PASSWORD }, headers: { origin: h.gateway.url } });
    expect(res.status).toBe(200);
    return { csrf: ((await res.json()) as { data: { csrfToken: string } }).data.csrfToken };
  }

  it('records the sign-up, the sign-in and the linking in the audit trail, with the user agent and never the code, state or verifier', async () => {
    const agent = { 'user-agent': 'AuditBrowser/2.0' };
    const trail = async (accountId: string) =>
      (await h.admin('get', `/admin/v1/audit-events?accountId=${accountId}`).expect(200)).body.data.events as { action: string; actor: object; clientAddress: string; details: Record<string, unknown> }[];
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
    const started = await owner.fetch(`${h.gateway.url}/api/v1/auth/oidc/link`, { method: 'POST', headers: { origin: h.gateway.url, 'x-csrf-token': csrf } });
    const { data } = (await started.json()) as { data: { url: string } };
    expect((await back(owner, await owner.signInAt(data.url, 'uma', `${h.gateway.url}/`))).headers.get('location')).toBe('/console/profile');
    const events = await trail(accountId);
    expect(events[0]).toMatchObject({ action: 'auth.oidc_link', actor: { kind: 'account', accountId }, clientAddress: expect.stringMatching(/127\.0\.0\.1/), details: { issuer, userAgent: 'AuditBrowser/2.0' } });
    expect(events.map((e) => e.action)).toEqual(['auth.oidc_link', 'auth.sign_in', 'auth.sign_up']);

    const json = JSON.stringify([...(await trail(tess)), ...events]);
    for (const secret of [...secrets, PASSWORD, 'a-client-secret-for-the-test']) expect(json).not.toContain(secret);
  }, 60_000);

  it('refuses an unverified email, and a callback this browser did not start', async () => {
    const unverified = await signIn(new Browser(), 'unverified');
    expect(decodeURIComponent(unverified.headers.get('location') ?? '')).toBe('/console/sign-in#error=oidc.emailNotVerified');

    const victim = new Browser();
    const start = await victim.fetch(`${h.gateway.url}/api/v1/auth/oidc/start`);
    const callback = await victim.signInAt(start.headers.get('location') ?? '', 'mallory', `${h.gateway.url}/`);
    // the code and state replayed in another browser, which has no flow cookie
    const stolen = await new Browser().fetch(callback);
    expect(stolen.status).toBe(303);
    expect(decodeURIComponent(stolen.headers.get('location') ?? '')).toBe('/console/sign-in#error=oidc.failed');
  }, 60_000);
});
