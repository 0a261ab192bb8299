/**
 * Who may do what in a workspace (docs/collections.md "Workspaces"). Pure: the caller's role
 * (null when not a member) in, an error out. The rules themselves are the
 * predicates of @skills/common/workspace-roles, which the console reads too.
 */
import { ConflictError, NotAllowedError } from '@skills/common';
import {
  mayDeleteCollection,
  mayManageInvitations,
  mayRemoveMember,
  maySetRole,
  mayWriteCollections,
  type WorkspaceRole,
} from '@skills/common/workspace-roles';

export type WorkspaceAction = 'read' | 'create' | 'update' | 'delete';

/**
 * Throws 403 `workspace.noAccess` for a non-member and 403
 * `workspace.roleTooLow` when the role does not allow the action. A member
 * may also delete a collection they created; a viewer deletes nothing, not
 * even what they created before a demotion (a demotion is how read-only
 * access is given, and it must take writes away).
 */
export function assertWorkspaceAccess(
  role: WorkspaceRole | null,
  action: WorkspaceAction,
  context: { accountId?: string; createdBy?: string } = {},
): asserts role is WorkspaceRole {
  if (role === null) throw new NotAllowedError('workspace.noAccess');
  if (action === 'read') return;
  const allowed =
    action === 'delete' ? mayDeleteCollection(role, context.accountId, context.createdBy) : mayWriteCollections(role);
  if (!allowed) throw new NotAllowedError('workspace.roleTooLow');
}

/**
 * May `callerRole` remove a member whose role is `targetRole`? Anyone may
 * leave; an owner removes anyone; an admin removes admins, members and
 * viewers (an owner only by an owner); members and viewers remove only
 * themselves. Throws 403 `workspace.roleTooLow` otherwise.
 */
export function assertMayRemoveMember(callerRole: WorkspaceRole, targetRole: WorkspaceRole, self: boolean): void {
  if (!mayRemoveMember(callerRole, targetRole, self)) throw new NotAllowedError('workspace.roleTooLow');
}

/**
 * May `callerRole` give `newRole` to a member whose role is `targetRole`?
 * An owner sets any role; an admin moves admins, members and viewers among
 * those three (an owner is changed, and ownership given, only by an owner);
 * members and viewers change no role. Throws 403 `workspace.roleTooLow`.
 */
export function assertMaySetRole(callerRole: WorkspaceRole, targetRole: WorkspaceRole, newRole: WorkspaceRole): void {
  if (!maySetRole(callerRole, targetRole, newRole)) throw new NotAllowedError('workspace.roleTooLow');
}

/** Owners and admins invite people, see the pending invitations and revoke them. */
export function assertMayManageInvitations(role: WorkspaceRole | null): asserts role is WorkspaceRole {
  if (role === null) throw new NotAllowedError('workspace.noAccess');
  if (!mayManageInvitations(role)) throw new NotAllowedError('workspace.roleTooLow');
}

/**
 * May an invitation made by a member now holding `inviterRole` (null: no
 * longer a member) still grant `invitedRole`? A link carries its creator's
 * authority, so it holds only while they could invite today: an owner or an
 * admin, and the role one they could give a member (assertMaySetRole: an
 * admin gives anything but ownership).
 */
export function inviterMayStillGrant(inviterRole: WorkspaceRole | null, invitedRole: WorkspaceRole): boolean {
  return inviterRole !== null && mayManageInvitations(inviterRole) && maySetRole(inviterRole, invitedRole, invitedRole);
}

/** A workspace keeps at least one owner: removing or demoting its last one is a 409. */
export function assertKeepsAnOwner(targetRole: WorkspaceRole, newRole: WorkspaceRole | null, owners: number): void {
  if (targetRole === 'owner' && newRole !== 'owner' && owners <= 1) throw new ConflictError('workspace.lastOwner');
}
