/**
 * What the interface offers each workspace role, so a control a role cannot
 * use is disabled or absent. The rules are the services' own
 * (@skills/common/workspace-roles, which collections-service enforces); this
 * only names them for the pages and spares people a refusal.
 */
import {
  INVITABLE_ROLES,
  WORKSPACE_ROLES,
  assignableRoles,
  mayDeleteCollection,
  mayGovern,
  mayManageInvitations,
  mayRemoveMember,
  mayWriteCollections,
} from '@skills/common/workspace-roles';
import type { Role } from './api';

export const ROLES: readonly Role[] = WORKSPACE_ROLES;

export const ROLE_HELP: Record<Role, string> = {
  owner: 'everything, including making other owners',
  admin: 'collections, invitations and members (not owners)',
  member: 'creates and edits collections, deletes its own',
  viewer: 'reads only',
};

/** Create and edit team collections. */
export const canWrite = mayWriteCollections;

/** Delete a team collection: owners and admins, a member what it created; a viewer nothing. */
export const canDelete = mayDeleteCollection;

/** Set the workspace policy and manage its webhooks (docs/governance.md). */
export const canGovern = mayGovern;

/** Move a team collection's pins to the latest allowed releases: whoever edits it. */
export const canUpdatePins = mayWriteCollections;

/** Invite people, see and revoke the pending invitations. */
export const canInvite = mayManageInvitations;

/** The roles `caller` may give to a member whose role is `target` (empty: none). */
export { assignableRoles };

/** Remove another member (leaving is open to all). */
export const canRemove = (caller: Role, target: Role): boolean => mayRemoveMember(caller, target, false);

/** What invitations may grant, by who invites: never ownership. */
export const INVITABLE: readonly Role[] = INVITABLE_ROLES;

/** What the caller may do with a collection (personal: everything; team: by workspace role). */
export interface CollectionRights {
  edit: boolean;
  delete: boolean;
  /** team collections: move pins to the latest allowed releases */
  updatePins?: boolean;
  /** why the controls are off, shown instead of them */
  why?: string;
}

export const PERSONAL_RIGHTS: CollectionRights = { edit: true, delete: true };

/** The controls of a team collection for `role` (the caller `me`; the collection made by `createdBy`), and why some are off. */
export function teamCollectionRights(role: Role, me: string, createdBy: string | undefined): CollectionRights {
  const mayDelete = canDelete(role, me, createdBy);
  const why =
    role === 'viewer'
      ? 'You are a viewer in this workspace: you can read this collection, not change or delete it.'
      : mayDelete
        ? undefined
        : 'Members delete only the collections they created; an owner or admin can delete this one.';
  return { edit: canWrite(role), updatePins: canUpdatePins(role), delete: mayDelete, why };
}
