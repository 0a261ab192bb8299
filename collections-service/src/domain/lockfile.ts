/**
 * The lockfile of a team collection (docs/governance.md "Lockfile",
 * docs/lockfile.schema.json). Deterministic: keys in a fixed order (the
 * order each object is built in), entries sorted by slug in code-point
 * order (not a locale's), no timestamps, rule names only; so two exports
 * of an unchanged collection are the same bytes and its hash is its ETag.
 */
import { createHash } from 'node:crypto';
import type { CollectionWithEntries, Workspace } from './model';
import type { WorkspacePolicy } from './policy';

/** 2: entries gained `installable` (a v1 reader, which knows nothing of it, refuses the document instead of installing a malicious release). */
export const LOCKFILE_VERSION = 2;

export interface Lockfile {
  bytes: Buffer;
  /** sha256 of `bytes`, hex */
  sha256: string;
}

function policyOfLock(p: WorkspacePolicy) {
  return {
    minimumVerdict: p.minimumVerdict,
    verifiedPublishersOnly: p.verifiedPublishersOnly,
    allowedPublishers: p.allowedPublishers,
    allowedLicenses: p.allowedLicenses,
    allowedTypes: p.allowedTypes,
    deniedSlugs: p.deniedSlugs,
  };
}

/** The document of a governed collection (team-scope.ts governedDetail) checked against `policy`. */
export function buildLockfile(
  workspace: Workspace,
  collection: CollectionWithEntries,
  policy: WorkspacePolicy,
): Lockfile {
  const entries = collection.skills
    .flatMap((e) => (e.visibility === 'public' ? [e] : []))
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .map((e) => ({
      slug: e.slug,
      type: e.type,
      version: e.pin?.version ?? null,
      digest: e.pin?.digest ?? null,
      source: e.pin ? { repository: e.pin.source.repository, ref: e.pin.source.ref } : null,
      verdict: e.pin?.verdict ?? e.verdict,
      // malicious is never handed out as installable (docs/trust.md): the entry stays, so its holders learn which release it was
      installable: e.pin !== null && e.pin.verdict !== 'malicious',
      complies: (e.compliance?.violations.length ?? 0) === 0,
      violations: (e.compliance?.violations ?? []).map((v) => v.rule),
    }));
  const document = {
    lockfileVersion: LOCKFILE_VERSION,
    workspace: { id: workspace.id, name: workspace.name },
    collection: { id: collection.id, name: collection.name },
    policy: policyOfLock(policy),
    entries,
  };
  const bytes = Buffer.from(`${JSON.stringify(document, null, 2)}\n`);
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}
