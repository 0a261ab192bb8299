/**
 * A key bound to a team workspace finds only what the workspace policy
 * allows, end to end (docs/governance.md "Policy for every client"): the
 * console session binds the key, the owner sets the policy, and the same
 * search answers differently for the bound key, `workspace=` and an
 * unbound key, on the started stack.
 */
import { createHash } from 'node:crypto';
import { newAccount, startStack, type Json, type Stack } from './helpers';

let stack: Stack;
let ws: string;
let owner: string;
/** the demo account's console session: the sign-in link works once */
let session: { cookie: string; csrf: string };

/** A console session of the demo account, opened with the sign-in link the launcher printed. */
async function demoSession(): Promise<{ cookie: string; csrf: string }> {
  const token = stack.info.signInLink.split('#token=')[1] as string;
  const origin = stack.info.url;
  const res = await fetch(`${origin}/api/v1/auth/sign-in-link`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(res.status).toBe(200);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  return { cookie, csrf: ((await res.json()) as Json).data.csrfToken };
}

// by name: a browse newest first moves while the start's seeding still updates items, a name order does not
const search = (token: string, query: string) =>
  stack.client.call('GET', `/api/v1/skills?limit=50&sort=name${query}`, { token });
const slugsOf = (r: Json): string[] => r.body.data.skills.map((s: Json) => s.slug);
const typesOf = (r: Json): string[] => [...new Set<string>(r.body.data.skills.map((s: Json) => s.type))].sort();

beforeAll(async () => {
  stack = await startStack();
  ws = stack.info.workspaceId;
  owner = stack.info.apiKey;
  session = await demoSession();
}, 180_000);

afterAll(async () => {
  await stack?.dispose();
});

describe('searches under a workspace policy', () => {
  it('gives a bound key, and workspace=, only what the policy allows; an unbound key still finds everything', async () => {
    const everything = await search(owner, '');
    expect(everything.status).toBe(200);
    expect(typesOf(everything)).toEqual(['plugin', 'skill']);
    const plugins = slugsOf(everything).filter((_slug, i) => everything.body.data.skills[i].type === 'plugin');
    const denied = plugins[0] as string;

    const created = await stack.client.call('POST', '/api/v1/me/api-keys', {
      headers: { cookie: session.cookie, origin: stack.info.url, 'x-csrf-token': session.csrf },
      json: { name: 'team agent', scopes: ['search:read'], workspaceId: ws },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.apiKey.workspaceId).toBe(ws);
    const bound = created.body.data.apiKey.key as string;

    const policy = await stack.client.call('PUT', `/api/v1/workspaces/${ws}/policy`, {
      token: owner,
      json: { allowedTypes: ['plugin'], deniedSlugs: [denied] },
    });
    expect(policy.status).toBe(200);

    const narrowed = await search(bound, '');
    expect(narrowed.status).toBe(200);
    expect(typesOf(narrowed)).toEqual(['plugin']);
    expect(slugsOf(narrowed)).not.toContain(denied);
    expect(slugsOf(narrowed).length).toBeGreaterThan(0);
    // the very same query asked by name: the denied plugin stays out
    expect(slugsOf(await search(bound, `&q=${encodeURIComponent(denied)}`))).not.toContain(denied);
    // workspace= applies the same policy to a member's unbound key; without it, nothing is narrowed
    expect(slugsOf(await search(owner, `&workspace=${ws}`))).toEqual(slugsOf(narrowed));
    expect(slugsOf(await search(owner, ''))).toEqual(slugsOf(everything));
  });

  it("refuses the bound key another workspace (403) and a stranger the team's workspace (404)", async () => {
    const created = await stack.client.call('POST', '/api/v1/me/api-keys', {
      headers: { cookie: session.cookie, origin: stack.info.url, 'x-csrf-token': session.csrf },
      json: { name: 'second agent', scopes: ['search:read'], workspaceId: ws },
    });
    const bound = created.body.data.apiKey.key as string;
    const other = await stack.client.call('POST', '/api/v1/workspaces', { token: owner, json: { name: 'Elsewhere' } });
    expect(other.status).toBe(201);
    expect((await search(bound, `&workspace=${other.body.data.workspace.id}`)).status).toBe(403);
    const stranger = await newAccount(stack, 'pro');
    expect(await search(stranger.key, `&workspace=${ws}`)).toMatchObject({
      status: 404,
      body: { error: 'Workspace not found' },
    });
  });

  it("relays a team collection's lockfile with the service's ETag (the SHA-256 of its bytes) and its 304", async () => {
    const listed = await stack.client.call('GET', `/api/v1/workspaces/${ws}/collections`, { token: owner });
    const collectionId = listed.body.data.collections[0].id as string;
    const path = `/api/v1/workspaces/${ws}/collections/${collectionId}/lockfile`;
    const first = await fetch(`${stack.info.url}${path}`, { headers: { authorization: `Bearer ${owner}` } });
    const bytes = Buffer.from(await first.arrayBuffer());
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe(`"${createHash('sha256').update(bytes).digest('hex')}"`);
    expect(first.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({
      lockfileVersion: 2,
      workspace: { id: ws },
      collection: { id: collectionId },
    });
    const again = await stack.client.call('GET', path, {
      token: owner,
      headers: { 'if-none-match': first.headers.get('etag') as string },
    });
    expect(again.status).toBe(304);
  });
});
