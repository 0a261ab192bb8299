/**
 * Sign-up and password reset requests say nothing about whether an address
 * has an account: the same status and body, the same hashing before the
 * answer, and the lookup, insert and mail after it. The mailer here holds
 * every mail until the test releases it, so an answer that waited for its
 * mail would never arrive.
 */
import request from 'supertest';
import type { InvitationMail, LinkMail, Mailer, SignUpAttemptMail } from '../../src/mail/mailer';
import { startHarness, type Harness } from './harness';
import { PASSWORD } from './profile-harness';

interface Held {
  kind: 'verification' | 'attempt' | 'reset' | 'invitation';
  to: string;
  link?: string;
  release(): void;
}

/** A mailer whose every send waits until the test releases it. */
class HeldMailer implements Mailer {
  readonly held: Held[] = [];
  private hold(kind: Held['kind'], to: string, link?: string): Promise<void> {
    return new Promise((resolve) => this.held.push({ kind, to, link, release: resolve }));
  }
  sendEmailVerification(to: string, mail: LinkMail): Promise<void> {
    return this.hold('verification', to, mail.link);
  }
  sendSignUpAttempt(to: string, mail: SignUpAttemptMail): Promise<void> {
    return this.hold('attempt', to, mail.signInLink);
  }
  sendPasswordReset(to: string, mail: LinkMail): Promise<void> {
    return this.hold('reset', to, mail.link);
  }
  sendWorkspaceInvitation(to: string, mail: InvitationMail): Promise<void> {
    return this.hold('invitation', to, mail.link);
  }
  close(): void {}
  /** the held mail to `to` of `kind`, once its send has started (it runs after the answer) */
  async next(kind: Held['kind'], to: string): Promise<Held> {
    for (let i = 0; i < 200; i += 1) {
      const found = this.held.find((m) => m.kind === kind && m.to === to);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no ${kind} mail to ${to}`);
  }
}

async function hashesDone(h: Harness): Promise<number> {
  const metrics = await h.monitor.get('/metrics').expect(200);
  return Number(/skills_password_hashes_total\{result="done",service="gateway"\} (\d+)/.exec(metrics.text)?.[1] ?? 0);
}

/** A gateway whose mails are held by `mailer` (released when the suite ends), and a POST from its own origin. */
function heldGateway(config: Parameters<typeof startHarness>[0] = {}) {
  const mailer = new HeldMailer();
  const suite = { h: undefined as unknown as Harness, mailer };
  beforeAll(async () => {
    suite.h = await startHarness(config, { mailer });
  }, 90_000);
  afterAll(async () => {
    for (const m of mailer.held) m.release();
    await suite.h?.close();
  }, 30_000);
  const post = (path: string, body: object) =>
    request(suite.h.gateway.url).post(path).set('Origin', suite.h.gateway.url).send(body);
  return { suite, mailer, post };
}

describe('no account enumeration through sign-up and reset requests', () => {
  const { suite, mailer, post } = heldGateway();
  const tokenOf = (link: string | undefined) => link?.split('#token=')[1];

  /** A verified account, its verification mail released and opened. */
  async function verifiedAccount(email: string): Promise<void> {
    await post('/api/v1/auth/sign-up', { email, password: PASSWORD }).expect(202);
    const mail = await mailer.next('verification', email);
    mail.release();
    await post('/api/v1/auth/verify-email', { token: tokenOf(mail.link), password: PASSWORD }).expect(200);
  }

  it('answers a taken and a new address alike, hashes for both before answering, and answers while their mails are still being sent', async () => {
    const taken = `taken-${Date.now()}@example.com`;
    await verifiedAccount(taken);
    const fresh = `fresh-${Date.now()}@example.com`;

    const hashes = await hashesDone(suite.h);
    const again = await post('/api/v1/auth/sign-up', { email: taken, password: PASSWORD });
    const created = await post('/api/v1/auth/sign-up', { email: fresh, password: PASSWORD });
    expect((await hashesDone(suite.h)) - hashes).toBe(2);
    for (const res of [again, created]) {
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ data: { requested: true } });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // Both answers are in; each mail is still held, so neither answer waited for it.
    const notice = await mailer.next('attempt', taken);
    const verification = await mailer.next('verification', fresh);
    expect(notice.link).toBe(`${suite.h.gateway.url}/console/sign-in`);
    notice.release();
    verification.release();
    // The new address's link opens its first session.
    const opened = await post('/api/v1/auth/verify-email', {
      token: tokenOf(verification.link),
      password: PASSWORD,
    }).expect(200);
    expect(opened.body.data.account.email).toBe(fresh);
    expect(mailer.held.filter((m) => m.to === taken && m.kind === 'verification')).toHaveLength(1);
  }, 30_000);

  it('answers a reset request for a known and an unknown address alike, before the reset mail is sent', async () => {
    const known = `known-${Date.now()}@example.com`;
    await verifiedAccount(known);
    const answers = [
      await post('/api/v1/auth/password-reset-request', { email: known }),
      await post('/api/v1/auth/password-reset-request', { email: 'nobody@example.com' }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ data: { requested: true } });
    }
    const reset = await mailer.next('reset', known);
    reset.release();
    expect(mailer.held.some((m) => m.to === 'nobody@example.com')).toBe(false);
  }, 30_000);

  it("answers an unverified account's right password before the new verification mail is sent, and mails it to the address only", async () => {
    const victim = `victim-${Date.now()}@example.com`;
    await post('/api/v1/auth/sign-up', { email: victim, password: 'squatters-own-password-1' }).expect(202);
    (await mailer.next('verification', victim)).release(); // mailed to the victim, who ignores it
    mailer.held.length = 0;
    const refused = await post('/api/v1/auth/sign-in', { email: victim, password: 'squatters-own-password-1' }).expect(
      403,
    );
    expect(refused.body.error).toMatch(/^Verify your email address first/);
    expect(refused.headers['set-cookie']).toBeUndefined();
    // the answer is in while the mail is held: it never waited for it
    const again = await mailer.next('verification', victim);
    expect(again.link).toMatch(new RegExp(`^${suite.h.gateway.url}/console/verify#token=`));
    again.release();

    // The owner signs up: the same answer, and a verification link of their own rather than "you already have an account"
    mailer.held.length = 0;
    await post('/api/v1/auth/sign-up', { email: victim, password: PASSWORD }).expect(202);
    const owners = await mailer.next('verification', victim);
    owners.release();
    expect(mailer.held.filter((m) => m.kind === 'attempt' && m.to === victim)).toEqual([]);
    const opened = await post('/api/v1/auth/verify-email', { token: tokenOf(owners.link), password: PASSWORD }).expect(
      200,
    );
    expect(opened.body.data.account.email).toBe(victim);
    await post('/api/v1/auth/sign-in', { email: victim, password: 'squatters-own-password-1' }).expect(401);
  });
});

describe('mail quotas per purpose and requester', () => {
  const { mailer, post } = heldGateway({
    trustProxy: ['loopback'],
    mailQuota: { perAddress: 3, perRecipient: 6, perWorkspace: 100 },
  });
  const from = (client: string, path: string, body: object) => post(path, body).set('X-Forwarded-For', client);
  const delivered = async (to: string, count: number) => {
    for (let i = 0; i < 200 && mailer.held.filter((m) => m.to === to).length < count; i += 1)
      await new Promise((r) => setTimeout(r, 50));
    const mails = mailer.held.filter((m) => m.to === to);
    for (const m of mails) m.release();
    return mails.map((m) => m.kind);
  };

  it("lets nobody spend a person's quota: one address's reset requests run out for that address alone, known and unknown alike", async () => {
    const known = `quota-${Date.now()}@example.com`;
    const unknown = `nobody-${Date.now()}@example.com`;
    await from('198.51.100.1', '/api/v1/auth/sign-up', { email: known, password: PASSWORD }).expect(202);
    const verification = await mailer.next('verification', known);
    verification.release();
    await post('/api/v1/auth/verify-email', {
      token: verification.link?.split('#token=')[1],
      password: PASSWORD,
    }).expect(200);

    const attacker = '203.0.113.9';
    for (let i = 0; i < 3; i += 1)
      await from(attacker, '/api/v1/auth/password-reset-request', { email: known }).expect(202);
    for (let i = 0; i < 3; i += 1)
      await from(attacker, '/api/v1/auth/password-reset-request', { email: unknown }).expect(202);
    const answers = [
      await from(attacker, '/api/v1/auth/password-reset-request', { email: known.toUpperCase() }),
      await from(attacker, '/api/v1/auth/password-reset-request', { email: unknown }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(429);
      // the wait depends on the time of day (the day's windows are fixed in UTC), never on the address
      expect(res.body.error).toMatch(/^Too many mails to this address today; retry in \d+ h$/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    const fr = await from(attacker, '/api/v1/auth/password-reset-request', { email: known })
      .set('Accept-Language', 'fr')
      .expect(429);
    expect(fr.body.error).toMatch(/^Trop d'e-mails envoyés à cette adresse aujourd'hui ; réessayez dans \d+ h$/);
    // the same address may still sign up with it (another purpose), and the owner, from theirs, still gets a reset
    await from(attacker, '/api/v1/auth/sign-up', { email: known, password: PASSWORD }).expect(202);
    await from('198.51.100.1', '/api/v1/auth/password-reset-request', { email: known }).expect(202);
    expect(await delivered(known, 6)).toEqual(['verification', 'reset', 'reset', 'reset', 'attempt', 'reset']);
  }, 30_000);

  it("caps what all requesters together mail one address, yet each requester's first mail of the day still goes", async () => {
    const target = `flooded-${Date.now()}@example.com`;
    const statuses: number[] = [];
    // 3 from each of two addresses fill the address's 6; a third address's second request is refused, its first is not
    for (const client of ['192.0.2.1', '192.0.2.2']) {
      for (let i = 0; i < 3; i += 1)
        statuses.push((await from(client, '/api/v1/auth/password-reset-request', { email: target })).status);
    }
    statuses.push((await from('192.0.2.3', '/api/v1/auth/password-reset-request', { email: target })).status);
    statuses.push((await from('192.0.2.3', '/api/v1/auth/password-reset-request', { email: target })).status);
    statuses.push((await from('192.0.2.4', '/api/v1/auth/password-reset-request', { email: target })).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 202, 429, 202]);
  }, 30_000);
});
