/**
 * The sign-in area (docs/console.md, docs/security.md): signing up and in to the console by password
 * or link, email verification and password resets, and the sessions a sign-in opens.
 */
import { pathParam, type Message } from './components';
import { operation, schemaRef } from './operation-builder';
import type { PathItem } from './openapi-types';

const AUTH = 'Sign-in';
const setCookie = {
  'Set-Cookie': {
    description:
      'The session cookie: `__Host-skills_session` (HttpOnly; Secure; SameSite=Lax; Path=/), or `skills_session` without Secure on plain-HTTP loopback.',
    required: true,
    schema: { type: 'string' },
  },
};
const signedIn = (status: string, description: string) => ({
  status,
  description,
  schema: schemaRef('SignedIn'),
  headers: setCookie,
});
const linkInvalid: Message[] = [['link.invalid']];
const noOrigin: Message[] = [['session.origin']];

export const signInPaths: Record<string, PathItem> = {
  '/api/v1/auth/options': {
    get: operation({
      operationId: 'authOptions',
      summary: 'How one may sign in here',
      description: 'The sign-up mode, whether password reset by mail is on, and the OpenID Connect provider, if any.',
      tag: AUTH,
      kind: 'open',
      success: { status: '200', description: 'The options.', schema: schemaRef('AuthOptions') },
    }),
  },
  '/api/v1/auth/sign-up': {
    post: operation({
      operationId: 'signUp',
      summary: 'Ask for an account: the mailed link, with this password, verifies the address and signs in',
      description:
        'The same 202 whether the address is new or already has an account, given before the address is looked up; no session. ' +
        'A new address, or one whose account is not verified yet, is mailed a one-time link (logged on the embedded default without ' +
        "SMTP) that verifies it and signs in together with this sign-up's password (`POST /api/v1/auth/verify-email`); a verified " +
        'address is mailed a notice with the sign-in page instead, and nothing is created. Until verified, the account signs in to ' +
        'nothing. New accounts are on the `free` plan (no API access for their keys). `invite` mode needs an invitation ' +
        'token; `closed` refuses. The password is checked and hashed before the answer in both cases.',
      tag: AUTH,
      kind: 'open',
      body: { schema: schemaRef('SignUp') },
      success: { status: '202', description: 'Requested: see the mail.', schema: schemaRef('SignUpRequested') },
      errors: {
        '400': [
          ['validation.stringMin', { field: 'password', limit: 12 }],
          ['password.common'],
          ['password.containsEmail'],
          ['validation.bidiControl', { field: 'name' }],
          ...linkInvalid,
        ],
        '403': [['signUp.closed'], ['signUp.invitationRequired'], ...noOrigin],
        '429': [['signUp.throttled', { seconds: 60 }]],
      },
    }),
  },
  '/api/v1/auth/sign-in': {
    post: operation({
      operationId: 'signIn',
      summary: 'Sign in with email and password',
      description:
        'Every attempt is counted before the password is checked, per email and per client address (behind a trusted proxy, the ' +
        'address it forwards); past the limits, 429 with a delay that grows with the failures. Without the right password the ' +
        'answer is the same 401 for a verified, an unverified and an absent account; the right password of an address not verified ' +
        'yet gets 403 and no session, and a new verification link is mailed to the address (within its daily quota).',
      tag: AUTH,
      kind: 'open',
      body: { schema: schemaRef('SignIn') },
      success: signedIn('200', 'Signed in.'),
      errors: {
        '401': [['signIn.badCredentials']],
        '403': [['signIn.unverified'], ['signIn.unverifiedNoMail'], ...noOrigin],
        '429': [['signIn.throttled', { seconds: 60 }]],
      },
    }),
  },
  '/api/v1/auth/sign-in-link': {
    post: operation({
      operationId: 'signInWithLink',
      summary: 'Sign in with a one-time link',
      description:
        'Links come from `POST /admin/v1/accounts/{id}/links` (the demo banner prints one); each works once, within an hour, and only for an account whose address is verified.',
      tag: AUTH,
      kind: 'open',
      body: { schema: schemaRef('LinkToken') },
      success: signedIn('200', 'Signed in.'),
      errors: { '400': linkInvalid, '403': [['email.notVerified'], ...noOrigin] },
    }),
  },
  '/api/v1/auth/password-reset': {
    post: operation({
      operationId: 'resetPassword',
      summary: 'Choose a new password with a reset link',
      description:
        "Ends every session of the account, then signs this one in; with `revokeApiKeys` and `unlinkIdentities`, revokes the account's API keys and unlinks its single sign-on identities in the same transaction. " +
        'On an address not verified yet (a link an operator issued), the reset verifies it and removes every key and identity made before.',
      tag: AUTH,
      kind: 'open',
      body: { schema: schemaRef('PasswordReset') },
      success: signedIn('200', 'Password changed; signed in.'),
      errors: { '400': [...linkInvalid, ['password.common']], '403': noOrigin },
    }),
  },
  '/api/v1/auth/verify-email': {
    post: operation({
      operationId: 'verifyEmail',
      summary: "Verify the email address with the mailed link and the sign-up's password, and sign in",
      description:
        'The link mailed at sign-up works once, within 24 hours, and only while the address is not verified. It proves the mailbox, the ' +
        "password the sign-up it confirms: together they verify the address, make that password the account's, remove every session, API " +
        'key and linked identity made before, and open a session. Counted per client address with password-reset requests ' +
        '(LINK_REQUESTS_PER_ADDRESS per 15 min) before the link is looked up; a wrong password is throttled as a sign-in.',
      tag: AUTH,
      kind: 'open',
      body: { schema: schemaRef('VerifyEmail') },
      success: signedIn('200', 'The address is verified; signed in.'),
      errors: {
        '400': [...linkInvalid, ['verify.wrongPassword']],
        '403': noOrigin,
        '429': [['links.throttled', { seconds: 840 }]],
      },
    }),
  },
  '/api/v1/auth/password-reset-request': {
    post: operation({
      operationId: 'requestPasswordReset',
      summary: 'Mail a password reset link',
      description:
        'The same 202 whether the address has an account or not, given before the address is looked up; a link is mailed only to a ' +
        'verified address. 404 when mail is not configured (SMTP_URL). Throttled per client address (LINK_REQUESTS_PER_ADDRESS) and per email from it (LINK_REQUESTS_PER_EMAIL) per 15 min, and its mail counted per address and requester (MAIL_QUOTA_PER_ADDRESS a day), whether or not the email has an account.',
      tag: AUTH,
      kind: 'open',
      body: { schema: schemaRef('PasswordResetRequest') },
      success: { status: '202', description: 'Requested.', schema: schemaRef('ResetRequested') },
      errors: {
        '403': noOrigin,
        '404': [['mail.notConfigured']],
        '429': [
          ['links.throttled', { seconds: 840 }],
          ['mail.quotaAddress', { hours: 9 }],
        ],
      },
    }),
  },
  '/api/v1/auth/session': {
    get: operation({
      operationId: 'getSession',
      summary: 'The signed-in account, its session and CSRF token',
      tag: AUTH,
      kind: 'session',
      success: { status: '200', description: 'Signed in.', schema: schemaRef('SignedIn') },
    }),
    delete: operation({
      operationId: 'signOut',
      summary: 'Sign out (this session)',
      tag: AUTH,
      kind: 'session',
      success: { status: '200', description: 'Signed out; the cookie is cleared.', schema: schemaRef('SignedOut') },
    }),
  },
  '/api/v1/auth/password': {
    post: operation({
      operationId: 'changePassword',
      summary: 'Change the password',
      description:
        'Needs the current password (attempts are throttled as sign-ins are). Ends every other session of the account; with `revokeApiKeys`, ' +
        'revokes its API keys too, in the same transaction. This session counts as just signed in.',
      tag: AUTH,
      kind: 'session',
      body: { schema: schemaRef('PasswordChange') },
      success: { status: '200', description: 'Changed.', schema: schemaRef('PasswordChanged') },
      errors: {
        '400': [['password.wrongCurrent'], ['password.common'], ['password.noneSet']],
        '429': [['signIn.throttled', { seconds: 4 }]],
      },
    }),
  },
  '/api/v1/auth/reauthenticate': {
    post: operation({
      operationId: 'reauthenticate',
      summary: 'Enter the password again',
      description:
        'Creating or rolling an API key needs a sign-in of the last 10 minutes (`recentSignInUntil`); this renews it. Throttled as sign-ins are.',
      tag: AUTH,
      kind: 'session',
      body: { schema: schemaRef('Reauthenticate') },
      success: { status: '200', description: 'Renewed.', schema: schemaRef('SignedIn') },
      errors: {
        '400': [['password.wrongCurrent'], ['password.noneSet']],
        '429': [['signIn.throttled', { seconds: 4 }]],
      },
    }),
  },
  '/api/v1/me/sessions': {
    get: operation({
      operationId: 'listSessions',
      summary: 'Every session of the account',
      tag: AUTH,
      kind: 'session',
      success: { status: '200', description: 'Newest first.', schema: schemaRef('SessionList') },
    }),
    delete: operation({
      operationId: 'signOutOtherSessions',
      summary: 'Sign out every other session',
      tag: AUTH,
      kind: 'session',
      success: { status: '200', description: 'How many ended.', schema: schemaRef('SignedOut') },
    }),
  },
  '/api/v1/me/sessions/{sessionId}': {
    delete: operation({
      operationId: 'endSession',
      summary: 'Sign out one session of the account',
      tag: AUTH,
      kind: 'session',
      parameters: [pathParam('sessionId', 'Session id.')],
      success: { status: '200', description: 'Ended.', schema: schemaRef('SignedOut') },
      errors: { '404': [['session.notFound']] },
    }),
  },
};
