// @store-specific two owners demoting each other at once: PGlite serializes them, the server races them
/** Self-service workspaces: creation (the creator owns it), the caller's list with roles, members, role changes. */
import { randomUUID } from 'node:crypto';
import { ADMIN, account, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';

type Caller = ReturnType<typeof account>;
type Role = 'owner' | 'admin' | 'member' | 'viewer';

describe('self-service workspaces', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  const create = (who: Caller, name: string) => h.call(who, 'post', '/api/v1/workspaces').send({ name });
  const setRole = (who: Caller, ws: string, target: string, role: string) =>
    h.call(who, 'put', `/api/v1/workspaces/${ws}/members/${target}`).send({ role });

  /** A workspace created by a new owner, with one more account per role given (set by the operator). */
  async function workspace(roles: readonly Role[] = []) {
    const owner = account();
    const id = (await create(owner, 'Team')).body.data.workspace.id as string;
    const members: Caller[] = [];
    for (const role of roles) {
      const who = account();
      expect(
        (await h.call(ADMIN, 'put', `/admin/v1/workspaces/${id}/members/${who.accountId}`).send({ role })).status,
      ).toBe(200);
      members.push(who);
    }
    return { id, owner, members };
  }

  it("makes the creator the owner, and lists the caller's workspaces with its role in each", async () => {
    const ana = account();
    const res = await create(ana, '  Platform  ');
    expect(res.status).toBe(201);
    expect(res.body.data.workspace).toEqual({
      id: expect.any(String),
      name: 'Platform',
      role: 'owner',
      memberCount: 1,
      createdAt: expect.any(String),
    });
    const id = res.body.data.workspace.id as string;
    // the owner can use it at once
    expect((await h.call(ana, 'post', `/api/v1/workspaces/${id}/collections`).send({ name: 'Kit' })).status).toBe(201);

    const other = await workspace(['viewer']);
    const [viewer] = other.members as [Caller];
    const mine = await h.call(viewer, 'get', '/api/v1/workspaces');
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual({
      workspaces: [{ id: other.id, name: 'Team', role: 'viewer', memberCount: 2, createdAt: expect.any(String) }],
      pagination: { page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false },
    });
    expect((await h.call(account(), 'get', '/api/v1/workspaces')).body.data.workspaces).toEqual([]);
  });

  it('pages the list oldest first and refuses unknown query parameters', async () => {
    const who = account();
    for (const name of ['One', 'Two', 'Three']) expect((await create(who, name)).status).toBe(201);
    const second = await h.call(who, 'get', '/api/v1/workspaces?page=2&limit=2');
    expect(second.body.data.workspaces.map((w: { name: string }) => w.name)).toEqual(['Three']);
    expect(second.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2, hasMore: false });
    const bad = await h.call(who, 'get', '/api/v1/workspaces?sort=name');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: '"sort" is not an allowed field' });
  });

  it('validates the name and keeps to the quota of owned workspaces', async () => {
    const who = account();
    expect((await create(who, '')).body).toEqual({ error: '"name" must not be empty' });
    expect((await h.call(who, 'post', '/api/v1/workspaces').send({ name: 'x', owner: 'y' })).status).toBe(400);
    const made = await Promise.all(Array.from({ length: 21 }, (_, i) => create(who, `W${i}`)));
    expect(made.filter((r) => r.status === 201)).toHaveLength(20);
    const refused = made.find((r) => r.status === 409);
    expect(refused?.body).toEqual({
      error: 'Quota reached: an account owns at most 20 workspaces (workspaces per account)',
    });
    expect((await h.call(who, 'get', '/api/v1/workspaces?limit=50')).body.data.pagination.total).toBe(20);
  });

  it('shows a workspace and its members to any member, 403 to others, 404 when there is none', async () => {
    const { id, owner, members } = await workspace(['viewer', 'admin']);
    const [viewer, admin] = members as [Caller, Caller];
    const got = await h.call(viewer, 'get', `/api/v1/workspaces/${id}`);
    expect(got.body.data.workspace).toMatchObject({ id, role: 'viewer', memberCount: 3 });
    const listed = await h.call(viewer, 'get', `/api/v1/workspaces/${id}/members`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.members.map((m: { accountId: string; role: string }) => [m.accountId, m.role])).toEqual([
      [owner.accountId, 'owner'],
      [admin.accountId, 'admin'],
      [viewer.accountId, 'viewer'],
    ]);
    expect(listed.body.data.pagination.total).toBe(3);
    const outsider = await h.call(account(), 'get', `/api/v1/workspaces/${id}/members`);
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual({ error: 'You do not have access to this workspace' });
    expect((await h.call(account(), 'get', `/api/v1/workspaces/${id}`)).status).toBe(403);
    expect((await h.call(owner, 'get', `/api/v1/workspaces/${randomUUID()}`)).status).toBe(404);
    expect((await h.call(owner, 'get', '/api/v1/workspaces/not-a-uuid/members')).status).toBe(404);
  });

  describe('role changes', () => {
    it('lets an owner set any role, the change taking effect at once', async () => {
      const { id, owner, members } = await workspace(['member']);
      const [member] = members as [Caller];
      const res = await setRole(owner, id, member.accountId, 'viewer');
      expect(res.status).toBe(200);
      expect(res.body.data.member).toEqual({
        accountId: member.accountId,
        role: 'viewer',
        joinedAt: expect.any(String),
      });
      const write = await h
        .call(member, 'post', `/api/v1/workspaces/${id}/collections`)
        .send({ name: 'After demotion' });
      expect(write.status).toBe(403);
      expect(write.body).toEqual({ error: 'Your workspace role does not allow this action' });
      expect((await setRole(owner, id, member.accountId, 'owner')).status).toBe(200);
      expect((await h.call(member, 'get', `/api/v1/workspaces/${id}`)).body.data.workspace.role).toBe('owner');
    });

    it('lets an admin move admins, members and viewers, never to or from owner', async () => {
      const { id, owner, members } = await workspace(['admin', 'member']);
      const [admin, member] = members as [Caller, Caller];
      expect((await setRole(admin, id, member.accountId, 'admin')).status).toBe(200);
      expect((await setRole(admin, id, member.accountId, 'viewer')).status).toBe(200);
      for (const [target, role] of [
        [member.accountId, 'owner'],
        [owner.accountId, 'admin'],
        [admin.accountId, 'owner'],
      ] as const) {
        const refused = await setRole(admin, id, target, role);
        expect(refused.status).toBe(403);
      }
      expect((await h.call(owner, 'get', `/api/v1/workspaces/${id}`)).body.data.workspace.role).toBe('owner');
    });

    it('refuses members and viewers before any lookup, and names a non-member target', async () => {
      const { id, owner, members } = await workspace(['member', 'viewer']);
      const [member, viewer] = members as [Caller, Caller];
      expect((await setRole(member, id, viewer.accountId, 'member')).status).toBe(403);
      expect((await setRole(viewer, id, randomUUID(), 'member')).status).toBe(403);
      expect((await setRole(viewer, id, 'me', 'owner')).status).toBe(403);
      const missing = await setRole(owner, id, randomUUID(), 'member');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: 'This account is not a member of the workspace' });
      expect((await setRole(owner, id, member.accountId, 'boss')).body).toEqual({
        error: '"role" must be one of: owner, admin, member, viewer',
      });
    });

    it('keeps the last owner: demoting oneself is 409 until another owner exists', async () => {
      const { id, owner, members } = await workspace(['admin']);
      const [admin] = members as [Caller];
      const refused = await setRole(owner, id, 'me', 'admin');
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: 'A workspace keeps at least one owner: make another member owner first' });
      expect((await setRole(owner, id, admin.accountId, 'owner')).status).toBe(200);
      expect((await setRole(owner, id, 'me', 'viewer')).status).toBe(200);
      expect((await h.call(owner, 'get', `/api/v1/workspaces/${id}`)).body.data.workspace.role).toBe('viewer');
    });

    it('leaves one owner when two owners demote each other at once', async () => {
      const { id, owner, members } = await workspace(['owner']);
      const [second] = members as [Caller];
      const both = await Promise.all([
        setRole(owner, id, second.accountId, 'member'),
        setRole(second, id, owner.accountId, 'member'),
      ]);
      // the second to run finds itself demoted already (403) or the other the last owner (409)
      expect(both.filter((r) => r.status === 200)).toHaveLength(1);
      const owners = await h.rows<{ n: number }>(
        `SELECT count(*)::int AS n FROM collections.workspace_members WHERE workspace_id = $1 AND role = 'owner'`,
        [id],
      );
      expect(owners[0]?.n).toBe(1);
    });
  });
});
