/**
 * Compliance and drift of team collection entries (docs/governance.md),
 * computed on read from the current policy and releases, so a policy change
 * re-evaluates every entry at once and nothing can go stale. Pure.
 */
import type { Verdict } from '@skills/common';
import type {
  CollectionGovernance,
  CollectionWithEntries,
  Drift,
  EntryCompliance,
  ItemRecord,
  PublicEntry,
  ReleaseRecord,
} from './model';
import { violationsOf, type PolicySubject, type Violation, type WorkspacePolicy } from './policy';
import { byLatestFirst } from './release-rules';

/** The policy's view of an item, judged with `verdict` (a release's, or the item's). */
export function subjectOfItem(item: ItemRecord, verdict: Verdict): PolicySubject {
  return {
    slug: item.slug ?? '',
    type: item.type,
    license: item.details.license,
    publisher: item.details.publisher,
    publisherVerified: item.trust.publisherVerified,
    verdict,
  };
}

export function subjectOfEntry(entry: PublicEntry, verdict: Verdict): PolicySubject {
  return {
    slug: entry.slug,
    type: entry.type,
    license: entry.license,
    publisher: entry.publisher,
    publisherVerified: entry.publisherVerified,
    verdict,
  };
}

/**
 * The release a pin moves to: the latest not yanked, not malicious, whose
 * verdict the policy allows (stable before pre-release, as `latestVersion`);
 * null when none. Item-level rules break for every release alike, so then
 * there is none. Malicious is excluded here too, not only by the policy:
 * no pin ever moves to a malicious release (docs/trust.md).
 */
export function latestAllowed(
  policy: WorkspacePolicy | null,
  subject: (verdict: Verdict) => PolicySubject,
  releases: readonly ReleaseRecord[],
): ReleaseRecord | null {
  const allowed = releases.filter(
    (r) =>
      r.yanked === null &&
      r.verdict !== 'malicious' &&
      (!policy || violationsOf(policy, subject(r.verdict)).length === 0),
  );
  allowed.sort((a, b) => byLatestFirst(a.version, b.version));
  return allowed[0] ?? null;
}

export function complianceOf(violations: Violation[]): EntryCompliance {
  return { complies: violations.length === 0, violations };
}

/** The drift causes of an entry, in the contract's order. */
export function driftOf(entry: PublicEntry, newest: ReleaseRecord | null): Drift[] {
  const drift: Drift[] = [];
  const pin = entry.pin;
  if (pin) {
    if (newest && newest.version !== pin.version && byLatestFirst(newest.version, pin.version) < 0) {
      drift.push({ kind: 'newer-release', version: newest.version });
    }
    if (pin.yanked) drift.push({ kind: 'yanked' });
    if (pin.verdict !== pin.pinnedVerdict)
      drift.push({ kind: 'verdict-changed', from: pin.pinnedVerdict, to: pin.verdict });
  }
  if (entry.blocked) drift.push({ kind: 'blocked' });
  if (entry.status !== 'active') drift.push({ kind: 'removed' });
  return drift;
}

/** The entry with its compliance and drift under `policy`, given every release of its item. */
export function governEntry(
  policy: WorkspacePolicy,
  entry: PublicEntry,
  releases: readonly ReleaseRecord[],
): PublicEntry {
  const subject = (verdict: Verdict) => subjectOfEntry(entry, verdict);
  const violations = violationsOf(policy, subject(entry.pin?.verdict ?? entry.verdict));
  return {
    ...entry,
    compliance: complianceOf(violations),
    drift: driftOf(entry, latestAllowed(policy, subject, releases)),
  };
}

/** Releases grouped by item, so each entry finds its own without a scan of all. */
export function releasesByItem(releases: readonly ReleaseRecord[]): Map<string, ReleaseRecord[]> {
  const byItem = new Map<string, ReleaseRecord[]>();
  for (const r of releases) {
    const list = byItem.get(r.itemId);
    if (list) list.push(r);
    else byItem.set(r.itemId, [r]);
  }
  return byItem;
}

/** Every public entry governed, and the collection's summary of them. */
export function governCollection(
  policy: WorkspacePolicy,
  collection: CollectionWithEntries,
  releases: readonly ReleaseRecord[],
): CollectionWithEntries {
  const byItem = releasesByItem(releases);
  const skills = collection.skills.map((e) =>
    e.visibility === 'public' ? governEntry(policy, e, byItem.get(e.itemId) ?? []) : e,
  );
  const governance: CollectionGovernance = { compliance: { complies: true, violationCount: 0 }, drift: { count: 0 } };
  for (const e of skills) {
    if (e.visibility !== 'public') continue;
    governance.compliance.violationCount += e.compliance?.violations.length ?? 0;
    if ((e.drift?.length ?? 0) > 0) governance.drift.count += 1;
  }
  governance.compliance.complies = governance.compliance.violationCount === 0;
  return { ...collection, skills, governance };
}
