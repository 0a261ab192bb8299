/**
 * Who may do what in a workspace, as pure predicates on roles: the one
 * statement of the rules. collections-service enforces them
 * (domain/workspace-access.ts turns a `false` into its 403) and the web
 * console reads them to disable what a role cannot do. Browser-safe: it
 * imports nothing, and is exported alone as `@skills/common/workspace-roles`.
 */

/**
 * Every role, the strongest first: the one list the services' validation,
 * the OpenAPI document's enums and the console all read.
 */
export const WORKSPACE_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;

export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** What an invitation may grant: never ownership (an owner promotes a member afterwards). */
export type InvitableRole = Exclude<WorkspaceRole, 'owner'>;

export const INVITABLE_ROLES: readonly InvitableRole[] = WORKSPACE_ROLES.filter(
  (role): role is InvitableRole => role !== 'owner',
);

/** Create and change team collections: every role but viewer. */
export function mayWriteCollections(role: WorkspaceRole): boolean {
  return role !== 'viewer';
}

/**
 * Delete a team collection: owners and admins any, a member what it created;
 * a viewer nothing, not even what it created before a demotion (a demotion
 * is how read-only access is given, and it must take writes away).
 */
export function mayDeleteCollection(
  role: WorkspaceRole,
  accountId: string | undefined,
  createdBy: string | undefined,
): boolean {
  if (role === 'owner' || role === 'admin') return true;
  return role === 'member' && accountId !== undefined && accountId === createdBy;
}

/** Owners and admins govern: the workspace policy and its webhooks (docs/governance.md). */
export function mayGovern(role: WorkspaceRole): boolean {
  return role === 'owner' || role === 'admin';
}

/** Owners and admins invite people, see the pending invitations and revoke them. */
export function mayManageInvitations(role: WorkspaceRole): boolean {
  return role === 'owner' || role === 'admin';
}

/**
 * Remove a member whose role is `target`: anyone may leave (`self`); an owner
 * removes anyone; an admin removes admins, members and viewers.
 */
export function mayRemoveMember(caller: WorkspaceRole, target: WorkspaceRole, self: boolean): boolean {
  if (self || caller === 'owner') return true;
  return caller === 'admin' && target !== 'owner';
}

/**
 * Give `next` to a member whose role is `target`: an owner sets any role; an
 * admin moves admins, members and viewers among those three (an owner is
 * changed, and ownership given, only by an owner); others change no role.
 */
export function maySetRole(caller: WorkspaceRole, target: WorkspaceRole, next: WorkspaceRole): boolean {
  if (caller === 'owner') return true;
  return caller === 'admin' && target !== 'owner' && next !== 'owner';
}

/** The roles `caller` may give a member whose role is `target` (empty: none). */
export function assignableRoles(caller: WorkspaceRole, target: WorkspaceRole): WorkspaceRole[] {
  return WORKSPACE_ROLES.filter((next) => maySetRole(caller, target, next));
}
