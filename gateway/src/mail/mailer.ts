/**
 * The one module that imports nodemailer: the address verification, the
 * notice of a sign-up with a taken address, the password reset mail and the
 * workspace invitation. Sent only when SMTP is configured (SMTP_URL); the
 * link is the only secret in them. Every word is ours: a mail to an address
 * someone typed carries no text that person chose (no workspace or inviter
 * name), so it cannot be used to send arbitrary text in our name.
 */
import nodemailer, { type Transporter } from 'nodemailer';

/** What an invitation mail says: only the link, the role and until when; the link's page shows the rest. */
export interface InvitationMail {
  link: string;
  role: string;
  expiresAt: string;
}

/** Where the owner of a taken address goes instead of signing up again. */
export interface SignUpAttemptMail {
  /** the sign-in page, which also mails a reset link */
  signInLink: string;
}

export interface Mailer {
  sendEmailVerification(to: string, link: string, expiresAt: string): Promise<void>;
  sendSignUpAttempt(to: string, mail: SignUpAttemptMail): Promise<void>;
  sendPasswordReset(to: string, link: string, expiresAt: string): Promise<void>;
  sendWorkspaceInvitation(to: string, mail: InvitationMail): Promise<void>;
  close(): void;
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  /** `url`: smtp:// or smtps://, with credentials and options (e.g. `?ignoreTLS=true` for a local relay) */
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async sendEmailVerification(to: string, link: string, expiresAt: string): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to,
      subject: 'Verify your Skills Catalog email address',
      text: [
        'Someone (we hope you) created a Skills Catalog account with this address.',
        '',
        `Open this link to verify it (valid once, until ${expiresAt}):`,
        link,
        '',
        'Until then the account cannot receive invitations or reset its password. If it was not you, ignore this mail.',
      ].join('\n'),
    });
  }

  async sendSignUpAttempt(to: string, mail: SignUpAttemptMail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to,
      subject: 'Someone tried to sign up to Skills Catalog with your address',
      text: [
        'Someone (perhaps you) tried to create a Skills Catalog account with this address, which already has one.',
        'No account was created and nothing changed in yours.',
        '',
        `To sign in, or to reset a forgotten password ("Forgot your password?"): ${mail.signInLink}`,
        '',
        'If it was not you, ignore this mail.',
      ].join('\n'),
    });
  }

  async sendPasswordReset(to: string, link: string, expiresAt: string): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to,
      subject: 'Reset your Skills Catalog password',
      text: [
        'Someone (we hope you) asked to reset the password of your Skills Catalog account.',
        '',
        `Open this link to choose a new password (valid once, until ${expiresAt}):`,
        link,
        '',
        'If it was not you, ignore this mail: your password stays as it is.',
      ].join('\n'),
    });
  }

  async sendWorkspaceInvitation(to: string, mail: InvitationMail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to,
      subject: 'You are invited to a team workspace on Skills Catalog',
      text: [
        `You are invited to join a team workspace on Skills Catalog, as ${mail.role}.`,
        '',
        `Open this link to see who invites you and to which workspace, then join (sign in, or create an account); it works once, until ${mail.expiresAt}:`,
        mail.link,
        '',
        'If you did not expect it, ignore this mail.',
      ].join('\n'),
    });
  }

  close(): void {
    this.transport.close();
  }
}
