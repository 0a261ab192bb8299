/**
 * The steps every release write shares, run inside the caller's
 * transaction: find the item (locked, so its releases change one writer at a
 * time), publish by the immutability rule, re-derive a release's verdict and
 * the item's trust. The caller appends the item's event once it is done.
 */
import { ConflictError, InputError, NotFoundError } from '@skills/common';
import type { ItemRecord, ReleaseInput, ReleaseRecord } from './model';
import type { Repositories } from './ports';
import { MAX_RELEASES_PER_ITEM, isReleaseVersion, latestOf, trustOf, verdictOf } from './release-rules';

/** The public, not deleted item with this slug, locked; 404 otherwise. */
export async function lockItem(repos: Repositories, slug: string): Promise<ItemRecord> {
  const item = slug.length <= 100 ? await repos.items.lockPublicBySlug(slug) : null;
  if (!item) throw new NotFoundError('skill.notFound', { slug: slug.slice(0, 100) });
  return item;
}

/** The release of a locked item; 404 naming both otherwise. */
export async function releaseOf(repos: Repositories, item: ItemRecord, version: string): Promise<ReleaseRecord> {
  const release = isReleaseVersion(version) ? await repos.releases.find(item.id, version) : null;
  if (!release) throw new NotFoundError('release.notFound', { slug: item.slug ?? '', version: version.slice(0, 64) });
  return release;
}

/**
 * Publishes `input` unless that version exists: with the same digest it is
 * a retry (created: false, nothing written); with another, a 409 naming both
 * digests. `conflict` builds that 409 (the import names its line).
 */
export async function publishRelease(
  repos: Repositories,
  item: ItemRecord,
  input: ReleaseInput,
  conflict: (existing: string) => ConflictError = (existing) =>
    new ConflictError('release.digestConflict', {
      slug: item.slug ?? '',
      version: input.version,
      existing,
      given: input.digest,
    }),
): Promise<{ release: ReleaseRecord; created: boolean }> {
  if (!isReleaseVersion(input.version)) throw new InputError('release.semver', { field: 'version' });
  const existing = await repos.releases.find(item.id, input.version);
  if (existing) {
    if (existing.digest !== input.digest) throw conflict(existing.digest);
    return { release: existing, created: false };
  }
  if ((await repos.releases.count(item.id)) >= MAX_RELEASES_PER_ITEM) {
    throw new ConflictError('release.tooMany', { limit: MAX_RELEASES_PER_ITEM });
  }
  return { release: await repos.releases.insert(item.id, input), created: true };
}

/** Re-derives a release's verdict from its history and stores it. */
export async function judgeRelease(repos: Repositories, itemId: string, version: string): Promise<void> {
  await repos.releases.setVerdict(itemId, version, verdictOf(await repos.verdicts.judgement(itemId, version)));
}

/** Re-derives the item's trust from its releases and writes it (version + 1); the caller appends the event. */
export async function writeItemTrust(repos: Repositories, itemId: string): Promise<void> {
  const latest = latestOf(await repos.releases.listAll(itemId));
  const judgement = latest ? await repos.verdicts.judgement(itemId, latest.version) : null;
  const { publisherVerified: _fromPublishers, ...trust } = trustOf(latest, judgement, false);
  await repos.items.writeTrust(itemId, trust);
}

/** The item's trust written and its event appended: the end of every release change. */
export async function itemChanged(repos: Repositories, itemId: string): Promise<void> {
  await writeItemTrust(repos, itemId);
  await repos.outbox.append('skill.upserted', [itemId]);
}
