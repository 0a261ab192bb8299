import { latestAllowed } from '../../src/domain/governance';
import type { ReleaseRecord } from '../../src/domain/model';
import {
  allowedVerdicts,
  DEFAULT_POLICY,
  violationsOf,
  type PolicySubject,
  type WorkspacePolicy,
} from '../../src/domain/policy';

const subject: PolicySubject = {
  slug: 'pdf',
  type: 'plugin',
  license: 'GPL-3.0',
  publisher: 'acme',
  publisherVerified: false,
  verdict: 'suspicious',
};
const strictest: WorkspacePolicy = {
  minimumVerdict: 'clean',
  verifiedPublishersOnly: true,
  allowedPublishers: ['other'],
  allowedLicenses: ['MIT'],
  allowedTypes: ['skill'],
  deniedSlugs: ['pdf'],
};

describe('violationsOf', () => {
  it("lists every broken rule in the table's order, so a refusal names the first", () => {
    expect(violationsOf(strictest, subject).map((v) => v.rule)).toEqual([
      'minimumVerdict',
      'verifiedPublishersOnly',
      'allowedPublishers',
      'allowedLicenses',
      'allowedTypes',
      'deniedSlugs',
    ]);
  });

  it('allows anything but a malicious verdict under the defaults', () => {
    expect(violationsOf(DEFAULT_POLICY, subject)).toEqual([]);
    expect(violationsOf(DEFAULT_POLICY, { ...subject, verdict: 'malicious' }).map((v) => v.rule)).toEqual([
      'minimumVerdict',
    ]);
  });

  it('refuses an item without a publisher or a licence when a list names the allowed ones', () => {
    const bare = {
      ...subject,
      publisher: null,
      license: null,
      verdict: 'clean' as const,
      type: 'skill' as const,
      slug: 'x',
    };
    expect(violationsOf({ ...strictest, verifiedPublishersOnly: false }, bare).map((v) => v.rule)).toEqual([
      'allowedPublishers',
      'allowedLicenses',
    ]);
  });

  it('orders the verdicts a minimum allows, never malicious', () => {
    expect(allowedVerdicts('clean')).toEqual(['clean']);
    expect(allowedVerdicts('unscanned')).toEqual(['clean', 'unscanned']);
    expect(allowedVerdicts('suspicious')).toEqual(['clean', 'unscanned', 'suspicious']);
  });
});

describe('latestAllowed', () => {
  const release = (version: string, verdict: ReleaseRecord['verdict'], yanked = false): ReleaseRecord => ({
    itemId: 'i',
    version,
    digest: `sha256:${version}`,
    publishedAt: '2026-01-01T00:00:00.000Z',
    source: { repository: 'https://example.com/r', ref: version },
    yanked: yanked ? { reason: 'r', at: '2026-01-02T00:00:00.000Z' } : null,
    verdict,
  });
  const of = (verdict: PolicySubject['verdict']) => ({ ...subject, verdict });

  it('never chooses a malicious release, with a policy or without one (a personal collection)', () => {
    const releases = [release('1.0.0', 'clean'), release('1.1.0', 'malicious'), release('1.2.0', 'unscanned', true)];
    expect(latestAllowed(null, of, releases)?.version).toBe('1.0.0');
    expect(latestAllowed(DEFAULT_POLICY, of, releases)?.version).toBe('1.0.0');
    expect(latestAllowed(null, of, [release('2.0.0', 'malicious')])).toBeNull();
  });
});
