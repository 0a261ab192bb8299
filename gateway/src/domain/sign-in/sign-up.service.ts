/**
 * Signing up with a password, by the server's sign-up mode: every check
 * that does not depend on whether the address is known runs before the
 * answer, and the hash too, so a new and a taken address answer alike and
 * cost alike; the lookup, the insert and the mail come after the answer
 * (account-mail.ts). An account starts unverified and signs in to nothing
 * until its address is proven (docs/security.md "Account lifecycle").
 */
import { ConflictError, InputError, NotAllowedError } from '@skills/common';
import type { Account } from '../accounts/account';
import type { CredentialStore, LinkStore } from './credentials';
import { authEvent, type AuthRequest } from '../audit/auth-audit';
import { linkTokenHash } from './link-token';
import type { MailQuota } from '../limits/mail-quota';
import type { PasswordHasher } from './password-hasher';
import { checkPassword } from './password-policy';
import type { SignInThrottle } from '../limits/sign-in-throttle';
import type { IssuedLink, SignInService } from './sign-in.service';
import { addressKey } from '../limits/address-key';

export type SignUpMode = 'open' | 'invite' | 'closed';

/** A sign-up that passed every check and is hashed, waiting to be stored after the answer. */
export interface PendingSignUp {
  email: string;
  name: string | null;
  passwordHash: string;
  invitation?: { tokenHash: Buffer; now: Date };
}

/**
 * What a finished sign-up mails: a verification link (a new account, or one whose address is not verified yet:
 * the link confirms this sign-up's password), or a notice to the owner of a verified address.
 */
export type SignUpOutcome =
  | { kind: 'created'; account: Account; verification: IssuedLink }
  | { kind: 'taken'; email: string }
  | { kind: 'invitationUsed' };

export interface SignUpDeps {
  credentials: CredentialStore;
  links: LinkStore;
  hasher: PasswordHasher;
  throttle: SignInThrottle;
  /** issues the verification links */
  signIn: SignInService;
  signUpMode: SignUpMode;
  /**
   * Whether the workspace invitation a link names is still pending at
   * collections-service (workspace-invitations.ts); none: only
   * the link's own state counts (a gateway without collections-service).
   */
  workspaceInvitationPending?: (invitationId: string, requestId: string) => Promise<boolean>;
  /** mails per address per day; none: not counted (no mail is sent) */
  mailQuota?: MailQuota;
  now?: () => number;
}

export class SignUpService {
  private readonly now: () => number;

  constructor(private readonly deps: SignUpDeps) {
    this.now = deps.now ?? Date.now;
  }

  get mode(): SignUpMode {
    return this.deps.signUpMode;
  }

  /**
   * Every check of a sign-up that does not depend on whether the email is known (mode, throttle, policy,
   * invitation), then the hash: the answer is the same for a new and a taken address, and so is its cost.
   */
  async prepare(
    input: { email: string; password: string; name: string | null; invitation?: string },
    from: AuthRequest,
  ): Promise<PendingSignUp> {
    const mode = this.deps.signUpMode;
    if (mode === 'closed') throw new NotAllowedError('signUp.closed');
    if (mode === 'invite' && input.invitation === undefined) throw new NotAllowedError('signUp.invitationRequired');
    await this.deps.throttle.beginSignUp(from.clientAddress);
    checkPassword(input.password, input.email);
    const invitation =
      mode === 'invite' ? { tokenHash: linkTokenHash(input.invitation), now: new Date(this.now()) } : undefined;
    // Consumed again with the insert (credential.repository.ts); this read only spares a hash for a link that cannot work.
    if (invitation && (await this.deps.links.peek(invitation.tokenHash, 'invitation', invitation.now)) === undefined)
      throw new InputError('link.invalid');
    if (invitation && !(await this.workspaceInvitationLive(invitation.tokenHash, invitation.now, from.requestId)))
      throw new InputError('link.invalid');
    // Both outcomes mail the address (a link or a notice), so both count, before the hash they would cost.
    await this.deps.mailQuota?.take('sign-up', input.email, addressKey(from.clientAddress));
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
  async complete(pending: PendingSignUp, from: AuthRequest): Promise<SignUpOutcome> {
    const { credentials, signIn } = this.deps;
    const existing = await credentials.findByEmail(pending.email);
    // Never verified: perhaps someone else signed this address up. This sign-up gets a link of its own, which
    // verifies the address only with this sign-up's password: whoever holds both the mailbox and it.
    if (existing && !existing.emailVerified) {
      return {
        kind: 'created',
        account: existing.account,
        verification: await signIn.issueVerification(existing.account.id, pending.passwordHash),
      };
    }
    if (existing) return { kind: 'taken', email: pending.email };
    const record = (id: string) =>
      authEvent(from, 'auth.sign_up', id, { method: 'password', invited: pending.invitation !== undefined });
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
    return { kind: 'created', account, verification: await signIn.issueVerification(account.id, pending.passwordHash) };
  }
}
