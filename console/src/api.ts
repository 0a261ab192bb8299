/**
 * The console's only way to the server: the public API of the gateway, with
 * the session cookie (same origin) and, on writes, the session's CSRF token.
 * Errors come back as the API's own `{ error }` text, already in the
 * browser's language.
 */

export type Scope = 'search:read' | 'collections:read' | 'collections:write' | 'workspaces:manage';
export const SCOPES: ReadonlyArray<{ scope: Scope; label: string; help: string }> = [
  { scope: 'search:read', label: 'Search the catalog', help: 'search:read — search, the changes feed and item pages' },
  { scope: 'collections:read', label: 'Read collections', help: 'collections:read — list and read collections, private skills, workspaces and their members' },
  { scope: 'collections:write', label: 'Change collections', help: 'collections:write — create, change and delete collections and private skills' },
  { scope: 'workspaces:manage', label: 'Manage workspaces', help: 'workspaces:manage — create workspaces, invite people, change roles, remove members' },
];

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
  idleExpiresAt: string;
  expiresAt: string;
  current: boolean;
}

export interface SignedIn {
  account: Account;
  session: Session;
  csrfToken: string;
}

export interface ApiKey {
  id: string;
  name: string | null;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** the workspace whose policy every search of the key applies (docs/governance.md); null: none */
  workspaceId?: string | null;
}

export interface NewApiKey extends ApiKey {
  key: string;
}

export interface AuthOptions {
  signUpMode: 'open' | 'invite' | 'closed';
  passwordResetByMail: boolean;
  oidc: { name: string; startUrl: string } | null;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** seconds, from a 429's Retry-After */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

let csrfToken: string | undefined;

/** One call of the public API with the session: the `data` of a success, else ApiError with the API's own message. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  const response = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : {};
  if (!response.ok) {
    const message = (parsed as { error?: string }).error ?? `HTTP ${response.status}`;
    const retryAfter = Number(response.headers.get('Retry-After') ?? NaN);
    throw new ApiError(response.status, message, Number.isFinite(retryAfter) ? retryAfter : undefined);
  }
  return (parsed as { data: T }).data;
}

function remember(signedIn: SignedIn): SignedIn {
  csrfToken = signedIn.csrfToken;
  return signedIn;
}

export const api = {
  options: () => call<AuthOptions>('GET', '/api/v1/auth/options'),
  session: async (): Promise<SignedIn | undefined> => {
    try {
      return remember(await call<SignedIn>('GET', '/api/v1/auth/session'));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return undefined;
      throw err;
    }
  },
  signIn: async (email: string, password: string) => remember(await call<SignedIn>('POST', '/api/v1/auth/sign-in', { email, password })),
  // The same answer whether the address is new or taken: the mailed link signs in (verifyEmail).
  signUp: (input: { email: string; password: string; name?: string; invitation?: string }) => call<{ requested: true }>('POST', '/api/v1/auth/sign-up', input),
  redeemLink: async (token: string) => remember(await call<SignedIn>('POST', '/api/v1/auth/sign-in-link', { token })),
  resetPassword: async (token: string, password: string, revokeApiKeys: boolean) =>
    remember(await call<SignedIn>('POST', '/api/v1/auth/password-reset', { token, password, revokeApiKeys })),
  changePassword: (input: { currentPassword: string; newPassword: string; revokeApiKeys: boolean }) =>
    call<{ changed: true; revokedApiKeys: number }>('POST', '/api/v1/auth/password', input),
  reauthenticate: async (password: string) => remember(await call<SignedIn>('POST', '/api/v1/auth/reauthenticate', { password })),
  /** where to send the browser to confirm through single sign-on; it comes back to /console/keys */
  oidcReauthenticate: () => call<{ url: string }>('POST', '/api/v1/auth/oidc/reauthenticate'),
  verifyEmail: async (token: string) => remember(await call<SignedIn>('POST', '/api/v1/auth/verify-email', { token })),
  requestReset: (email: string) => call<{ requested: true }>('POST', '/api/v1/auth/password-reset-request', { email }),
  signOut: async () => {
    await call('DELETE', '/api/v1/auth/session');
    csrfToken = undefined;
  },
  sessions: () => call<{ sessions: Session[] }>('GET', '/api/v1/me/sessions'),
  signOutOthers: () => call<{ signedOut: number }>('DELETE', '/api/v1/me/sessions'),
  endSession: (id: string) => call<{ signedOut: number }>('DELETE', `/api/v1/me/sessions/${encodeURIComponent(id)}`),
  /** maxLifetimeDays: the longest lifetime the server gives a new key; null: it may also never expire */
  keys: () => call<{ apiKeys: ApiKey[]; maxLifetimeDays: number | null }>('GET', '/api/v1/me/api-keys'),
  createKey: (input: { name: string; scopes: Scope[]; expiresInDays: number | null; workspaceId?: string }) =>
    call<{ apiKey: NewApiKey }>('POST', '/api/v1/me/api-keys', input),
  revokeKey: (id: string) => call<{ revoked: true }>('DELETE', `/api/v1/me/api-keys/${encodeURIComponent(id)}`),
  rollKey: (id: string, graceSeconds: number) =>
    call<{ apiKey: NewApiKey; previous: ApiKey }>('POST', `/api/v1/me/api-keys/${encodeURIComponent(id)}/roll`, { graceSeconds }),
};
