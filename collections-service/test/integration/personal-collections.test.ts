import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { bodyDigest, NO_DETAILS } from '@skills/common';
import {
  ADMIN,
  account,
  createPrivateSkill,
  putSkill,
  startHarness,
  type Harness,
  START_TIMEOUT_MS,
} from '../support/harness';

/** The trust of an item with no release: what an entry shows before any scan (unpinned: it follows the item). */
const UNJUDGED = {
  latestVersion: null,
  verdict: 'unscanned',
  publisherVerified: false,
  blocked: false,
  blockedReason: null,
  pin: null,
};

interface Body {
  data?: { collection?: { id: string; skills: Record<string, unknown>[] } & Record<string, unknown> } & Record<
    string,
    unknown
  >;
  error?: string;
}

describe('personal collections /api/v1/me/collections', () => {
  let h: Harness;
  const alice = account();
  const bob = account();

  beforeAll(async () => {
    h = await startHarness();
    for (const slug of ['alpha', 'beta', 'gamma']) await putSkill(h, slug);
    await putSkill(h, 'drafty', { status: 'draft' });
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  async function create(owner = alice, body: object = { name: 'Mine' }): Promise<string> {
    const res = await h.call(owner, 'post', '/api/v1/me/collections').send(body);
    expect(res.status).toBe(201);
    return (res.body as Body).data!.collection!.id;
  }
  const patch = (id: string, body: unknown, who = alice) =>
    h.call(who, 'patch', `/api/v1/me/collections/${id}`).send(body as object);
  const get = (id: string, who = alice) => h.call(who, 'get', `/api/v1/me/collections/${id}`);

  describe('create and read', () => {
    it('creates a collection with a trimmed name and shows it in the list and the detail', async () => {
      const res = await h
        .call(alice, 'post', '/api/v1/me/collections')
        .send({ name: '  Reading list ', description: 'for later' });
      expect(res.status).toBe(201);
      const created = (res.body as Body).data!.collection!;
      expect(created).toEqual({
        id: expect.any(String),
        name: 'Reading list',
        description: 'for later',
        skillCount: 0,
        skills: [],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const list = await h.call(alice, 'get', '/api/v1/me/collections');
      expect(list.status).toBe(200);
      expect(list.body.data.collections.map((c: { id: string }) => c.id)).toContain(created.id);
      const detail = await get(created.id);
      expect(detail.body).toEqual({ data: { collection: created } });
    });

    it('defaults the description to an empty string', async () => {
      const res = await h.call(alice, 'post', '/api/v1/me/collections').send({ name: 'Bare' });
      expect(res.body.data.collection.description).toBe('');
    });

    it("lists only the caller's collections", async () => {
      const bobs = await create(bob, { name: 'Bob only' });
      const alices = await create(alice, { name: 'Alice only' });
      const ids = (await h.call(alice, 'get', '/api/v1/me/collections?limit=50')).body.data.collections.map(
        (c: { id: string }) => c.id,
      );
      expect(ids).toContain(alices);
      expect(ids).not.toContain(bobs);
    });

    it.each([
      ['no name', {}, '"name" is required'],
      ['a blank name', { name: '   ' }, '"name" must not be empty'],
      ['a 121-char name', { name: 'x'.repeat(121) }, '"name" must be at most 120 characters long'],
      [
        'a 2001-char description',
        { name: 'ok', description: 'x'.repeat(2001) },
        '"description" must be at most 2000 characters long',
      ],
      ['an unknown field', { name: 'ok', color: 'red' }, '"color" is not an allowed field'],
      ['a number as name', { name: 42 }, '"name" must be a string'],
    ])('refuses %s with 400', async (_label, body, message) => {
      const res = await h.call(alice, 'post', '/api/v1/me/collections').send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message });
    });

    it('answers validation errors in French when asked', async () => {
      const res = await h
        .call(alice, 'post', '/api/v1/me/collections')
        .set('Accept-Language', 'fr-FR,fr;q=0.9')
        .send({});
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: '« name » est obligatoire' });
    });

    it('refuses a body that is not JSON with 415, malformed JSON with 400 and a huge one with 413', async () => {
      const text = await h
        .call(alice, 'post', '/api/v1/me/collections')
        .set('Content-Type', 'text/plain')
        .send('name=x');
      expect(text.status).toBe(415);
      const broken = await h
        .call(alice, 'post', '/api/v1/me/collections')
        .set('Content-Type', 'application/json')
        .send('{"name":');
      expect(broken.status).toBe(400);
      expect(broken.body.error).toBe('Request body is not valid JSON');
      const huge = await h
        .call(alice, 'post', '/api/v1/me/collections')
        .send({ name: 'big', description: 'x'.repeat(200_000) });
      expect(huge.status).toBe(413);
      expect(typeof huge.body.error).toBe('string');
    });
  });

  describe('isolation between accounts', () => {
    it('answers 404 "Collection not found" for another account\'s collection on every method', async () => {
      const id = await create(bob, { name: 'Private to Bob' });
      for (const res of [
        await get(id),
        await patch(id, { name: 'stolen' }),
        await h.call(alice, 'delete', `/api/v1/me/collections/${id}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'Collection not found' });
      }
      expect((await get(id, bob)).body.data.collection.name).toBe('Private to Bob');
    });

    it('answers 404 for ids that are not uuids and for unknown uuids', async () => {
      expect((await get('not-a-uuid')).status).toBe(404);
      expect((await get(randomUUID())).status).toBe(404);
      const fr = await get('42').set('Accept-Language', 'fr');
      expect(fr.body).toEqual({ error: 'Collection introuvable' });
    });
  });

  describe('PATCH', () => {
    it('adds public skills in the order they were added, with the public entry shape', async () => {
      const id = await create();
      await patch(id, { skillSlug: 'beta' });
      const res = await patch(id, { skillSlug: 'alpha' });
      expect(res.status).toBe(200);
      expect(res.body.data.collection.skills).toEqual([
        {
          slug: 'beta',
          name: 'Skill beta',
          type: 'skill',
          category: 'testing',
          status: 'active',
          visibility: 'public',
          ...NO_DETAILS,
          ...UNJUDGED,
        },
        {
          slug: 'alpha',
          name: 'Skill alpha',
          type: 'skill',
          category: 'testing',
          status: 'active',
          visibility: 'public',
          ...NO_DETAILS,
          ...UNJUDGED,
        },
      ]);
    });

    it('treats adding a skill that is already there as a no-op', async () => {
      const id = await create();
      await patch(id, { skillSlug: 'alpha' });
      const again = await patch(id, { skillSlug: 'alpha' });
      expect(again.status).toBe(200);
      expect(again.body.data.collection.skills).toHaveLength(1);
    });

    it('renames and changes the description', async () => {
      const id = await create();
      const res = await patch(id, { name: ' Renamed ', description: '' });
      expect(res.status).toBe(200);
      expect(res.body.data.collection).toMatchObject({ name: 'Renamed', description: '' });
    });

    it.each([
      ['an empty body', {}, 'Request body must contain at least one field'],
      ['an unknown field', { skillSlug: 'alpha', pinned: true }, '"pinned" is not an allowed field'],
      ['an empty name', { name: '' }, '"name" must not be empty'],
      [
        'a 2001-char description',
        { description: 'x'.repeat(2001) },
        '"description" must be at most 2000 characters long',
      ],
      ['private-skill fields of the wrong type', { privateSkillId: 7 }, '"privateSkillId" must be a string'],
    ])('refuses %s with 400', async (_label, body, message) => {
      const id = await create();
      const res = await patch(id, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message });
    });

    it('refuses a PATCH without a body with 400, in French too', async () => {
      const id = await create();
      const res = await h.call(alice, 'patch', `/api/v1/me/collections/${id}`).set('Accept-Language', 'fr');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Le corps de la requête doit contenir au moins un champ' });
    });

    it('answers 404 naming an unknown or inactive skill slug', async () => {
      const id = await create();
      const unknown = await patch(id, { skillSlug: 'no-such-skill' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'Skill "no-such-skill" not found' });
      const draft = await patch(id, { skillSlug: 'drafty' });
      expect(draft.status).toBe(404);
      expect(draft.body.error).toBe('Skill "drafty" not found');
      const fr = await patch(id, { skillSlug: 'nope' }).set('Accept-Language', 'fr');
      expect(fr.body).toEqual({ error: 'Compétence « nope » introuvable' });
    });

    it("adds and removes the caller's private skills, showing the private entry shape", async () => {
      const id = await create();
      const skillId = await createPrivateSkill(h, alice.accountId, 'My notes');
      const added = await patch(id, { privateSkillId: skillId });
      expect(added.status).toBe(200);
      expect(added.body.data.collection.skills).toEqual([
        { id: skillId, name: 'My notes', description: '', visibility: 'private' },
      ]);
      const removed = await patch(id, { removePrivateSkillId: skillId });
      expect(removed.body.data.collection.skills).toEqual([]);
    });

    it('answers 404 naming a private skill of another account, an unknown one or a public item id', async () => {
      const id = await create();
      const bobsSkill = await createPrivateSkill(h, bob.accountId, 'Bob secret');
      const [publicItem] = await h.rows<{ id: string }>("SELECT id FROM collections.items WHERE slug = 'alpha'");
      for (const privateSkillId of [bobsSkill, randomUUID(), 'not-a-uuid', publicItem!.id]) {
        const res = await patch(id, { privateSkillId });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: `Private skill "${privateSkillId}" not found` });
      }
    });

    it('applies removals, additions and the rename of one body together', async () => {
      const id = await create();
      await patch(id, { skillSlug: 'alpha' });
      const res = await patch(id, { removeSkillSlug: 'alpha', skillSlug: 'gamma', name: 'Swapped' });
      expect(res.status).toBe(200);
      expect(res.body.data.collection.name).toBe('Swapped');
      expect(res.body.data.collection.skills.map((s: { slug: string }) => s.slug)).toEqual(['gamma']);
    });

    it('applies nothing of a body when one of its fields fails', async () => {
      const id = await create(alice, { name: 'Before' });
      await patch(id, { skillSlug: 'alpha' });
      const res = await patch(id, { removeSkillSlug: 'alpha', skillSlug: 'missing', name: 'After' });
      expect(res.status).toBe(404);
      const after = await get(id);
      expect(after.body.data.collection.name).toBe('Before');
      expect(after.body.data.collection.skills.map((s: { slug: string }) => s.slug)).toEqual(['alpha']);
    });

    it('treats removing a skill that is not in the collection as a no-op', async () => {
      const id = await create();
      const res = await patch(id, { removeSkillSlug: 'beta' });
      expect(res.status).toBe(200);
      expect(res.body.data.collection.skills).toEqual([]);
    });

    it('keeps a public skill the admin deleted, shown with status "deleted"', async () => {
      await putSkill(h, 'short-lived');
      const id = await create();
      await patch(id, { skillSlug: 'short-lived' });
      expect((await h.call(ADMIN, 'delete', '/admin/v1/skills/short-lived')).status).toBe(200);
      const res = await get(id);
      expect(res.body.data.collection.skills).toEqual([
        expect.objectContaining({ slug: 'short-lived', status: 'deleted', visibility: 'public' }),
      ]);
    });

    it('refuses more than 1000 skills in one collection with 409', async () => {
      const id = await create();
      await h.rows(
        `INSERT INTO collections.items (id, slug, name, visibility)
         SELECT gen_random_uuid(), 'bulk-' || n, 'Bulk ' || n, 'public' FROM generate_series(1, 1000) n`,
      );
      await h.rows(
        `INSERT INTO collections.collection_entries (collection_id, item_id)
         SELECT $1, id FROM collections.items WHERE slug LIKE 'bulk-%'`,
        [id],
      );
      const res = await patch(id, { skillSlug: 'alpha' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: 'Quota reached: a collection holds at most 1000 skills (entries per collection)',
      });
      const fr = await patch(id, { skillSlug: 'alpha' }).set('Accept-Language', 'fr');
      expect(fr.body).toEqual({
        error: 'Quota atteint : une collection contient au plus 1000 compétences (entrées par collection)',
      });
      const again = await patch(id, { skillSlug: 'bulk-1', name: 'Still fine' });
      expect(again.status).toBe(200);
    });
  });

  describe('DELETE', () => {
    it('deletes the collection once, keeps its skills, then answers 404', async () => {
      const id = await create();
      const skillId = await createPrivateSkill(h, alice.accountId, 'Kept');
      await patch(id, { skillSlug: 'alpha', privateSkillId: skillId });
      const res = await h.call(alice, 'delete', `/api/v1/me/collections/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { deleted: true } });
      expect((await get(id)).status).toBe(404);
      const again = await h.call(alice, 'delete', `/api/v1/me/collections/${id}`);
      expect(again.status).toBe(404);
      const items = await h.rows<{ id: string; status: string }>(
        "SELECT id, status FROM collections.items WHERE slug = 'alpha' OR id = $1",
        [skillId],
      );
      expect(items).toHaveLength(2);
      expect(items.every((i) => i.status === 'active')).toBe(true);
    });
  });

  describe('limits and access', () => {
    it('refuses a 101st collection for one account with 409', async () => {
      const carol = account();
      await h.rows(
        `INSERT INTO collections.collections (id, owner_account_id, created_by, name)
         SELECT gen_random_uuid(), $1, $1, 'c' || n FROM generate_series(1, 100) n`,
        [carol.accountId],
      );
      const res = await h.call(carol, 'post', '/api/v1/me/collections').send({ name: 'one too many' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: 'Quota reached: an account holds at most 100 personal collections (collections per account)',
      });
    });

    it('refuses requests without a principal signed for them with 401', async () => {
      const none = await request(h.app).get('/api/v1/me/collections');
      expect(none.status).toBe(401);
      const signedForOtherPath = h.sign(alice, 'get', '/api/v1/me/collections/other');
      const misused = await request(h.app).get('/api/v1/me/collections').set('x-skills-principal', signedForOtherPath);
      expect(misused.status).toBe(401);
      const header = h.sign(alice, 'get', '/api/v1/me/collections');
      expect((await request(h.app).get('/api/v1/me/collections').set('x-skills-principal', header)).status).toBe(200);
      const replayed = await request(h.app).get('/api/v1/me/collections').set('x-skills-principal', header);
      expect(replayed.status).toBe(401);
      expect(replayed.body).toEqual({ error: 'Missing or invalid principal signature' });
      const res = await request(h.app).get('/api/v1/me/collections').set('x-skills-principal', 'v1.abc.def');
      expect(res.status).toBe(401);
    });

    it('refuses a body other than the one the principal was signed for, and changes nothing', async () => {
      const created = await h.call(alice, 'post', '/api/v1/me/collections').send({ name: 'Signed name' });
      const url = `/api/v1/me/collections/${created.body.data.collection.id as string}`;
      const header = h.sign(alice, 'patch', url, bodyDigest(JSON.stringify({ name: 'What the gateway signed' })));
      const swapped = await request(h.app)
        .patch(url)
        .set('x-skills-principal', header)
        .send({ name: 'Swapped in transit' });
      expect(swapped.status).toBe(401);
      expect(swapped.body).toEqual({ error: 'Missing or invalid principal signature' });
      const noBody = await request(h.app)
        .patch(url)
        .set('x-skills-principal', h.sign(alice, 'patch', url, bodyDigest('{"name":"x"}')));
      expect(noBody.status).toBe(401);
      const bodyOnEmptySignature = await request(h.app)
        .patch(url)
        .set('x-skills-principal', h.sign(alice, 'patch', url))
        .send({ name: 'x' });
      expect(bodyOnEmptySignature.status).toBe(401);
      const stored = await h.call(alice, 'get', url);
      expect(stored.body.data.collection.name).toBe('Signed name');
    });

    it("lists the caller's collections a page at a time, oldest first, and refuses parameters it does not know", async () => {
      const dora = account();
      const names = ['one', 'two', 'three', 'four', 'five'];
      for (const name of names)
        expect((await h.call(dora, 'post', '/api/v1/me/collections').send({ name })).status).toBe(201);
      const pageTwo = await h.call(dora, 'get', '/api/v1/me/collections?limit=2&page=2');
      expect(pageTwo.status).toBe(200);
      expect(pageTwo.body.data.collections.map((c: { name: string }) => c.name)).toEqual(['three', 'four']);
      expect(pageTwo.body.data.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3, hasMore: true });
      const beyond = await h.call(dora, 'get', '/api/v1/me/collections?limit=2&page=4');
      expect(beyond.body.data).toEqual({
        collections: [],
        pagination: { page: 4, limit: 2, total: 5, totalPages: 3, hasMore: false },
      });
      const byDefault = await h.call(dora, 'get', '/api/v1/me/collections');
      expect(byDefault.body.data.pagination).toMatchObject({ page: 1, limit: 20, total: 5 });
      const bad = await h.call(dora, 'get', '/api/v1/me/collections?page=0');
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/page/);
      const unknown = await h.call(dora, 'get', '/api/v1/me/collections?sort=name');
      expect(unknown.status).toBe(400);
    });

    it('answers 403 to an admin principal on account routes', async () => {
      const res = await h.call(ADMIN, 'get', '/api/v1/me/collections');
      expect(res.status).toBe(403);
    });

    it('answers 405 with Allow for a method the path does not have', async () => {
      const res = await h.call(alice, 'put', '/api/v1/me/collections');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, POST');
    });
  });
});
