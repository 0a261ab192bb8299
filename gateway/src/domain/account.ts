import type { Plan } from '@skills/common';

/** Plans that include API access (DESIGN.md §3: free has none). */
export const PLANS: readonly Plan[] = ['free', 'pro', 'team'];

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
  createdAt: string;
  revokedAt: string | null;
}

/** What authentication needs to know about a stored key. */
export interface StoredKey {
  keyId: string;
  accountId: string;
  plan: Plan;
  keyHash: Buffer;
  revoked: boolean;
}

/** Accounts in the gateway schema. Implementations translate DB errors. */
export interface AccountRepository {
  /** Throws ConflictError('account.emailTaken') on a duplicate email. */
  create(input: { email: string; name: string | null; plan: Plan }): Promise<Account>;
  findById(id: string): Promise<Account | undefined>;
  updatePlan(id: string, plan: Plan): Promise<Account | undefined>;
  exists(id: string): Promise<boolean>;
  /** Answers when the database is reachable (readiness). */
  ping(): Promise<void>;
}

/** API keys in the gateway schema, found by the SHA-256 of the key. */
export interface KeyStore {
  insert(input: { accountId: string; name: string | null; prefix: string; keyHash: Buffer }): Promise<ApiKeySummary>;
  findByHash(keyHash: Buffer): Promise<StoredKey | undefined>;
  listByAccount(accountId: string): Promise<ApiKeySummary[]>;
  /** Sets revoked_at once; returns the owner, or undefined for an unknown id. */
  revoke(keyId: string): Promise<{ accountId: string } | undefined>;
  /** Records a use; cheap and safe to call concurrently. */
  touch(keyId: string): Promise<void>;
}
