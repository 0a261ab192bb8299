/**
 * The rules of docs/trust.md that need no store: what a version may be,
 * which release is "latest", and how scans and an override make a verdict.
 * Pure functions, so each rule is checked on its own.
 */
import semver from 'semver';
import { SCAN_VERDICTS_BY_SEVERITY, type ItemTrust, type ScanVerdict, type Verdict } from '@skills/common';
import type { ReleaseJudgement, ReleaseRecord, VerdictEntry } from './model';

export const MAX_VERSION_LENGTH = 64;
/** Releases one item may hold; a publish beyond is a 409. */
export const MAX_RELEASES_PER_ITEM = 1000;
/** Releases one import line may carry. */
export const MAX_RELEASES_PER_LINE = 100;

/**
 * SemVer 2.0.0 as written, nothing looser: no leading `v`, no spaces, and no
 * build metadata (two versions differing only there share one precedence,
 * so "unique per item" could not hold).
 */
export function isReleaseVersion(value: string): boolean {
  return value.length <= MAX_VERSION_LENGTH && !value.includes('+') && semver.valid(value) === value;
}

/** Highest precedence first; a stable release before every pre-release. */
export function byLatestFirst(a: string, b: string): number {
  const aPre = semver.prerelease(a) !== null;
  const bPre = semver.prerelease(b) !== null;
  if (aPre !== bPre) return aPre ? 1 : -1;
  return semver.rcompare(a, b);
}

/** Newest first by precedence alone (the versions list): 2.0.0-rc.1 comes before 1.9.0. */
export function byPrecedenceDesc(a: string, b: string): number {
  return semver.rcompare(a, b);
}

/** The highest non-yanked release, a stable one before any pre-release; null when none is left. */
export function latestOf<T extends Pick<ReleaseRecord, 'version' | 'yanked'>>(releases: readonly T[]): T | null {
  const candidates = releases.filter((r) => r.yanked === null);
  candidates.sort((a, b) => byLatestFirst(a.version, b.version));
  return candidates[0] ?? null;
}

const severity = (verdict: ScanVerdict): number => SCAN_VERDICTS_BY_SEVERITY.indexOf(verdict);

/** The scan that decides the verdict: the worst; among equals, the most recent. */
export function worstScan(scans: readonly VerdictEntry[]): VerdictEntry | null {
  let worst: VerdictEntry | null = null;
  for (const scan of scans) {
    if (scan.verdict === null) continue;
    if (
      !worst ||
      severity(scan.verdict) > severity(worst.verdict as ScanVerdict) ||
      (scan.verdict === worst.verdict && scan.recordedAt > worst.recordedAt)
    )
      worst = scan;
  }
  return worst;
}

/** An override in force wins; else the worst of each scanner's latest scan; else unscanned. */
export function verdictOf(judgement: ReleaseJudgement): Verdict {
  if (judgement.override?.verdict) return judgement.override.verdict;
  return worstScan(judgement.scans)?.verdict ?? 'unscanned';
}

/** Why a malicious release blocks its item: the override's note, or the worst scan's summary. */
export function blockedReasonOf(judgement: ReleaseJudgement): string | null {
  if (verdictOf(judgement) !== 'malicious') return null;
  if (judgement.override) return judgement.override.note;
  return worstScan(judgement.scans)?.summary ?? null;
}

/** An item's trust from its latest release's judgement (the publisher's flag is the caller's). */
export function trustOf(
  latest: ReleaseRecord | null,
  judgement: ReleaseJudgement | null,
  publisherVerified: boolean,
): ItemTrust {
  if (!latest || !judgement)
    return { latestVersion: latest?.version ?? null, verdict: 'unscanned', publisherVerified, blockedReason: null };
  return {
    latestVersion: latest.version,
    verdict: verdictOf(judgement),
    publisherVerified,
    blockedReason: blockedReasonOf(judgement),
  };
}
