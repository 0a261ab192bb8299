/**
 * Team collections end to end (the contract's operations 6–9 plus the
 * team PATCH, docs/api.md) and the 403s: workspace role too low, non-member, and a plan
 * without API access, each with its exact English and French text.
 */
import { randomUUID } from 'node:crypto';
import { FR, newAccount, startStack, TEXTS, type Json, type Stack } from './helpers';

let stack: Stack;
let owner: string;
let ws: string;
const team = (token: string, method: string, path = '', json?: unknown, headers: Record<string, string> = {}) =>
  stack.client.call(method, `/api/v1/workspaces/${ws}/collections${path}`, { token, json, headers });

async function member(role: 'admin' | 'member' | 'viewer'): Promise<{ id: string; key: string }> {
  const account = await newAccount(stack, 'team');
  const r = await stack.client.call('PUT', `/admin/v1/workspaces/${ws}/members/${account.id}`, {
    token: stack.admin,
    json: { role },
  });
  expect(r.status).toBe(200);
  return account;
}

beforeAll(async () => {
  stack = await startStack();
  owner = stack.info.apiKey;
  ws = stack.info.workspaceId;
}, 180_000);

afterAll(async () => {
  await stack?.dispose();
});

describe('team collections', () => {
  it('lists the collections of the demo workspace', async () => {
    const r = await team(owner, 'GET');
    expect(r.status).toBe(200);
    expect(r.body.data.collections).toContainEqual(
      expect.objectContaining({ id: expect.any(String), workspaceId: ws, name: 'Team onboarding' }),
    );
  });

  it('creates (201), reads, updates and deletes a collection, then 404 on a second DELETE', async () => {
    const created = await team(owner, 'POST', '', {
      name: 'Release tooling',
      description: 'What we run on release day',
    });
    expect(created.status).toBe(201);
    const collection = created.body.data.collection;
    expect(collection).toMatchObject({
      id: expect.any(String),
      workspaceId: ws,
      name: 'Release tooling',
      description: 'What we run on release day',
    });

    const read = await team(owner, 'GET', `/${collection.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.collection).toMatchObject({ id: collection.id, workspaceId: ws, skills: [] });

    const patched = await team(owner, 'PATCH', `/${collection.id}`, {
      name: 'Release day',
      skillSlug: 'helm-chart-linter',
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.collection.name).toBe('Release day');
    expect(patched.body.data.collection.skills.map((s: Json) => s.slug)).toEqual(['helm-chart-linter']);

    expect(await team(owner, 'DELETE', `/${collection.id}`)).toMatchObject({
      status: 200,
      body: { data: { deleted: true } },
    });
    expect(await team(owner, 'DELETE', `/${collection.id}`)).toMatchObject({
      status: 404,
      body: { error: TEXTS.collectionNotFound.en },
    });
    expect((await team(owner, 'GET', `/${collection.id}`)).status).toBe(404);
  });

  it('validates the create body: a name is required and at most 120 characters', async () => {
    expect(await team(owner, 'POST', '', { description: 'nameless' })).toMatchObject({
      status: 400,
      body: { error: '"name" is required' },
    });
    const long = await team(owner, 'POST', '', { name: 'n'.repeat(121) });
    expect(long).toMatchObject({ status: 400, body: { error: '"name" must be at most 120 characters long' } });
  });

  it('answers 404 to an unknown collection of the workspace', async () => {
    expect(await team(owner, 'GET', `/${randomUUID()}`)).toMatchObject({
      status: 404,
      body: { error: TEXTS.collectionNotFound.en },
    });
  });
});

describe('workspace roles', () => {
  it('lets a viewer read but not create (403, role too low, EN and FR)', async () => {
    const viewer = await member('viewer');
    expect((await team(viewer.key, 'GET')).status).toBe(200);
    expect(await team(viewer.key, 'POST', '', { name: 'Nope' })).toMatchObject({
      status: 403,
      body: { error: TEXTS.roleTooLow.en },
    });
    expect(await team(viewer.key, 'POST', '', { name: 'Nope' }, FR)).toMatchObject({
      status: 403,
      body: { error: TEXTS.roleTooLow.fr },
    });
  });

  it("lets a member create and delete their own collection but not someone else's", async () => {
    const m = await member('member');
    const own = await team(m.key, 'POST', '', { name: 'Mine' });
    expect(own.status).toBe(201);
    const ownersCollection = await team(owner, 'POST', '', { name: "The owner's" });
    const denied = await team(m.key, 'DELETE', `/${ownersCollection.body.data.collection.id}`);
    expect(denied).toMatchObject({ status: 403, body: { error: TEXTS.roleTooLow.en } });
    expect((await team(m.key, 'DELETE', `/${own.body.data.collection.id}`)).status).toBe(200);
    expect((await team(m.key, 'GET', `/${own.body.data.collection.id}`)).status).toBe(404);
    expect((await team(owner, 'GET', `/${ownersCollection.body.data.collection.id}`)).status).toBe(200);
  });

  it('lets a workspace admin delete any collection', async () => {
    const a = await member('admin');
    const created = await team(owner, 'POST', '', { name: 'Admin deletes this' });
    expect((await team(a.key, 'DELETE', `/${created.body.data.collection.id}`)).status).toBe(200);
    expect((await team(owner, 'GET', `/${created.body.data.collection.id}`)).status).toBe(404);
  });

  it('refuses a non-member on every operation (403, no access, EN and FR)', async () => {
    const outsider = await newAccount(stack, 'pro');
    const existing = (await team(owner, 'GET')).body.data.collections[0].id as string;
    for (const [method, path, body] of [
      ['GET', ''],
      ['POST', '', { name: 'x' }],
      ['GET', `/${existing}`],
      ['DELETE', `/${existing}`],
    ] as const) {
      const r = await team(outsider.key, method, path, body);
      expect({ method, path, status: r.status, body: r.body }).toEqual({
        method,
        path,
        status: 403,
        body: { error: TEXTS.noAccess.en },
      });
    }
    expect(await team(outsider.key, 'GET', '', undefined, FR)).toMatchObject({
      status: 403,
      body: { error: TEXTS.noAccess.fr },
    });
  });
});

describe('removing members', () => {
  const members = (token: string, accountId: string, headers: Record<string, string> = {}) =>
    stack.client.call('DELETE', `/api/v1/workspaces/${ws}/members/${accountId}`, { token, headers });

  it('lets the owner remove a member, who then reads nothing of the workspace (offboarding)', async () => {
    const gone = await member('member');
    const removed = await members(owner, gone.id);
    expect(removed).toMatchObject({ status: 200, body: { data: { removed: true } } });
    expect(await team(gone.key, 'GET')).toMatchObject({ status: 403, body: { error: TEXTS.noAccess.en } });
    expect((await members(owner, gone.id)).status).toBe(404);
  });

  it('lets a member leave with "me", and refuses them removing anyone else', async () => {
    const leaving = await member('member');
    const bystander = await member('viewer');
    expect(await members(leaving.key, bystander.id)).toMatchObject({
      status: 403,
      body: { error: TEXTS.roleTooLow.en },
    });
    expect((await members(leaving.key, 'me')).status).toBe(200);
    expect((await team(leaving.key, 'GET')).status).toBe(403);
    expect((await team(bystander.key, 'GET')).status).toBe(200);
  });

  it('keeps the last owner (409, EN and FR), through the API, the admin API and a demotion', async () => {
    const last = await newAccount(stack, 'team');
    const admin = (method: string, path: string, json?: unknown) =>
      stack.client.call(method, path, { token: stack.admin, json });
    const created = await admin('POST', '/admin/v1/workspaces', { name: 'Solo', ownerAccountId: last.id });
    const solo = created.body.data.workspace.id as string;
    const leave = await stack.client.call('DELETE', `/api/v1/workspaces/${solo}/members/me`, {
      token: last.key,
      headers: FR,
    });
    expect(leave).toMatchObject({
      status: 409,
      body: {
        error: "Un espace de travail garde au moins un propriétaire : nommez d'abord un autre membre propriétaire",
      },
    });
    expect((await admin('DELETE', `/admin/v1/workspaces/${solo}/members/${last.id}`)).status).toBe(409);
    expect((await admin('PUT', `/admin/v1/workspaces/${solo}/members/${last.id}`, { role: 'viewer' })).status).toBe(
      409,
    );
  });

  it('lets a viewer delete nothing, not even a collection they created before a demotion', async () => {
    const demoted = await member('member');
    const created = await team(demoted.key, 'POST', '', { name: 'Made as a member' });
    expect(created.status).toBe(201);
    const put = await stack.client.call('PUT', `/admin/v1/workspaces/${ws}/members/${demoted.id}`, {
      token: stack.admin,
      json: { role: 'viewer' },
    });
    expect(put.status).toBe(200);
    const id = created.body.data.collection.id as string;
    expect(await team(demoted.key, 'DELETE', `/${id}`)).toMatchObject({
      status: 403,
      body: { error: TEXTS.roleTooLow.en },
    });
    expect((await team(owner, 'GET', `/${id}`)).status).toBe(200);
  });
});

describe('plans', () => {
  it('refuses an account on the free plan (403, EN and FR), on every route', async () => {
    const free = await newAccount(stack, 'free');
    for (const path of ['/api/v1/skills', '/api/v1/me/collections', `/api/v1/workspaces/${ws}/collections`]) {
      const r = await stack.client.call('GET', path, { token: free.key });
      expect({ path, status: r.status, body: r.body }).toEqual({
        path,
        status: 403,
        body: { error: TEXTS.planWithoutApi.en },
      });
    }
    const fr = await stack.client.call('GET', '/api/v1/skills', { token: free.key, headers: FR });
    expect(fr).toMatchObject({ status: 403, body: { error: TEXTS.planWithoutApi.fr } });
  });

  it('applies a plan change on the next request', async () => {
    const account = await newAccount(stack, 'pro');
    const me = () => stack.client.call('GET', '/api/v1/me/collections', { token: account.key });
    expect((await me()).status).toBe(200);
    const downgrade = await stack.client.call('PATCH', `/admin/v1/accounts/${account.id}`, {
      token: stack.admin,
      json: { plan: 'free' },
    });
    expect(downgrade).toMatchObject({ status: 200, body: { data: { account: { id: account.id, plan: 'free' } } } });
    expect(await me()).toMatchObject({ status: 403, body: { error: TEXTS.planWithoutApi.en } });
    await stack.client.call('PATCH', `/admin/v1/accounts/${account.id}`, {
      token: stack.admin,
      json: { plan: 'team' },
    });
    expect((await me()).status).toBe(200);
  });
});
