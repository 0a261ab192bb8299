/**
 * What the sign-up, sign-in and reset requests send once they have
 * answered: the request's answer never waits for the account lookup, the
 * insert or the mail, so neither its content nor its timing says whether the
 * address is known. Each mail is in the language of the request. Where no
 * mail leaves this machine (the embedded default, plain loopback without
 * SMTP_URL) the links are logged at warn instead, the level that default
 * shows; elsewhere without mail they are dropped.
 */
import type { Language, Logger } from '@skills/common';
import type { Site } from '../site';
import type { Mailer } from '../../mail/mailer';
import type { IssuedLink } from './sign-in.service';
import type { SignUpOutcome } from './sign-up.service';
import type { Account } from '../accounts/account';

export interface AccountMailDeps {
  site: Site;
  logger: Logger;
  mailer?: Mailer;
}

export class AccountMail {
  constructor(private readonly deps: AccountMailDeps) {}

  /** Runs `work` after the answer; a failure is logged, never thrown at a client that already has its answer. */
  afterAnswer(what: string, work: () => Promise<void>): void {
    // setImmediate: the answer is flushed before the lookup starts, so a slow database or mailer cannot delay it.
    setImmediate(() => {
      work().catch((err: unknown) => this.deps.logger.error({ err }, `could not finish the ${what}`));
    });
  }

  /** The verification link of a sign-up, or a notice to the owner of a verified address. */
  async signUpFinished(outcome: SignUpOutcome, language: Language): Promise<void> {
    const { mailer, site, logger } = this.deps;
    if (outcome.kind === 'invitationUsed') return;
    if (outcome.kind === 'created') return this.verification(outcome.account, outcome.verification, language);
    const signInLink = site.link('/console/sign-in');
    // The sign-in page also asks for a reset link ("Forgot your password?").
    if (mailer) await mailer.sendSignUpAttempt(outcome.email, { signInLink }, language);
    else if (site.plainLoopback)
      logger.warn(
        { email: outcome.email, signInLink },
        'no SMTP_URL: someone tried to sign up with an address that has an account',
      );
  }

  /** A verification link, mailed to the account's address (never to whoever asked for it). */
  async verification(account: Account, verification: IssuedLink, language: Language): Promise<void> {
    const { mailer, site, logger } = this.deps;
    const link = site.link(`/console/verify#token=${verification.token}`);
    if (mailer)
      await mailer.sendEmailVerification(account.email, { link, expiresAt: verification.expiresAt }, language);
    // The address is logged with the link so the person running the embedded default knows which is theirs.
    else if (site.plainLoopback)
      logger.warn(
        { accountId: account.id, email: account.email, link },
        'no SMTP_URL: open this link to verify the address',
      );
  }

  /** The reset link, mailed to the account's address. */
  async resetRequested(found: { account: Account; link: IssuedLink } | undefined, language: Language): Promise<void> {
    const { mailer, site } = this.deps;
    if (!found || !mailer) return;
    await mailer.sendPasswordReset(
      found.account.email,
      { link: site.link(`/console/reset#token=${found.link.token}`), expiresAt: found.link.expiresAt },
      language,
    );
  }
}
