/** One public catalog item by its slug, read from the system of record (the item page of the console). */
import { NotFoundError } from '@skills/common';
import type { ItemRecord } from './model';
import type { CollectionsStore, ItemRepository } from './ports';

/**
 * The active public item with this slug; a draft, archived or deleted one is
 * 404 like an unknown one, as search hides them. Reading and reporting an
 * item share this rule.
 */
export async function findShownBySlug(items: ItemRepository, slug: string): Promise<ItemRecord> {
  const item = slug.length <= 100 ? await items.findPublicBySlug(slug) : null;
  if (!item || item.visibility !== 'public' || item.status !== 'active')
    throw new NotFoundError('skill.notFound', { slug: slug.slice(0, 100) });
  return item;
}

export class PublicSkillService {
  constructor(private readonly store: CollectionsStore) {}

  get(slug: string): Promise<ItemRecord> {
    return findShownBySlug(this.store.repos.items, slug);
  }
}
