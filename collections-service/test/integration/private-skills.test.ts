/** An account's own private skills through the public API, and one public item by its slug. */
import { account, putSkill, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';

describe('private skills of the caller', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  it('creates one, lists it to its owner only, and lets the owner add it to a personal collection', async () => {
    const ana = account();
    const created = await h
      .call(ana, 'post', '/api/v1/me/private-skills')
      .send({ name: ' Release checklist ', description: 'Our steps' });
    expect(created.status).toBe(201);
    const skill = created.body.data.skill;
    expect(skill).toEqual({ id: expect.any(String), name: 'Release checklist', description: 'Our steps' });
    const listed = await h.call(ana, 'get', '/api/v1/me/private-skills');
    expect(listed.body.data).toEqual({
      skills: [skill],
      pagination: { page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false },
    });
    expect((await h.call(account(), 'get', '/api/v1/me/private-skills')).body.data.skills).toEqual([]);

    const collection = (await h.call(ana, 'post', '/api/v1/me/collections').send({ name: 'Mine' })).body.data.collection
      .id as string;
    const added = await h.call(ana, 'patch', `/api/v1/me/collections/${collection}`).send({ privateSkillId: skill.id });
    expect(added.body.data.collection.skills).toEqual([{ ...skill, visibility: 'private' }]);
    // its creation is an event, like every item write
    const events = await h.rows<{ n: number }>(`SELECT count(*)::int AS n FROM collections.outbox WHERE key = $1`, [
      skill.id,
    ]);
    expect(events[0]?.n).toBe(1);
  });

  it('validates the body and keeps to the quota of 500 private skills', async () => {
    const bo = account();
    expect((await h.call(bo, 'post', '/api/v1/me/private-skills').send({})).body).toEqual({
      error: '"name" is required',
    });
    expect((await h.call(bo, 'post', '/api/v1/me/private-skills').send({ name: 'x', owner: 'y' })).status).toBe(400);
    await h.rows(
      `INSERT INTO collections.items (id, name, visibility, owner_account_id)
       SELECT gen_random_uuid(), 'n' || i, 'private', $1 FROM generate_series(1, 499) AS i`,
      [bo.accountId],
    );
    const both = await Promise.all(
      [0, 1].map(() => h.call(bo, 'post', '/api/v1/me/private-skills').send({ name: 'Last' })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(both.find((r) => r.status === 409)?.body).toEqual({
      error: 'Quota reached: an account holds at most 500 private skills (private skills per account)',
    });
  });
});

describe('one public skill by slug', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  it('answers an active item with every field, and 404 for drafts, deleted and unknown slugs', async () => {
    await putSkill(h, 'pdf-tools', {
      tags: ['pdf'],
      publisher: 'Acme',
      version: '1.2.0',
      license: 'MIT',
      repositoryUrl: 'https://example.com/r',
      downloads: 42,
    });
    const res = await h.call(account(), 'get', '/api/v1/skills/pdf-tools');
    expect(res.status).toBe(200);
    expect(res.body.data.skill).toEqual({
      id: expect.any(String),
      slug: 'pdf-tools',
      name: 'Skill pdf-tools',
      description: 'About pdf-tools',
      type: 'skill',
      category: 'testing',
      tags: ['pdf'],
      publisher: 'Acme',
      version: '1.2.0',
      license: 'MIT',
      repositoryUrl: 'https://example.com/r',
      homepageUrl: null,
      downloads: 42,
      latestVersion: null,
      verdict: 'unscanned',
      publisherVerified: false,
      blocked: false,
      blockedReason: null,
      updatedAt: expect.any(String),
    });
    await putSkill(h, 'draft-tool', { status: 'draft' });
    const draft = await h.call(account(), 'get', '/api/v1/skills/draft-tool');
    expect(draft.status).toBe(404);
    expect(draft.body).toEqual({ error: 'Skill "draft-tool" not found' });
    await h.call({ kind: 'admin' }, 'delete', '/admin/v1/skills/pdf-tools');
    expect((await h.call(account(), 'get', '/api/v1/skills/pdf-tools')).status).toBe(404);
    expect((await h.call(account(), 'get', '/api/v1/skills/changes')).status).toBe(200);
  });
});
