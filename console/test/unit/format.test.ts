/** The console's texts: counts, labels, and the codes an address may carry, which never put the address's text on the page. */
import { label, plural, when } from '../../src/format';
import { noticeText, signInErrorText, withNotice } from '../../src/messages';

describe('console format', () => {
  it('counts in words, with an irregular plural when given', () => {
    expect(plural(1, 'skill')).toBe('1 skill');
    expect(plural(3, 'skill')).toBe('3 skills');
    expect(plural(0, 'skill')).toBe('0 skills');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
  });

  it('turns a slug into a label and a missing date into a dash', () => {
    expect(label('data-engineering')).toBe('Data engineering');
    expect(when(null)).toBe('—');
    expect(when(null, 'never')).toBe('never');
  });
});

describe('console messages', () => {
  it('shows its own words for a known code and a generic text for any other', () => {
    expect(signInErrorText('oidc.notConfigured')).toBe('Single sign-on is not configured.');
    expect(signInErrorText('<script>alert(1)</script>')).toBe('Sign-in did not succeed; try again.');
    expect(signInErrorText('toString')).toBe('Sign-in did not succeed; try again.');
    expect(signInErrorText(undefined)).toBeUndefined();
  });

  it('reads back the notice a page was sent to show', () => {
    expect(
      noticeText(
        new URLSearchParams(withNotice('/console/collections', 'collection-deleted').split('?')[1]).get('done'),
      ),
    ).toBe('Collection deleted.');
    expect(noticeText('anything')).toBe('Done.');
    expect(noticeText(null)).toBeUndefined();
  });
});
