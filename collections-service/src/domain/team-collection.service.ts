/**
 * Rules of team collections: the workspace must exist, the caller must be a
 * member, and the role decides what they may do (workspace-access.ts).
 */
import { ConflictError, NotFoundError, isUuid, type PageRequest } from '@skills/common';
import { applyCollectionPatch } from './collection-patch';
import { runIdempotent, type Idempotent, type IdempotentOutcome } from './idempotency';
import { LIST_PREVIEW_ENTRIES, MAX_COLLECTIONS_PER_WORKSPACE } from './limits';
import type { CollectionPatch, CollectionRecord, CollectionWithEntries, WorkspaceRole, WritePrecondition } from './model';
import type { CollectionsStore, Repositories } from './ports';
import { assertWorkspaceAccess, type WorkspaceAction } from './workspace-access';

/** Team PATCH bodies carry no private-skill fields (the schema refuses them). */
export type TeamCollectionPatch = Omit<CollectionPatch, 'privateSkillId' | 'removePrivateSkillId'>;

export class TeamCollectionService {
  constructor(private readonly store: CollectionsStore) {}

  /** One page of the workspace's collections (each with a preview of its entries) and how many it has in all. */
  async list(
    accountId: string,
    workspaceId: string,
    page: PageRequest,
  ): Promise<{ collections: CollectionWithEntries[]; total: number }> {
    await this.access(this.store.repos, accountId, workspaceId, 'read');
    const { collections } = this.store.repos;
    const [total, listed] = await Promise.all([collections.countByWorkspace(workspaceId), collections.listByWorkspace(workspaceId, page, LIST_PREVIEW_ENTRIES)]);
    return { collections: listed, total };
  }

  async get(accountId: string, workspaceId: string, id: string): Promise<CollectionWithEntries> {
    await this.access(this.store.repos, accountId, workspaceId, 'read');
    const collection = await this.inWorkspace(this.store.repos, workspaceId, id, false);
    return this.store.repos.collections.withEntries(collection);
  }

  create(
    accountId: string,
    workspaceId: string,
    input: { name: string; description?: string },
  ): Promise<CollectionWithEntries> {
    return this.store.transaction((repos) => this.insert(repos, accountId, workspaceId, input));
  }

  /**
   * `create` at most once per Idempotency-Key (see idempotency.ts). Access
   * is checked before a stored answer is replayed too: a member removed or
   * demoted since the first call gets the 403 the create itself would get.
   */
  createOnce(
    accountId: string,
    workspaceId: string,
    input: { name: string; description?: string },
    idempotent: Idempotent<CollectionWithEntries>,
  ): Promise<IdempotentOutcome> {
    return this.store.transaction(async (repos) => {
      await this.access(repos, accountId, workspaceId, 'create');
      return runIdempotent(repos, idempotent, () => this.insert(repos, accountId, workspaceId, input));
    });
  }

  private async insert(
    repos: Repositories,
    accountId: string,
    workspaceId: string,
    input: { name: string; description?: string },
  ): Promise<CollectionWithEntries> {
    await this.access(repos, accountId, workspaceId, 'create');
    await repos.collections.lockScope(workspaceId);
    if ((await repos.collections.countByWorkspace(workspaceId)) >= MAX_COLLECTIONS_PER_WORKSPACE) {
      throw new ConflictError('quota.collectionsPerWorkspace', { limit: MAX_COLLECTIONS_PER_WORKSPACE });
    }
    const created = await repos.collections.insert({
      ownerAccountId: null,
      workspaceId,
      createdBy: accountId,
      name: input.name,
      description: input.description ?? '',
    });
    return { ...created, skills: [], skillCount: 0 };
  }

  update(
    accountId: string,
    workspaceId: string,
    id: string,
    patch: TeamCollectionPatch,
    precondition?: WritePrecondition,
  ): Promise<CollectionWithEntries> {
    return this.store.transaction(async (repos) => {
      await this.access(repos, accountId, workspaceId, 'update');
      const collection = await this.inWorkspace(repos, workspaceId, id, true);
      if (precondition) precondition(await repos.collections.withEntries(collection));
      await applyCollectionPatch(repos, collection, patch, null);
      const updated = await repos.collections.findById(id);
      if (!updated) throw new NotFoundError('collection.notFound');
      return repos.collections.withEntries(updated);
    });
  }

  async delete(accountId: string, workspaceId: string, id: string, precondition?: WritePrecondition): Promise<void> {
    await this.store.transaction(async (repos) => {
      // Membership first, so a non-member learns nothing about the collection.
      const role = await this.access(repos, accountId, workspaceId, 'read');
      const collection = await this.inWorkspace(repos, workspaceId, id, true);
      assertWorkspaceAccess(role, 'delete', { accountId, createdBy: collection.createdBy });
      if (precondition) precondition(await repos.collections.withEntries(collection));
      await repos.collections.delete(id);
    });
  }

  private async access(
    repos: Repositories,
    accountId: string,
    workspaceId: string,
    action: WorkspaceAction,
  ): Promise<WorkspaceRole> {
    if (!isUuid(workspaceId) || !(await repos.workspaces.exists(workspaceId))) {
      throw new NotFoundError('workspace.notFound');
    }
    const role = await repos.workspaces.roleOf(workspaceId, accountId);
    assertWorkspaceAccess(role, action);
    return role;
  }

  private async inWorkspace(repos: Repositories, workspaceId: string, id: string, lock: boolean): Promise<CollectionRecord> {
    if (!isUuid(id)) throw new NotFoundError('collection.notFound');
    const collection = lock ? await repos.collections.lockById(id) : await repos.collections.findById(id);
    if (!collection || collection.workspaceId !== workspaceId) throw new NotFoundError('collection.notFound');
    return collection;
  }
}
