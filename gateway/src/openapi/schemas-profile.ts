/** Schemas of the profile area: sign-in, sessions and the caller's own API keys. */
import { SCOPES } from '../domain/keys/scopes';
import { NAME_MAX, envelope } from './schemas-public';
import type { JsonSchema } from './openapi-types';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const timestamp: JsonSchema = { type: 'string', format: 'date-time' };
const nullableTimestamp: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const email: JsonSchema = { type: 'string', format: 'email', maxLength: 254 };
const password: JsonSchema = {
  type: 'string',
  minLength: 12,
  maxLength: 256,
  description:
    "At least 12 characters, not one of the 49,000 most common passwords, not containing the email's local part",
};
const token: JsonSchema = {
  type: 'string',
  maxLength: 100,
  description: 'The secret of the link, from its `#token=` fragment',
};
const scope: JsonSchema = {
  type: 'string',
  enum: [...SCOPES],
  description:
    '`search:read`: search and the changes feed; `collections:read`: read collections; `collections:write`: create, change, delete them',
};

function closed(required: string[], properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', required, additionalProperties: false, properties };
}

const ownKeyFields: Record<string, JsonSchema> = {
  id: uuid,
  name: { type: ['string', 'null'] },
  prefix: { type: 'string', description: 'First 12 characters, for display' },
  scopes: { type: 'array', items: ref('Scope'), description: 'A key made before scopes existed lists every scope' },
  createdAt: timestamp,
  expiresAt: { ...nullableTimestamp, description: 'null: never expires' },
  lastUsedAt: { ...nullableTimestamp, description: 'Coarse: recorded at most once a minute' },
  revokedAt: nullableTimestamp,
  workspaceId: {
    type: ['string', 'null'],
    format: 'uuid',
    description: 'The workspace whose policy every search of the key applies (docs/governance.md); null: unbound',
  },
};

export const profileSchemas: Record<string, JsonSchema> = {
  Scope: scope,
  SignUp: closed(['email', 'password'], {
    email,
    password,
    name: { type: 'string', minLength: 1, maxLength: NAME_MAX },
    invitation: {
      type: 'string',
      maxLength: 100,
      description: 'The token of an invitation link; required when sign-up is by invitation',
    },
  }),
  SignIn: closed(['email', 'password'], { email, password: { type: 'string', minLength: 1, maxLength: 256 } }),
  LinkToken: closed(['token'], { token }),
  VerifyEmail: closed(['token'], {
    token,
    password: {
      type: 'string',
      maxLength: 256,
      description:
        'The password chosen at the sign-up the link confirms (400 without it, once the link is known to work)',
    },
  }),
  PasswordReset: closed(['token', 'password'], {
    token,
    password,
    revokeApiKeys: { type: 'boolean', default: false, description: 'Also revoke every API key of the account' },
    unlinkIdentities: {
      type: 'boolean',
      default: false,
      description: 'Also unlink every single sign-on identity of the account',
    },
  }),
  PasswordChange: closed(['currentPassword', 'newPassword'], {
    currentPassword: { type: 'string', minLength: 1, maxLength: 256 },
    newPassword: password,
    revokeApiKeys: { type: 'boolean', default: false, description: 'Also revoke every API key of the account' },
  }),
  PasswordChanged: envelope({
    changed: { const: true },
    revokedApiKeys: { type: 'integer', minimum: 0, description: 'How many keys were revoked' },
  }),
  Reauthenticate: closed(['password'], { password: { type: 'string', minLength: 1, maxLength: 256 } }),
  PasswordResetRequest: closed(['email'], { email }),
  AuthOptions: envelope({
    signUpMode: { type: 'string', enum: ['open', 'invite', 'closed'] },
    passwordResetByMail: { type: 'boolean' },
    oidc: {
      oneOf: [
        { type: 'null' },
        closed(['name', 'startUrl'], { name: { type: 'string' }, startUrl: { type: 'string' } }),
      ],
      description: 'null when OpenID Connect is not configured',
    },
  }),
  Session: closed(['id', 'method', 'userAgent', 'createdAt', 'lastSeenAt', 'idleExpiresAt', 'expiresAt', 'current'], {
    id: uuid,
    method: { type: 'string', enum: ['password', 'oidc', 'link'] },
    userAgent: { type: ['string', 'null'] },
    createdAt: timestamp,
    lastSeenAt: timestamp,
    idleExpiresAt: { ...timestamp, description: 'Ends then unless used again' },
    expiresAt: { ...timestamp, description: 'Ends then whatever happens' },
    current: { type: 'boolean', description: 'The session of this request' },
    recentSignInUntil: {
      ...timestamp,
      description:
        'In answers about this session only: until then it may create and roll API keys; after it, `POST /api/v1/auth/reauthenticate` first',
    },
  }),
  SignedIn: envelope({
    account: ref('Account'),
    session: ref('Session'),
    csrfToken: {
      type: 'string',
      description: 'Send it as `X-CSRF-Token` on every state-changing request made with the session',
    },
  }),
  SessionList: envelope({ sessions: { type: 'array', items: ref('Session') } }),
  SignedOut: envelope({
    signedOut: {
      oneOf: [{ const: true }, { type: 'integer', minimum: 0 }],
      description: 'true, or how many sessions ended',
    },
  }),
  ResetRequested: envelope({ requested: { const: true } }),
  SignUpRequested: envelope({ requested: { const: true } }),
  LinkedIdentity: closed(['id', 'issuer', 'subject', 'createdAt'], {
    id: uuid,
    issuer: { type: 'string', description: "The provider's issuer URL" },
    subject: { type: 'string', description: "The person's identifier at the provider" },
    createdAt: { ...timestamp, description: 'When it was linked' },
  }),
  LinkedIdentities: envelope({
    identities: { type: 'array', items: ref('LinkedIdentity'), description: 'Oldest first' },
  }),
  IdentityRemoved: envelope({ removed: { const: true } }),
  OidcLinkStarted: envelope({
    url: { type: 'string', format: 'uri', description: "The provider's authorization URL" },
  }),
  OwnApiKey: closed(
    ['id', 'name', 'prefix', 'scopes', 'createdAt', 'expiresAt', 'lastUsedAt', 'revokedAt', 'workspaceId'],
    ownKeyFields,
  ),
  NewApiKey: closed(
    ['id', 'name', 'prefix', 'scopes', 'createdAt', 'expiresAt', 'lastUsedAt', 'revokedAt', 'workspaceId', 'key'],
    {
      ...ownKeyFields,
      key: {
        type: 'string',
        pattern: '^sk_live_[0-9A-Za-z]{32}$',
        description: 'Shown once; only its SHA-256 is stored',
      },
    },
  ),
  OwnApiKeys: envelope({
    apiKeys: { type: 'array', items: ref('OwnApiKey') },
    maxLifetimeDays: {
      type: ['integer', 'null'],
      description:
        'The longest lifetime a new key may have (`API_KEYS_MAX_LIFETIME_DAYS`, 365 by default); null: keys may also never expire',
    },
  }),
  CreateOwnApiKey: closed(['name', 'scopes'], {
    name: { type: 'string', minLength: 1, maxLength: NAME_MAX },
    scopes: { type: 'array', items: ref('Scope'), minItems: 1, uniqueItems: true },
    expiresInDays: {
      type: ['integer', 'null'],
      minimum: 1,
      maximum: 3650,
      description:
        'null: never expires (refused while there is a maximum lifetime, 365 days by default); absent: the maximum, or never',
    },
    workspaceId: {
      type: ['string', 'null'],
      maxLength: 100,
      description:
        "Binds the key to a workspace the caller is a member of (else 404): every search made with it applies that workspace's policy",
    },
  }),
  CreatedApiKey: envelope({ apiKey: ref('NewApiKey') }),
  RollApiKey: closed(['graceSeconds'], {
    graceSeconds: {
      type: 'integer',
      minimum: 0,
      maximum: 604_800,
      description: 'How long the old key stays valid: 0 revokes it at once',
    },
  }),
  RolledApiKey: envelope({ apiKey: ref('NewApiKey'), previous: ref('OwnApiKey') }),
  SignInLink: envelope({
    link: closed(['purpose', 'url', 'expiresAt'], {
      purpose: { type: 'string', enum: ['sign-in', 'password-reset'] },
      url: { type: 'string' },
      expiresAt: timestamp,
    }),
  }),
  CreateLink: closed(['purpose'], { purpose: { type: 'string', enum: ['sign-in', 'password-reset'] } }),
  Invitation: envelope({ invitation: closed(['url', 'expiresAt'], { url: { type: 'string' }, expiresAt: timestamp }) }),
};
