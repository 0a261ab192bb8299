/**
 * Publishers (docs/trust.md "Publishers"): operators verify a name items
 * carry. A change rewrites every item of that publisher (version + 1, one
 * event each) in the same transaction, so search learns it from events alone.
 */
import type { PageRequest } from '@skills/common';
import type { PublisherRecord } from './model';
import type { CollectionsStore } from './ports';

export class PublisherService {
  constructor(private readonly store: CollectionsStore) {}

  put(name: string, verified: boolean, note: string | null): Promise<PublisherRecord> {
    return this.store.transaction(async (repos) => {
      const publisher = await repos.publishers.put(name, verified, note);
      await repos.outbox.append('skill.upserted', await repos.items.touchPublisher(name));
      return publisher;
    });
  }

  list(verified: boolean | undefined, page: PageRequest): Promise<{ publishers: PublisherRecord[]; total: number }> {
    return this.store.repos.publishers.list(verified, page);
  }
}
