/** Admin writes to workspaces: creation with its owner, and member roles. */
import { NotFoundError, isUuid } from '@skills/common';
import type { Workspace, WorkspaceMember } from './model';
import type { CollectionsStore } from './ports';

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

  async setMember(member: WorkspaceMember): Promise<WorkspaceMember> {
    if (!isUuid(member.workspaceId)) throw new NotFoundError('workspace.notFound');
    if (!isUuid(member.accountId)) throw new NotFoundError('account.notFound');
    return this.store.transaction(async (repos) => {
      if (!(await repos.workspaces.exists(member.workspaceId))) throw new NotFoundError('workspace.notFound');
      return repos.workspaces.setMember(member);
    });
  }
}
