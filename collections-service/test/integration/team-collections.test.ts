import { randomUUID } from 'node:crypto';
import { NO_DETAILS } from '@skills/common';
import {
  ADMIN,
  account,
  createPrivateSkill,
  putSkill,
  startHarness,
  type Harness,
  START_TIMEOUT_MS,
} from '../support/harness';

/** An item with no release, as a team entry shows it: unpinned, complying with the default policy, no drift. */
const UNJUDGED = {
  latestVersion: null,
  verdict: 'unscanned',
  publisherVerified: false,
  blocked: false,
  blockedReason: null,
  pin: null,
  compliance: { complies: true, violations: [] },
  drift: [],
};

describe('team collections /api/v1/workspaces/:id/collections', () => {
  let h: Harness;
  let ws: string;
  const owner = account();
  const admin = account();
  const member = account();
  const viewer = account();
  const outsider = account();

  beforeAll(async () => {
    h = await startHarness();
    await putSkill(h, 'alpha');
    await putSkill(h, 'beta');
    const res = await h
      .call(ADMIN, 'post', '/admin/v1/workspaces')
      .send({ name: 'Team', ownerAccountId: owner.accountId });
    ws = res.body.data.workspace.id;
    for (const [who, role] of [
      [admin, 'admin'],
      [member, 'member'],
      [viewer, 'viewer'],
    ] as const) {
      const put = await h.call(ADMIN, 'put', `/admin/v1/workspaces/${ws}/members/${who.accountId}`).send({ role });
      expect(put.status).toBe(200);
    }
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  const base = () => `/api/v1/workspaces/${ws}/collections`;
  async function create(who = member, body: object = { name: 'Shared' }): Promise<string> {
    const res = await h.call(who, 'post', base()).send(body);
    expect(res.status).toBe(201);
    return res.body.data.collection.id as string;
  }

  it('creates a collection with the team shape and the creator, readable by every member', async () => {
    const res = await h.call(member, 'post', base()).send({ name: ' Onboarding ', description: 'first week' });
    expect(res.status).toBe(201);
    const collection = res.body.data.collection;
    expect(collection).toEqual({
      id: expect.any(String),
      workspaceId: ws,
      name: 'Onboarding',
      description: 'first week',
      createdBy: member.accountId,
      skillCount: 0,
      skills: [],
      compliance: { complies: true, violationCount: 0 },
      drift: { count: 0 },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    for (const who of [owner, admin, member, viewer]) {
      const list = await h.call(who, 'get', base());
      expect(list.status).toBe(200);
      expect(list.body.data.collections).toContainEqual(collection);
      const detail = await h.call(who, 'get', `${base()}/${collection.id}`);
      expect(detail.body).toEqual({ data: { collection } });
    }
  });

  it('lets owner, admin and member create and update; a viewer gets 403 roleTooLow', async () => {
    for (const who of [owner, admin, member]) {
      const id = await create(who);
      const res = await h.call(who, 'patch', `${base()}/${id}`).send({ skillSlug: 'alpha', name: 'Edited' });
      expect(res.status).toBe(200);
      expect(res.body.data.collection.name).toBe('Edited');
      expect(res.body.data.collection.skills).toEqual([
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
    }
    const denied = await h.call(viewer, 'post', base()).send({ name: 'Nope' });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: 'Your workspace role does not allow this action' });
    const id = await create();
    const patch = await h.call(viewer, 'patch', `${base()}/${id}`).set('Accept-Language', 'fr').send({ name: 'x' });
    expect(patch.status).toBe(403);
    expect(patch.body).toEqual({ error: "Votre rôle dans l'espace de travail ne permet pas cette action" });
  });

  it('answers 403 noAccess to a non-member on every route', async () => {
    const id = await create();
    const responses = [
      await h.call(outsider, 'get', base()),
      await h.call(outsider, 'post', base()).send({ name: 'x' }),
      await h.call(outsider, 'get', `${base()}/${id}`),
      await h.call(outsider, 'patch', `${base()}/${id}`).send({ name: 'x' }),
      await h.call(outsider, 'delete', `${base()}/${id}`),
    ];
    for (const res of responses) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'You do not have access to this workspace' });
    }
  });

  it('answers 404 workspace.notFound for an unknown or malformed workspace id', async () => {
    for (const wid of [randomUUID(), 'team-1']) {
      const res = await h.call(member, 'get', `/api/v1/workspaces/${wid}/collections`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Workspace not found' });
    }
    const fr = await h
      .call(member, 'get', `/api/v1/workspaces/${randomUUID()}/collections`)
      .set('Accept-Language', 'fr');
    expect(fr.body).toEqual({ error: 'Espace de travail introuvable' });
  });

  it('answers 404 for a collection of another workspace, an unknown or a malformed id', async () => {
    const other = await h
      .call(ADMIN, 'post', '/admin/v1/workspaces')
      .send({ name: 'Other', ownerAccountId: member.accountId });
    const foreign = await h
      .call(member, 'post', `/api/v1/workspaces/${other.body.data.workspace.id}/collections`)
      .send({ name: 'Theirs' });
    const personal = await h.call(member, 'post', '/api/v1/me/collections').send({ name: 'Mine' });
    for (const id of [foreign.body.data.collection.id, personal.body.data.collection.id, randomUUID(), 'abc']) {
      const res = await h.call(member, 'get', `${base()}/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Collection not found' });
    }
  });

  it('lets owner, admin and the creator delete; another member or a viewer gets 403', async () => {
    const id = await create(member);
    expect((await h.call(viewer, 'delete', `${base()}/${id}`)).status).toBe(403);
    const other = account();
    await h.call(ADMIN, 'put', `/admin/v1/workspaces/${ws}/members/${other.accountId}`).send({ role: 'member' });
    const notCreator = await h.call(other, 'delete', `${base()}/${id}`);
    expect(notCreator.status).toBe(403);
    expect(notCreator.body.error).toBe('Your workspace role does not allow this action');

    const byCreator = await h.call(member, 'delete', `${base()}/${id}`);
    expect(byCreator.status).toBe(200);
    expect(byCreator.body).toEqual({ data: { deleted: true } });
    expect((await h.call(member, 'delete', `${base()}/${id}`)).status).toBe(404);

    for (const who of [owner, admin]) {
      const id = await create(member);
      expect((await h.call(who, 'delete', `${base()}/${id}`)).status).toBe(200);
      expect((await h.call(member, 'get', `${base()}/${id}`)).status).toBe(404);
    }
  });

  it('lets a viewer delete nothing, not even a collection they created before a demotion', async () => {
    const demoted = account();
    await h.call(ADMIN, 'put', `/admin/v1/workspaces/${ws}/members/${demoted.accountId}`).send({ role: 'member' });
    const id = await create(demoted);
    await h.call(ADMIN, 'put', `/admin/v1/workspaces/${ws}/members/${demoted.accountId}`).send({ role: 'viewer' });
    expect((await h.call(demoted, 'patch', `${base()}/${id}`).send({ name: 'x' })).status).toBe(403);
    const refused = await h.call(demoted, 'delete', `${base()}/${id}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Your workspace role does not allow this action' });
    expect((await h.call(owner, 'get', `${base()}/${id}`)).status).toBe(200);
  });

  describe('PATCH rules', () => {
    it.each([
      ['an empty body', {}, 'Request body must contain at least one field'],
      ['a private-skill field', { privateSkillId: randomUUID() }, '"privateSkillId" is not an allowed field'],
      ['an unknown field', { color: 'red' }, '"color" is not an allowed field'],
      ['a 121-char name', { name: 'x'.repeat(121) }, '"name" must be at most 120 characters long'],
    ])('refuses %s with 400', async (_label, body, message) => {
      const id = await create();
      const res = await h.call(member, 'patch', `${base()}/${id}`).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message });
    });

    it('adds, removes in one body and treats a repeated add as a no-op; unknown slug → 404 and nothing applied', async () => {
      const id = await create(member, { name: 'Start' });
      await h.call(member, 'patch', `${base()}/${id}`).send({ skillSlug: 'alpha' });
      await h.call(member, 'patch', `${base()}/${id}`).send({ skillSlug: 'alpha' });
      const swap = await h
        .call(member, 'patch', `${base()}/${id}`)
        .send({ removeSkillSlug: 'alpha', skillSlug: 'beta' });
      expect(swap.body.data.collection.skills.map((s: { slug: string }) => s.slug)).toEqual(['beta']);
      const failed = await h
        .call(member, 'patch', `${base()}/${id}`)
        .send({ removeSkillSlug: 'beta', skillSlug: 'ghost', name: 'End' });
      expect(failed.status).toBe(404);
      expect(failed.body).toEqual({ error: 'Skill "ghost" not found' });
      const after = await h.call(member, 'get', `${base()}/${id}`);
      expect(after.body.data.collection).toMatchObject({
        name: 'Start',
        skills: [expect.objectContaining({ slug: 'beta' })],
      });
    });

    it('cannot add private skills through a team collection even for their owner', async () => {
      const id = await create();
      const skillId = await createPrivateSkill(h, member.accountId, 'Mine');
      const res = await h.call(member, 'patch', `${base()}/${id}`).send({ privateSkillId: skillId });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { error: '"privateSkillId" is not an allowed field' },
      });
      const after = await h.call(member, 'get', `${base()}/${id}`);
      expect(after.body.data.collection).toMatchObject({ skillCount: 0, skills: [] });
    });
  });

  it('deleting a team collection keeps its items', async () => {
    const id = await create();
    await h.call(member, 'patch', `${base()}/${id}`).send({ skillSlug: 'alpha' });
    await h.call(owner, 'delete', `${base()}/${id}`);
    const rows = await h.rows<{ status: string }>("SELECT status FROM collections.items WHERE slug = 'alpha'");
    expect(rows).toEqual([{ status: 'active' }]);
  });

  it('refuses a team create without a name, and a 501st collection in one workspace with 409', async () => {
    expect((await h.call(member, 'post', base()).send({ description: 'no name' })).body).toEqual({
      error: '"name" is required',
    });
    const full = await h
      .call(ADMIN, 'post', '/admin/v1/workspaces')
      .send({ name: 'Full', ownerAccountId: owner.accountId });
    const fullId = full.body.data.workspace.id as string;
    await h.rows(
      `INSERT INTO collections.collections (id, workspace_id, created_by, name)
       SELECT gen_random_uuid(), $1, $2, 'c' || n FROM generate_series(1, 500) n`,
      [fullId, owner.accountId],
    );
    const res = await h.call(owner, 'post', `/api/v1/workspaces/${fullId}/collections`).send({ name: 'one more' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'Quota reached: a workspace holds at most 500 collections (collections per workspace)',
    });

    // and the list of those 500 comes a page at a time, like search
    const first = await h.call(viewer, 'get', `/api/v1/workspaces/${fullId}/collections`);
    expect(first.status).toBe(403); // not a member of that workspace
    const page = await h.call(owner, 'get', `/api/v1/workspaces/${fullId}/collections`);
    expect(page.body.data.collections).toHaveLength(20);
    expect(page.body.data.pagination).toEqual({ page: 1, limit: 20, total: 500, totalPages: 25, hasMore: true });
    const last = await h.call(owner, 'get', `/api/v1/workspaces/${fullId}/collections?page=10&limit=50`);
    expect(last.body.data.collections).toHaveLength(50);
    expect(last.body.data.pagination).toEqual({ page: 10, limit: 50, total: 500, totalPages: 10, hasMore: false });
    const ids = new Set<string>();
    for (let n = 1; n <= 10; n++) {
      const res = await h.call(owner, 'get', `/api/v1/workspaces/${fullId}/collections?limit=50&page=${n}`);
      for (const c of res.body.data.collections as Array<{ id: string }>) ids.add(c.id);
    }
    expect(ids.size).toBe(500);
    const tooMany = await h
      .call(owner, 'get', `/api/v1/workspaces/${fullId}/collections?limit=51`)
      .set('Accept-Language', 'fr');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatch(/limit/);
  });
});
