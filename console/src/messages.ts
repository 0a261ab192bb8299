/**
 * The console's own words for the codes a page carries in its address
 * (`#error=oidc.failed`, `?done=collection-deleted`). An address is
 * anyone's to write: a crafted link may name a code, never the text shown,
 * so an unknown code shows a generic message and nothing of the address.
 */

/** Why a sign-in that left the console (single sign-on) did not end signed in: the gateway's message keys. */
const SIGN_IN_ERRORS: Record<string, string> = {
  'oidc.failed': 'Single sign-on failed; try again.',
  'oidc.notConfigured': 'Single sign-on is not configured.',
  'oidc.linkRequired': 'An account with this email address already exists: sign in to it, then link single sign-on from your profile.',
  'oidc.linkedElsewhere': 'This single sign-on identity is already linked to another account.',
  'oidc.emailNotVerified': 'Your identity provider did not confirm your email address.',
  'oidc.reauthenticateOther': 'Confirm with the single sign-on identity of this account, not another one.',
  'oidc.throttled': 'Too many single sign-on attempts from this address; try again later.',
  'signUp.closed': 'Sign-up is closed on this server; ask your operator for an account.',
  'signUp.invitationRequired': 'Sign-up needs an invitation on this server.',
};

const GENERIC_ERROR = 'Sign-in did not succeed; try again.';

/** What a page says after an action that took the person elsewhere. */
const NOTICES = {
  'collection-deleted': 'Collection deleted.',
  'workspace-left': 'You left the workspace.',
} as const satisfies Record<string, string>;

const GENERIC_NOTICE = 'Done.';

const own = (table: Record<string, string>, code: string): string | undefined => (Object.hasOwn(table, code) ? table[code] : undefined);

/** The text for an error code of the sign-in page; undefined when there is no code. */
export function signInErrorText(code: string | undefined): string | undefined {
  return code === undefined ? undefined : (own(SIGN_IN_ERRORS, code) ?? GENERIC_ERROR);
}

/** The text for a notice code; undefined when there is no code. */
export function noticeText(code: string | null): string | undefined {
  return code === null ? undefined : (own(NOTICES, code) ?? GENERIC_NOTICE);
}

export type NoticeCode = keyof typeof NOTICES;

/** `page` with the code of the notice it is to show (read back with `noticeText(useSearch().get('done'))`). */
export function withNotice(page: string, code: NoticeCode): string {
  return `${page}?done=${code}`;
}
