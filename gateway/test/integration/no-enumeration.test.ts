/**
 * Sign-up and password reset requests say nothing about whether an address
 * has an account: the same status and body, the same hashing before the
 * answer, and the lookup, insert and mail after it. The mailer here holds
 * every mail until the test releases it, so an answer that waited for its
 * mail would never arrive.
 */
import request from 'supertest';
import type { InvitationMail, Mailer, SignUpAttemptMail } from '../../src/mail/mailer';
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
  sendEmailVerification(to: string, link: string): Promise<void> {
    return this.hold('verification', to, link);
  }
  sendSignUpAttempt(to: string, mail: SignUpAttemptMail): Promise<void> {
    return this.hold('attempt', to, mail.signInLink);
  }
  sendPasswordReset(to: string, link: string): Promise<void> {
    return this.hold('reset', to, link);
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
  const post = (path: string, body: object) => request(suite.h.gateway.url).post(path).set('Origin', suite.h.gateway.url).send(body);
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
    await post('/api/v1/auth/verify-email', { token: tokenOf(mail.link) }).expect(200);
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
    const opened = await post('/api/v1/auth/verify-email', { token: tokenOf(verification.link) }).expect(200);
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

  it("holds no address for whoever signs it up first: the owner's sign-up mails a link that sets their password and ends the other's sessions", async () => {
    const victim = `victim-${Date.now()}@example.com`;
    const squatter = request.agent(suite.h.gateway.url);
    await post('/api/v1/auth/sign-up', { email: victim, password: 'squatters-own-password-1' }).expect(202);
    (await mailer.next('verification', victim)).release(); // mailed to the victim, who ignores it
    await squatter.post('/api/v1/auth/sign-in').set('Origin', suite.h.gateway.url).send({ email: victim, password: 'squatters-own-password-1' }).expect(200);
    await squatter.get('/api/v1/auth/session').expect(200);

    // The owner signs up: the same answer, and a verification link rather than "you already have an account"
    mailer.held.length = 0;
    await post('/api/v1/auth/sign-up', { email: victim, password: PASSWORD }).expect(202);
    const link = await mailer.next('verification', victim);
    link.release();
    expect(mailer.held.filter((m) => m.kind === 'attempt' && m.to === victim)).toEqual([]);
    const opened = await post('/api/v1/auth/verify-email', { token: tokenOf(link.link) }).expect(200);
    expect(opened.body.data.account.email).toBe(victim);

    await squatter.get('/api/v1/auth/session').expect(401);
    await post('/api/v1/auth/sign-in', { email: victim, password: 'squatters-own-password-1' }).expect(401);
    await post('/api/v1/auth/sign-in', { email: victim, password: PASSWORD }).expect(200);
  });
});

describe('mail quota per address', () => {
  const { mailer, post } = heldGateway({ mailQuota: { perAddress: 3, perWorkspace: 100 } });

  it('mails an address at most 3 times a day, whether it has an account or not, then answers the same clear 429 for both', async () => {
    const known = `quota-${Date.now()}@example.com`;
    const unknown = `nobody-${Date.now()}@example.com`;
    await post('/api/v1/auth/sign-up', { email: known, password: PASSWORD }).expect(202);
    const verification = await mailer.next('verification', known);
    verification.release();
    await post('/api/v1/auth/verify-email', { token: verification.link?.split('#token=')[1] }).expect(200);
    for (let i = 0; i < 2; i += 1) await post('/api/v1/auth/password-reset-request', { email: known }).expect(202);
    for (let i = 0; i < 3; i += 1) await post('/api/v1/auth/password-reset-request', { email: unknown }).expect(202);

    const answers = [
      await post('/api/v1/auth/password-reset-request', { email: known.toUpperCase() }),
      await post('/api/v1/auth/password-reset-request', { email: unknown }),
      await post('/api/v1/auth/sign-up', { email: known, password: PASSWORD }),
      await post('/api/v1/auth/sign-up', { email: unknown, password: PASSWORD }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(429);
      // the wait depends on the time of day (the day's windows are fixed in UTC), never on the address
      expect(res.body.error).toMatch(/^Too many mails to this address today; retry in \d+ h$/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    const fr = await post('/api/v1/auth/password-reset-request', { email: known }).set('Accept-Language', 'fr').expect(429);
    expect(fr.body.error).toMatch(/^Trop d'e-mails envoyés à cette adresse aujourd'hui ; réessayez dans \d+ h$/);
    // nothing past the quota was mailed: a verification, then 2 resets (sent after their answers)
    for (let i = 0; i < 200 && mailer.held.filter((m) => m.to === known).length < 3; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(mailer.held.filter((m) => m.to === known).map((m) => m.kind)).toEqual(['verification', 'reset', 'reset']);
  }, 30_000);
});
