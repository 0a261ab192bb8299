/**
 * The one module that imports nodemailer: the password reset mail. Sent
 * only when SMTP is configured (SMTP_URL); the link is the only secret in it.
 */
import nodemailer, { type Transporter } from 'nodemailer';

export interface Mailer {
  sendPasswordReset(to: string, link: string, expiresAt: string): Promise<void>;
  close(): void;
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  /** `url`: smtp:// or smtps://, with credentials and options (e.g. `?ignoreTLS=true` for a local relay) */
  constructor(url: string, private readonly from: string) {
    this.transport = nodemailer.createTransport(url);
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

  close(): void {
    this.transport.close();
  }
}
