import type { Plan } from '@skills/common';
import type { KeyScopes, Scope } from '../keys/scopes';

/** Plans that include API access (docs/api.md: free has none). */
export const PLANS: readonly Plan[] = ['free', 'pro', 'team'];
/** the longest display name of an account, in code points, whoever sets it */
export const ACCOUNT_NAME_MAX = 120;

export function planAllowsApi(plan: Plan): boolean {
  return plan !== 'free';
}

export interface Account {
  id: string;
  email: string;
  name: string | null;
  plan: Plan;
}

/** A key as the admin API shows it: never the plaintext, never the hash. */
export interface ApiKeySummary {
  id: string;
  name: string | null;
  prefix: string;
  /** every scope for a key made before scopes */
  scopes: Scope[];
  createdAt: string;
  /** null: the key never expires */
  expiresAt: string | null;
  /** coarse: written at most once a minute per key */
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** the team workspace whose policy every search of the key applies; null: unbound */
  workspaceId: string | null;
}

/** What a new key is made with. */
export interface NewKey {
  accountId: string;
  name: string | null;
  prefix: string;
  keyHash: Buffer;
  /** null only for keys made before scopes; new keys always list theirs */
  scopes: KeyScopes;
  expiresAt: Date | null;
  /** the workspace the key is bound to (its creator was a member when it was made); null: unbound */
  workspaceId: string | null;
}

/** What authentication needs to know about a stored key. */
export interface StoredKey {
  keyId: string;
  accountId: string;
  plan: Plan;
  keyHash: Buffer;
  revoked: boolean;
  scopes: KeyScopes;
  /** epoch ms; null: never */
  expiresAt: number | null;
  /** the workspace the key is bound to; absent or null: unbound */
  workspaceId?: string | null;
}

/** Accounts in the gateway schema. Implementations translate DB errors. */
export interface AccountRepository {
  /** Throws ConflictError('account.emailTaken') on a duplicate email. */
  create(input: { email: string; name: string | null; plan: Plan }): Promise<Account>;
  findById(id: string): Promise<Account | undefined>;
  /** the accounts of these ids that exist, in no particular order */
  findByIds(ids: readonly string[]): Promise<Account[]>;
  updatePlan(id: string, plan: Plan): Promise<Account | undefined>;
  exists(id: string): Promise<boolean>;
  /**
   * Inside a transaction: holds the account's row until it ends, so the
   * account's key changes run one after the other; false when it does not exist.
   */
  lockForKeyChange(id: string): Promise<boolean>;
  /** Answers when the database is reachable (readiness). */
  ping(): Promise<void>;
}

/** What authenticating a key reads and writes: the key by its SHA-256, and its use. */
export interface KeyLookup {
  findByHash(keyHash: Buffer): Promise<StoredKey | undefined>;
  /** Records a use; cheap and safe to call concurrently. */
  touch(keyId: string): Promise<void>;
}

/** API keys in the gateway schema, found by the SHA-256 of the key. */
export interface KeyRepository extends KeyLookup {
  insert(input: NewKey): Promise<ApiKeySummary>;
  findById(keyId: string): Promise<(ApiKeySummary & { accountId: string }) | undefined>;
  listByAccount(accountId: string): Promise<ApiKeySummary[]>;
  /** Keys neither revoked nor expired at `now`. */
  countActive(accountId: string, now: Date): Promise<number>;
  /** Sets revoked_at once; returns the owner, or undefined for an unknown id. */
  revoke(keyId: string): Promise<{ accountId: string } | undefined>;
  /** Ends a key: revoked now (`endsAt` null) or expiring at `endsAt` (never later than it would have). */
  end(keyId: string, endsAt: Date | null): Promise<void>;
}
