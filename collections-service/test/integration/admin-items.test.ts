import { randomUUID } from 'node:crypto';
import { NO_DETAILS, NO_TRUST, SKILL_CHANGES_TOPIC, type SkillChangeEvent } from '@skills/common';
import { ADMIN, account, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';

interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  event: SkillChangeEvent;
}

describe('admin item writes and their outbox events', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  const outboxFor = (key: string) =>
    h.rows<OutboxRow>('SELECT id::text AS id, topic, key, event FROM collections.outbox WHERE key = $1 ORDER BY id', [
      key,
    ]);
  const outboxCount = async () =>
    Number((await h.rows<{ n: string }>('SELECT count(*) AS n FROM collections.outbox'))[0]!.n);
  const skill = {
    name: 'Prompt kit',
    description: 'Reusable prompts',
    type: 'plugin',
    category: 'writing',
    tags: ['ai', 'text'],
  };

  describe('PUT /admin/v1/skills/:slug', () => {
    it('creates with 201, updates with 200, bumping the version and writing one event per change', async () => {
      const created = await h.call(ADMIN, 'put', '/admin/v1/skills/prompt-kit').send(skill);
      expect(created.status).toBe(201);
      const item = created.body.data.skill;
      expect(item).toEqual({
        id: expect.any(String),
        slug: 'prompt-kit',
        ...skill,
        status: 'active',
        ...NO_DETAILS,
        updatedAt: expect.any(String),
      });
      const updated = await h
        .call(ADMIN, 'put', '/admin/v1/skills/prompt-kit')
        .send({ ...skill, name: 'Prompt kit 2', status: 'archived' });
      expect(updated.status).toBe(200);
      expect(updated.body.data.skill).toMatchObject({ id: item.id, name: 'Prompt kit 2', status: 'archived' });

      const events = await outboxFor(item.id);
      expect(events).toHaveLength(2);
      expect(events.map((e) => e.topic)).toEqual([SKILL_CHANGES_TOPIC, SKILL_CHANGES_TOPIC]);
      expect(events[1]!.event).toEqual({
        eventId: events[1]!.id,
        type: 'skill.upserted',
        itemId: item.id,
        version: 2,
        occurredAt: expect.any(String),
        item: {
          id: item.id,
          slug: 'prompt-kit',
          name: 'Prompt kit 2',
          description: 'Reusable prompts',
          type: 'plugin',
          category: 'writing',
          tags: ['ai', 'text'],
          status: 'archived',
          visibility: 'public',
          updatedAt: expect.any(String),
          version: 2,
          details: NO_DETAILS,
          trust: NO_TRUST,
        },
      });
      expect(events[0]!.event.version).toBe(1);
    });

    it('stores the registry details, carries them in the event, and keeps downloads when a PUT leaves them out', async () => {
      const details = {
        publisher: 'Acme',
        version: '1.4.0',
        license: 'MIT OR Apache-2.0',
        repositoryUrl: 'https://github.com/acme/lint',
        homepageUrl: 'https://acme.dev',
        downloads: 52_000,
      };
      const created = await h.call(ADMIN, 'put', '/admin/v1/skills/acme-lint').send({ ...skill, ...details });
      expect(created.status).toBe(201);
      expect(created.body.data.skill).toMatchObject(details);
      const id = created.body.data.skill.id as string;

      const edited = await h
        .call(ADMIN, 'put', '/admin/v1/skills/acme-lint')
        .send({ ...skill, publisher: 'Acme Inc.' });
      expect(edited.body.data.skill).toMatchObject({ ...NO_DETAILS, publisher: 'Acme Inc.', downloads: 52_000 });
      const counted = await h.call(ADMIN, 'put', '/admin/v1/skills/acme-lint').send({ ...skill, downloads: 0 });
      expect(counted.body.data.skill.downloads).toBe(0);

      const events = await outboxFor(id);
      expect(events.map((e) => e.event.item.details)).toEqual([
        details,
        { ...NO_DETAILS, publisher: 'Acme Inc.', downloads: 52_000 },
        NO_DETAILS,
      ]);
    });

    it.each([
      ['an upper-case slug', '/admin/v1/skills/Bad-Slug', skill, '"slug" has an invalid format'],
      ['a 101-char slug', `/admin/v1/skills/${'a'.repeat(101)}`, skill, '"slug" has an invalid format'],
      ['no name', '/admin/v1/skills/ok-slug', { ...skill, name: undefined }, '"name" is required'],
      [
        'an unknown type',
        '/admin/v1/skills/ok-slug',
        { ...skill, type: 'theme' },
        '"type" must be one of: skill, plugin',
      ],
      [
        'status deleted',
        '/admin/v1/skills/ok-slug',
        { ...skill, status: 'deleted' },
        '"status" must be one of: active, draft, archived',
      ],
      ['an unknown field', '/admin/v1/skills/ok-slug', { ...skill, price: 3 }, '"price" is not an allowed field'],
      [
        'negative downloads',
        '/admin/v1/skills/ok-slug',
        { ...skill, downloads: -1 },
        '"downloads" must be greater than or equal to 0',
      ],
      [
        'fractional downloads',
        '/admin/v1/skills/ok-slug',
        { ...skill, downloads: 1.5 },
        '"downloads" must be an integer',
      ],
      [
        'a repository that is no URL',
        '/admin/v1/skills/ok-slug',
        { ...skill, repositoryUrl: 'github.com/acme' },
        '"repositoryUrl" must be an http or https URL',
      ],
      [
        'a javascript: homepage',
        '/admin/v1/skills/ok-slug',
        { ...skill, homepageUrl: 'javascript:alert(1)' },
        '"homepageUrl" must be an http or https URL',
      ],
      [
        'a licence that is no SPDX id',
        '/admin/v1/skills/ok-slug',
        { ...skill, license: 'MIT; rm -rf' },
        '"license" has an invalid format',
      ],
    ])('refuses %s with 400 and writes no event', async (_label, url, body, message) => {
      const before = await outboxCount();
      const res = await h.call(ADMIN, 'put', url).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message });
      expect(await outboxCount()).toBe(before);
    });

    it('is refused to account principals with 403', async () => {
      const res = await h.call(account(), 'put', '/admin/v1/skills/x').send(skill);
      expect(res.status).toBe(403);
    });
  });

  describe('DELETE /admin/v1/skills/:slug', () => {
    it('tombstones the item with a higher version and a skill.deleted event; a second delete is 404', async () => {
      const put = await h.call(ADMIN, 'put', '/admin/v1/skills/doomed').send(skill);
      const id = put.body.data.skill.id as string;
      const res = await h.call(ADMIN, 'delete', '/admin/v1/skills/doomed');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { deleted: true } });
      const [row] = await h.rows<{ status: string; version: number }>(
        'SELECT status, version FROM collections.items WHERE id = $1',
        [id],
      );
      expect(row).toEqual({ status: 'deleted', version: 2 });
      const events = await outboxFor(id);
      expect(events.map((e) => [e.event.type, e.event.version, e.event.item.status])).toEqual([
        ['skill.upserted', 1, 'active'],
        ['skill.deleted', 2, 'deleted'],
      ]);
      const before = await outboxCount();
      const again = await h.call(ADMIN, 'delete', '/admin/v1/skills/doomed');
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ error: 'Skill "doomed" not found' });
      expect((await h.call(ADMIN, 'delete', '/admin/v1/skills/never-was')).status).toBe(404);
      expect(await outboxCount()).toBe(before);
    });

    it('brings a deleted slug back to active when it is PUT again', async () => {
      await h.call(ADMIN, 'put', '/admin/v1/skills/phoenix').send(skill);
      await h.call(ADMIN, 'delete', '/admin/v1/skills/phoenix');
      const back = await h.call(ADMIN, 'put', '/admin/v1/skills/phoenix').send(skill);
      expect(back.status).toBe(200);
      expect(back.body.data.skill.status).toBe('active');
    });
  });

  describe('private skills, workspaces, members', () => {
    it('creates a private skill for an account with its event', async () => {
      const owner = randomUUID();
      const res = await h
        .call(ADMIN, 'post', `/admin/v1/accounts/${owner}/private-skills`)
        .send({ name: ' Notes ', description: 'mine' });
      expect(res.status).toBe(201);
      const created = res.body.data.skill;
      expect(created).toEqual({ id: expect.any(String), name: 'Notes', description: 'mine' });
      const [event] = await outboxFor(created.id);
      expect(event!.event.item).toMatchObject({ visibility: 'private', slug: null, status: 'active', version: 1 });
    });

    it('refuses a private skill without a name (400) or for a malformed account id (404)', async () => {
      expect((await h.call(ADMIN, 'post', `/admin/v1/accounts/${randomUUID()}/private-skills`).send({})).status).toBe(
        400,
      );
      const res = await h.call(ADMIN, 'post', '/admin/v1/accounts/nope/private-skills').send({ name: 'x' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Account not found' });
    });

    it('creates a workspace with its owner and sets member roles', async () => {
      const owner = randomUUID();
      const res = await h.call(ADMIN, 'post', '/admin/v1/workspaces').send({ name: 'Design', ownerAccountId: owner });
      expect(res.status).toBe(201);
      const ws = res.body.data.workspace;
      expect(ws).toEqual({ id: expect.any(String), name: 'Design' });
      const roles = await h.rows<{ role: string }>(
        'SELECT role FROM collections.workspace_members WHERE workspace_id = $1 AND account_id = $2',
        [ws.id, owner],
      );
      expect(roles).toEqual([{ role: 'owner' }]);

      const who = randomUUID();
      const put = await h.call(ADMIN, 'put', `/admin/v1/workspaces/${ws.id}/members/${who}`).send({ role: 'admin' });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ data: { member: { workspaceId: ws.id, accountId: who, role: 'admin' } } });
      const bad = await h.call(ADMIN, 'put', `/admin/v1/workspaces/${ws.id}/members/${who}`).send({ role: 'guest' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('"role" must be one of: owner, admin, member, viewer');
      const unknown = await h
        .call(ADMIN, 'put', `/admin/v1/workspaces/${randomUUID()}/members/${who}`)
        .send({ role: 'admin' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'Workspace not found' });
    });

    it('refuses a workspace without a valid owner id with 400', async () => {
      const res = await h.call(ADMIN, 'post', '/admin/v1/workspaces').send({ name: 'X', ownerAccountId: 'bob' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: '"ownerAccountId" must be a valid identifier' });
    });
  });

  describe('GET /admin/v1/items', () => {
    it('pages through every item, public and private, all statuses, ordered by id', async () => {
      const all: { id: string; version: number; status: string; visibility: string }[] = [];
      let after: string | null = null;
      for (let guard = 0; guard < 100; guard += 1) {
        const url: string = `/admin/v1/items?limit=2${after ? `&after=${after}` : ''}`;
        const res = await h.call(ADMIN, 'get', url);
        expect(res.status).toBe(200);
        all.push(...res.body.data.items);
        after = res.body.data.next;
        if (!after) break;
      }
      const stored = await h.rows<{ id: string }>('SELECT id FROM collections.items ORDER BY id');
      expect(all.map((i) => i.id)).toEqual(stored.map((r) => r.id));
      expect(new Set(all.map((i) => i.visibility))).toEqual(new Set(['public', 'private']));
      expect(all.some((i) => i.status === 'deleted')).toBe(true);
      expect(all[0]).not.toHaveProperty('ownerAccountId');
    });

    it('refuses a limit outside 1..5000 and a malformed cursor with 400', async () => {
      expect((await h.call(ADMIN, 'get', '/admin/v1/items?limit=0')).body).toEqual({
        error: '"limit" must be greater than or equal to 1',
      });
      expect((await h.call(ADMIN, 'get', '/admin/v1/items?limit=5001')).status).toBe(400);
      expect((await h.call(ADMIN, 'get', '/admin/v1/items?after=xyz')).status).toBe(400);
    });
  });
});
