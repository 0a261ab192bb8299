// @store-specific races for one invitation: PGlite serializes them, the server races them
/**
 * Invitations as collections-service keeps them: owners and admins invite,
 * list and revoke; the person the gateway vouches for previews and accepts,
 * once, and joins with the invited role.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN, account, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';

type Caller = ReturnType<typeof account>;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('workspace invitations', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  async function workspace(roles: ReadonlyArray<'admin' | 'member' | 'viewer'> = []) {
    const owner = account();
    const id = (await h.call(owner, 'post', '/api/v1/workspaces').send({ name: 'Platform' })).body.data.workspace
      .id as string;
    const members: Caller[] = [];
    for (const role of roles) {
      const who = account();
      await h.call(ADMIN, 'put', `/admin/v1/workspaces/${id}/members/${who.accountId}`).send({ role });
      members.push(who);
    }
    return { id, owner, members };
  }
  const invite = (who: Caller, ws: string, body: object = { role: 'member', expiresAt: inDays(7) }) =>
    h.call(who, 'post', `/api/v1/workspaces/${ws}/invitations`).send(body);
  const accept = (who: Caller, invitationId: string) =>
    h.call(who, 'post', `/api/v1/invitations/${invitationId}/accept`);

  it('invites, previews and accepts: the account joins with the role, once', async () => {
    const { id, owner } = await workspace();
    const created = await invite(owner, id, { role: 'viewer', email: 'bo@example.com', expiresAt: inDays(7) });
    expect(created.status).toBe(201);
    const invitation = created.body.data.invitation;
    expect(invitation).toEqual({
      id: expect.any(String),
      workspaceId: id,
      role: 'viewer',
      email: 'bo@example.com',
      createdBy: owner.accountId,
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    const bo = account();
    const preview = await h.call(bo, 'get', `/api/v1/invitations/${invitation.id}`);
    expect(preview.body.data.invitation).toEqual({
      id: invitation.id,
      role: 'viewer',
      expiresAt: invitation.expiresAt,
      workspace: { id, name: 'Platform' },
    });

    const joined = await accept(bo, invitation.id);
    expect(joined.status).toBe(200);
    expect(joined.body.data.workspace).toMatchObject({ id, name: 'Platform', role: 'viewer', memberCount: 2 });
    expect((await h.call(bo, 'get', `/api/v1/workspaces/${id}/collections`)).status).toBe(200);

    // used: nobody else joins with it, and it is no longer pending
    const again = await accept(account(), invitation.id);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'This invitation is invalid, revoked, already used or expired' });
    expect((await h.call(bo, 'get', `/api/v1/invitations/${invitation.id}`)).status).toBe(400);
    expect((await h.call(owner, 'get', `/api/v1/workspaces/${id}/invitations`)).body.data.invitations).toEqual([]);
  });

  it('lets two accounts race for one invitation: exactly one joins', async () => {
    const { id, owner } = await workspace();
    const invitationId = (await invite(owner, id)).body.data.invitation.id as string;
    const [a, b] = [account(), account()];
    const both = await Promise.all([accept(a, invitationId), accept(b, invitationId)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    expect((await h.call(owner, 'get', `/api/v1/workspaces/${id}/members`)).body.data.pagination.total).toBe(2);
  });

  it('refuses a member already in the workspace and keeps the invitation for someone else', async () => {
    const { id, owner, members } = await workspace(['viewer']);
    const [viewer] = members as [Caller];
    const invitationId = (await invite(owner, id, { role: 'admin', expiresAt: inDays(1) })).body.data.invitation
      .id as string;
    const refused = await accept(viewer, invitationId);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'You are already a member of this workspace' });
    expect((await h.call(viewer, 'get', `/api/v1/workspaces/${id}`)).body.data.workspace.role).toBe('viewer');
    expect((await accept(account(), invitationId)).status).toBe(200);
  });

  it('lets owners and admins invite, list and revoke; members, viewers and outsiders get 403', async () => {
    const { id, owner, members } = await workspace(['admin', 'member', 'viewer']);
    const [admin, member, viewer] = members as [Caller, Caller, Caller];
    const byAdmin = await invite(admin, id, { role: 'admin', expiresAt: inDays(3) });
    expect(byAdmin.status).toBe(201);
    for (const who of [member, viewer]) {
      const refused = await invite(who, id);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: 'Your workspace role does not allow this action' });
      expect((await h.call(who, 'get', `/api/v1/workspaces/${id}/invitations`)).status).toBe(403);
    }
    expect((await invite(account(), id)).body).toEqual({ error: 'You do not have access to this workspace' });
    expect((await invite(owner, randomUUID())).status).toBe(404);

    const listed = await h.call(owner, 'get', `/api/v1/workspaces/${id}/invitations`);
    expect(listed.body.data.invitations.map((i: { id: string }) => i.id)).toEqual([byAdmin.body.data.invitation.id]);
    const invitationId = byAdmin.body.data.invitation.id as string;
    expect((await h.call(member, 'delete', `/api/v1/workspaces/${id}/invitations/${invitationId}`)).status).toBe(403);
    const revoked = await h.call(owner, 'delete', `/api/v1/workspaces/${id}/invitations/${invitationId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ data: { revoked: true } });
    expect((await accept(account(), invitationId)).status).toBe(400);
    const twice = await h.call(owner, 'delete', `/api/v1/workspaces/${id}/invitations/${invitationId}`);
    expect(twice.status).toBe(404);
    expect(twice.body).toEqual({ error: 'Invitation not found' });
  });

  it("does not revoke another workspace's invitation through this one", async () => {
    const first = await workspace();
    const second = await workspace();
    const invitationId = (await invite(second.owner, second.id)).body.data.invitation.id as string;
    expect(
      (await h.call(first.owner, 'delete', `/api/v1/workspaces/${first.id}/invitations/${invitationId}`)).status,
    ).toBe(404);
    expect((await accept(account(), invitationId)).status).toBe(200);
  });

  it('never invites an owner, and refuses an expiry in the past', async () => {
    const { id, owner } = await workspace();
    expect((await invite(owner, id, { role: 'owner', expiresAt: inDays(1) })).body).toEqual({
      error: '"role" must be one of: admin, member, viewer',
    });
    expect((await invite(owner, id, { role: 'member', expiresAt: inDays(-1) })).status).toBe(400);
    expect((await invite(owner, id, { role: 'member', expiresAt: inDays(1), email: 'not-an-email' })).status).toBe(400);
  });

  it('lets an expired invitation join nobody and leaves it out of the list', async () => {
    const { id, owner } = await workspace();
    const invitationId = (await invite(owner, id)).body.data.invitation.id as string;
    await h.rows(
      `UPDATE collections.workspace_invitations SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [invitationId],
    );
    expect((await accept(account(), invitationId)).status).toBe(400);
    expect((await h.call(owner, 'get', `/api/v1/workspaces/${id}/invitations`)).body.data.invitations).toEqual([]);
  });

  describe('when the inviter loses the right to invite', () => {
    const GONE = { error: 'The person who created this invitation can no longer invite to this workspace' };
    const pendingIds = async (who: Caller, ws: string) =>
      (
        (await h.call(who, 'get', `/api/v1/workspaces/${ws}/invitations`)).body.data.invitations as Array<{
          id: string;
        }>
      ).map((i) => i.id);

    it("refuses an admin's link once the admin is removed: they cannot rejoin through a second account", async () => {
      const { id, owner, members } = await workspace(['admin']);
      const [admin] = members as [Caller];
      const invitationId = (await invite(admin, id, { role: 'admin', expiresAt: inDays(7) })).body.data.invitation
        .id as string;
      expect((await h.call(owner, 'delete', `/api/v1/workspaces/${id}/members/${admin.accountId}`)).status).toBe(200);

      const secondAccount = account();
      const refused = await accept(secondAccount, invitationId);
      expect([refused.status, refused.body]).toEqual([
        400,
        { error: 'This invitation is invalid, revoked, already used or expired' },
      ]);
      expect((await h.call(secondAccount, 'get', `/api/v1/workspaces/${id}`)).status).toBe(403);
      expect(await pendingIds(owner, id)).toEqual([]);
    });

    it('revokes the links of an admin demoted to member, and of one demoted by an operator', async () => {
      const { id, owner, members } = await workspace(['admin', 'admin']);
      const [demoted, byOperator] = members as [Caller, Caller];
      const first = (await invite(demoted, id, { role: 'admin', expiresAt: inDays(7) })).body.data.invitation
        .id as string;
      const second = (await invite(byOperator, id)).body.data.invitation.id as string;
      expect(
        (await h.call(owner, 'put', `/api/v1/workspaces/${id}/members/${demoted.accountId}`).send({ role: 'member' }))
          .status,
      ).toBe(200);
      expect(
        (
          await h
            .call(ADMIN, 'put', `/admin/v1/workspaces/${id}/members/${byOperator.accountId}`)
            .send({ role: 'viewer' })
        ).status,
      ).toBe(200);

      expect(await pendingIds(owner, id)).toEqual([]);
      for (const invitationId of [first, second]) expect((await accept(account(), invitationId)).status).toBe(400);
      const revokedBy = await h.rows<{ created_by: string }>(
        'SELECT created_by FROM collections.workspace_invitations WHERE workspace_id = $1 AND revoked_at IS NOT NULL ORDER BY created_by',
        [id],
      );
      expect(revokedBy.map((r) => r.created_by)).toEqual([demoted.accountId, byOperator.accountId].sort());
    });

    it('refuses a link whose creator left without the revocation (a link made before it), in English and French', async () => {
      const { id, members } = await workspace(['admin']);
      const [admin] = members as [Caller];
      const invitationId = (await invite(admin, id)).body.data.invitation.id as string;
      // as a membership ended before removals revoked links: the invitation is still pending
      await h.rows('DELETE FROM collections.workspace_members WHERE workspace_id = $1 AND account_id = $2', [
        id,
        admin.accountId,
      ]);

      const preview = await h.call(account(), 'get', `/api/v1/invitations/${invitationId}`);
      expect([preview.status, preview.body]).toEqual([400, GONE]);
      const refused = await accept(account(), invitationId);
      expect([refused.status, refused.body]).toEqual([400, GONE]);
      const french = await accept(account(), invitationId).set('Accept-Language', 'fr');
      expect(french.body).toEqual({
        error: 'La personne qui a créé cette invitation ne peut plus inviter dans cet espace de travail',
      });
    });

    // On Postgres (DATABASE_URL) an acceptance taking the invitation row before the workspace deadlocks here (a 500).
    it('lets a removal race the acceptances of its links: each is either joined before it or refused, none fails', async () => {
      const { id, owner, members } = await workspace(['admin']);
      const [admin] = members as [Caller];
      const links: string[] = [];
      for (let i = 0; i < 8; i += 1) links.push((await invite(admin, id)).body.data.invitation.id as string);
      const joiners = links.map(() => account());
      const [removed, ...accepted] = await Promise.all([
        h.call(owner, 'delete', `/api/v1/workspaces/${id}/members/${admin.accountId}`),
        ...links.map((invitationId, i) => accept(joiners[i]!, invitationId)),
      ]);
      expect(removed!.status).toBe(200);
      expect(accepted.map((r) => r.status).filter((s) => s !== 200 && s !== 400)).toEqual([]);
      const joined = joiners.filter((_, i) => accepted[i]!.status === 200).map((j) => j.accountId);
      const memberIds = await h.rows<{ account_id: string }>(
        'SELECT account_id FROM collections.workspace_members WHERE workspace_id = $1',
        [id],
      );
      expect(memberIds.map((m) => m.account_id).sort()).toEqual([owner.accountId, ...joined].sort());
      expect(await pendingIds(owner, id)).toEqual([]);
    });

    it('keeps the links of an admin still in place, and of an owner made admin, when another admin goes', async () => {
      const { id, owner, members } = await workspace(['admin', 'admin']);
      const [staying, leaving] = members as [Caller, Caller];
      const heir = account();
      await h.call(ADMIN, 'put', `/admin/v1/workspaces/${id}/members/${heir.accountId}`).send({ role: 'owner' });
      const byStaying = (await invite(staying, id, { role: 'admin', expiresAt: inDays(7) })).body.data.invitation
        .id as string;
      const byOwner = (await invite(owner, id, { role: 'admin', expiresAt: inDays(7) })).body.data.invitation
        .id as string;
      await invite(leaving, id);
      expect(
        (await h.call(heir, 'put', `/api/v1/workspaces/${id}/members/${owner.accountId}`).send({ role: 'admin' }))
          .status,
      ).toBe(200);
      expect((await h.call(heir, 'delete', `/api/v1/workspaces/${id}/members/${leaving.accountId}`)).status).toBe(200);

      expect((await pendingIds(heir, id)).sort()).toEqual([byStaying, byOwner].sort());
      for (const invitationId of [byStaying, byOwner]) {
        const joined = await accept(account(), invitationId);
        expect([joined.status, joined.body.data?.workspace.role]).toEqual([200, 'admin']);
      }
    });
  });

  it('keeps at most 100 pending invitations per workspace', async () => {
    const { id, owner } = await workspace();
    await h.rows(
      `INSERT INTO collections.workspace_invitations (id, workspace_id, role, created_by, expires_at)
       SELECT gen_random_uuid(), $1, 'member', $2, now() + interval '1 day' FROM generate_series(1, 99)`,
      [id, owner.accountId],
    );
    const all = await Promise.all(Array.from({ length: 6 }, () => invite(owner, id)));
    expect(all.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(all.find((r) => r.status === 409)?.body).toEqual({
      error: 'Quota reached: a workspace holds at most 100 pending invitations (pending invitations per workspace)',
    });
  });
});
