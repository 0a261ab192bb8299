/**
 * The one module that imports nodemailer: the address verification, the
 * password reset mail and the workspace invitation. Sent only when SMTP is configured (SMTP_URL); the
 * link is the only secret in them.
 */
import nodemailer, { type Transporter } from 'nodemailer';

/** What an invitation mail says: who invites, to which workspace, with which role, until when. */
export interface InvitationMail {
  link: string;
  workspaceName: string;
  role: string;
  inviter: string;
  expiresAt: string;
}

export interface Mailer {
  sendEmailVerification(to: string, link: string, expiresAt: string): Promise<void>;
  sendPasswordReset(to: string, link: string, expiresAt: string): Promise<void>;
  sendWorkspaceInvitation(to: string, mail: InvitationMail): Promise<void>;
  close(): void;
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  /** `url`: smtp:// or smtps://, with credentials and options (e.g. `?ignoreTLS=true` for a local relay) */
  constructor(url: string, private readonly from: string) {
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
      subject: `${mail.inviter} invited you to ${mail.workspaceName} on Skills Catalog`,
      text: [
        `${mail.inviter} invited you to the team workspace "${mail.workspaceName}" on Skills Catalog, as ${mail.role}.`,
        '',
        `Open this link to join (sign in, or create an account); it works once, until ${mail.expiresAt}:`,
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
