/**
 * OpenID Connect sign-in against a real provider (oidc-provider) started in
 * the test, its login and consent pages driven over HTTP with a small cookie
 * jar: authorization code + PKCE, the account created on first sign-in with
 * the provider's verified email, the same account on the next one, and a
 * callback that did not start in this browser refused.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHarness, type Harness } from './harness';
import { signIn as passwordSignIn, signUp } from './profile-harness';

/** Cookies by origin, as a browser keeps them (enough for two loopback servers). */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  async fetch(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const origin = new URL(url).origin;
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
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
      // Every login name is a person whose email the provider has verified, except "unverified".
      findAccount: async (_ctx: unknown, sub: string) => ({
        accountId: sub,
        claims: async () => ({ sub, email: `${sub}@idp.example`, email_verified: sub !== 'unverified', name: `Person ${sub}` }),
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

  it('never links a provider identity to an existing account by its email: no takeover by signing up first', async () => {
    // Someone signs up with a password using the address the provider will vouch for.
    const squatter = await signUp(h, { email: 'pat@idp.example' });
    const done = await signIn(new Browser(), 'pat');
    expect(decodeURIComponent(done.headers.get('location') ?? '')).toBe(
      '/console/sign-in#error=An account with this email address already exists: sign in to it, then link single sign-on from your profile',
    );
    // Both stay as they were: the password account keeps its password, the identity is linked nowhere.
    const again = await passwordSignIn(h, 'pat@idp.example');
    expect(again.accountId).toBe(squatter.accountId);
    const retried = await signIn(new Browser(), 'pat');
    expect(retried.headers.get('location')).toMatch(/^\/console\/sign-in#error=/);
  }, 60_000);

  it('refuses an unverified email, and a callback this browser did not start', async () => {
    const unverified = await signIn(new Browser(), 'unverified');
    expect(decodeURIComponent(unverified.headers.get('location') ?? '')).toBe('/console/sign-in#error=Your identity provider did not confirm your email address');

    const victim = new Browser();
    const start = await victim.fetch(`${h.gateway.url}/api/v1/auth/oidc/start`);
    const callback = await victim.signInAt(start.headers.get('location') ?? '', 'mallory', `${h.gateway.url}/`);
    // the code and state replayed in another browser, which has no flow cookie
    const stolen = await new Browser().fetch(callback);
    expect(stolen.status).toBe(303);
    expect(decodeURIComponent(stolen.headers.get('location') ?? '')).toBe('/console/sign-in#error=Single sign-on failed; try again');
  }, 60_000);
});
