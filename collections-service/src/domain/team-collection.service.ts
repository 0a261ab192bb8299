/**
 * Rules of team collections: the workspace must exist, the caller must be a
 * member, and the role decides what they may do (workspace-access.ts). Every
 * read is governed by the workspace policy (team-scope.ts), and every write
 * records a `collection.changed` event in its own transaction.
 */
import { ConflictError, type PageRequest } from '@skills/common';
import { applyCollectionPatch } from './collection-patch';
import type { CollectionChange } from './governance-ports';
import { runIdempotent, type Idempotent, type IdempotentOutcome } from './idempotency';
import { LIST_PREVIEW_ENTRIES, MAX_COLLECTIONS_PER_WORKSPACE } from './limits';
import type { CollectionPatch, CollectionRecord, CollectionWithEntries, WritePrecondition } from './model';
import type { CollectionsStore, Repositories } from './ports';
import {
  collectionDetailInWorkspace,
  collectionInWorkspace,
  governed,
  governedDetail,
  policyOf,
  teamAccess,
} from './team-scope';
import { assertWorkspaceAccess } from './workspace-access';

/** Team PATCH bodies carry no private-skill fields (the schema refuses them). */
export type TeamCollectionPatch = Omit<CollectionPatch, 'privateSkillId' | 'removePrivateSkillId'>;

/** Records that a team collection changed, in the caller's transaction. */
export function collectionChanged(
  repos: Repositories,
  collection: CollectionRecord,
  change: CollectionChange,
): Promise<string> {
  return repos.workspaceEvents.record({
    workspaceId: collection.workspaceId ?? '',
    type: 'collection.changed',
    data: { collectionId: collection.id, name: collection.name, change },
  });
}

export class TeamCollectionService {
  constructor(private readonly store: CollectionsStore) {}

  /**
   * One page of the workspace's collections (each with a preview of its
   * entries) and how many it has in all; the summaries cover the preview.
   */
  async list(
    accountId: string,
    workspaceId: string,
    page: PageRequest,
  ): Promise<{ collections: CollectionWithEntries[]; total: number }> {
    const repos = this.store.repos;
    await teamAccess(repos, accountId, workspaceId, 'read');
    const { collections } = repos;
    const [total, listed, policy] = await Promise.all([
      collections.countByWorkspace(workspaceId),
      collections.listByWorkspace(workspaceId, page, LIST_PREVIEW_ENTRIES),
      policyOf(repos, workspaceId),
    ]);
    return { collections: await governed(repos, policy, listed), total };
  }

  async get(accountId: string, workspaceId: string, id: string): Promise<CollectionWithEntries> {
    const repos = this.store.repos;
    await teamAccess(repos, accountId, workspaceId, 'read');
    const collection = await collectionDetailInWorkspace(repos, workspaceId, id);
    return governedDetail(repos, await policyOf(repos, workspaceId), collection);
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
      await teamAccess(repos, accountId, workspaceId, 'create');
      return runIdempotent(repos, idempotent, () => this.insert(repos, accountId, workspaceId, input));
    });
  }

  private async insert(
    repos: Repositories,
    accountId: string,
    workspaceId: string,
    input: { name: string; description?: string },
  ): Promise<CollectionWithEntries> {
    await teamAccess(repos, accountId, workspaceId, 'create');
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
    await collectionChanged(repos, created, 'created');
    return governedDetail(repos, await policyOf(repos, workspaceId), created);
  }

  update(
    accountId: string,
    workspaceId: string,
    id: string,
    patch: TeamCollectionPatch,
    precondition?: WritePrecondition,
  ): Promise<CollectionWithEntries> {
    return this.store.transaction(async (repos) => {
      await teamAccess(repos, accountId, workspaceId, 'update');
      const collection = await collectionInWorkspace(repos, workspaceId, id, true);
      const policy = await policyOf(repos, workspaceId);
      if (precondition) precondition(await governedDetail(repos, policy, collection));
      const updated = await applyCollectionPatch(repos, collection, patch, null, policy);
      await collectionChanged(repos, updated, 'updated');
      return governedDetail(repos, policy, updated);
    });
  }

  async delete(accountId: string, workspaceId: string, id: string, precondition?: WritePrecondition): Promise<void> {
    await this.store.transaction(async (repos) => {
      // Membership first, so a non-member learns nothing about the collection.
      const role = await teamAccess(repos, accountId, workspaceId, 'read');
      const collection = await collectionInWorkspace(repos, workspaceId, id, true);
      assertWorkspaceAccess(role, 'delete', { accountId, createdBy: collection.createdBy });
      if (precondition) precondition(await governedDetail(repos, await policyOf(repos, workspaceId), collection));
      await repos.collections.delete(id);
      await collectionChanged(repos, collection, 'deleted');
    });
  }
}
