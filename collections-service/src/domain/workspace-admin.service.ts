/** Admin writes to workspaces: creation with its owner, and member roles (removal: workspace-members.service.ts). */
import { NotFoundError, isUuid } from '@skills/common';
import type { Workspace, WorkspaceMember } from './model';
import type { CollectionsStore } from './ports';
import { assertKeepsAnOwner } from './workspace-access';
import { endInvitationsOfFormerInviter } from './workspace-members.service';

export class WorkspaceAdminService {
  constructor(private readonly store: CollectionsStore) {}

  /** Creates the workspace and makes `ownerAccountId` its owner, together. */
  createWorkspace(name: string, ownerAccountId: string): Promise<Workspace> {
    return this.store.transaction(async (repos) => {
      const workspace = await repos.workspaces.create(name);
      await repos.workspaces.setMember({ workspaceId: workspace.id, accountId: ownerAccountId, role: 'owner' });
      return workspace;
    });
  }

  /** Adds a member or changes a role; demoting the last owner is a 409 (workspace-access.ts), below admin revokes their invitations. */
  async setMember(member: WorkspaceMember): Promise<WorkspaceMember> {
    if (!isUuid(member.workspaceId)) throw new NotFoundError('workspace.notFound');
    if (!isUuid(member.accountId)) throw new NotFoundError('account.notFound');
    return this.store.transaction(async (repos) => {
      if (!(await repos.workspaces.lock(member.workspaceId))) throw new NotFoundError('workspace.notFound');
      const current = await repos.workspaces.roleOf(member.workspaceId, member.accountId);
      if (current !== null)
        assertKeepsAnOwner(current, member.role, await repos.workspaces.countOwners(member.workspaceId));
      const saved = await repos.workspaces.setMember(member);
      await endInvitationsOfFormerInviter(repos, member.workspaceId, member.accountId, member.role);
      return saved;
    });
  }
}
