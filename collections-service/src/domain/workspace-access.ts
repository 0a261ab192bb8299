/**
 * Who may do what in a workspace (DESIGN.md §3). Pure: the caller's role
 * (null when not a member) in, an error out.
 */
import { NotAllowedError } from '@skills/common';
import type { WorkspaceRole } from './model';

export type WorkspaceAction = 'read' | 'create' | 'update' | 'delete';

const WRITERS: readonly WorkspaceRole[] = ['owner', 'admin', 'member'];
const DELETERS: readonly WorkspaceRole[] = ['owner', 'admin'];

/**
 * Throws 403 `workspace.noAccess` for a non-member and 403
 * `workspace.roleTooLow` when the role does not allow the action. Deleting
 * is also allowed to the collection's creator whatever their role.
 */
export function assertWorkspaceAccess(
  role: WorkspaceRole | null,
  action: WorkspaceAction,
  context: { accountId?: string; createdBy?: string } = {},
): asserts role is WorkspaceRole {
  if (role === null) throw new NotAllowedError('workspace.noAccess');
  if (action === 'read') return;
  if (action === 'delete') {
    if (DELETERS.includes(role)) return;
    if (context.accountId !== undefined && context.accountId === context.createdBy) return;
    throw new NotAllowedError('workspace.roleTooLow');
  }
  if (!WRITERS.includes(role)) throw new NotAllowedError('workspace.roleTooLow');
}
