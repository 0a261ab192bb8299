/**
 * How people get a console session: sign-up (by the server's sign-up mode),
 * email + password (argon2id, throttled failures), one-time links (sign-in
 * links the operator issues, password resets) and, in oidc.service.ts,
 * OpenID Connect. New accounts start on `free`: no API access for their
 * keys until an operator changes the plan.
 */
import { randomBytes } from 'node:crypto';
import { AuthenticationError, InputError, NotAllowedError, NotFoundError, isUuid } from '@skills/common';
import type { Account, AccountRepository } from '../domain/account';
import type { SessionService, OpenedSession } from '../sessions/session.service';
import type { SignInMethod } from '../sessions/session';
import type { CredentialStore } from './credential.store';
import type { LinkPurpose, LinkStore } from './link.store';
import { linkTokenHash, newLinkToken } from './link-token';
import type { PasswordHasher } from './password-hasher';
import { checkPassword } from './password-policy';
import type { SignInThrottle } from './sign-in-throttle';

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

/** A new account's session and the link that verifies its address (to mail, never to answer with). */
export interface SignedUp extends SignedIn {
  verification: IssuedLink;
}

export interface SignInDeps {
  accounts: AccountRepository;
  credentials: CredentialStore;
  links: LinkStore;
  hasher: PasswordHasher;
  throttle: SignInThrottle;
  sessions: SessionService;
  signUpMode: SignUpMode;
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

  /** Every cheap check first (mode, throttle, policy, invitation); the password is hashed last. */
  async signUp(input: { email: string; password: string; name: string | null; invitation?: string }, address: string, userAgent?: string): Promise<SignedUp> {
    const mode = this.deps.signUpMode;
    if (mode === 'closed') throw new NotAllowedError('signUp.closed');
    if (mode === 'invite' && input.invitation === undefined) throw new NotAllowedError('signUp.invitationRequired');
    this.deps.throttle.beginSignUp(address);
    checkPassword(input.password, input.email);
    const invitation = mode === 'invite' ? { tokenHash: this.linkHash(input.invitation), now: new Date(this.now()) } : undefined;
    // Consumed again with the insert (credential.store.ts); this read only spares a hash for a link that cannot work.
    if (invitation && (await this.deps.links.peek(invitation.tokenHash, 'invitation', invitation.now)) === undefined) throw new InputError('link.invalid');
    const passwordHash = await this.deps.hasher.hash(input.password);
    const account = await this.deps.credentials.create({ email: input.email, name: input.name, plan: 'free', passwordHash }, invitation);
    if (!account) throw new InputError('link.invalid');
    // The address stays unverified until its owner opens this link.
    const verification = await this.issueLink('email-verification', account.id);
    return { account, opened: await this.open(account, 'password', userAgent), verification };
  }

  /** Marks the address of the link's account verified; 400 for a link that is unknown, used or expired. */
  async verifyEmail(token: string): Promise<void> {
    const accountId = await this.deps.credentials.verifyEmail(this.linkHash(token), new Date(this.now()));
    if (!accountId) throw new InputError('link.invalid');
  }

  async signIn(input: { email: string; password: string }, address: string, userAgent?: string): Promise<SignedIn> {
    const { throttle, hasher } = this.deps;
    const attempt = throttle.beginSignIn(input.email, address);
    const found = await this.deps.credentials.findByEmail(input.email);
    this.dummyHash ??= hasher.hash(randomBytes(16).toString('hex'));
    const stored = found?.passwordHash ?? (await this.dummyHash);
    const ok = (await hasher.verify(stored, input.password)) && found?.passwordHash != null;
    if (!found || !ok) throw new AuthenticationError('signIn.badCredentials');
    throttle.succeeded(attempt);
    return { account: found.account, opened: await this.open(found.account, 'password', userAgent) };
  }

  /** A one-time sign-in link (the demo banner's, an operator's). */
  async redeemSignInLink(token: string, userAgent?: string): Promise<SignedIn> {
    const accountId = await this.deps.links.consume(this.linkHash(token), 'sign-in', new Date(this.now()));
    const account = accountId ? await this.deps.accounts.findById(accountId) : undefined;
    if (!account) throw new InputError('link.invalid');
    return { account, opened: await this.open(account, 'link', userAgent) };
  }

  /** Sets a new password through a reset link; every other session of the account ends. */
  async resetPassword(token: string, password: string, userAgent?: string): Promise<SignedIn> {
    const tokenHash = this.linkHash(token);
    const now = new Date(this.now());
    const { credentials, hasher, links, accounts } = this.deps;
    // The policy needs the account's email: read the link first, consume it with the write.
    const owner = await links.peek(tokenHash, 'password-reset', now);
    const before = owner ? await accounts.findById(owner) : undefined;
    if (!before) throw new InputError('link.invalid');
    checkPassword(password, before.email);
    const accountId = await credentials.resetPassword(tokenHash, await hasher.hash(password), now);
    if (accountId !== before.id) throw new InputError('link.invalid');
    return { account: before, opened: await this.open(before, 'link', userAgent) };
  }

  /** A link for an account (sign-in, password reset) or, without one, an invitation to sign up. */
  async issueLink(purpose: LinkPurpose, accountId: string | null): Promise<IssuedLink> {
    if (accountId !== null && (!isUuid(accountId) || !(await this.deps.accounts.exists(accountId)))) throw new NotFoundError('account.notFound');
    const { token, tokenHash } = newLinkToken();
    const now = this.now();
    const expiresAt = new Date(now + LINK_TTL_MS[purpose]);
    await this.deps.links.insert({ tokenHash, purpose, accountId, now: new Date(now), expiresAt });
    return { token, expiresAt: expiresAt.toISOString() };
  }

  /** A reset link for the account of `email` when its address is verified, else undefined (the caller says nothing either way). */
  async resetLinkFor(email: string): Promise<{ account: Account; link: IssuedLink } | undefined> {
    const found = await this.deps.credentials.findByEmail(email);
    if (!found?.emailVerified) return undefined;
    return { account: found.account, link: await this.issueLink('password-reset', found.account.id) };
  }

  open(account: Account, method: SignInMethod, userAgent?: string): Promise<OpenedSession> {
    return this.deps.sessions.open(account.id, method, userAgent);
  }

  private linkHash(token: string | undefined): Buffer {
    return linkTokenHash(token);
  }
}
