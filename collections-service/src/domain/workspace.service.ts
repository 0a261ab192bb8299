/**
 * Self-service workspaces (docs/collections.md): an account creates one and owns
 * it, lists the workspaces it belongs to with its role in each, and any
 * member reads the workspace and its members. Role changes and removals are
 * in workspace-members.service.ts, invitations in invitation.service.ts.
 */
import { ConflictError, NotFoundError, isUuid, type PageRequest } from '@skills/common';
import { MAX_WORKSPACES_OWNED } from './limits';
import type { MemberRecord, MemberWorkspace } from './model';
import type { CollectionsStore, Repositories } from './ports';
import { assertWorkspaceAccess } from './workspace-access';

/**
 * The workspace as `accountId` sees it: 404 when there is no such
 * workspace, 403 noAccess when the account is not a member (the same order
 * as the collection routes).
 */
export async function memberView(
  repos: Repositories,
  accountId: string,
  workspaceId: string,
): Promise<MemberWorkspace> {
  if (!isUuid(workspaceId) || !(await repos.workspaces.exists(workspaceId)))
    throw new NotFoundError('workspace.notFound');
  const workspace = await repos.workspaces.forMember(workspaceId, accountId);
  assertWorkspaceAccess(workspace?.role ?? null, 'read');
  if (!workspace) throw new NotFoundError('workspace.notFound');
  return workspace;
}

export class WorkspaceService {
  constructor(private readonly store: CollectionsStore) {}

  /** Creates the workspace with `accountId` as its owner, in one transaction; 409 past the quota of owned workspaces. */
  create(accountId: string, name: string): Promise<MemberWorkspace> {
    return this.store.transaction(async (repos) => {
      await repos.workspaces.lockCreator(accountId);
      if ((await repos.workspaces.countOwnedBy(accountId)) >= MAX_WORKSPACES_OWNED) {
        throw new ConflictError('quota.workspacesPerAccount', { limit: MAX_WORKSPACES_OWNED });
      }
      const workspace = await repos.workspaces.create(name);
      await repos.workspaces.setMember({ workspaceId: workspace.id, accountId, role: 'owner' });
      return memberView(repos, accountId, workspace.id);
    });
  }

  /** One page of the workspaces the account belongs to, with its role in each, and how many there are. */
  async listMine(accountId: string, page: PageRequest): Promise<{ workspaces: MemberWorkspace[]; total: number }> {
    const { workspaces } = this.store.repos;
    const [total, listed] = await Promise.all([
      workspaces.countForMember(accountId),
      workspaces.listForMember(accountId, page),
    ]);
    return { workspaces: listed, total };
  }

  get(accountId: string, workspaceId: string): Promise<MemberWorkspace> {
    return memberView(this.store.repos, accountId, workspaceId);
  }

  /** One page of the members, for any member (viewers included). */
  async listMembers(
    accountId: string,
    workspaceId: string,
    page: PageRequest,
  ): Promise<{ members: MemberRecord[]; total: number }> {
    const { repos } = this.store;
    await memberView(repos, accountId, workspaceId);
    const [total, members] = await Promise.all([
      repos.workspaces.countMembers(workspaceId),
      repos.workspaces.listMembers(workspaceId, page),
    ]);
    return { members, total };
  }
}
