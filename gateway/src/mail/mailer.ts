/**
 * The one module that imports nodemailer: the address verification, the
 * notice of a sign-up with a taken address, the password reset mail and the
 * workspace invitation, in the words of mail-texts.ts. Sent only when SMTP
 * is configured (SMTP_URL); the link is the only secret in them.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Language } from '@skills/common';
import { mailTexts, type InvitationMail, type LinkMail, type MailText } from './mail-texts';

export type { InvitationMail, LinkMail } from './mail-texts';

/** Where the owner of a taken address goes instead of signing up again. */
export interface SignUpAttemptMail {
  /** the sign-in page, which also mails a reset link */
  signInLink: string;
}

/** Every mail is in the language of the request that caused it. */
export interface Mailer {
  sendEmailVerification(to: string, mail: LinkMail, language: Language): Promise<void>;
  sendSignUpAttempt(to: string, mail: SignUpAttemptMail, language: Language): Promise<void>;
  sendPasswordReset(to: string, mail: LinkMail, language: Language): Promise<void>;
  sendWorkspaceInvitation(to: string, mail: InvitationMail, language: Language): Promise<void>;
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

  sendEmailVerification(to: string, mail: LinkMail, language: Language): Promise<void> {
    return this.send(to, mailTexts(language).verification(mail));
  }

  sendSignUpAttempt(to: string, mail: SignUpAttemptMail, language: Language): Promise<void> {
    return this.send(to, mailTexts(language).signUpAttempt(mail.signInLink));
  }

  sendPasswordReset(to: string, mail: LinkMail, language: Language): Promise<void> {
    return this.send(to, mailTexts(language).reset(mail));
  }

  sendWorkspaceInvitation(to: string, mail: InvitationMail, language: Language): Promise<void> {
    return this.send(to, mailTexts(language).invitation(mail));
  }

  close(): void {
    this.transport.close();
  }

  private async send(to: string, { subject, text }: MailText): Promise<void> {
    await this.transport.sendMail({ from: this.from, to, subject, text });
  }
}
