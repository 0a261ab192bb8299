import type { ReleaseJudgement, VerdictEntry } from '../../src/domain/model';
import { blockedReasonOf, isReleaseVersion, latestOf, verdictOf } from '../../src/domain/release-rules';

const scanBy = (
  scanner: string,
  verdict: 'clean' | 'suspicious' | 'malicious',
  summary: string,
  recordedAt = '2026-01-01T00:00:00.000Z',
): VerdictEntry => ({
  kind: 'scan',
  scanner,
  verdict,
  summary,
  reportUrl: null,
  note: null,
  recordedAt,
});
const overrideOf = (verdict: 'clean' | 'malicious', note: string): VerdictEntry => ({
  kind: 'override',
  scanner: null,
  verdict,
  summary: null,
  reportUrl: null,
  note,
  recordedAt: '2026-01-02T00:00:00.000Z',
});

describe('release rules', () => {
  it.each([
    ['1.4.0', true],
    ['2.0.0-rc.1', true],
    ['0.0.0-alpha.0.a-b', true],
    ['v1.4.0', false],
    ['1.4.0+build.1', false],
    ['1.4', false],
    ['01.4.0', false],
    [' 1.4.0', false],
    [`1.0.0-${'a'.repeat(59)}`, false],
  ])('takes %j as a release version: %s', (version, ok) => {
    expect(isReleaseVersion(version)).toBe(ok);
  });

  it('picks the highest stable release not yanked, a pre-release only when no stable one is left', () => {
    const r = (version: string, yanked = false) => ({ version, yanked: yanked ? { reason: 'r', at: 'x' } : null });
    expect(latestOf([r('1.2.0'), r('1.10.0'), r('2.0.0-rc.1'), r('1.9.9')])?.version).toBe('1.10.0');
    expect(latestOf([r('1.2.0'), r('1.10.0', true), r('2.0.0-rc.1')])?.version).toBe('1.2.0');
    expect(latestOf([r('1.2.0', true), r('2.0.0-rc.1'), r('2.0.0-beta.3')])?.version).toBe('2.0.0-rc.1');
    expect(latestOf([r('1.0.0', true)])).toBeNull();
  });

  it('judges by the worst scan, then an override in force, and names why a malicious release blocks', () => {
    const scans = [
      scanBy('a', 'clean', 'fine'),
      scanBy('b', 'malicious', 'steals keys'),
      scanBy('c', 'suspicious', 'odd'),
    ];
    const judged: ReleaseJudgement = { scans, override: null };
    expect([verdictOf(judged), blockedReasonOf(judged)]).toEqual(['malicious', 'steals keys']);
    const cleared: ReleaseJudgement = { scans, override: overrideOf('clean', 'false positive') };
    expect([verdictOf(cleared), blockedReasonOf(cleared)]).toEqual(['clean', null]);
    const confirmed: ReleaseJudgement = {
      scans: [scanBy('a', 'clean', 'fine')],
      override: overrideOf('malicious', 'confirmed'),
    };
    expect([verdictOf(confirmed), blockedReasonOf(confirmed)]).toEqual(['malicious', 'confirmed']);
    expect(verdictOf({ scans: [], override: null })).toBe('unscanned');
  });
});
