/**
 * Admin writes to catalog items. Each one changes the item and appends its
 * skill-change event to the outbox in the same transaction, so the search
 * side sees every committed change and nothing that rolled back.
 */
import { ConflictError, NotFoundError, isUuid } from '@skills/common';
import type { ImportLine, ItemRecord, PublicItemInput } from './model';
import type { CollectionsStore, Repositories } from './ports';
import { lockItem, publishRelease, writeItemTrust } from './release-state';

/** Rows per multi-row INSERT during an import: big enough to amortise round trips, small enough for one statement. */
export const IMPORT_BATCH_SIZE = 1000;

export class CatalogAdminService {
  constructor(private readonly store: CollectionsStore) {}

  putSkill(input: PublicItemInput): Promise<{ item: ItemRecord; created: boolean }> {
    return this.store.transaction(async (repos) => {
      const result = await repos.items.upsertPublic(input);
      await repos.outbox.append('skill.upserted', [result.item.id]);
      return result;
    });
  }

  async deleteSkill(slug: string): Promise<void> {
    await this.store.transaction(async (repos) => {
      const item = await repos.items.tombstone(slug);
      if (!item) throw new NotFoundError('skill.notFound', { slug });
      await repos.outbox.append('skill.deleted', [item.id]);
    });
  }

  /**
   * Writes already-validated items in one transaction. A slug given twice
   * keeps its last line (one row cannot be upserted twice in one statement).
   * A line's releases follow the publish rules (a conflicting digest fails
   * the import with the line's number). Returns the number of distinct items written.
   */
  async importSkills(inputs: readonly ImportLine[]): Promise<number> {
    const bySlug = new Map<string, ImportLine>();
    for (const input of inputs) bySlug.set(input.slug, input);
    const unique = [...bySlug.values()];
    await this.store.transaction(async (repos) => {
      for (let start = 0; start < unique.length; start += IMPORT_BATCH_SIZE) {
        const batch = unique.slice(start, start + IMPORT_BATCH_SIZE);
        const ids = await repos.items.upsertPublicBatch(batch.map(itemOfLine));
        for (const line of batch) if (line.releases?.length) await importReleases(repos, line);
        await repos.outbox.append('skill.upserted', ids);
      }
    });
    this.store.wroteInBulk(unique.length);
    return unique.length;
  }

  async createPrivateSkill(ownerAccountId: string, name: string, description: string): Promise<ItemRecord> {
    if (!isUuid(ownerAccountId)) throw new NotFoundError('account.notFound');
    return this.store.transaction(async (repos) => {
      const item = await repos.items.createPrivate(ownerAccountId, name, description);
      await repos.outbox.append('skill.upserted', [item.id]);
      return item;
    });
  }

  /** One page of every item (all visibilities and statuses), for a reindex. */
  async listItems(after: string | null, limit: number): Promise<{ items: ItemRecord[]; next: string | null }> {
    const items = await this.store.repos.items.page(after, limit);
    const last = items[items.length - 1];
    return { items, next: items.length === limit && last ? last.id : null };
  }
}

function itemOfLine(line: ImportLine): PublicItemInput {
  const { releases: _releases, line: _line, ...item } = line;
  return item;
}

/** A line's releases, published (and yanked where the line says so), then the item's trust. */
async function importReleases(repos: Repositories, line: ImportLine): Promise<void> {
  const item = await lockItem(repos, line.slug);
  for (const input of line.releases ?? []) {
    const { yanked, ...release } = input;
    const conflict = (existing: string) =>
      new ConflictError('import.releaseConflict', {
        line: line.line ?? 0,
        slug: line.slug,
        version: release.version,
        existing,
        given: release.digest,
      });
    const { release: stored } = await publishRelease(repos, item, release, conflict);
    if (yanked && stored.yanked === null) await repos.releases.setYank(item.id, stored.version, yanked.reason);
  }
  await writeItemTrust(repos, item.id);
}
