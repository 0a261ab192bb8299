/**
 * A console account's authentication events in the audit trail: sign-up,
 * password sign-in and its failures (counted, not one row per guess),
 * operator-issued links and their use, password reset and sign-out, each
 * with the account, the request id, the client's address behind the proxy
 * and its user agent, and never a password or a link's secret.
 */
import type { Sequelize } from 'sequelize';
import request from 'supertest';
import { createSequelize } from '@skills/common';
import { startHarness, type Harness } from './harness';
import { PASSWORD, loggedVerificationToken, waitForLog } from './profile-harness';
import { eventually } from '@skills/common/testing';

interface Event {
  action: string;
  actor: { kind: string; accountId?: string };
  targetAccountId: string | null;
  requestId: string;
  clientAddress: string;
  details: Record<string, unknown>;
}

const CLIENT = '198.51.100.23';
const AGENT = 'AuditTest/1.0 (console)';
const WRONG = 'wrong-guess-of-the-audit-test';

describe('the audit trail of console authentication', () => {
  let h: Harness;
  /** a connection of the test's own to the gateway's database */
  let db: Sequelize;
  beforeAll(async () => {
    // Failed sign-ins are written every 1.5 s here: long enough for a test's guesses to fall in one count.
    h = await startHarness({
      trustProxy: ['loopback'],
      audit: { retentionDays: 90, pruneIntervalMs: 0, failureFlushMs: 1_500 },
    });
    db = createSequelize({ url: h.db.url, poolMax: 1 });
  }, 90_000);
  afterAll(async () => {
    await db?.close();
    await h?.close();
  }, 30_000);

  /** A console request from CLIENT, through the loopback proxy, with AGENT. */
  const post = (path: string, body: object, requestId: string) =>
    request(h.gateway.url)
      .post(path)
      .set('Origin', h.gateway.url)
      .set('X-Forwarded-For', CLIENT)
      .set('User-Agent', AGENT)
      .set('X-Request-Id', requestId)
      .send(body);

  const trail = async (accountId: string): Promise<Event[]> =>
    (await h.admin('get', `/admin/v1/audit-events?accountId=${accountId}&limit=50`).expect(200)).body.data.events;

  it('records sign-up, sign-in, failed sign-ins counted together, operator links and their use, reset and sign-out, never a secret', async () => {
    const email = `audited-${Date.now()}@example.com`;
    await post('/api/v1/auth/sign-up', { email, password: PASSWORD }, 'req-sign-up').expect(202);
    const verified = await post(
      '/api/v1/auth/verify-email',
      { token: await loggedVerificationToken(h, email), password: PASSWORD },
      'req-verify',
    ).expect(200);
    const accountId = verified.body.data.account.id as string;
    await post('/api/v1/auth/sign-in', { email, password: PASSWORD }, 'req-sign-in').expect(200);
    for (let i = 0; i < 3; i += 1)
      await post('/api/v1/auth/sign-in', { email, password: WRONG }, `req-wrong-${i}`).expect(401);

    const signInLink = await h
      .admin('post', `/admin/v1/accounts/${accountId}/links`, { purpose: 'sign-in' })
      .set('X-Request-Id', 'req-issue-link')
      .expect(201);
    const linkToken = new URL(signInLink.body.data.link.url as string).hash.replace('#token=', '');
    const linked = await post('/api/v1/auth/sign-in-link', { token: linkToken }, 'req-use-link').expect(200);

    const resetLink = await h
      .admin('post', `/admin/v1/accounts/${accountId}/links`, { purpose: 'password-reset' })
      .set('X-Request-Id', 'req-issue-reset')
      .expect(201);
    const resetToken = new URL(resetLink.body.data.link.url as string).hash.replace('#token=', '');
    const newPassword = 'a-new-password-of-the-audit-test-91';
    const reset = await post(
      '/api/v1/auth/password-reset',
      { token: resetToken, password: newPassword },
      'req-reset',
    ).expect(200);
    const cookie = reset.headers['set-cookie'] as unknown as string[];
    await request(h.gateway.url)
      .delete('/api/v1/auth/session')
      .set('Cookie', cookie.map((c) => c.split(';')[0]).join('; '))
      .set('Origin', h.gateway.url)
      .set('X-CSRF-Token', reset.body.data.csrfToken as string)
      .set('X-Forwarded-For', CLIENT)
      .set('User-Agent', AGENT)
      .set('X-Request-Id', 'req-sign-out')
      .expect(200);

    // One record per address, account and flush interval holds the interval's count (unit: auth-failure-audit.test.ts);
    // on a slow machine an interval may end between two of the three, so the counts are summed.
    const failures = (all: Event[]) => all.filter((e) => e.action === 'auth.failure');
    const counted = (all: Event[]) => failures(all).reduce((n, e) => n + Number(e.details.count), 0);
    const events = await eventually(async () => {
      const all = await trail(accountId);
      return counted(all) >= 3 ? all : undefined;
    });
    expect(counted(events)).toBe(3);
    expect(failures(events).length).toBeLessThanOrEqual(3);
    for (const failure of failures(events)) {
      expect(failure).toMatchObject({
        actor: { kind: 'anonymous' },
        targetAccountId: accountId,
        clientAddress: CLIENT,
        details: { reason: 'password', userAgent: AGENT },
      });
    }
    expect(failures(events).map((e) => e.requestId)).toContain('req-wrong-0');
    const self = { kind: 'account', accountId };
    expect(
      events
        .filter((e) => e.action !== 'auth.failure')
        .map((e) => [
          e.action,
          e.requestId,
          e.actor,
          e.details.method ?? e.details.purpose ?? e.details.scope ?? e.details.reason ?? null,
        ]),
    ).toEqual([
      ['auth.sign_out', 'req-sign-out', self, 'this'],
      ['auth.sign_in', 'req-reset', self, 'link'],
      ['auth.password_reset', 'req-reset', self, null],
      // the reset ended the three sessions before it, each in the trail
      ['auth.session_end', 'req-reset', self, 'password_reset'],
      ['auth.session_end', 'req-reset', self, 'password_reset'],
      ['auth.session_end', 'req-reset', self, 'password_reset'],
      ['auth.link_issue', 'req-issue-reset', { kind: 'admin' }, 'password-reset'],
      ['auth.sign_in', 'req-use-link', self, 'link'],
      ['auth.link_issue', 'req-issue-link', { kind: 'admin' }, 'sign-in'],
      ['auth.sign_in', 'req-sign-in', self, 'password'],
      ['auth.sign_in', 'req-verify', self, 'link'],
      ['auth.email_verify', 'req-verify', self, null],
      ['auth.sign_up', 'req-sign-up', self, 'password'],
    ]);
    for (const e of events.filter((e) => e.actor.kind !== 'admin')) {
      expect(e).toMatchObject({
        targetAccountId: accountId,
        clientAddress: CLIENT,
        details: expect.objectContaining({ userAgent: AGENT }),
      });
    }

    const json = JSON.stringify(events);
    for (const secret of [
      PASSWORD,
      WRONG,
      newPassword,
      linkToken,
      resetToken,
      linked.body.data.csrfToken as string,
      reset.body.data.csrfToken as string,
    ]) {
      expect(json).not.toContain(secret);
    }
  }, 60_000);

  it('counts a flood of wrong passwords into one record per address and account, not one row per guess', async () => {
    const email = `flooded-${Date.now()}@example.com`;
    await post('/api/v1/auth/sign-up', { email, password: PASSWORD }, 'req-flood-sign-up').expect(202);
    const verified = await post(
      '/api/v1/auth/verify-email',
      { token: await loggedVerificationToken(h, email), password: PASSWORD },
      'req-flood-verify',
    ).expect(200);
    const accountId = verified.body.data.account.id as string;
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        request(h.gateway.url)
          .post('/api/v1/auth/sign-in')
          .set('Origin', h.gateway.url)
          .set('X-Forwarded-For', '203.0.113.77')
          .send({ email, password: `${WRONG}-${i}` }),
      ),
    );
    // Refused by the throttle (429) before any check: not a guess, not counted.
    const guesses = statuses.filter((r) => r.status === 401).length;
    expect(guesses).toBeGreaterThan(0);
    const failures = await eventually(async () => {
      const found = (await trail(accountId)).filter((e) => e.action === 'auth.failure');
      return found.reduce((n, e) => n + Number(e.details.count), 0) >= guesses ? found : undefined;
    });
    expect(failures.length).toBeLessThan(guesses);
    expect(
      failures.every(
        (e) => e.clientAddress === '203.0.113.77' && e.details.reason === 'password' && e.targetAccountId === accountId,
      ),
    ).toBe(true);
    // An unknown address: counted under no account, the address typed is not written.
    const unknown = `nobody-${Date.now()}@example.com`;
    await post('/api/v1/auth/sign-in', { email: unknown, password: WRONG }, 'req-unknown').expect(401);
    const all = await eventually(async () => {
      const found = (await h.admin('get', '/admin/v1/audit-events?action=auth.failure&limit=50').expect(200)).body.data
        .events as Event[];
      return found.some((e) => e.requestId === 'req-unknown') ? found : undefined;
    });
    expect(all.find((e) => e.requestId === 'req-unknown')).toMatchObject({
      targetAccountId: null,
      details: { reason: 'password', userAgent: AGENT },
    });
    expect(JSON.stringify(all)).not.toContain(unknown);
  }, 30_000);

  it('writes a sign-up and a password reset with their record: when the record cannot be written, neither happens', async () => {
    const email = `atomic-${Date.now()}@example.com`;
    const refuse = async (action: string, work: () => Promise<unknown>) => {
      await db.query(
        `ALTER TABLE gateway.audit_events ADD CONSTRAINT audit_test_refuse CHECK (action <> '${action}') NOT VALID`,
      );
      try {
        await work();
      } finally {
        await db.query('ALTER TABLE gateway.audit_events DROP CONSTRAINT audit_test_refuse');
      }
    };
    // The sign-up is stored after its answer: the failure shows in the log, not to the client.
    await refuse('auth.sign_up', async () => {
      await post('/api/v1/auth/sign-up', { email, password: PASSWORD }, 'req-atomic-1').expect(202);
      await waitForLog(h, (l) => l.msg === 'could not finish the sign-up');
    });
    // no account was left behind: the same address signs up now
    await post('/api/v1/auth/sign-up', { email, password: PASSWORD }, 'req-atomic-2').expect(202);
    const verified = await post(
      '/api/v1/auth/verify-email',
      { token: await loggedVerificationToken(h, email), password: PASSWORD },
      'req-atomic-verify',
    ).expect(200);
    const accountId = verified.body.data.account.id as string;

    const link = await h
      .admin('post', `/admin/v1/accounts/${accountId}/links`, { purpose: 'password-reset' })
      .expect(201);
    const token = new URL(link.body.data.link.url as string).hash.replace('#token=', '');
    const newPassword = 'an-atomic-new-password-of-the-test';
    await refuse('auth.password_reset', () =>
      post('/api/v1/auth/password-reset', { token, password: newPassword }, 'req-atomic-3').expect(500),
    );
    // the old password still works, and the link was not used up
    await post('/api/v1/auth/sign-in', { email, password: PASSWORD }, 'req-atomic-4').expect(200);
    await post('/api/v1/auth/password-reset', { token, password: newPassword }, 'req-atomic-5').expect(200);
    expect((await trail(accountId)).filter((e) => e.action === 'auth.password_reset').map((e) => e.requestId)).toEqual([
      'req-atomic-5',
    ]);
  }, 30_000);
});
