/**
 * `npm start` hands the gateway the settings a small deployment needs: the
 * built launcher, started with SMTP_URL pointing at a real SMTP server
 * (smtp-server) started here, PUBLIC_URL and SIGNUP_MODE, mails a sign-up's
 * link to the address that signed up, built on PUBLIC_URL. The mail's
 * subject and words are not this test's business; that it arrives, to whom,
 * and with which link, is.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { eventually, freePort } from '@skills/common/testing';
import { startStack, type Stack } from './helpers';

interface Mail {
  to: string[];
  from: string | undefined;
  text: string;
}

describe('npm start with the settings of a small deployment', () => {
  let stack: Stack;
  let publicUrl: string;
  const mails: Mail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        // quoted-printable, as a mail client reads it: soft line breaks joined, =XX decoded
        const text = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        const from = session.envelope.mailFrom;
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), from: from ? from.address : undefined, text });
        callback();
      });
    },
  });

  beforeAll(async () => {
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    // the gateway's port is chosen here, so PUBLIC_URL can name it (localhost: a loopback name other than the default 127.0.0.1)
    const port = await freePort();
    publicUrl = `http://localhost:${port}`;
    stack = await startStack({
      env: {
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        SIGNUP_MODE: 'open',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}/?ignoreTLS=true`,
        MAIL_FROM: 'Skills Catalog <no-reply@skills.test>',
      },
    });
  }, 180_000);
  afterAll(async () => {
    await stack?.dispose();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }, 30_000);

  it('mails the link of a sign-up to the address that signed up, from MAIL_FROM, on PUBLIC_URL', async () => {
    const email = `new-${Date.now()}@example.com`;
    const signUp = await stack.client.call('POST', '/api/v1/auth/sign-up', {
      headers: { origin: publicUrl },
      json: { email, password: 'a-long-enough-passphrase-for-the-policy' },
    });
    expect(signUp.status).toBe(202);
    const mail = await eventually(() => mails.find((m) => m.to.includes(email)), `a mail to ${email}`, 30_000);
    expect(mail.to).toEqual([email]);
    expect(mail.from).toBe('no-reply@skills.test');
    const escaped = publicUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    expect(mail.text).toMatch(new RegExp(`${escaped}/console/[a-z-]+#token=[A-Za-z0-9_-]{20,}`));
    // nothing went to anyone else
    expect(mails.flatMap((m) => m.to)).toEqual([email]);
  });
});
