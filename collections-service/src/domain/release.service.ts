/**
 * Releases of public items (docs/trust.md "Releases"): publish, yank and
 * un-yank, each with the item's event in the same transaction, and the
 * public reads of versions and of one release.
 */
import { NotFoundError, type PageRequest } from '@skills/common';
import type { ItemRecord, ReleaseInput, ReleaseJudgement, ReleaseRecord } from './model';
import type { CollectionsStore } from './ports';
import { itemChanged, lockItem, publishRelease, releaseOf } from './release-state';
import { byPrecedenceDesc, isReleaseVersion } from './release-rules';

/** A release as its detail shows it: each scanner's latest scan, the override in force, the publisher's flag. */
export interface ReleaseDetail {
  release: ReleaseRecord;
  judgement: ReleaseJudgement;
  publisherVerified: boolean;
}

export class ReleaseService {
  constructor(private readonly store: CollectionsStore) {}

  /** 201 when created; a retry with the same digest answers the stored release, unchanged. */
  publish(slug: string, input: ReleaseInput): Promise<{ detail: ReleaseDetail; created: boolean }> {
    return this.store.transaction(async (repos) => {
      const item = await lockItem(repos, slug);
      const { release, created } = await publishRelease(repos, item, input);
      if (created) await itemChanged(repos, item.id);
      return {
        detail: {
          release,
          judgement: await repos.verdicts.judgement(item.id, release.version),
          publisherVerified: item.trust.publisherVerified,
        },
        created,
      };
    });
  }

  /** Takes the release out of "latest" with a reason; it stays readable by its exact version. */
  yank(slug: string, version: string, reason: string): Promise<ReleaseDetail> {
    return this.setYank(slug, version, reason);
  }

  /** Puts a yanked release back; one that is not yanked is answered as it is. */
  unyank(slug: string, version: string): Promise<ReleaseDetail> {
    return this.setYank(slug, version, null);
  }

  private setYank(slug: string, version: string, reason: string | null): Promise<ReleaseDetail> {
    return this.store.transaction(async (repos) => {
      const item = await lockItem(repos, slug);
      let release = await releaseOf(repos, item, version);
      if (reason !== null || release.yanked !== null) {
        release = (await repos.releases.setYank(item.id, version, reason)) ?? release;
        await itemChanged(repos, item.id);
      }
      return {
        release,
        judgement: await repos.verdicts.judgement(item.id, version),
        publisherVerified: item.trust.publisherVerified,
      };
    });
  }

  /** One page of the item's releases, highest precedence first, yanked ones included. */
  async versions(item: ItemRecord, page: PageRequest): Promise<{ releases: ReleaseRecord[]; total: number }> {
    const all = await this.store.repos.releases.listAll(item.id);
    all.sort((a, b) => byPrecedenceDesc(a.version, b.version));
    return { releases: all.slice((page.page - 1) * page.limit, page.page * page.limit), total: all.length };
  }

  async release(item: ItemRecord, version: string): Promise<ReleaseDetail> {
    const release = isReleaseVersion(version) ? await this.store.repos.releases.find(item.id, version) : null;
    if (!release) throw new NotFoundError('release.notFound', { slug: item.slug ?? '', version: version.slice(0, 64) });
    return {
      release,
      judgement: await this.store.repos.verdicts.judgement(item.id, version),
      publisherVerified: item.trust.publisherVerified,
    };
  }

  /** Releases of several items (the changes feed), each item's newest first. */
  async releasesOf(itemIds: readonly string[]): Promise<Map<string, ReleaseRecord[]>> {
    const byItem = new Map<string, ReleaseRecord[]>();
    for (const release of await this.store.repos.releases.listForItems(itemIds)) {
      const list = byItem.get(release.itemId) ?? [];
      list.push(release);
      byItem.set(release.itemId, list);
    }
    for (const list of byItem.values()) list.sort((a, b) => byPrecedenceDesc(a.version, b.version));
    return byItem;
  }
}
