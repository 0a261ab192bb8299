/** One public catalog item by its slug, read from the system of record (the item page of the console). */
import { NotFoundError } from '@skills/common';
import type { ItemRecord } from './model';
import type { CollectionsStore } from './ports';

export class PublicSkillService {
  constructor(private readonly store: CollectionsStore) {}

  /** The active public item with this slug; a draft, archived or deleted one is 404 like an unknown one, as search hides them. */
  async get(slug: string): Promise<ItemRecord> {
    const item = slug.length <= 100 ? await this.store.repos.items.findPublicBySlug(slug) : null;
    if (!item || item.visibility !== 'public' || item.status !== 'active') throw new NotFoundError('skill.notFound', { slug: slug.slice(0, 100) });
    return item;
  }
}
