/** SessionClient (the console's client) against a recording fake fetch: the cookie, never a key, and the CSRF token on writes only. */
import { ApiError, SessionClient } from '../../src';
import { fakeFetch } from '../support/fake-fetch';

const signedIn = {
  account: { id: 'a1', email: 'ana@example.com', name: null, plan: 'free' },
  session: {
    id: 's1',
    method: 'password',
    userAgent: null,
    createdAt: '',
    lastSeenAt: '',
    idleExpiresAt: '',
    expiresAt: '',
    current: true,
  },
  csrfToken: 'csrf-1',
};
const client = (fake: { impl: typeof fetch }) =>
  new SessionClient({ baseUrl: 'http://console.test', fetch: fake.impl });

describe('SessionClient', () => {
  it('sends the same-origin cookie and no Authorization header', async () => {
    const fake = fakeFetch(200, { data: { skills: [], pagination: {} } });
    await client(fake).searchSkills({ q: 'pdf' });
    expect(fake.sent[0]).toMatchObject({
      method: 'GET',
      url: 'http://console.test/api/v1/skills?q=pdf',
      credentials: 'same-origin',
    });
    expect(fake.sent[0]?.headers).not.toHaveProperty('Authorization');
  });

  it('sends the CSRF token of the sign-in on writes and not on reads', async () => {
    const fake = fakeFetch(200, { data: signedIn });
    const sut = client(fake);
    await sut.signIn('ana@example.com', 'correct horse battery');
    await sut.createWorkspace({ name: 'Platform' });
    await sut.listWorkspacesPage();
    await sut.deleteMyCollection('c1');
    expect(fake.sent.map((s) => [s.method, s.headers['X-CSRF-Token']])).toEqual([
      ['POST', undefined],
      ['POST', 'csrf-1'],
      ['GET', undefined],
      ['DELETE', 'csrf-1'],
    ]);
    expect(JSON.parse(String(fake.sent[0]?.body))).toEqual({
      email: 'ana@example.com',
      password: 'correct horse battery',
    });
  });

  it('takes the token of a session read back, and forgets it on sign-out', async () => {
    const fake = fakeFetch(200, { data: signedIn });
    const sut = client(fake);
    await expect(sut.getSession()).resolves.toEqual(signedIn);
    await sut.signOut();
    await sut.endSession('s/2');
    expect(fake.sent.map((s) => `${s.method} ${s.url} ${s.headers['X-CSRF-Token'] ?? '-'}`)).toEqual([
      'GET http://console.test/api/v1/auth/session -',
      'DELETE http://console.test/api/v1/auth/session csrf-1',
      'DELETE http://console.test/api/v1/me/sessions/s%2F2 -',
    ]);
  });

  it('answers undefined for a signed-out browser and throws other failures with their message', async () => {
    await expect(client(fakeFetch(401, { error: 'Sign in first' })).getSession()).resolves.toBeUndefined();
    const failure = client(fakeFetch(429, { error: 'Too many attempts' }, { 'retry-after': '30' })).signIn(
      'a@example.com',
      'x',
    );
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 429, message: 'Too many attempts', retryAfter: 30 });
  });

  it('unwraps the answers of key management and invitations', async () => {
    const key = { id: 'k1', key: 'sk_live_x' };
    const fake = fakeFetch(201, {
      data: { apiKey: key, previous: { id: 'k1' }, invitation: { id: 'i1' }, workspace: { id: 'w1' } },
    });
    const sut = client(fake);
    await expect(sut.createOwnApiKey({ name: 'ci', scopes: ['search:read'], expiresInDays: 30 })).resolves.toEqual(key);
    await expect(sut.previewInvitation('t')).resolves.toEqual({ id: 'i1' });
    await expect(sut.acceptInvitation('t')).resolves.toEqual({ id: 'w1' });
    await sut.rollOwnApiKey('k/1', 60);
    expect(fake.sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST http://console.test/api/v1/me/api-keys',
      'POST http://console.test/api/v1/invitations/preview',
      'POST http://console.test/api/v1/invitations/accept',
      'POST http://console.test/api/v1/me/api-keys/k%2F1/roll',
    ]);
    expect(JSON.parse(String(fake.sent[3]?.body))).toEqual({ graceSeconds: 60 });
  });
});

describe('SessionClient in a browser', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it("calls the page's own fetch as a browser requires it: on the window, or it throws Illegal invocation", async () => {
    const calls: unknown[] = [];
    // A browser's fetch refuses any other `this` than the window (or none) with a TypeError.
    globalThis.fetch = function (this: unknown, input: string | URL | Request) {
      if (this !== undefined && this !== globalThis)
        throw new TypeError("Failed to execute 'fetch' on 'Window': Illegal invocation");
      calls.push(String(input));
      return Promise.resolve(
        new Response(JSON.stringify({ data: { skills: [], pagination: {} } }), {
          headers: { 'content-type': 'application/json' },
        }),
      );
    } as typeof fetch;
    await new SessionClient({ baseUrl: 'http://console.test' }).searchSkills({ q: 'pdf' });
    expect(calls).toEqual(['http://console.test/api/v1/skills?q=pdf']);
  });
});
