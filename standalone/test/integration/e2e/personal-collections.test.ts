/**
 * Personal collections end to end (the contract's operations 2–5 plus the
 * create, docs/api.md): the demo data of the first start, every PATCH field, the
 * 400/404/413/415 rules and the promise that deleting a collection keeps
 * its skills.
 */
import { randomUUID } from 'node:crypto';
import { FR, newAccount, startStack, TEXTS, type Json, type Stack } from './helpers';
import { eventually } from '@skills/common/testing';

let stack: Stack;
let key: string;
const me = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
  stack.client.call(method, `/api/v1/me/collections${path}`, { token: key, json, headers });

beforeAll(async () => {
  stack = await startStack();
  key = stack.info.apiKey;
}, 180_000);

afterAll(async () => {
  await stack?.dispose();
});

async function createCollection(name = 'Reading list'): Promise<string> {
  const r = await me('POST', '', { name, description: 'e2e' });
  expect(r.status).toBe(201);
  return r.body.data.collection.id as string;
}

describe('the demo data of the first start', () => {
  it('lists the demo collection with its public and private skills', async () => {
    const r = await me('GET', '');
    expect(r.status).toBe(200);
    const demo = r.body.data.collections.find((c: Json) => c.id === stack.info.collectionId);
    expect(demo).toMatchObject({ id: stack.info.collectionId, name: 'My favourites' });
    const slugs = demo.skills.filter((s: Json) => s.visibility === 'public').map((s: Json) => s.slug);
    expect(slugs.sort()).toEqual(['dockerfile-linter', 'postgres-query-connector', 'readme-refactorer']);
    expect(demo.skills.filter((s: Json) => s.visibility === 'private')).toEqual([
      expect.objectContaining({ id: expect.any(String), name: 'My deploy checklist', visibility: 'private' }),
    ]);
  });

  it('reads one collection with the §3 entry shapes', async () => {
    const r = await me('GET', `/${stack.info.collectionId}`);
    expect(r.status).toBe(200);
    expect(r.body.data.collection.id).toBe(stack.info.collectionId);
    expect(r.body.data.collection.skills).toContainEqual(
      expect.objectContaining({
        slug: 'dockerfile-linter',
        name: 'Dockerfile Linter',
        type: 'skill',
        category: 'devops',
        status: 'active',
        visibility: 'public',
      }),
    );
  });
});

describe('POST and PATCH /api/v1/me/collections', () => {
  it('creates a collection (201) that then appears in the list', async () => {
    const r = await me('POST', '', { name: '  Weekend ideas  ' });
    expect(r.status).toBe(201);
    expect(r.body.data.collection).toMatchObject({ id: expect.any(String), name: 'Weekend ideas', skills: [] });
    const list = await me('GET', '');
    expect(list.body.data.collections.map((c: Json) => c.id)).toContain(r.body.data.collection.id);
  });

  it('adds, re-adds (no-op), removes and renames in turn', async () => {
    const id = await createCollection();
    const added = await me('PATCH', `/${id}`, { skillSlug: 'helm-chart-linter' });
    expect(added.status).toBe(200);
    expect(added.body.data.collection.skills.map((s: Json) => s.slug)).toEqual(['helm-chart-linter']);
    const again = await me('PATCH', `/${id}`, { skillSlug: 'helm-chart-linter' });
    expect(again.body.data.collection.skills).toHaveLength(1);
    const removed = await me('PATCH', `/${id}`, { removeSkillSlug: 'helm-chart-linter' });
    expect(removed.body.data.collection.skills).toEqual([]);
    const renamed = await me('PATCH', `/${id}`, { name: 'Renamed', description: 'New words' });
    expect(renamed.body.data.collection).toMatchObject({ id, name: 'Renamed', description: 'New words' });
  });

  it('applies several fields of one body together', async () => {
    const id = await createCollection();
    await me('PATCH', `/${id}`, { skillSlug: 'helm-chart-linter' });
    const r = await me('PATCH', `/${id}`, {
      removeSkillSlug: 'helm-chart-linter',
      skillSlug: 'dockerfile-linter',
      name: 'Swapped',
    });
    expect(r.status).toBe(200);
    expect(r.body.data.collection.name).toBe('Swapped');
    expect(r.body.data.collection.skills.map((s: Json) => s.slug)).toEqual(['dockerfile-linter']);
  });

  it("adds an own private skill, and refuses another account's with 404 naming it", async () => {
    const id = await createCollection();
    const own = await stack.client.call('POST', `/admin/v1/accounts/${stack.info.accountId}/private-skills`, {
      token: stack.admin,
      json: { name: 'Own notes' },
    });
    expect(own.status).toBe(201);
    const added = await me('PATCH', `/${id}`, { privateSkillId: own.body.data.skill.id });
    expect(added.status).toBe(200);
    expect(added.body.data.collection.skills).toEqual([
      expect.objectContaining({ id: own.body.data.skill.id, visibility: 'private' }),
    ]);

    const other = await newAccount(stack);
    const foreign = await stack.client.call('POST', `/admin/v1/accounts/${other.id}/private-skills`, {
      token: stack.admin,
      json: { name: 'Theirs' },
    });
    const r = await me('PATCH', `/${id}`, { privateSkillId: foreign.body.data.skill.id });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe(`Private skill "${foreign.body.data.skill.id}" not found`);
  });

  it('answers 404 naming an unknown or draft skillSlug', async () => {
    const id = await createCollection();
    const r = await me('PATCH', `/${id}`, { skillSlug: 'no-such-skill' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'Skill "no-such-skill" not found' });
    const fr = await me('PATCH', `/${id}`, { skillSlug: 'no-such-skill' }, FR);
    expect(fr.body).toEqual({ error: 'Compétence « no-such-skill » introuvable' });
  });

  it.each([
    [{}, 'Request body must contain at least one field', 'Le corps de la requête doit contenir au moins un champ'],
    [{ colour: 'red' }, '"colour" is not an allowed field', "« colour » n'est pas un champ autorisé"],
    [
      { name: 'x'.repeat(121) },
      '"name" must be at most 120 characters long',
      '« name » doit contenir au plus 120 caractères',
    ],
  ])('answers 400 to the body %j in English and French', async (body, en, fr) => {
    const id = await createCollection();
    expect(await me('PATCH', `/${id}`, body)).toMatchObject({ status: 400, body: { error: en } });
    expect(await me('PATCH', `/${id}`, body, FR)).toMatchObject({ status: 400, body: { error: fr } });
  });

  it('answers 400 to a create without a name', async () => {
    const r = await me('POST', '', { description: 'no name' });
    expect(r).toMatchObject({ status: 400, body: { error: '"name" is required' } });
  });

  it('answers 413 to a body over 100 kB and 415 to a body that is not JSON', async () => {
    const id = await createCollection();
    const big = await me('PATCH', `/${id}`, { description: 'x'.repeat(110 * 1024) });
    expect(big.status).toBe(413);
    expect(typeof big.body.error).toBe('string');
    const text = await stack.client.call('PATCH', `/api/v1/me/collections/${id}`, {
      token: key,
      raw: 'name=plain',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ error: 'Request body must be sent as application/json' });
  });
});

describe('404s of personal collections', () => {
  it("does not reveal an unknown id, a malformed id or another account's collection", async () => {
    const other = await newAccount(stack);
    for (const path of [`/${randomUUID()}`, '/not-a-uuid', `/${stack.info.collectionId}`]) {
      const r = await stack.client.call('GET', `/api/v1/me/collections${path}`, { token: other.key });
      expect({ path, status: r.status, body: r.body }).toEqual({
        path,
        status: 404,
        body: { error: TEXTS.collectionNotFound.en },
      });
    }
    const patch = await stack.client.call('PATCH', `/api/v1/me/collections/${stack.info.collectionId}`, {
      token: other.key,
      json: { name: 'mine now' },
    });
    expect(patch.status).toBe(404);
    const del = await stack.client.call('DELETE', `/api/v1/me/collections/${stack.info.collectionId}`, {
      token: other.key,
      headers: FR,
    });
    expect(del).toMatchObject({ status: 404, body: { error: TEXTS.collectionNotFound.fr } });
    expect((await me('GET', `/${stack.info.collectionId}`)).status).toBe(200);
  });
});

describe('DELETE /api/v1/me/collections/{id}', () => {
  it('deletes once (200, then 404) and leaves its skills searchable', async () => {
    const id = await createCollection('Soon gone');
    await me('PATCH', `/${id}`, { skillSlug: 'dockerfile-linter' });
    const first = await me('DELETE', `/${id}`);
    expect(first).toMatchObject({ status: 200, body: { data: { deleted: true } } });
    expect((await me('GET', `/${id}`)).status).toBe(404);
    expect(await me('DELETE', `/${id}`)).toMatchObject({ status: 404, body: { error: TEXTS.collectionNotFound.en } });
    const found = await eventually(
      async () => {
        const r = await stack.client.call('GET', '/api/v1/skills?q=dockerfile%20linter', { token: key });
        return r.body.data?.skills.find((s: Json) => s.slug === 'dockerfile-linter');
      },
      'dockerfile-linter searchable',
      60_000,
    );
    expect(found.slug).toBe('dockerfile-linter');
  }, 90_000);
});

describe('quotas and bounded lists', () => {
  it('lists each collection with its count and first five entries; reading it gives them all', async () => {
    const { key: own } = await newAccount(stack, 'pro');
    const created = await stack.client.call('POST', '/api/v1/me/collections', { token: own, json: { name: 'Many' } });
    const id = created.body.data.collection.id as string;
    const page = await stack.client.call('GET', '/api/v1/skills?limit=7&sort=name', { token: own });
    const slugs = (page.body.data.skills as Json[]).map((s) => s.slug as string);
    expect(slugs).toHaveLength(7);
    for (const skillSlug of slugs) {
      expect(
        (await stack.client.call('PATCH', `/api/v1/me/collections/${id}`, { token: own, json: { skillSlug } })).status,
      ).toBe(200);
    }
    const list = await stack.client.call('GET', '/api/v1/me/collections', { token: own });
    const listed = list.body.data.collections.find((c: Json) => c.id === id);
    expect(listed.skillCount).toBe(7);
    expect(listed.skills.map((s: Json) => s.slug)).toEqual(slugs.slice(0, 5));
    const detail = await stack.client.call('GET', `/api/v1/me/collections/${id}`, { token: own });
    expect(detail.body.data.collection.skills.map((s: Json) => s.slug)).toEqual(slugs);
  });

  it('refuses a 101st personal collection with 409 naming the quota, in English and French', async () => {
    const { key: own } = await newAccount(stack, 'pro');
    for (let n = 1; n <= 100; n++) {
      const r = await stack.client.call('POST', '/api/v1/me/collections', { token: own, json: { name: `List ${n}` } });
      expect(r.status).toBe(201);
    }
    const over = await stack.client.call('POST', '/api/v1/me/collections', {
      token: own,
      json: { name: 'One too many' },
    });
    expect(over).toMatchObject({
      status: 409,
      body: { error: 'Quota reached: an account holds at most 100 personal collections (collections per account)' },
    });
    const fr = await stack.client.call('POST', '/api/v1/me/collections', {
      token: own,
      json: { name: 'Encore' },
      headers: FR,
    });
    expect(fr.body).toEqual({
      error: 'Quota atteint : un compte détient au plus 100 collections personnelles (collections par compte)',
    });
  }, 60_000);
});
