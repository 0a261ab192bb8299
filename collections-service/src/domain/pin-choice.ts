/**
 * Which release an added entry pins (docs/governance.md "Pinned entries"):
 * the version asked for, or the latest the policy allows. The digest and the
 * verdict always come from the stored release, never from the caller.
 */
import { ConflictError, NotFoundError, UnprocessableError, type Verdict } from '@skills/common';
import { latestAllowed, subjectOfItem } from './governance';
import type { ItemRecord, StoredPin } from './model';
import { violationsOf, type WorkspacePolicy } from './policy';
import type { Repositories } from './ports';
import { byLatestFirst, isReleaseVersion } from './release-rules';

/** 422 naming the first rule `verdict` breaks for the item; nothing when it complies. */
export function assertAllowed(policy: WorkspacePolicy, item: ItemRecord, verdict: Verdict): void {
  const [first] = violationsOf(policy, subjectOfItem(item, verdict));
  if (first) throw new UnprocessableError(`policy.${first.rule}`, first.params);
}

/**
 * The release `version` of the item pinned; 404 when it does not exist, 422
 * when the policy (if any) refuses it, and 409 for a malicious release in
 * any collection, policy or not (docs/trust.md "Malicious is never served").
 */
export async function pinOfVersion(
  repos: Repositories,
  policy: WorkspacePolicy | null,
  item: ItemRecord,
  version: string,
): Promise<StoredPin> {
  const release = isReleaseVersion(version) ? await repos.releases.find(item.id, version) : null;
  if (!release) throw new NotFoundError('release.notFound', { slug: item.slug ?? '', version: version.slice(0, 64) });
  if (policy) assertAllowed(policy, item, release.verdict);
  if (release.verdict === 'malicious')
    throw new ConflictError('release.malicious', { slug: item.slug ?? '', version: release.version });
  return { version: release.version, digest: release.digest, verdict: release.verdict };
}

/**
 * The latest release the policy allows, pinned. An item with no release at
 * all is held unpinned (null) if the item itself complies; when every
 * release is refused or yanked, 422 names the rule the latest not yanked
 * one breaks, or says every release is yanked.
 */
export async function pinOfLatest(
  repos: Repositories,
  policy: WorkspacePolicy,
  item: ItemRecord,
): Promise<StoredPin | null> {
  const releases = await repos.releases.listAll(item.id);
  if (releases.length === 0) {
    assertAllowed(policy, item, item.trust.verdict);
    return null;
  }
  const chosen = latestAllowed(policy, (verdict) => subjectOfItem(item, verdict), releases);
  if (chosen) return { version: chosen.version, digest: chosen.digest, verdict: chosen.verdict };
  const standing = releases.filter((r) => r.yanked === null).sort((a, b) => byLatestFirst(a.version, b.version));
  if (standing[0]) assertAllowed(policy, item, standing[0].verdict);
  throw new UnprocessableError('pin.allYanked', { slug: item.slug ?? '' });
}
