/**
 * The profile area (docs/console.md, docs/security.md): the caller's own API keys (session only),
 * and what operators do for any account (keys, links, invitations, sign-out everywhere).
 * Signing in and the sessions it opens: paths-sign-in.ts.
 */
import { SCOPES } from '../domain/keys/scopes';
import { pathParam, type Message } from './components';
import { operation, schemaRef } from './operation-builder';
import type { PathItem } from './openapi-types';

const KEYS = 'API keys';
const ADMIN = 'Admin';
const keyId = pathParam('keyId', "API key id. Another account's key gives 404.");

const keyErrors = {
  '400': [
    ['validation.oneOf', { field: 'scopes.0', values: SCOPES.join(', ') }],
    ['apiKey.noExpiryRefused', { limit: 90 }],
    ['validation.bidiControl', { field: 'name' }],
  ] as Message[],
  '403': [['session.reauthenticate', { minutes: 10 }]] as Message[],
  '409': [['apiKey.tooMany', { limit: 20 }]] as Message[],
};

const ownKeyPaths: Record<string, PathItem> = {
  '/api/v1/me/api-keys': {
    get: operation({
      operationId: 'listOwnApiKeys',
      summary: 'The API keys of the signed-in account',
      description: 'Revoked and expired keys included. A session only: an API key never lists keys.',
      tag: KEYS,
      kind: 'session',
      success: { status: '200', description: 'Oldest first.', schema: schemaRef('OwnApiKeys') },
    }),
    post: operation({
      operationId: 'createOwnApiKey',
      summary: 'Create an API key',
      description:
        "The key is in the answer once; only its SHA-256 is stored. The account's plan decides whether it may call the API.",
      tag: KEYS,
      kind: 'session',
      body: {
        schema: schemaRef('CreateOwnApiKey'),
        examples: {
          readOnly: {
            summary: 'A read-only key for 90 days',
            value: { name: 'ci', scopes: ['search:read', 'collections:read'], expiresInDays: 90 },
          },
        },
      },
      success: { status: '201', description: 'Created.', schema: schemaRef('CreatedApiKey') },
      errors: keyErrors,
    }),
  },
  '/api/v1/me/api-keys/{keyId}': {
    delete: operation({
      operationId: 'revokeOwnApiKey',
      summary: 'Revoke an API key',
      description: 'Refused by every gateway replica within 1 s (at once on this one). Idempotent.',
      tag: KEYS,
      kind: 'session',
      parameters: [keyId],
      success: { status: '200', description: 'Revoked.', schema: schemaRef('Revoked') },
      errors: { '404': [['apiKey.notFound']] },
    }),
  },
  '/api/v1/me/api-keys/{keyId}/roll': {
    post: operation({
      operationId: 'rollOwnApiKey',
      summary: 'Roll an API key',
      description:
        "A new key with the same name and scopes, and the old one's lifetime held to today's maximum (a key that never expired gets the maximum); the old one stays valid `graceSeconds` more, or is revoked at once for 0.",
      tag: KEYS,
      kind: 'session',
      parameters: [keyId],
      body: { schema: schemaRef('RollApiKey') },
      success: { status: '201', description: 'Rolled.', schema: schemaRef('RolledApiKey') },
      errors: { '403': keyErrors['403'], '404': [['apiKey.notFound']], '409': [['apiKey.notActive']] },
    }),
  },
};

const adminProfilePaths: Record<string, PathItem> = {
  '/admin/v1/api-keys/{keyId}/roll': {
    post: operation({
      operationId: 'adminRollApiKey',
      summary: 'Roll any API key',
      description: "As the console's roll: same name and scopes, the old lifetime held to today's maximum lifetime.",
      tag: ADMIN,
      kind: 'admin',
      parameters: [pathParam('keyId', 'API key id.')],
      body: { schema: schemaRef('RollApiKey') },
      success: { status: '201', description: 'Rolled.', schema: schemaRef('RolledApiKey') },
      errors: { '403': keyErrors['403'], '404': [['apiKey.notFound']], '409': [['apiKey.notActive']] },
    }),
  },
  '/admin/v1/accounts/{id}/links': {
    post: operation({
      operationId: 'adminCreateLink',
      summary: 'A one-time sign-in or password reset link for an account',
      description: 'Valid once, for an hour. Hand it to the person; it opens the console.',
      tag: ADMIN,
      kind: 'admin',
      parameters: [pathParam('id', 'Account id.')],
      body: { schema: schemaRef('CreateLink') },
      success: { status: '201', description: 'The link.', schema: schemaRef('SignInLink') },
      errors: { '404': [['account.notFound']] },
    }),
  },
  '/admin/v1/invitations': {
    post: operation({
      operationId: 'adminCreateInvitation',
      summary: 'An invitation link to sign up',
      description: 'Valid once, for 7 days; what `SIGNUP_MODE=invite` asks for.',
      tag: ADMIN,
      kind: 'admin',
      success: { status: '201', description: 'The invitation.', schema: schemaRef('Invitation') },
    }),
  },
  '/admin/v1/accounts/{id}/sessions': {
    delete: operation({
      operationId: 'adminSignOutEverywhere',
      summary: 'Sign an account out of every console session',
      tag: ADMIN,
      kind: 'admin',
      parameters: [pathParam('id', 'Account id.')],
      success: { status: '200', description: 'How many ended.', schema: schemaRef('SignedOut') },
      errors: { '404': [['account.notFound']] },
    }),
  },
};

export const profilePaths: Record<string, PathItem> = { ...ownKeyPaths, ...adminProfilePaths };
