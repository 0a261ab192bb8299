/**
 * What the sign-in rules read and write about accounts' credentials and
 * one-time links: ports the rules see, kept in Postgres by
 * store/credential.repository.ts and store/link.repository.ts. A write that
 * must agree with a link (sign-up by invitation, a password reset) consumes
 * it in the same transaction; one given an audit record commits with it.
 */
import type { Plan } from '@skills/common';
import type { Account } from './account';
import type { AuditEvent } from './audit';

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

export interface CredentialStore {
  findByEmail(email: string): Promise<{ account: Account; passwordHash: string | null; emailVerified: boolean } | undefined>;
  emailVerified(accountId: string): Promise<boolean>;
  /** Consumes a verification link and marks its account's address verified; the account id, or undefined. */
  verifyEmail(tokenHash: Buffer, now: Date): Promise<string | undefined>;
  /** A new account; with `invitation`, only if that invitation is consumed in the same transaction. */
  create(input: NewAccount, invitation?: { tokenHash: Buffer; now: Date }, record?: RecordOf): Promise<Account | undefined>;
  /** Consumes a reset link, sets the password, ends every session (and with `revokeKeys` the keys): undefined for a link that cannot work. */
  resetPassword(
    tokenHash: Buffer,
    passwordHash: string,
    now: Date,
    options: { revokeKeys: boolean; record?: RecordOf },
  ): Promise<{ accountId: string; revokedKeyIds: string[] } | undefined>;
  /** A signed-in person's new password: every other session ends, the keys too if asked; the keys revoked. */
  changePassword(accountId: string, passwordHash: string, options: { keepSessionId: string; revokeKeys: boolean; record: AuditEvent }): Promise<string[]>;
  findByIdentity(issuer: string, subject: string): Promise<Account | undefined>;
  /** Links (issuer, subject) to the account; false when it is linked to another account already. */
  linkIdentity(issuer: string, subject: string, accountId: string, record?: AuditEvent): Promise<boolean>;
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
