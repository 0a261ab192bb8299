/**
 * What `pins:update` would do (docs/governance.md "Drift and updating
 * pins"): each pin moves to the latest allowed, not yanked release and
 * acknowledges its verdict; blocked and removed items are skipped with their
 * reason. Pure, so a dry run and a real run plan exactly alike.
 */
import { latestAllowed, releasesByItem, subjectOfEntry } from './governance';
import type { CollectionEntry, ReleaseRecord, StoredPin } from './model';
import type { WorkspacePolicy } from './policy';

/** Why an entry's pin was left where it is. */
export type SkipReason = 'removed' | 'blocked' | 'no-allowed-release' | 'not-in-collection';

export interface PlannedPin {
  itemId: string;
  slug: string;
  from: { version: string; digest: string } | null;
  to: StoredPin;
}

export interface PinPlan {
  changes: PlannedPin[];
  skipped: Array<{ slug: string; reason: SkipReason }>;
}

/** The plan over the public entries, or only those whose slug is in `slugs`. */
export function planPinUpdates(
  policy: WorkspacePolicy,
  entries: readonly CollectionEntry[],
  releases: readonly ReleaseRecord[],
  slugs?: readonly string[],
): PinPlan {
  const plan: PinPlan = { changes: [], skipped: [] };
  const wanted = slugs && new Set(slugs);
  const present = new Set<string>();
  const byItem = releasesByItem(releases);
  for (const entry of entries) {
    if (entry.visibility !== 'public' || (wanted && !wanted.has(entry.slug))) continue;
    present.add(entry.slug);
    if (entry.status !== 'active') plan.skipped.push({ slug: entry.slug, reason: 'removed' });
    else if (entry.blocked) plan.skipped.push({ slug: entry.slug, reason: 'blocked' });
    else {
      const own = byItem.get(entry.itemId) ?? [];
      const target = latestAllowed(policy, (verdict) => subjectOfEntry(entry, verdict), own);
      const pin = entry.pin;
      if (!target) plan.skipped.push({ slug: entry.slug, reason: 'no-allowed-release' });
      else if (!pin || pin.version !== target.version || pin.pinnedVerdict !== target.verdict) {
        plan.changes.push({
          itemId: entry.itemId,
          slug: entry.slug,
          from: pin && { version: pin.version, digest: pin.digest },
          to: { version: target.version, digest: target.digest, verdict: target.verdict },
        });
      }
    }
  }
  for (const slug of slugs ?? []) if (!present.has(slug)) plan.skipped.push({ slug, reason: 'not-in-collection' });
  return plan;
}
