// @store-specific two owners removing each other at once: PGlite serializes them, the server races them
/** Removing workspace members: through the public route (owners, admins, leaving) and the admin API. */
import { randomUUID } from 'node:crypto';
import { ADMIN, account, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';

describe('workspace members', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  /** A workspace whose owner is `owner`, with one account per given role. */
  async function workspace(roles: ReadonlyArray<'owner' | 'admin' | 'member' | 'viewer'> = []) {
    const owner = account();
    const res = await h
      .call(ADMIN, 'post', '/admin/v1/workspaces')
      .send({ name: 'Team', ownerAccountId: owner.accountId });
    const id = res.body.data.workspace.id as string;
    const members = [];
    for (const role of roles) {
      const who = account();
      expect(
        (await h.call(ADMIN, 'put', `/admin/v1/workspaces/${id}/members/${who.accountId}`).send({ role })).status,
      ).toBe(200);
      members.push(who);
    }
    return { id, owner, members };
  }
  const remove = (caller: ReturnType<typeof account>, ws: string, target: string) =>
    h.call(caller, 'delete', `/api/v1/workspaces/${ws}/members/${target}`);
  const canRead = async (who: ReturnType<typeof account>, ws: string) =>
    (await h.call(who, 'get', `/api/v1/workspaces/${ws}/collections`)).status === 200;

  it('lets an owner remove a member, who then reads nothing of the workspace', async () => {
    const { id, owner, members } = await workspace(['member']);
    const [gone] = members as [ReturnType<typeof account>];
    const res = await remove(owner, id, gone.accountId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { removed: true } });
    expect(await canRead(gone, id)).toBe(false);
    const again = await remove(owner, id, gone.accountId);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'This account is not a member of the workspace' });
  });

  it('lets an admin remove admins, members and viewers but not an owner', async () => {
    const { id, owner, members } = await workspace(['admin', 'admin', 'member', 'viewer']);
    const [admin, otherAdmin, member, viewer] = members as Array<ReturnType<typeof account>>;
    for (const target of [otherAdmin, member, viewer])
      expect((await remove(admin!, id, target!.accountId)).status).toBe(200);
    const refused = await remove(admin!, id, owner.accountId);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Your workspace role does not allow this action' });
    expect(await canRead(owner, id)).toBe(true);
  });

  it('lets members and viewers leave but remove no one else', async () => {
    const { id, members } = await workspace(['member', 'viewer', 'member']);
    const [member, viewer, bystander] = members as Array<ReturnType<typeof account>>;
    expect((await remove(member!, id, bystander!.accountId)).status).toBe(403);
    expect((await remove(viewer!, id, bystander!.accountId)).status).toBe(403);
    // a 403 before the lookup: a member does not learn who else is in the workspace
    expect((await remove(member!, id, randomUUID())).status).toBe(403);
    expect((await remove(member!, id, member!.accountId)).status).toBe(200);
    // `me` stands for the caller
    expect((await remove(viewer!, id, 'me')).status).toBe(200);
    for (const who of [member, viewer]) expect(await canRead(who!, id)).toBe(false);
    expect(await canRead(bystander!, id)).toBe(true);
  });

  it('keeps the last owner: they cannot leave or be demoted (409, localised) until another owner exists', async () => {
    const { id, owner, members } = await workspace(['admin']);
    const [admin] = members as [ReturnType<typeof account>];
    const leave = await remove(owner, id, owner.accountId).set('Accept-Language', 'fr');
    expect(leave.status).toBe(409);
    expect(leave.body).toEqual({
      error: "Un espace de travail garde au moins un propriétaire : nommez d'abord un autre membre propriétaire",
    });
    const demote = await h
      .call(ADMIN, 'put', `/admin/v1/workspaces/${id}/members/${owner.accountId}`)
      .send({ role: 'admin' });
    expect(demote.status).toBe(409);
    expect((await h.call(ADMIN, 'delete', `/admin/v1/workspaces/${id}/members/${owner.accountId}`)).status).toBe(409);
    expect(
      (await h.call(ADMIN, 'put', `/admin/v1/workspaces/${id}/members/${admin.accountId}`).send({ role: 'owner' }))
        .status,
    ).toBe(200);
    expect((await remove(owner, id, owner.accountId)).status).toBe(200);
    expect(await canRead(owner, id)).toBe(false);
  });

  it('never leaves a workspace without an owner when two owners remove each other at once', async () => {
    const { id, owner, members } = await workspace(['owner']);
    const [second] = members as [ReturnType<typeof account>];
    const answers = await Promise.all([remove(owner, id, second.accountId), remove(second, id, owner.accountId)]);
    // the second to run finds itself removed (403) or the other the last owner (409), depending on timing
    expect(answers.map((a) => a.status).sort()[0]).toBe(200);
    expect([403, 409]).toContain(answers.map((a) => a.status).sort()[1]);
    const owners = await h.rows<{ n: string }>(
      `SELECT count(*) AS n FROM collections.workspace_members WHERE workspace_id = $1 AND role = 'owner'`,
      [id],
    );
    expect(Number(owners[0]?.n)).toBe(1);
  });

  it('answers 403 to a non-member and 404 for an unknown workspace', async () => {
    const { id, members } = await workspace(['member']);
    const [member] = members as [ReturnType<typeof account>];
    const outsider = await remove(account(), id, member.accountId);
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual({ error: 'You do not have access to this workspace' });
    expect((await remove(member, randomUUID(), member.accountId)).status).toBe(404);
    expect((await remove(member, 'not-a-uuid', member.accountId)).status).toBe(404);
  });

  it('lets the admin API remove any member but the last owner', async () => {
    const { id, members } = await workspace(['viewer']);
    const [viewer] = members as [ReturnType<typeof account>];
    const res = await h.call(ADMIN, 'delete', `/admin/v1/workspaces/${id}/members/${viewer.accountId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { removed: true } });
    expect(await canRead(viewer, id)).toBe(false);
    expect((await h.call(ADMIN, 'delete', `/admin/v1/workspaces/${id}/members/${viewer.accountId}`)).status).toBe(404);
    expect(
      (await h.call(ADMIN, 'delete', `/admin/v1/workspaces/${randomUUID()}/members/${viewer.accountId}`)).status,
    ).toBe(404);
  });
});
