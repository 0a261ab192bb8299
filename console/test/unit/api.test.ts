/**
 * The console's client wiring: the session cookie and the CSRF token of the
 * sign-in on writes, none on reads, and the catalog's search as the address
 * asks it.
 */
import { createConsoleClient } from '../../src/api';
import { searchParamsOf } from '../../src/catalog-query';

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  credentials: RequestInit['credentials'];
}

function fakeFetch(data: unknown) {
  const sent: Sent[] = [];
  const impl = (async (input: string | URL | Request, init?: RequestInit) => {
    sent.push({
      method: init?.method ?? 'GET',
      url: String(input),
      headers: init?.headers as Record<string, string>,
      credentials: init?.credentials,
    });
    return new Response(JSON.stringify({ data }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { impl, sent };
}

const signedIn = { account: { id: 'a1' }, session: { id: 's1' }, csrfToken: 'csrf-1' };

describe('console client', () => {
  it('sends the cookie of the origin, never a key, and the CSRF token on writes only', async () => {
    const fake = fakeFetch(signedIn);
    const sut = createConsoleClient({ baseUrl: 'http://console.test', fetch: fake.impl });
    await sut.signIn('ana@example.com', 'correct horse battery');
    await sut.listMyCollectionsPage({ limit: 50 });
    await sut.createMyCollection({ name: 'Daily' });
    await sut.revokeOwnApiKey('k1');
    expect(fake.sent.map((s) => `${s.method} ${s.url} ${s.headers['X-CSRF-Token'] ?? '-'}`)).toEqual([
      'POST http://console.test/api/v1/auth/sign-in -',
      'GET http://console.test/api/v1/me/collections?limit=50 -',
      'POST http://console.test/api/v1/me/collections csrf-1',
      'DELETE http://console.test/api/v1/me/api-keys/k1 csrf-1',
    ]);
    expect(fake.sent.every((s) => s.credentials === 'same-origin' && !('Authorization' in s.headers))).toBe(true);
  });

  it('searches the catalog as the address asks, with every facet and no filter it did not ask for', async () => {
    const fake = fakeFetch({ skills: [], pagination: {} });
    const sut = createConsoleClient({ baseUrl: 'http://console.test', fetch: fake.impl });
    await sut.searchSkills(
      searchParamsOf({ q: 'pdf', tags: ['a', 'b'], page: 1, trust: 'clean', verifiedPublisher: false }),
    );
    await sut.searchSkills(searchParamsOf({ page: 3, trust: 'any', verifiedPublisher: true, type: 'plugin' }));
    const facets = 'facets=category%2Ctype%2Ctrust%2CverifiedPublisher';
    expect(fake.sent.map((s) => s.url)).toEqual([
      `http://console.test/api/v1/skills?q=pdf&limit=20&tag=a&tag=b&${facets}&trust=clean`,
      `http://console.test/api/v1/skills?type=plugin&page=3&limit=20&${facets}&trust=any&verifiedPublisher=true`,
    ]);
  });
});
