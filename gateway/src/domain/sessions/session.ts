/** Server-side sessions of the console: what is stored and the port to the store. */
import type { Account } from '../accounts/account';

/** How the session was opened (shown on the profile page). */
export type SignInMethod = 'password' | 'oidc' | 'link';

export interface SessionRecord {
  id: string;
  accountId: string;
  method: SignInMethod;
  userAgent: string | null;
  /** epoch ms */
  createdAt: number;
  /** when the holder last proved who they are: the sign-in, or the password entered again */
  authenticatedAt: number;
  lastSeenAt: number;
  /** the session ends here unless used again before */
  idleExpiresAt: number;
  /** the session ends here whatever happens (absolute expiry) */
  expiresAt: number;
}

/** Sessions in the gateway schema, found by the SHA-256 of their token; never the token itself. */
export interface SessionRepository {
  insert(record: SessionRecord, tokenHash: Buffer): Promise<void>;
  /** The session and its account, or undefined. */
  findByHash(tokenHash: Buffer): Promise<{ session: SessionRecord; account: Account } | undefined>;
  /** Records that the holder proved who they are again (re-entered the password). */
  markAuthenticated(id: string, at: number): Promise<void>;
  /** Records a use: a later idle expiry. */
  touch(id: string, lastSeenAt: number, idleExpiresAt: number): Promise<void>;
  listByAccount(accountId: string): Promise<SessionRecord[]>;
  /** Deletes one session of `accountId`; false when it has no such session. */
  delete(accountId: string, id: string): Promise<boolean>;
  /** Deletes every session of the account but `keepId` (none kept when undefined); the count deleted. */
  deleteAllBut(accountId: string, keepId: string | undefined): Promise<number>;
  /** Housekeeping: drops the account's sessions that have ended by `now`. */
  deleteEnded(accountId: string, now: number): Promise<void>;
}
