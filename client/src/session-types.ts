/**
 * Shapes of the operations a browser session calls (docs/api.md, the
 * profile area): sign-in, sessions, the caller's own API keys and
 * invitation links. Field for field the OpenAPI document's schemas.
 */
import type { InvitedRole } from './types';

/** What an API key may do (docs/api.md); a key made before scopes existed lists every one. */
export type Scope = 'search:read' | 'collections:read' | 'collections:write' | 'workspaces:manage';

export interface Account {
  id: string;
  email: string;
  name: string | null;
  plan: 'free' | 'pro' | 'team';
}

export interface Session {
  id: string;
  method: 'password' | 'oidc' | 'link';
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string;
  /** ends then unless used again */
  idleExpiresAt: string;
  /** ends then whatever happens */
  expiresAt: string;
  /** the session of this request */
  current: boolean;
  /** in answers about this session only: until then it may create and roll API keys */
  recentSignInUntil?: string;
}

/** A session just opened or read; `csrfToken` goes back on every write (SessionClient does it). */
export interface SignedIn {
  account: Account;
  session: Session;
  csrfToken: string;
}

export interface AuthOptions {
  signUpMode: 'open' | 'invite' | 'closed';
  passwordResetByMail: boolean;
  /** null when OpenID Connect is not configured */
  oidc: { name: string; startUrl: string } | null;
}

export interface SignUpInput {
  email: string;
  password: string;
  name?: string;
  /** an invitation link's token; required when sign-up is by invitation */
  invitation?: string;
}

export interface PasswordChangeInput {
  currentPassword: string;
  newPassword: string;
  /** also revoke every API key of the account */
  revokeApiKeys?: boolean;
}

/** What a password reset also removes, besides every session. */
export interface PasswordResetChoices {
  /** also revoke every API key of the account */
  revokeApiKeys?: boolean;
  /** also unlink every single sign-on identity of the account */
  unlinkIdentities?: boolean;
}

/** A single sign-on identity linked to the account. */
export interface LinkedIdentity {
  id: string;
  /** the provider's issuer URL */
  issuer: string;
  /** the person's identifier at the provider */
  subject: string;
  /** when it was linked */
  createdAt: string;
}

/** One of the caller's API keys; its secret is never shown again. */
export interface ApiKey {
  id: string;
  name: string | null;
  /** first 12 characters, for display */
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  /** null: never expires */
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** the workspace whose policy every search of the key applies (docs/governance.md); null: none */
  workspaceId: string | null;
}

/** A key just created or rolled, with its secret (`sk_live_…`), shown this once. */
export interface NewApiKey extends ApiKey {
  key: string;
}

export interface OwnApiKeys {
  apiKeys: ApiKey[];
  /** the longest lifetime the server gives a new key; null: it may also never expire */
  maxLifetimeDays: number | null;
}

export interface CreateApiKeyInput {
  name: string;
  scopes: Scope[];
  /** null: never expires (refused while there is a maximum lifetime); absent: the maximum, or never */
  expiresInDays?: number | null;
  /** binds the key to a workspace the caller is a member of */
  workspaceId?: string | null;
}

/** What an invitation link offers, read before accepting it. */
export interface InvitationPreview {
  id: string;
  role: InvitedRole;
  expiresAt: string;
  workspace: { id: string; name: string };
}
