/**
 * Verdicts on releases (docs/trust.md "Verdicts"): scanners record scans,
 * operators override and clear; every one is kept as history, re-derives the
 * release's verdict and the item's trust, and writes the item's event in the
 * same transaction.
 */
import type { PageRequest, ScanVerdict } from '@skills/common';
import type { ItemRecord, ScanInput, VerdictEntry } from './model';
import type { CollectionsStore, Repositories } from './ports';
import type { ReleaseDetail } from './release.service';
import { itemChanged, judgeRelease, lockItem, releaseOf } from './release-state';

export class VerdictService {
  constructor(private readonly store: CollectionsStore) {}

  /** A scanner's verdict; it replaces that scanner's earlier one in the release's verdict, not in its history. */
  recordScan(slug: string, version: string, scan: ScanInput): Promise<ReleaseDetail> {
    return this.change(slug, version, (repos, item) => repos.verdicts.addScan(item.id, version, scan));
  }

  /** An operator's verdict, with the note that says why; it wins over every scan until cleared. */
  override(slug: string, version: string, verdict: ScanVerdict, note: string): Promise<ReleaseDetail> {
    return this.change(slug, version, (repos, item) => repos.verdicts.addOverride(item.id, version, verdict, note));
  }

  /** Back to the scans' verdict; without an override in force, nothing changes. */
  clearOverride(slug: string, version: string): Promise<ReleaseDetail> {
    return this.change(slug, version, async (repos, item) => {
      if ((await repos.verdicts.judgement(item.id, version)).override === null) return false;
      await repos.verdicts.addOverrideCleared(item.id, version);
    });
  }

  /** One page of a release's history, newest first. */
  history(item: ItemRecord, version: string, page: PageRequest): Promise<{ entries: VerdictEntry[]; total: number }> {
    return this.store.repos.verdicts.history(item.id, version, page);
  }

  /** `write` returns false when it changed nothing: then no version, no event. */
  private change(
    slug: string,
    version: string,
    write: (repos: Repositories, item: ItemRecord) => Promise<void | false>,
  ): Promise<ReleaseDetail> {
    return this.store.transaction(async (repos) => {
      const item = await lockItem(repos, slug);
      await releaseOf(repos, item, version);
      if ((await write(repos, item)) !== false) {
        await judgeRelease(repos, item.id, version);
        await itemChanged(repos, item.id);
      }
      const release = await releaseOf(repos, item, version);
      return {
        release,
        judgement: await repos.verdicts.judgement(item.id, version),
        publisherVerified: item.trust.publisherVerified,
      };
    });
  }
}
