/**
 * An account's own private skills, made from the console or with an API key
 * (the admin route makes them for any account). A private skill is seen
 * only by its owner and added to its personal collections; like every item
 * write, its creation appends its event in the same transaction.
 */
import { ConflictError, type PageRequest } from '@skills/common';
import { MAX_PRIVATE_SKILLS_PER_ACCOUNT } from './limits';
import type { ItemRecord } from './model';
import type { CollectionsStore } from './ports';

export class PrivateSkillService {
  constructor(private readonly store: CollectionsStore) {}

  /** 409 once the account holds MAX_PRIVATE_SKILLS_PER_ACCOUNT; creations of one account are serialised so the quota holds. */
  create(accountId: string, input: { name: string; description: string }): Promise<ItemRecord> {
    return this.store.transaction(async (repos) => {
      await repos.items.lockPrivateOwner(accountId);
      if ((await repos.items.countPrivate(accountId)) >= MAX_PRIVATE_SKILLS_PER_ACCOUNT) {
        throw new ConflictError('quota.privateSkillsPerAccount', { limit: MAX_PRIVATE_SKILLS_PER_ACCOUNT });
      }
      const item = await repos.items.createPrivate(accountId, input.name, input.description);
      await repos.outbox.append('skill.upserted', [item.id]);
      return item;
    });
  }

  /** One page of the account's private skills, oldest first, and how many it holds. */
  async list(accountId: string, page: PageRequest): Promise<{ skills: ItemRecord[]; total: number }> {
    const { items } = this.store.repos;
    const [total, skills] = await Promise.all([items.countPrivate(accountId), items.listPrivate(accountId, page)]);
    return { skills, total };
  }
}
