/**
 * How people get a console session: email + password (argon2id, throttled
 * failures), the mailed verification link with the password of its
 * sign-up, one-time links (sign-in links the operator issues, password
 * resets) and, in oidc.service.ts, OpenID Connect; sign-up is
 * sign-up.service.ts. An address counts only once proven: an unverified
 * account signs in to nothing, and the proof (verification, or a first
 * reset) removes every session, key and linked identity made before it
 * (docs/security.md "Account lifecycle"). Every event is in the audit trail
 * (auth-audit.ts): a success with the change it makes, in its transaction
 * where there is one; a failed password counted in memory
 * (AuthFailureAudit), never one insert per guess.
 */
import { randomBytes } from 'node:crypto';
import {
  AuthenticationError,
  InputError,
  NotAllowedError,
  NotFoundError,
  RateLimitError,
  isUuid,
} from '@skills/common';
import type { Account, AccountRepository } from '../accounts/account';
import type { AuditActor, AuditLog } from '../audit/audit';
import type { CredentialStore, LinkPurpose, LinkStore } from './credentials';
import type { AuthFailureAudit } from '../audit/auth-failure-audit';
import { authEvent, removalEvents, type AuthRequest } from '../audit/auth-audit';
import type { SessionService, OpenedSession } from '../sessions/session.service';
import type { SignInMethod } from '../sessions/session';
import { linkTokenHash, newLinkToken } from './link-token';
import type { PasswordHasher } from './password-hasher';
import { checkPassword } from './password-policy';
import type { SignInThrottle } from '../limits/sign-in-throttle';
import type { MailQuota } from '../limits/mail-quota';
import { addressKey } from '../limits/address-key';

/** How long each kind of link stays valid. */
export const LINK_TTL_MS: Record<LinkPurpose, number> = {
  'sign-in': 60 * 60_000,
  'password-reset': 60 * 60_000,
  invitation: 7 * 86_400_000,
  'email-verification': 24 * 60 * 60_000,
};

export interface IssuedLink {
  /** the secret of the link, shown once and never stored */
  token: string;
  expiresAt: string;
}

export interface SignedIn {
  account: Account;
  opened: OpenedSession;
}

/** A password sign-in: a session, or for an address not verified yet none, and the new verification link it mailed (if the quota allowed one). */
export type PasswordSignIn =
  ({ kind: 'signedIn' } & SignedIn) | { kind: 'unverified'; account: Account; verification?: IssuedLink };

/** What a reset removes besides every session. */
export interface ResetChoices {
  revokeApiKeys: boolean;
  unlinkIdentities: boolean;
}

export interface SignInDeps {
  accounts: AccountRepository;
  credentials: CredentialStore;
  links: LinkStore;
  hasher: PasswordHasher;
  throttle: SignInThrottle;
  sessions: SessionService;
  audit: AuditLog;
  /** counts failed password sign-ins into the trail; none: they are not recorded */
  failures?: AuthFailureAudit;
  /** keys a proof of the address or a password change revoked: forgotten by this replica's key cache at once */
  forgetKeys?: (keyIds: readonly string[]) => void;
  /** mails per address per day; none: not counted (no mail is sent) */
  mailQuota?: MailQuota;
  now?: () => number;
}

export class SignInService {
  private readonly now: () => number;
  /** verified against when the email is unknown, so both answers take as long */
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly deps: SignInDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Verifies the address of the link's account with the password of the sign-up that link confirms, and signs in:
   * the link proves the mailbox, the password the sign-up, so a link someone else's sign-up had mailed to this
   * address does nothing for the mailbox's owner, and the owner's link nothing for anyone else.
   */
  async verifyEmail(token: string, password: string | undefined, from: AuthRequest): Promise<SignedIn> {
    // Counted per address before the lookup: guessing tokens costs the guesser, not the database.
    await this.deps.throttle.beginLinkRequest(from.clientAddress);
    const tokenHash = this.linkHash(token);
    const now = new Date(this.now());
    const pending = await this.deps.credentials.pendingVerification(tokenHash, now);
    if (!pending) throw new InputError('link.invalid');
    const chosen = pending.linkPasswordHash ?? pending.accountPasswordHash;
    const attempt = await this.deps.throttle.beginSignIn(pending.email, from.clientAddress);
    if (chosen === null || password === undefined || !(await this.deps.hasher.verify(chosen, password))) {
      this.deps.failures?.record(from.clientAddress, 'password', from.requestId, {
        targetAccountId: pending.accountId,
        userAgent: from.userAgent,
      });
      throw new InputError('verify.wrongPassword');
    }
    await this.deps.throttle.succeeded(attempt);
    const passwordSet = pending.linkPasswordHash !== null && pending.linkPasswordHash !== pending.accountPasswordHash;
    const record = (id: string) => authEvent(from, 'auth.email_verify', id, { passwordSet });
    const done = await this.deps.credentials.verifyEmail(tokenHash, now, {
      record,
      removal: removalEvents(from, 'email_verified'),
    });
    const account = done && (await this.deps.accounts.findById(done.accountId));
    if (!done || !account) throw new InputError('link.invalid');
    this.deps.forgetKeys?.(done.revokedKeyIds);
    return { account, opened: await this.open(account, 'link', from) };
  }

  /**
   * Email and password. Without the right password every answer is the same 401, whether the account is
   * verified, unverified or absent; with it, an unverified account gets no session but a new verification
   * link, mailed to the address (never shown to the caller) within the day's quota.
   */
  async signIn(input: { email: string; password: string }, from: AuthRequest): Promise<PasswordSignIn> {
    const { throttle, hasher } = this.deps;
    const attempt = await throttle.beginSignIn(input.email, from.clientAddress);
    const found = await this.deps.credentials.findByEmail(input.email);
    this.dummyHash ??= hasher.hash(randomBytes(16).toString('hex'));
    const stored = found?.passwordHash ?? (await this.dummyHash);
    const ok = (await hasher.verify(stored, input.password)) && found?.passwordHash != null;
    if (!found?.passwordHash || !ok) {
      this.deps.failures?.record(from.clientAddress, 'password', from.requestId, {
        targetAccountId: found?.account.id,
        userAgent: from.userAgent,
      });
      throw new AuthenticationError('signIn.badCredentials');
    }
    await throttle.succeeded(attempt);
    if (!found.emailVerified)
      return {
        kind: 'unverified',
        account: found.account,
        verification: await this.verificationAgain(found.account, found.passwordHash, from),
      };
    return { kind: 'signedIn', account: found.account, opened: await this.open(found.account, 'password', from) };
  }

  /** A new verification link for the password just proven, unless the day's mails to the address from this requester are spent. */
  private async verificationAgain(
    account: Account,
    passwordHash: string,
    from: AuthRequest,
  ): Promise<IssuedLink | undefined> {
    try {
      await this.deps.mailQuota?.take('sign-in', account.email, addressKey(from.clientAddress));
    } catch (err) {
      if (err instanceof RateLimitError) return undefined;
      throw err;
    }
    return this.issueVerification(account.id, passwordHash);
  }

  /** A verification link that confirms the sign-up of `passwordHash`: valid 24 h, and only while the address is unverified. */
  issueVerification(accountId: string, passwordHash: string): Promise<IssuedLink> {
    return this.issueLink('email-verification', accountId, undefined, passwordHash);
  }

  /** A one-time sign-in link (the demo banner's, an operator's). */
  async redeemSignInLink(token: string, from: AuthRequest): Promise<SignedIn> {
    const accountId = await this.deps.links.consume(this.linkHash(token), 'sign-in', new Date(this.now()));
    const account = accountId ? await this.deps.accounts.findById(accountId) : undefined;
    if (!account) throw new InputError('link.invalid');
    // An operator's link opens only an account whose address is proven: it says nothing about who holds it.
    if (!(await this.deps.credentials.emailVerified(account.id))) throw new NotAllowedError('email.notVerified');
    return { account, opened: await this.open(account, 'link', from) };
  }

  /**
   * Sets a new password through a reset link; every session of the account ends, and its API keys and linked
   * identities too if asked (always, when the reset is the address's first proof).
   */
  async resetPassword(token: string, password: string, choices: ResetChoices, from: AuthRequest): Promise<SignedIn> {
    const tokenHash = this.linkHash(token);
    const now = new Date(this.now());
    const { credentials, hasher, links, accounts } = this.deps;
    // The policy needs the account's email: read the link first, consume it with the write.
    const owner = await links.peek(tokenHash, 'password-reset', now);
    const before = owner ? await accounts.findById(owner) : undefined;
    if (!before) throw new InputError('link.invalid');
    checkPassword(password, before.email);
    const record = (id: string) =>
      authEvent(from, 'auth.password_reset', id, {
        revokedApiKeys: choices.revokeApiKeys,
        unlinkedIdentities: choices.unlinkIdentities,
      });
    const done = await credentials.resetPassword(tokenHash, await hasher.hash(password), now, {
      revokeKeys: choices.revokeApiKeys,
      unlinkIdentities: choices.unlinkIdentities,
      record,
      removal: removalEvents(from, 'password_reset'),
    });
    if (done?.accountId !== before.id) throw new InputError('link.invalid');
    this.deps.forgetKeys?.(done.revokedKeyIds);
    return { account: before, opened: await this.open(before, 'link', from) };
  }

  /**
   * A signed-in person's new password, given the current one: every other
   * session ends, the API keys too if asked, and this session counts as
   * just signed in. Attempts are throttled as sign-ins are.
   */
  async changePassword(
    account: Account,
    sessionId: string,
    input: { currentPassword: string; newPassword: string; revokeApiKeys: boolean },
    from: AuthRequest,
  ): Promise<{ revokedApiKeys: number }> {
    await this.verifyCurrent(account, input.currentPassword, from);
    checkPassword(input.newPassword, account.email);
    const record = authEvent(from, 'auth.password_change', account.id, { revokedApiKeys: input.revokeApiKeys });
    const passwordHash = await this.deps.hasher.hash(input.newPassword);
    const revoked = await this.deps.credentials.changePassword(account.id, passwordHash, {
      keepSessionId: sessionId,
      revokeKeys: input.revokeApiKeys,
      record,
      removal: removalEvents(from, 'password_change'),
    });
    this.deps.forgetKeys?.(revoked);
    return { revokedApiKeys: revoked.length };
  }

  /** The password entered again: 400 when wrong (throttled as sign-ins are). */
  async verifyCurrent(account: Account, password: string, from: AuthRequest): Promise<void> {
    const { throttle, hasher } = this.deps;
    const attempt = await throttle.beginSignIn(account.email, from.clientAddress);
    const found = await this.deps.credentials.findByEmail(account.email);
    if (!found?.passwordHash) throw new InputError('password.noneSet');
    if (!(await hasher.verify(found.passwordHash, password))) {
      this.deps.failures?.record(from.clientAddress, 'password', from.requestId, {
        targetAccountId: account.id,
        userAgent: from.userAgent,
      });
      throw new InputError('password.wrongCurrent');
    }
    await throttle.succeeded(attempt);
  }

  /**
   * A link for an account (sign-in, password reset) or, without one, an invitation to sign up.
   * With `audited`, a sign-in or reset link is recorded as issued by that actor (its purpose, never its secret).
   */
  async issueLink(
    purpose: LinkPurpose,
    accountId: string | null,
    audited?: { from: AuthRequest; actor: AuditActor },
    passwordHash?: string,
  ): Promise<IssuedLink> {
    if (accountId !== null && (!isUuid(accountId) || !(await this.deps.accounts.exists(accountId))))
      throw new NotFoundError('account.notFound');
    const { token, tokenHash } = newLinkToken();
    const now = this.now();
    const expiresAt = new Date(now + LINK_TTL_MS[purpose]);
    await this.deps.links.insert({ tokenHash, purpose, accountId, now: new Date(now), expiresAt, passwordHash });
    if (audited && accountId !== null) {
      const action =
        purpose === 'password-reset' && audited.actor.kind !== 'admin'
          ? 'auth.password_reset_request'
          : 'auth.link_issue';
      await this.deps.audit.append(
        authEvent(audited.from, action, accountId, { purpose, expiresAt: expiresAt.toISOString() }, audited.actor),
      );
    }
    return { token, expiresAt: expiresAt.toISOString() };
  }

  /** A reset link for the account of `email` when its address is verified, else undefined (the caller says nothing either way). */
  async resetLinkFor(email: string, from: AuthRequest): Promise<{ account: Account; link: IssuedLink } | undefined> {
    const found = await this.deps.credentials.findByEmail(email);
    if (!found?.emailVerified) return undefined;
    // Recorded only when a link is issued: an unknown address writes nothing, a known one no more rows than its links.
    const actor: AuditActor = { kind: 'anonymous' };
    return { account: found.account, link: await this.issueLink('password-reset', found.account.id, { from, actor }) };
  }

  /**
   * Counts a reset request per client address and per email from it, and its mail in the quota, before the
   * answer: 429 when any is used up, whether or not the email has an account.
   */
  async beginResetRequest(email: string, from: AuthRequest): Promise<void> {
    await this.deps.throttle.beginLinkRequest(from.clientAddress, email);
    await this.deps.mailQuota?.take('reset', email, addressKey(from.clientAddress));
  }

  /** A session for `account` and its `auth.sign_in` record. */
  async open(account: Account, method: SignInMethod, from: AuthRequest): Promise<OpenedSession> {
    const opened = await this.deps.sessions.open(account.id, method, from.userAgent);
    await this.deps.audit.append(authEvent(from, 'auth.sign_in', account.id, { method }));
    return opened;
  }

  private linkHash(token: string | undefined): Buffer {
    return linkTokenHash(token);
  }
}
