/**
 * Invitations to a workspace (docs/collections.md "Self-service workspaces"). Owners and admins invite with a
 * role (admin, member or viewer), list what is pending and revoke it; any
 * account the gateway vouches for accepts. The link's secret is the
 * gateway's: it resolves the link to the invitation id before calling here,
 * so an id reaches `preview` and `accept` only from a person holding the link.
 */
import { ConflictError, InputError, NotFoundError, isUuid } from '@skills/common';
import { MAX_PENDING_INVITATIONS } from './limits';
import type { InvitationRecord, MemberWorkspace, Workspace } from './model';
import type { InvitableRole } from '@skills/common/workspace-roles';
import type { CollectionsStore, Repositories } from './ports';
import { workspaceRole } from './team-scope';
import { assertMayManageInvitations, inviterMayStillGrant } from './workspace-access';
import { memberView } from './workspace.service';

export interface InvitationInput {
  role: InvitableRole;
  email: string | null;
  /** when the link stops working; the gateway's link expires at the same instant */
  expiresAt: Date;
}

/** An invitation as the person invited sees it before accepting. */
export interface InvitationPreview {
  invitation: InvitationRecord;
  workspace: Workspace;
}

/** 404 for a missing workspace, 403 for a non-member, a member or a viewer: invitations are the owners' and admins'. */
async function assertManager(repos: Repositories, accountId: string, workspaceId: string): Promise<void> {
  assertMayManageInvitations(await workspaceRole(repos, accountId, workspaceId));
}

/**
 * 400 `invitation.inviterGone` when the invitation's creator could not make
 * it today (removed, demoted below admin). Removal and demotion revoke their
 * links already (workspace-members.service.ts); this also holds for links
 * made before that rule, and for one created while its creator's removal
 * commits (creation reads the role without the workspace lock).
 */
async function assertInviterStillMay(repos: Repositories, invitation: InvitationRecord): Promise<void> {
  const inviterRole = await repos.workspaces.roleOf(invitation.workspaceId, invitation.createdBy);
  if (!inviterMayStillGrant(inviterRole, invitation.role)) throw new InputError('invitation.inviterGone');
}

export class InvitationService {
  constructor(private readonly store: CollectionsStore) {}

  /** A new pending invitation; 409 when the workspace already has the most pending invitations it may. */
  create(accountId: string, workspaceId: string, input: InvitationInput): Promise<InvitationRecord> {
    return this.store.transaction(async (repos) => {
      await assertManager(repos, accountId, workspaceId);
      await repos.invitations.lockWorkspace(workspaceId);
      if ((await repos.invitations.countPending(workspaceId)) >= MAX_PENDING_INVITATIONS) {
        throw new ConflictError('quota.pendingInvitations', { limit: MAX_PENDING_INVITATIONS });
      }
      return repos.invitations.insert({ workspaceId, createdBy: accountId, ...input });
    });
  }

  /** The pending invitations, newest first (at most MAX_PENDING_INVITATIONS). */
  async listPending(accountId: string, workspaceId: string): Promise<InvitationRecord[]> {
    await assertManager(this.store.repos, accountId, workspaceId);
    return this.store.repos.invitations.listPending(workspaceId);
  }

  /** Revokes a pending invitation of this workspace; anything else (another workspace's, accepted, expired) is 404. */
  revoke(accountId: string, workspaceId: string, invitationId: string): Promise<void> {
    return this.store.transaction(async (repos) => {
      await assertManager(repos, accountId, workspaceId);
      const invitation = isUuid(invitationId) ? await repos.invitations.lockPending(invitationId) : null;
      if (!invitation || invitation.workspaceId !== workspaceId) throw new NotFoundError('invitation.notFound');
      await repos.invitations.revoke(invitationId);
    });
  }

  /** What a pending invitation offers; 400 `invitation.invalid` once it is revoked, used or expired, `invitation.inviterGone` as accept has it. */
  async preview(invitationId: string): Promise<InvitationPreview> {
    const { repos } = this.store;
    const invitation = isUuid(invitationId) ? await repos.invitations.findPending(invitationId) : null;
    const workspace = invitation && (await repos.workspaces.findById(invitation.workspaceId));
    if (!invitation || !workspace) throw new InputError('invitation.invalid');
    await assertInviterStillMay(repos, invitation);
    return { invitation, workspace };
  }

  /**
   * Makes `accountId` a member with the invitation's role and marks the
   * invitation used, in one transaction on the locked workspace and
   * invitation: two accounts racing for one link cannot both join. A member
   * already is 409 and the invitation stays pending for someone else. The
   * creator's role is read under the workspace lock, which removals and role
   * changes take too: a link cannot slip in beside its creator's removal.
   */
  accept(accountId: string, invitationId: string): Promise<MemberWorkspace> {
    return this.store.transaction(async (repos) => {
      const found = isUuid(invitationId) ? await repos.invitations.findPending(invitationId) : null;
      // The workspace before the invitation row, in the order removals and role changes take them (they revoke
      // invitations on the locked workspace): the other order deadlocks against them.
      if (!found || !(await repos.workspaces.lock(found.workspaceId))) throw new InputError('invitation.invalid');
      const invitation = await repos.invitations.lockPending(found.id);
      if (!invitation) throw new InputError('invitation.invalid');
      await assertInviterStillMay(repos, invitation);
      if ((await repos.workspaces.roleOf(invitation.workspaceId, accountId)) !== null)
        throw new ConflictError('invitation.alreadyMember');
      await repos.workspaces.setMember({ workspaceId: invitation.workspaceId, accountId, role: invitation.role });
      await repos.invitations.markAccepted(invitation.id, accountId);
      return memberView(repos, accountId, invitation.workspaceId);
    });
  }
}
