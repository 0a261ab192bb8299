/**
 * What the sign-in rules read and write about accounts' credentials and
 * one-time links: ports the rules see, kept in Postgres by
 * store/credential.repository.ts and store/link.repository.ts. A write that
 * must agree with a link (sign-up by invitation, a password reset) consumes
 * it in the same transaction; one given an audit record commits with it.
 */
import type { Plan } from '@skills/common';
import type { Account } from '../accounts/account';
import type { AuditDetails, AuditEvent } from '../audit/audit';

export type LinkPurpose = 'sign-in' | 'password-reset' | 'invitation' | 'email-verification';

export interface NewAccount {
  email: string;
  name: string | null;
  plan: Plan;
  passwordHash: string | null;
  /** a provider vouched for the address; otherwise a mailed link must */
  emailVerified?: boolean;
}

/** The audit record of a write, once the account it concerns is known. */
export type RecordOf = (accountId: string) => AuditEvent;

/** One session, API key or linked identity that a change of credentials removed. */
export interface Removal {
  action: 'auth.session_end' | 'api_key.revoke' | 'auth.oidc_unlink';
  accountId: string;
  /** the session's or key's id, the identity's issuer */
  target: string;
  details?: AuditDetails;
}

/**
 * What a change of credentials removes besides setting the password, each
 * removal written to the trail in the change's transaction with `audit`.
 */
export interface Removals {
  /** the session that made the change, kept; null: every session ends */
  keepSessionId: string | null;
  revokeKeys: boolean;
  unlinkIdentities: boolean;
  audit: (removal: Removal) => AuditEvent;
}

/** A live verification link of an account whose address is not verified yet. */
export interface PendingVerification {
  accountId: string;
  email: string;
  /** the password its sign-up chose; null for a link made before links carried one */
  linkPasswordHash: string | null;
  accountPasswordHash: string | null;
}

/** What a proof of the address changed: the account, and the keys revoked (to forget from the key cache). */
export interface Proven {
  accountId: string;
  revokedKeyIds: string[];
}

export interface CredentialStore {
  findByEmail(
    email: string,
  ): Promise<{ account: Account; passwordHash: string | null; emailVerified: boolean } | undefined>;
  emailVerified(accountId: string): Promise<boolean>;
  /** The verification link of `tokenHash`, left unused, while it is live and its account's address unverified. */
  pendingVerification(tokenHash: Buffer, now: Date): Promise<PendingVerification | undefined>;
  /**
   * Consumes a verification link of an account still unverified, verifies its address, sets the link's
   * password, removes every session, key and linked identity made before and uses up the account's other
   * links, in one transaction with `record`; undefined when the link no longer works.
   */
  verifyEmail(
    tokenHash: Buffer,
    now: Date,
    audit: { record: RecordOf; removal: Removals['audit'] },
  ): Promise<Proven | undefined>;
  /** A new account; with `invitation`, only if that invitation is consumed in the same transaction. */
  create(
    input: NewAccount,
    invitation?: { tokenHash: Buffer; now: Date },
    record?: RecordOf,
  ): Promise<Account | undefined>;
  /**
   * Consumes a reset link, sets the password, ends every session and uses up the account's other links; the keys
   * and identities too when asked, and always when the address was not verified yet (the reset verifies it).
   * Undefined for a link that cannot work.
   */
  resetPassword(
    tokenHash: Buffer,
    passwordHash: string,
    now: Date,
    options: { revokeKeys: boolean; unlinkIdentities: boolean; record: RecordOf; removal: Removals['audit'] },
  ): Promise<Proven | undefined>;
  /** A signed-in person's new password: every other session ends, the keys too if asked; the keys revoked. */
  changePassword(
    accountId: string,
    passwordHash: string,
    options: { keepSessionId: string; revokeKeys: boolean; record: AuditEvent; removal: Removals['audit'] },
  ): Promise<string[]>;
  findByIdentity(issuer: string, subject: string): Promise<Account | undefined>;
  /** Links (issuer, subject) to the account; false when it is linked to another account already. */
  linkIdentity(issuer: string, subject: string, accountId: string, record?: AuditEvent): Promise<boolean>;
}

/** A provider identity linked to an account, as its owner sees it. */
export interface LinkedIdentity {
  id: string;
  issuer: string;
  subject: string;
  createdAt: string;
}

/** The identities an account's owner lists and removes from the profile. */
export interface IdentityStore {
  list(accountId: string): Promise<LinkedIdentity[]>;
  /** Removes one with its record; `lastSignIn` (nothing removed) when it is the account's only way in. */
  unlink(
    accountId: string,
    identityId: string,
    record: (identity: LinkedIdentity) => AuditEvent,
  ): Promise<'unlinked' | 'notFound' | 'lastSignIn'>;
}

export interface NewLink {
  tokenHash: Buffer;
  purpose: LinkPurpose;
  accountId: string | null;
  now: Date;
  expiresAt: Date;
  /** an invitation to a workspace (collections-service holds its terms); it also lets its holder sign up */
  workspaceInvitationId?: string;
  /** a verification link's pending password: set when the link is opened */
  passwordHash?: string;
}

/** An OpenID Connect sign-in in flight, stored by the SHA-256 of its state. */
export interface NewSignInFlow {
  stateHash: Buffer;
  codeVerifier: string;
  nonce: string;
  expiresAt: Date;
  linkAccountId?: string;
  reauthenticate?: boolean;
}

export interface SignInFlow {
  codeVerifier: string;
  nonce: string;
  linkAccountId: string | null;
  reauthenticate: boolean;
}

/** One-time links and OpenID Connect flows in flight, each stored by the SHA-256 of its secret. */
export interface LinkStore {
  insert(link: NewLink): Promise<void>;
  /** The workspace invitation an unexpired invitation link names, used or not. */
  workspaceInvitationOf(tokenHash: Buffer, now: Date): Promise<string | undefined>;
  /** Uses up the links of a workspace invitation (accepted or revoked). */
  endWorkspaceInvitation(invitationId: string, now: Date): Promise<void>;
  /** The account of a live link, marking it used; undefined when unknown, used or expired. */
  consume(tokenHash: Buffer, purpose: LinkPurpose, now: Date): Promise<string | undefined>;
  /** The account of a live link, leaving it unused. */
  peek(tokenHash: Buffer, purpose: LinkPurpose, now: Date): Promise<string | undefined>;
  insertFlow(flow: NewSignInFlow): Promise<void>;
  /** Takes a flow out (one use), with the expired ones; undefined when unknown or expired. */
  takeFlow(stateHash: Buffer, now: Date): Promise<SignInFlow | undefined>;
}
