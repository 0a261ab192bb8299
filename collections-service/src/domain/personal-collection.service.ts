/**
 * Rules of personal collections: an account sees and changes only its own;
 * another account's collection answers exactly like a missing one.
 */
import { ConflictError, NotFoundError, isUuid, type PageRequest } from '@skills/common';
import { applyCollectionPatch } from './collection-patch';
import { runIdempotent, type Idempotent, type IdempotentOutcome } from './idempotency';
import { LIST_PREVIEW_ENTRIES, MAX_COLLECTIONS_PER_ACCOUNT } from './limits';
import type { CollectionPatch, CollectionRecord, CollectionWithEntries, WritePrecondition } from './model';
import type { CollectionsStore, Repositories } from './ports';

export class PersonalCollectionService {
  constructor(private readonly store: CollectionsStore) {}

  /** One page of the account's collections (each with a preview of its entries) and how many it has in all. */
  async list(accountId: string, page: PageRequest): Promise<{ collections: CollectionWithEntries[]; total: number }> {
    const { collections } = this.store.repos;
    const [total, listed] = await Promise.all([
      collections.countByOwner(accountId),
      collections.listByOwner(accountId, page, LIST_PREVIEW_ENTRIES),
    ]);
    return { collections: listed, total };
  }

  async get(accountId: string, id: string): Promise<CollectionWithEntries> {
    return this.owned(accountId, id, (collectionId) => this.store.repos.collections.findWithEntries(collectionId));
  }

  create(accountId: string, input: { name: string; description?: string }): Promise<CollectionWithEntries> {
    return this.store.transaction((repos) => this.insert(repos, accountId, input));
  }

  /** `create` at most once per Idempotency-Key (see idempotency.ts). */
  createOnce(
    accountId: string,
    input: { name: string; description?: string },
    idempotent: Idempotent<CollectionWithEntries>,
  ): Promise<IdempotentOutcome> {
    return this.store.transaction((repos) =>
      runIdempotent(repos, idempotent, () => this.insert(repos, accountId, input)),
    );
  }

  private async insert(
    repos: Repositories,
    accountId: string,
    input: { name: string; description?: string },
  ): Promise<CollectionWithEntries> {
    await repos.collections.lockScope(accountId);
    if ((await repos.collections.countByOwner(accountId)) >= MAX_COLLECTIONS_PER_ACCOUNT) {
      throw new ConflictError('quota.collectionsPerAccount', { limit: MAX_COLLECTIONS_PER_ACCOUNT });
    }
    const created = await repos.collections.insert({
      ownerAccountId: accountId,
      workspaceId: null,
      createdBy: accountId,
      name: input.name,
      description: input.description ?? '',
    });
    return { ...created, skills: [], skillCount: 0 };
  }

  update(
    accountId: string,
    id: string,
    patch: CollectionPatch,
    precondition?: WritePrecondition,
  ): Promise<CollectionWithEntries> {
    return this.store.transaction(async (repos) => {
      const collection = await this.owned(accountId, id, (collectionId) => repos.collections.lockById(collectionId));
      if (precondition) precondition(await repos.collections.withEntries(collection));
      return applyCollectionPatch(repos, collection, patch, accountId, null);
    });
  }

  async delete(accountId: string, id: string, precondition?: WritePrecondition): Promise<void> {
    await this.store.transaction(async (repos) => {
      const collection = await this.owned(accountId, id, (collectionId) => repos.collections.lockById(collectionId));
      if (precondition) precondition(await repos.collections.withEntries(collection));
      await repos.collections.delete(id);
    });
  }

  /** The account's collection as `find` reads it (row-locked, or with its entries); another account's is a missing one. */
  private async owned<T extends CollectionRecord>(
    accountId: string,
    id: string,
    find: (id: string) => Promise<T | null>,
  ): Promise<T> {
    if (!isUuid(id)) throw new NotFoundError('collection.notFound');
    const collection = await find(id);
    if (!collection || collection.ownerAccountId !== accountId) throw new NotFoundError('collection.notFound');
    return collection;
  }
}
