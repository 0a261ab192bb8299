/**
 * What the interface offers each workspace role: a mirror of the services'
 * rules (docs/collections.md), so a control a role cannot use is disabled
 * or absent. The services decide; this only spares people a refusal.
 */
import type { Role } from './data-api';

export const ROLES: readonly Role[] = ['owner', 'admin', 'member', 'viewer'];

export const ROLE_HELP: Record<Role, string> = {
  owner: 'everything, including making other owners',
  admin: 'collections, invitations and members (not owners)',
  member: 'creates and edits collections, deletes its own',
  viewer: 'reads only',
};

/** Create and edit team collections. */
export const canWrite = (role: Role): boolean => role !== 'viewer';

/** Delete a team collection: owners and admins, a member what it created; a viewer nothing. */
export function canDelete(role: Role, accountId: string, createdBy: string | undefined): boolean {
  if (role === 'owner' || role === 'admin') return true;
  return role === 'member' && createdBy === accountId;
}

/** Set the workspace policy and manage its webhooks (docs/governance.md). */
export const canGovern = (role: Role): boolean => role === 'owner' || role === 'admin';

/** Move a team collection's pins to the latest allowed releases: whoever edits it. */
export const canUpdatePins = canWrite;

/** Invite people, see and revoke the pending invitations. */
export const canInvite = (role: Role): boolean => role === 'owner' || role === 'admin';

/** The roles `caller` may give to a member whose role is `target` (empty: none). */
export function assignableRoles(caller: Role, target: Role): Role[] {
  if (caller === 'owner') return [...ROLES];
  if (caller === 'admin' && target !== 'owner') return ['admin', 'member', 'viewer'];
  return [];
}

/** Remove another member (leaving is open to all). */
export function canRemove(caller: Role, target: Role): boolean {
  return caller === 'owner' || (caller === 'admin' && target !== 'owner');
}

/** What invitations may grant, by who invites: never ownership. */
export const INVITABLE: readonly Role[] = ['admin', 'member', 'viewer'];
