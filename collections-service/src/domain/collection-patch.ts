/**
 * Applies a PATCH to a locked collection, inside the caller's transaction:
 * removals, then additions, then rename/description (docs/collections.md). Any
 * failure rolls back the whole body, so a request never half-applies.
 * Returns the collection as it now is, with its entries.
 */
import { ConflictError, NotFoundError, isUuid } from '@skills/common';
import { MAX_ENTRIES_PER_COLLECTION } from './limits';
import type { CollectionPatch, CollectionRecord, CollectionWithEntries } from './model';
import { pinOfLatest, pinOfVersion } from './pin-choice';
import type { WorkspacePolicy } from './policy';
import type { Repositories } from './ports';

export async function applyCollectionPatch(
  repos: Repositories,
  collection: CollectionRecord,
  patch: CollectionPatch,
  /** the account whose private skills may be added; null for team collections */
  privateOwner: string | null,
  /** the workspace policy of a team collection (every added entry is pinned under it); null for a personal one */
  policy: WorkspacePolicy | null,
): Promise<CollectionWithEntries> {
  const { items, collections } = repos;

  if (patch.removeSkillSlug !== undefined) {
    const item = await items.findPublicBySlug(patch.removeSkillSlug);
    // Removing what is not there is a no-op, like adding what is there.
    if (item) await collections.removeEntry(collection.id, item.id);
  }
  if (patch.removePrivateSkillId !== undefined && isUuid(patch.removePrivateSkillId)) {
    const item = await items.findById(patch.removePrivateSkillId);
    if (item && item.visibility === 'private' && item.ownerAccountId === privateOwner) {
      await collections.removeEntry(collection.id, item.id);
    }
  }

  let added = false;
  if (patch.skillSlug !== undefined) {
    const item = await items.findPublicBySlug(patch.skillSlug);
    if (!item || item.status !== 'active') throw new NotFoundError('skill.notFound', { slug: patch.skillSlug });
    // safe by default: a blocked skill stays where it was (marked), but nobody adds it anew
    if (item.trust.verdict === 'malicious')
      throw new ConflictError('skill.blocked', { slug: patch.skillSlug, reason: item.trust.blockedReason ?? '' });
    if (patch.version !== undefined) {
      // a version pins that release, or moves the pin of an entry already there
      added = !(await collections.hasEntry(collection.id, item.id));
      await collections.setPin(collection.id, item.id, await pinOfVersion(repos, policy, item, patch.version));
    } else if (policy) {
      // slug alone: a team entry pins the latest allowed release, chosen only for an entry not there yet
      added = !(await collections.hasEntry(collection.id, item.id));
      if (added) await collections.addEntry(collection.id, item.id, await pinOfLatest(repos, policy, item));
    } else {
      // a personal entry follows the item: nothing to choose first, so the insert tells whether it was there
      added = await collections.addEntry(collection.id, item.id, null);
    }
  }
  if (patch.privateSkillId !== undefined) {
    const id = patch.privateSkillId;
    // A non-uuid names nothing; another account's skill is reported exactly like an unknown one.
    const item = isUuid(id) ? await items.findById(id) : null;
    if (!item || item.visibility !== 'private' || privateOwner === null || item.ownerAccountId !== privateOwner) {
      throw new NotFoundError('privateSkill.notFound', { id });
    }
    await collections.addEntry(collection.id, item.id, null);
    added = true;
  }
  if (added && (await collections.countEntries(collection.id)) > MAX_ENTRIES_PER_COLLECTION) {
    throw new ConflictError('quota.entriesPerCollection', { limit: MAX_ENTRIES_PER_COLLECTION });
  }

  const fields: { name?: string; description?: string } = {};
  if (patch.name !== undefined) fields.name = patch.name;
  if (patch.description !== undefined) fields.description = patch.description;
  // Every PATCH touches updatedAt, also one that only changed entries.
  return collections.update(collection.id, fields);
}
