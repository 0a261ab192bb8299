/**
 * Sign-up and password reset by mail against a real SMTP server
 * (smtp-server) started in the test: the verification link that signs in, a
 * notice (not a second account) for a taken address with the same answer as
 * a new one, a reset link mailed to an account's address, nothing mailed for
 * an unknown one (same answer), and the mailed link setting a new password.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { SMTPServer } from 'smtp-server';
import { startHarness, type Harness } from './harness';
import { PASSWORD } from './profile-harness';

interface Mail {
  to: string[];
  body: string;
}

describe('password reset by mail', () => {
  let h: Harness;
  const mails: Mail[] = [];
  let waiting: (() => void) | undefined;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), body: Buffer.concat(chunks).toString('utf8') });
        waiting?.();
        callback();
      });
    },
  });

  /** The next mail, within a deadline. */
  const nextMail = (count: number) =>
    new Promise<Mail>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no mail ${count} within 10 s`)), 10_000);
      const check = () => {
        const mail = mails[count - 1];
        if (mail) {
          clearTimeout(timer);
          resolve(mail);
        }
      };
      waiting = check;
      check();
    });

  beforeAll(async () => {
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const port = (smtp.server.address() as AddressInfo).port;
    h = await startHarness({
      mail: { smtpUrl: `smtp://127.0.0.1:${port}/?ignoreTLS=true`, from: 'Skills Catalog <no-reply@skills.example>' },
      trustProxy: ['loopback'],
      signInThrottle: { linksPerAddress: 10, linksPerEmail: 3 },
    });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }, 30_000);

  /** A link of `path` in a mail; the body is quoted-printable, as a mail client reads it: soft line breaks joined, =XX decoded. */
  const linkIn = (mail: Mail, path: string) => {
    const text = mail.body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return new RegExp(`${h.gateway.url}${path}#token=([A-Za-z0-9_-]{43})\\s`).exec(text)?.[1];
  };
  const requestReset = (email: string) =>
    request(h.gateway.url)
      .post('/api/v1/auth/password-reset-request')
      .set('Origin', h.gateway.url)
      .send({ email })
      .expect(202);

  const signUp = (email: string) =>
    request(h.gateway.url)
      .post('/api/v1/auth/sign-up')
      .set('Origin', h.gateway.url)
      .send({ email, password: PASSWORD })
      .expect(202);

  it('mails a verification link at sign-up, no reset link before the address is verified, then a one-time reset link; nothing for an unknown one, with the same answer', async () => {
    const origin = h.gateway.url;
    const person = { email: `mailed-${Date.now()}@example.com`, agent: request.agent(origin) };
    await signUp(person.email);
    const options = await request(origin).get('/api/v1/auth/options').expect(200);
    expect(options.body.data.passwordResetByMail).toBe(true);

    const verification = await nextMail(1);
    expect(verification.to).toEqual([person.email]);
    const verifyToken = linkIn(verification, '/console/verify');
    expect(verifyToken).toBeDefined();
    // Unverified: the same answer, no mail.
    const unverified = await requestReset(person.email);
    await new Promise((r) => setTimeout(r, 500));
    expect(mails).toHaveLength(1);
    // The mailed link signs its holder in: the console's /verify page lands signed in.
    const verified = await person.agent
      .post('/api/v1/auth/verify-email')
      .set('Origin', origin)
      .send({ token: verifyToken, password: PASSWORD })
      .expect(200);
    const accountId = verified.body.data.account.id as string;
    await person.agent.get('/api/v1/auth/session').expect(200);
    await request(origin)
      .post('/api/v1/auth/verify-email')
      .set('Origin', origin)
      .send({ token: verifyToken, password: PASSWORD })
      .expect(400);

    const unknown = await requestReset('nobody@example.com');
    const known = await requestReset(person.email);
    expect(known.body).toEqual(unknown.body);
    expect(unverified.body).toEqual(unknown.body);

    const mail = await nextMail(2);
    expect(mail.to).toEqual([person.email]);
    const token = linkIn(mail, '/console/reset');
    expect(token).toBeDefined();
    expect(mails).toHaveLength(2);

    const fresh = request.agent(origin);
    const reset = await fresh
      .post('/api/v1/auth/password-reset')
      .set('Origin', origin)
      .send({ token, password: 'a-new-and-long-passphrase' });
    expect(reset.status).toBe(200);
    await person.agent.get('/api/v1/auth/session').expect(401);
    await request(origin)
      .post('/api/v1/auth/sign-in')
      .set('Origin', origin)
      .send({ email: person.email, password: PASSWORD })
      .expect(401);
    await request(origin)
      .post('/api/v1/auth/sign-in')
      .set('Origin', origin)
      .send({ email: person.email, password: 'a-new-and-long-passphrase' })
      .expect(200);

    // The trail: one request recorded (the one that issued a link), the reset with the account's, no link in either.
    const { events } = (await h.admin('get', `/admin/v1/audit-events?accountId=${accountId}`).expect(200)).body
      .data as {
      events: { action: string; actor: { kind: string }; requestId: string }[];
    };
    const requested = events.filter((e) => e.action === 'auth.password_reset_request');
    expect(requested).toEqual([
      expect.objectContaining({ actor: { kind: 'anonymous' }, requestId: known.headers['x-request-id'] }),
    ]);
    expect(events.find((e) => e.action === 'auth.password_reset')).toMatchObject({
      actor: { kind: 'account' },
      requestId: reset.headers['x-request-id'],
    });
    for (const secret of [token ?? '', verifyToken ?? '', PASSWORD, 'a-new-and-long-passphrase'])
      expect(JSON.stringify(events)).not.toContain(secret);
  }, 60_000);

  it('throttles reset requests per inbox and address (never holding back another address), and reset requests and verifications per address, with 429 and Retry-After', async () => {
    const origin = h.gateway.url;
    const ask = (client: string, email: string) =>
      request(origin)
        .post('/api/v1/auth/password-reset-request')
        .set('Origin', origin)
        .set('X-Forwarded-For', client)
        .send({ email });
    // One inbox, one address: 3, then 429; the inbox's owner, asking from elsewhere, still gets theirs.
    const perInbox = [];
    for (let i = 1; i <= 3; i += 1) perInbox.push((await ask('198.51.100.1', 'inbox@example.com')).status);
    const refused = await ask('198.51.100.1', 'Inbox@example.com').set('Accept-Language', 'fr');
    perInbox.push(refused.status);
    expect(perInbox).toEqual([202, 202, 202, 429]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    expect(refused.body).toEqual({ error: expect.stringMatching(/^Trop de demandes de lien ; réessayez dans \d+ s$/) });
    await ask('198.51.100.2', 'inbox@example.com').expect(202);

    // One address, many inboxes and made-up verification tokens: 10 in all, then 429 before any lookup.
    const client = '203.0.113.50';
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await ask(client, `someone${i}@example.com`)).status);
    for (let i = 0; i < 5; i += 1) {
      const verify = request(origin)
        .post('/api/v1/auth/verify-email')
        .set('Origin', origin)
        .set('X-Forwarded-For', client);
      statuses.push((await verify.send({ token: `made-up-token-${i}` })).status);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 400, 400, 400, 400, 429]);
    await ask('203.0.113.51', 'someone-else@example.com').expect(202);
  });

  it('answers a sign-up with a taken address as a new one, and mails its owner a notice with the sign-in page instead of creating anything', async () => {
    const origin = h.gateway.url;
    const owner = `owner-${Date.now()}@example.com`;
    const before = mails.length;
    await signUp(owner);
    const first = await nextMail(before + 1);
    const token = linkIn(first, '/console/verify');
    const { body: account } = await request(origin)
      .post('/api/v1/auth/verify-email')
      .set('Origin', origin)
      .send({ token, password: PASSWORD })
      .expect(200);

    const fresh = `fresh-${Date.now()}@example.com`;
    const taken = await signUp(owner.toUpperCase());
    const created = await signUp(fresh);
    expect(taken.body).toEqual({ data: { requested: true } });
    expect(taken.body).toEqual(created.body);
    expect(taken.headers['set-cookie']).toBeUndefined();
    expect(created.headers['set-cookie']).toBeUndefined();

    await nextMail(before + 3);
    const notice = mails.slice(before + 1).find((m) => m.to[0]?.toLowerCase() === owner);
    const welcome = mails.slice(before + 1).find((m) => m.to[0] === fresh);
    const noticeText = notice && read(notice).text;
    expect(noticeText).toContain('already has one');
    expect(noticeText).toContain(`${origin}/console/sign-in\n`);
    expect(noticeText).not.toContain('#token=');
    expect(welcome && linkIn(welcome, '/console/verify')).toBeDefined();
    // No second account: the owner's still signs in with its password, and the trail shows one sign-up.
    await request(origin)
      .post('/api/v1/auth/sign-in')
      .set('Origin', origin)
      .send({ email: owner, password: PASSWORD })
      .expect(200);
    const { events } = (await h.admin('get', `/admin/v1/audit-events?accountId=${account.data.account.id}`).expect(200))
      .body.data as {
      events: { action: string }[];
    };
    expect(events.filter((e) => e.action === 'auth.sign_up')).toHaveLength(1);
  }, 60_000);

  /** The mail's headers unfolded and its quoted-printable body decoded (UTF-8), as a mail client shows them. */
  const read = (mail: Mail) => {
    const [head = '', ...rest] = mail.body.split(/\r?\n\r?\n/);
    const bytes = (qp: string) =>
      Buffer.from(
        qp.replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    const words = (value: string) =>
      value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, kind: string, text: string) =>
        kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : bytes(text.replace(/_/g, ' ')),
      );
    const subject = words(/^Subject: (.*)$/m.exec(head.replace(/\r?\n[ \t]+/g, ' '))?.[1] ?? '');
    return { subject, text: bytes(rest.join('\n\n').replace(/=\r?\n/g, '')) };
  };

  it('gives the verification, sign-up notice and reset mails their own subjects, each saying what opening it does, in the language of the request', async () => {
    const origin = h.gateway.url;
    const ask = (path: string, body: object, language: string) =>
      request(origin).post(path).set('Origin', origin).set('Accept-Language', language).send(body).expect(202);
    const email = `subjects-${Date.now()}@example.com`;
    const first = mails.length + 1;
    await ask('/api/v1/auth/sign-up', { email, password: PASSWORD }, 'fr');
    const frenchVerification = await nextMail(first);
    await request(origin)
      .post('/api/v1/auth/verify-email')
      .set('Origin', origin)
      .send({ token: linkIn(frenchVerification, '/console/verify'), password: PASSWORD })
      .expect(200);
    await ask('/api/v1/auth/sign-up', { email, password: PASSWORD }, 'en');
    const notice = await nextMail(first + 1);
    await ask('/api/v1/auth/password-reset-request', { email }, 'en');
    const reset = await nextMail(first + 2);
    await ask('/api/v1/auth/sign-up', { email: `other-${email}`, password: PASSWORD }, 'en');
    const verification = await nextMail(first + 3);

    const fr = read(frenchVerification);
    expect(fr.subject.replace(/\s/g, '')).toBe('Confirmez votre inscription à Skills Catalog'.replace(/\s/g, ''));
    expect(fr.text).toContain('saisir le mot de passe choisi lors de cette inscription confirme');
    expect(fr.text).toContain('Sans ce mot de passe, le lien ne fait rien.');
    const subjects = [verification, notice, reset].map((m) => read(m).subject);
    expect(subjects).toEqual([
      'Confirm your sign-up to Skills Catalog',
      'Someone tried to sign up to Skills Catalog with your address',
      'Reset your Skills Catalog password',
    ]);
    expect(read(verification).text).toContain(
      'Opening this link and entering the password chosen at that sign-up confirms the address and signs you in',
    );
    expect(read(notice).text).toContain('opening it changes nothing');
    expect(read(reset).text).toContain('Opening this link lets you choose a new password');
    expect(read(reset).text).toContain('nothing changes until a new password is chosen');
  }, 60_000);
});
