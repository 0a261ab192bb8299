/**
 * How people get a console session: sign-up (by the server's sign-up mode),
 * email + password (argon2id, throttled failures), one-time links (sign-in
 * links the operator issues, password resets) and, in oidc.service.ts,
 * OpenID Connect. New accounts start on `free`: no API access for their
 * keys until an operator changes the plan. Every event is in the audit
 * trail (auth-audit.ts): a success with the change it makes, in its
 * transaction where there is one; a failed password counted in memory
 * (AuthFailureAudit), never one insert per guess.
 */
import { randomBytes } from 'node:crypto';
import { AuthenticationError, ConflictError, InputError, NotAllowedError, NotFoundError, isUuid } from '@skills/common';
import type { Account, AccountRepository } from './account';
import type { AuditActor, AuditLog } from './audit';
import type { CredentialStore, LinkPurpose, LinkStore } from './credentials';
import type { AuthFailureAudit } from './auth-failure-audit';
import { authEvent, type AuthRequest } from './auth-audit';
import type { SessionService, OpenedSession } from './session.service';
import type { SignInMethod } from './session';
import { linkTokenHash, newLinkToken } from './link-token';
import type { PasswordHasher } from './password-hasher';
import { checkPassword } from './password-policy';
import type { SignInThrottle } from './sign-in-throttle';
import type { MailQuota } from './mail-quota';

export type SignUpMode = 'open' | 'invite' | 'closed';

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

/** A sign-up that passed every check and is hashed, waiting to be stored after the answer. */
export interface PendingSignUp {
  email: string;
  name: string | null;
  passwordHash: string;
  invitation?: { tokenHash: Buffer; now: Date };
}

/** What a finished sign-up mails: a verification link for a new account, or a notice to the owner of a taken address. */
export type SignUpOutcome = { kind: 'created'; account: Account; verification: IssuedLink } | { kind: 'taken'; email: string } | { kind: 'invitationUsed' };

export interface SignInDeps {
  accounts: AccountRepository;
  credentials: CredentialStore;
  links: LinkStore;
  hasher: PasswordHasher;
  throttle: SignInThrottle;
  sessions: SessionService;
  signUpMode: SignUpMode;
  audit: AuditLog;
  /**
   * Whether the workspace invitation a link names is still pending at
   * collections-service (workspace-invitations.ts); none: only
   * the link's own state counts (a gateway without collections-service).
   */
  workspaceInvitationPending?: (invitationId: string, requestId: string) => Promise<boolean>;
  /** counts failed password sign-ins into the trail; none: they are not recorded */
  failures?: AuthFailureAudit;
  /** keys a password reset or change revoked: forgotten by this replica's key cache at once */
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

  get signUpMode(): SignUpMode {
    return this.deps.signUpMode;
  }

  /**
   * Every check of a sign-up that does not depend on whether the email is known (mode, throttle, policy,
   * invitation), then the hash: the answer is the same for a new and a taken address, and so is its cost.
   */
  async prepareSignUp(input: { email: string; password: string; name: string | null; invitation?: string }, from: AuthRequest): Promise<PendingSignUp> {
    const mode = this.deps.signUpMode;
    if (mode === 'closed') throw new NotAllowedError('signUp.closed');
    if (mode === 'invite' && input.invitation === undefined) throw new NotAllowedError('signUp.invitationRequired');
    await this.deps.throttle.beginSignUp(from.clientAddress);
    checkPassword(input.password, input.email);
    const invitation = mode === 'invite' ? { tokenHash: this.linkHash(input.invitation), now: new Date(this.now()) } : undefined;
    // Consumed again with the insert (credential.repository.ts); this read only spares a hash for a link that cannot work.
    if (invitation && (await this.deps.links.peek(invitation.tokenHash, 'invitation', invitation.now)) === undefined) throw new InputError('link.invalid');
    if (invitation && !(await this.workspaceInvitationLive(invitation.tokenHash, invitation.now, from.requestId))) throw new InputError('link.invalid');
    // Both outcomes mail the address (a link or a notice), so both count, before the hash they would cost.
    await this.deps.mailQuota?.takeAddress(input.email);
    const passwordHash = await this.deps.hasher.hash(input.password);
    return { email: input.email, name: input.name, passwordHash, invitation };
  }

  /** A workspace invitation link signs up only while its invitation is pending; other invitation links need no more. */
  private async workspaceInvitationLive(tokenHash: Buffer, now: Date, requestId: string): Promise<boolean> {
    const pending = this.deps.workspaceInvitationPending;
    const invitationId = pending && (await this.deps.links.workspaceInvitationOf(tokenHash, now));
    return !invitationId || pending(invitationId, requestId);
  }

  /**
   * Stores a prepared sign-up, after the answer: a new, unverified account and its verification link (no session:
   * the link opens one), or, for a taken address, nothing but a notice to mail. An invitation is consumed only
   * with a new account.
   */
  async completeSignUp(pending: PendingSignUp, from: AuthRequest): Promise<SignUpOutcome> {
    const { credentials } = this.deps;
    const existing = await credentials.findByEmail(pending.email);
    // Never verified: perhaps someone else signed this address up. The mailbox's owner gets a link that sets
    // this sign-up's password when opened, so nobody can hold an address by signing it up first.
    if (existing && !existing.emailVerified) {
      return {
        kind: 'created',
        account: existing.account,
        verification: await this.issueLink('email-verification', existing.account.id, undefined, pending.passwordHash),
      };
    }
    if (existing) return { kind: 'taken', email: pending.email };
    const record = (id: string) => authEvent(from, 'auth.sign_up', id, { method: 'password', invited: pending.invitation !== undefined });
    let account: Account | undefined;
    try {
      account = await credentials.create(
        { email: pending.email, name: pending.name, plan: 'free', passwordHash: pending.passwordHash },
        pending.invitation,
        record,
      );
    } catch (err) {
      // Two sign-ups for one address at once: the second learns it is taken, as if it came later.
      if (err instanceof ConflictError) return { kind: 'taken', email: pending.email };
      throw err;
    }
    if (!account) return { kind: 'invitationUsed' };
    return { kind: 'created', account, verification: await this.issueLink('email-verification', account.id) };
  }

  /** Marks the address of the link's account verified and signs its holder in: the mailed link proves the mailbox. */
  async verifyEmail(token: string, from: AuthRequest): Promise<SignedIn> {
    // Counted per address before the lookup: guessing tokens costs the guesser, not the database.
    await this.deps.throttle.beginLinkRequest(from.clientAddress);
    const accountId = await this.deps.credentials.verifyEmail(this.linkHash(token), new Date(this.now()));
    const account = accountId ? await this.deps.accounts.findById(accountId) : undefined;
    if (!account) throw new InputError('link.invalid');
    return { account, opened: await this.open(account, 'link', from) };
  }

  async signIn(input: { email: string; password: string }, from: AuthRequest): Promise<SignedIn> {
    const { throttle, hasher } = this.deps;
    const attempt = await throttle.beginSignIn(input.email, from.clientAddress);
    const found = await this.deps.credentials.findByEmail(input.email);
    this.dummyHash ??= hasher.hash(randomBytes(16).toString('hex'));
    const stored = found?.passwordHash ?? (await this.dummyHash);
    const ok = (await hasher.verify(stored, input.password)) && found?.passwordHash != null;
    if (!found || !ok) {
      this.deps.failures?.record(from.clientAddress, 'password', from.requestId, { targetAccountId: found?.account.id, userAgent: from.userAgent });
      throw new AuthenticationError('signIn.badCredentials');
    }
    await throttle.succeeded(attempt);
    return { account: found.account, opened: await this.open(found.account, 'password', from) };
  }

  /** A one-time sign-in link (the demo banner's, an operator's). */
  async redeemSignInLink(token: string, from: AuthRequest): Promise<SignedIn> {
    const accountId = await this.deps.links.consume(this.linkHash(token), 'sign-in', new Date(this.now()));
    const account = accountId ? await this.deps.accounts.findById(accountId) : undefined;
    if (!account) throw new InputError('link.invalid');
    return { account, opened: await this.open(account, 'link', from) };
  }

  /** Sets a new password through a reset link; every session of the account ends, and its API keys too if asked. */
  async resetPassword(token: string, password: string, revokeApiKeys: boolean, from: AuthRequest): Promise<SignedIn> {
    const tokenHash = this.linkHash(token);
    const now = new Date(this.now());
    const { credentials, hasher, links, accounts } = this.deps;
    // The policy needs the account's email: read the link first, consume it with the write.
    const owner = await links.peek(tokenHash, 'password-reset', now);
    const before = owner ? await accounts.findById(owner) : undefined;
    if (!before) throw new InputError('link.invalid');
    checkPassword(password, before.email);
    const record = (id: string) => authEvent(from, 'auth.password_reset', id, { revokedApiKeys: revokeApiKeys });
    const done = await credentials.resetPassword(tokenHash, await hasher.hash(password), now, { revokeKeys: revokeApiKeys, record });
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
    const revoked = await this.deps.credentials.changePassword(account.id, passwordHash, { keepSessionId: sessionId, revokeKeys: input.revokeApiKeys, record });
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
      this.deps.failures?.record(from.clientAddress, 'password', from.requestId, { targetAccountId: account.id, userAgent: from.userAgent });
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
    if (accountId !== null && (!isUuid(accountId) || !(await this.deps.accounts.exists(accountId)))) throw new NotFoundError('account.notFound');
    const { token, tokenHash } = newLinkToken();
    const now = this.now();
    const expiresAt = new Date(now + LINK_TTL_MS[purpose]);
    await this.deps.links.insert({ tokenHash, purpose, accountId, now: new Date(now), expiresAt, passwordHash });
    if (audited && accountId !== null) {
      const action = purpose === 'password-reset' && audited.actor.kind !== 'admin' ? 'auth.password_reset_request' : 'auth.link_issue';
      await this.deps.audit.append(authEvent(audited.from, action, accountId, { purpose, expiresAt: expiresAt.toISOString() }, audited.actor));
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

  /** Counts a reset request per client address and per email, before the answer: 429 when either has used its share. */
  async beginResetRequest(email: string, from: AuthRequest): Promise<void> {
    await this.deps.throttle.beginLinkRequest(from.clientAddress, email);
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
