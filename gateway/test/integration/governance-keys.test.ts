/**
 * Keys bound to a workspace and searches under its policy, through the
 * gateway (docs/governance.md "Policy for every client"): the key's view,
 * membership asked of collections-service, the policy signed into the
 * principal catalog-service receives, the refusals, the 2 s cache and its
 * drop on a policy PUT, and no `/internal` route reachable from outside.
 */
import { request as httpRequest } from 'node:http';
import type { Principal } from '@skills/common';
import { FakeWorkspaces } from './governance-fakes';
import { startHarness, type Echo, type Harness } from './harness';
import { signUp, write, type Browser } from './profile-harness';

describe('gateway keys bound to a workspace', () => {
  let h: Harness;
  let spaces: FakeWorkspaces;
  // The clock of the kept policies: tests step over their 2 s instead of waiting.
  let now = 5_000_000;

  beforeAll(async () => {
    h = await startHarness({}, { now: () => now });
    spaces = new FakeWorkspaces(h);
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  async function proPerson(): Promise<Browser> {
    const b = await signUp(h);
    await h.admin('patch', `/admin/v1/accounts/${b.accountId}`, { plan: 'pro' }).expect(200);
    return b;
  }

  async function boundKey(
    b: Browser,
    workspaceId: string | null,
  ): Promise<{ id: string; key: string; workspaceId: string | null }> {
    const res = await write(b, 'post', '/api/v1/me/api-keys', {
      name: 'agent',
      scopes: ['search:read'],
      workspaceId,
    }).expect(201);
    return res.body.data.apiKey;
  }

  const search = (key: string, query = '') =>
    h.http.get(`/api/v1/skills${query}`).set('Authorization', `Bearer ${key}`);
  const signedPrincipal = (res: { body: { data: Echo } }): Principal => res.body.data.principal;

  it('binds a key to a workspace of its creator and shows the binding (null when unbound)', async () => {
    const b = await proPerson();
    const team = spaces.create([b.accountId]);
    const bound = await boundKey(b, team.toUpperCase());
    expect(bound.workspaceId).toBe(team);
    const unbound = await boundKey(b, null);
    expect(unbound.workspaceId).toBeNull();
    const listed = await b.agent.get('/api/v1/me/api-keys').expect(200);
    const views = Object.fromEntries(
      (listed.body.data.apiKeys as Array<{ id: string; workspaceId: string | null }>).map((k) => [k.id, k.workspaceId]),
    );
    expect(views).toEqual({ [bound.id]: team, [unbound.id]: null });
    expect(h.collections.received).toContain(`GET /api/v1/workspaces/${team}`);
  });

  it('refuses to bind a key to a workspace its creator is not a member of: 404 "Workspace not found" (EN/FR), no key made', async () => {
    const b = await proPerson();
    const theirs = spaces.create(['someone-else']);
    const en = await write(b, 'post', '/api/v1/me/api-keys', {
      name: 'x',
      scopes: ['search:read'],
      workspaceId: theirs,
    }).expect(404);
    expect(en.body).toEqual({ error: 'Workspace not found' });
    const fr = await write(b, 'post', '/api/v1/me/api-keys', {
      name: 'x',
      scopes: ['search:read'],
      workspaceId: theirs,
    })
      .set('Accept-Language', 'fr')
      .expect(404);
    expect(fr.body).toEqual({ error: 'Espace de travail introuvable' });
    const asked = h.collections.received.length;
    await write(b, 'post', '/api/v1/me/api-keys', {
      name: 'x',
      scopes: ['search:read'],
      workspaceId: 'not-a-uuid',
    }).expect(404);
    expect(h.collections.received.length).toBe(asked);
    const listed = await b.agent.get('/api/v1/me/api-keys').expect(200);
    expect(listed.body.data.apiKeys).toEqual([]);
  });

  it("signs the bound workspace's policy into every search of the key, and never the binding itself", async () => {
    const b = await proPerson();
    const team = spaces.create([b.accountId], ['mit', 'apache-2.0']);
    const { key } = await boundKey(b, team);
    const res = await search(key, '?q=pdf').expect(200);
    const principal = signedPrincipal(res);
    expect(principal).toEqual({
      kind: 'account',
      accountId: b.accountId,
      plan: 'pro',
      keyId: expect.any(String),
      searchPolicy: spaces.policies.get(team),
    });
    // workspace= naming the bound workspace is the same policy
    const same = await search(key, `?workspace=${team}`).expect(200);
    expect(signedPrincipal(same)).toEqual(principal);
    // an unbound key searches without any policy
    const plain = await search((await boundKey(b, null)).key, '?q=pdf').expect(200);
    expect(signedPrincipal(plain)).not.toHaveProperty('searchPolicy');
  });

  it('refuses a bound key a search naming another workspace: 403, EN/FR, nothing reaches the catalog', async () => {
    const b = await proPerson();
    const [team, other] = [spaces.create([b.accountId]), spaces.create([b.accountId])];
    const { key } = await boundKey(b, team);
    const searches = h.catalog.received.length;
    const en = await search(key, `?workspace=${other}`).expect(403);
    expect(en.body).toEqual({
      error: "This API key is bound to another workspace: its searches apply that workspace's policy only",
    });
    const fr = await search(key, `?workspace=${other}`).set('Accept-Language', 'fr').expect(403);
    expect(fr.body.error).toMatch(/^Cette clé API est liée à un autre espace de travail/);
    expect(h.catalog.received.length).toBe(searches);
  });

  it('answers 403 to the searches of a bound key whose holder left the workspace, once the kept policy is over', async () => {
    const b = await proPerson();
    const team = spaces.create([b.accountId]);
    const { key } = await boundKey(b, team);
    await search(key).expect(200);
    spaces.members.get(team)?.delete(b.accountId);
    now += 2_001;
    const res = await search(key).expect(403);
    expect(res.body).toEqual({ error: 'You do not have access to this workspace' });
  });

  it('applies workspace= for a member (key or session), 404 "Workspace not found" for anyone else and for a non-uuid', async () => {
    const b = await proPerson();
    const team = spaces.create([b.accountId]);
    const { key } = await boundKey(b, null);
    expect(signedPrincipal(await search(key, `?workspace=${team}`).expect(200))).toMatchObject({
      searchPolicy: { workspaceId: team },
    });
    expect(signedPrincipal(await b.agent.get(`/api/v1/skills?workspace=${team}`).expect(200))).toMatchObject({
      searchPolicy: { workspaceId: team },
    });
    const stranger = await h.accountWithKey('pro');
    const refused = await search(stranger.key, `?workspace=${team}`).set('Accept-Language', 'fr').expect(404);
    expect(refused.body).toEqual({ error: 'Espace de travail introuvable' });
    await search(stranger.key, '?workspace=nope').expect(404);
    await search(stranger.key, `?workspace=${team}&workspace=${team}`).expect(400);
  });

  it("passes collections-service's 503 and its Retry-After on, never a 502: to a policy read, a binding and a relayed read", async () => {
    const b = await proPerson();
    const team = spaces.create([b.accountId]);
    const { key } = await boundKey(b, team);
    const answer = h.collections.answer;
    h.collections.answer = () => ({
      status: 503,
      body: { error: 'The server is busy; retry shortly' },
      headers: { 'Retry-After': '7' },
    });
    try {
      now += 2_001;
      const searched = await search(key).set('Accept-Language', 'fr').expect(503);
      expect(searched.headers['retry-after']).toBe('7');
      expect(searched.body).toEqual({ error: 'Le serveur est surchargé ; réessayez dans un instant' });
      const bound = await write(b, 'post', '/api/v1/me/api-keys', {
        name: 'x',
        scopes: ['search:read'],
        workspaceId: team,
      }).expect(503);
      expect(bound.headers['retry-after']).toBe('7');
      expect(bound.body).toEqual({ error: 'The server is busy; retry shortly' });
      const members = await b.agent.get(`/api/v1/workspaces/${team}/members`).expect(503);
      expect(members.headers['retry-after']).toBe('7');
    } finally {
      h.collections.answer = answer;
    }
  });

  it('keeps a policy 2 s at most, and reads it again at once after a policy PUT through the gateway', async () => {
    const b = await proPerson();
    const team = spaces.create([b.accountId], ['mit']);
    const { key } = await boundKey(b, team);
    await search(key, '?q=a').expect(200);
    await search(key, '?q=b').expect(200);
    expect(spaces.fetches(team)).toBe(1);
    now += 2_001;
    await search(key, '?q=c').expect(200);
    expect(spaces.fetches(team)).toBe(2);
    const changed = spaces.setPolicy(team, ['gpl-3.0']);
    await h.http
      .put(`/api/v1/workspaces/${team}/policy`)
      .set('Authorization', `Bearer ${(await h.accountWithKey('pro')).key}`)
      .send({ allowedLicenses: ['GPL-3.0'] })
      .expect(200);
    const after = await search(key, '?q=d').expect(200);
    expect(signedPrincipal(after)).toMatchObject({ searchPolicy: changed });
    expect(spaces.fetches(team)).toBe(3);
  });

  it('records a policy change and a new webhook in the audit trail, with the URL and never the secret', async () => {
    const { key } = await h.accountWithKey('pro');
    const team = spaces.create([]);
    await h.http
      .put(`/api/v1/workspaces/${team}/policy`)
      .set('Authorization', `Bearer ${key}`)
      .set('X-Request-Id', 'req-policy')
      .send({ deniedSlugs: ['x'] })
      .expect(200);
    const url = 'https://ci.example.com/hook';
    await h.http
      .post(`/api/v1/workspaces/${team}/webhooks`)
      .set('Authorization', `Bearer ${key}`)
      .set('X-Request-Id', 'req-hook')
      .send({ url, events: ['policy.changed'] })
      .expect(201);
    const trail = async (action: string) =>
      (
        (await h.admin('get', `/admin/v1/audit-events?action=${action}`).expect(200)).body.data.events as Array<{
          target: string;
        }>
      ).filter((e) => e.target === team);
    expect(await trail('workspace.policy_set')).toEqual([expect.objectContaining({ requestId: 'req-policy' })]);
    const [created] = await trail('webhook.create');
    expect(created).toMatchObject({ requestId: 'req-hook', details: { url, status: 201 } });
    expect(JSON.stringify(created)).not.toContain('whsec_');
  });

  it('reaches no /internal route of a service, however the path is spelled', async () => {
    const { key } = await h.accountWithKey('pro');
    const team = spaces.create([]);
    const before = [h.catalog.received.length, h.collections.received.length];
    const paths = [
      `/internal/v1/workspaces/${team}/search-policy`,
      `//internal/v1/workspaces/${team}/search-policy`,
      `/api/v1/../internal/v1/workspaces/${team}/search-policy`,
    ];
    for (const path of paths) {
      const status = await rawGet(h.gateway.url, path, key);
      expect([path, status]).toEqual([path, 404]);
    }
    expect([h.catalog.received.length, h.collections.received.length]).toEqual(before);
  });
});

/** A GET of `path` exactly as written (no client normalising `..`): the status. */
function rawGet(origin: string, path: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${origin}${path}`,
      { method: 'GET', path, headers: { Authorization: `Bearer ${key}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
