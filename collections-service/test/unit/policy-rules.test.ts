import { allowedVerdicts, DEFAULT_POLICY, violationsOf, type PolicySubject, type WorkspacePolicy } from '../../src/domain/policy';

const subject: PolicySubject = { slug: 'pdf', type: 'plugin', license: 'GPL-3.0', publisher: 'acme', publisherVerified: false, verdict: 'suspicious' };
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
    expect(violationsOf(DEFAULT_POLICY, { ...subject, verdict: 'malicious' }).map((v) => v.rule)).toEqual(['minimumVerdict']);
  });

  it('refuses an item without a publisher or a licence when a list names the allowed ones', () => {
    const bare = { ...subject, publisher: null, license: null, verdict: 'clean' as const, type: 'skill' as const, slug: 'x' };
    expect(violationsOf({ ...strictest, verifiedPublishersOnly: false }, bare).map((v) => v.rule)).toEqual(['allowedPublishers', 'allowedLicenses']);
  });

  it('orders the verdicts a minimum allows, never malicious', () => {
    expect(allowedVerdicts('clean')).toEqual(['clean']);
    expect(allowedVerdicts('unscanned')).toEqual(['clean', 'unscanned']);
    expect(allowedVerdicts('suspicious')).toEqual(['clean', 'unscanned', 'suspicious']);
  });
});
