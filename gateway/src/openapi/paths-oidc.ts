/**
 * Single sign-on (OpenID Connect): the browser navigations of a sign-in, and
 * the flows a signed-in session starts to link an identity or to confirm who
 * it is before a key change.
 */
import { operation, schemaRef } from './operation-builder';
import type { PathItem } from './openapi-types';

const identityId = {
  name: 'identityId',
  in: 'path' as const,
  required: true,
  description: "Linked identity id. Another account's gives 404.",
  schema: { type: 'string' },
};

const AUTH = 'Sign-in';
const redirect = (description: string) => ({
  status: '303',
  description,
  headers: { Location: { description: 'Where the browser goes next.', required: true, schema: { type: 'string' } } },
});

export const oidcPaths: Record<string, PathItem> = {
  '/api/v1/auth/oidc/start': {
    get: operation({
      operationId: 'oidcStart',
      summary: 'Start an OpenID Connect sign-in (browser navigation)',
      description:
        'Redirects to the provider (authorization code + PKCE); 404 when no provider is configured. Each start stores a flow for 10 minutes: ' +
        'a client address (an IPv6 client by its /64) starts at most `OIDC_STARTS_PER_ADDRESS` (30) flows, sign-in, linking and ' +
        're-authentication together, per 15 minutes, then 429 with `Retry-After`.',
      tag: AUTH,
      kind: 'open',
      success: redirect('To the provider, or to the sign-in page with an error.'),
      errors: { '404': [['oidc.notConfigured']], '429': [['oidc.throttled', { seconds: 840 }]] },
    }),
  },
  '/api/v1/auth/oidc/link': {
    post: operation({
      operationId: 'oidcLink',
      summary: 'Link single sign-on to the signed-in account',
      description:
        "Answers the provider's URL for the page to open; when the provider sends the browser back, its identity is linked to this " +
        "account, the account's other sessions end, and the browser goes to `/console/profile`. A provider identity is never linked by email. " +
        'Needs a verified address and a recent sign-in (`recentSignInUntil`; `POST /api/v1/auth/reauthenticate`, or `…/oidc/reauthenticate` ' +
        'with an identity already linked), else 403: a session cookie alone links no new way in.',
      tag: AUTH,
      kind: 'session',
      success: { status: '200', description: 'Where to send the browser.', schema: schemaRef('OidcLinkStarted') },
      errors: {
        '403': [['session.reauthenticate', { minutes: 10 }], ['email.notVerified']],
        '404': [['oidc.notConfigured']],
        '429': [['oidc.throttled', { seconds: 840 }]],
      },
    }),
  },
  '/api/v1/auth/oidc/reauthenticate': {
    post: operation({
      operationId: 'oidcReauthenticate',
      summary: 'Confirm it is you through single sign-on, before a key change',
      description:
        "For a person without a password: answers the provider's URL for the page to open; when the provider sends the browser back " +
        'with the identity linked to this account, the session counts as recently signed in for 10 minutes (creating or rolling a key) ' +
        'and the browser goes to `/console/keys`; another identity is refused (`/console/sign-in#error=…`).',
      tag: AUTH,
      kind: 'session',
      success: { status: '200', description: 'Where to send the browser.', schema: schemaRef('OidcLinkStarted') },
      errors: { '404': [['oidc.notConfigured']], '429': [['oidc.throttled', { seconds: 840 }]] },
    }),
  },
  '/api/v1/auth/oidc/callback': {
    get: operation({
      operationId: 'oidcCallback',
      summary: 'Where the provider sends the browser back',
      description:
        'Signs in (cookie) and redirects to `/console/`; after a link started from a session, links and redirects to `/console/profile`; ' +
        'after a re-authentication started from a session, counts that session as recently signed in and redirects to `/console/keys`; ' +
        'on failure, to `/console/sign-in#error=<code>`, the message key of what went wrong (e.g. `oidc.linkRequired`: an existing account ' +
        'with the same email must sign in and link), which the console shows in its own words.',
      tag: AUTH,
      kind: 'open',
      success: redirect('To the console, or to the sign-in page with an error.'),
      errors: { '404': [['oidc.notConfigured']] },
    }),
  },
  '/api/v1/me/identities': {
    get: operation({
      operationId: 'listIdentities',
      summary: 'The single sign-on identities linked to the signed-in account',
      description:
        'Each is a way into the account: its owner sees every one, and may remove any (`DELETE …/identities/{identityId}`).',
      tag: AUTH,
      kind: 'session',
      success: { status: '200', description: 'Oldest first.', schema: schemaRef('LinkedIdentities') },
    }),
  },
  '/api/v1/me/identities/{identityId}': {
    delete: operation({
      operationId: 'removeIdentity',
      summary: 'Unlink a single sign-on identity',
      description:
        "Audited as `auth.oidc_unlink`. 409 when it is the account's only way to sign in (no password): a reset link sets one.",
      tag: AUTH,
      kind: 'session',
      parameters: [identityId],
      success: { status: '200', description: 'Unlinked.', schema: schemaRef('IdentityRemoved') },
      errors: { '404': [['identity.notFound']], '409': [['identity.lastSignIn']] },
    }),
  },
};
