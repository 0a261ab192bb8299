/**
 * Member removal and role changes: by the workspace's owners and admins, by
 * a member leaving, or by an operator through the admin API. The workspace
 * row is locked first, so two owners removing or demoting each other at
 * once cannot leave it ownerless.
 */
import { NotFoundError, isUuid } from '@skills/common';
import type { WorkspaceRole } from '@skills/common/workspace-roles';
import type { MemberRecord } from './model';
import type { CollectionsStore, Repositories } from './ports';
import {
  assertKeepsAnOwner,
  assertMayRemoveMember,
  assertMaySetRole,
  assertWorkspaceAccess,
  inviterMayStillGrant,
} from './workspace-access';

/** Locks the workspace (404 when there is none): roles read after this hold until the transaction ends. */
async function lockWorkspace(repos: Repositories, workspaceId: string): Promise<void> {
  if (!isUuid(workspaceId) || !(await repos.workspaces.lock(workspaceId)))
    throw new NotFoundError('workspace.notFound');
}

/** The target's role: 404 for an account that is not a member. */
async function targetRole(repos: Repositories, workspaceId: string, accountId: string): Promise<WorkspaceRole> {
  const role = isUuid(accountId) ? await repos.workspaces.roleOf(workspaceId, accountId) : null;
  if (role === null) throw new NotFoundError('workspace.memberNotFound');
  return role;
}

/**
 * Revokes the pending invitations `accountId` made, once `newRole` (null:
 * removed) no longer lets them invite. Called in the transaction that
 * changes the membership, so a removed admin leaves no link behind.
 */
export async function endInvitationsOfFormerInviter(
  repos: Repositories,
  workspaceId: string,
  accountId: string,
  newRole: WorkspaceRole | null,
): Promise<void> {
  // 'admin' is the widest role a link grants: an inviter who may still grant it keeps every link
  if (!inviterMayStillGrant(newRole, 'admin')) await repos.invitations.revokePendingCreatedBy(workspaceId, accountId);
}

/** Removes the member after the last-owner rule, with the invitations they made; the caller checked who may. */
async function remove(
  repos: Repositories,
  workspaceId: string,
  accountId: string,
  targetRole: WorkspaceRole,
): Promise<void> {
  assertKeepsAnOwner(targetRole, null, await repos.workspaces.countOwners(workspaceId));
  await repos.workspaces.removeMember(workspaceId, accountId);
  await endInvitationsOfFormerInviter(repos, workspaceId, accountId, null);
}

export class WorkspaceMembersService {
  constructor(private readonly store: CollectionsStore) {}

  /**
   * `callerId` removes `accountId` from the workspace (themself: leaves it).
   * Checks, in order: the workspace exists (404), the caller is a member
   * (403 noAccess), a member or viewer removes only themself (403), the
   * target is a member (404), an admin does not remove an owner (403), and
   * the last owner stays (409).
   */
  removeMember(callerId: string, workspaceId: string, accountId: string): Promise<void> {
    return this.store.transaction(async (repos) => {
      await lockWorkspace(repos, workspaceId);
      const callerRole = await repos.workspaces.roleOf(workspaceId, callerId);
      assertWorkspaceAccess(callerRole, 'read');
      const self = callerId === accountId;
      // A member or viewer learns nothing about other members: the 403 comes before the lookup.
      if (!self && (callerRole === 'member' || callerRole === 'viewer'))
        assertMayRemoveMember(callerRole, 'member', false);
      const role = await targetRole(repos, workspaceId, accountId);
      assertMayRemoveMember(callerRole, role, self);
      await remove(repos, workspaceId, accountId, role);
    });
  }

  /**
   * `callerId` gives `accountId` (a member already: people join by
   * invitation) the role `role`. Checks, in order: the workspace exists
   * (404), the caller is a member (403 noAccess), a member or viewer changes
   * no role (403, before any lookup), the target is a member (404), the role
   * rule (403), and the last owner stays (409). A demotion below admin
   * revokes the invitations the target made.
   */
  setRole(callerId: string, workspaceId: string, accountId: string, role: WorkspaceRole): Promise<MemberRecord> {
    return this.store.transaction(async (repos) => {
      await lockWorkspace(repos, workspaceId);
      const callerRole = await repos.workspaces.roleOf(workspaceId, callerId);
      assertWorkspaceAccess(callerRole, 'read');
      if (callerRole === 'member' || callerRole === 'viewer') assertMaySetRole(callerRole, 'member', role);
      const current = await targetRole(repos, workspaceId, accountId);
      assertMaySetRole(callerRole, current, role);
      assertKeepsAnOwner(current, role, await repos.workspaces.countOwners(workspaceId));
      await repos.workspaces.setMember({ workspaceId, accountId, role });
      await endInvitationsOfFormerInviter(repos, workspaceId, accountId, role);
      const member = await repos.workspaces.findMember(workspaceId, accountId);
      if (!member) throw new NotFoundError('workspace.memberNotFound');
      return member;
    });
  }

  /** An operator's removal (admin API): only the last-owner rule applies. */
  removeByAdmin(workspaceId: string, accountId: string): Promise<void> {
    return this.store.transaction(async (repos) => {
      await lockWorkspace(repos, workspaceId);
      await remove(repos, workspaceId, accountId, await targetRole(repos, workspaceId, accountId));
    });
  }
}
