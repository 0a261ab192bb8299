/**
 * Console accounts and sessions through the gateway: sign-up and the
 * password policy, sign-in and its throttle, the cookie's attributes, a
 * session calling /api/v1 as its account, CSRF and Origin refusals,
 * sign-out and sign-out everywhere, one-time links and password reset.
 */
import request from 'supertest';
import { startHarness, type Harness } from './harness';
import { PASSWORD, loggedVerificationToken, signIn, signUp, waitForLog, write } from './profile-harness';

describe('gateway console sessions', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it('answers a sign-up 202 without a session; the verification link signs in on the free plan with an HttpOnly, SameSite=Lax cookie (not Secure on plain-HTTP loopback)', async () => {
    const origin = h.gateway.url;
    const res = await request(origin)
      .post('/api/v1/auth/sign-up')
      .set('Origin', origin)
      .send({ email: 'Ana@Example.com', password: PASSWORD })
      .expect(202);
    expect(res.body).toEqual({ data: { requested: true } });
    expect(res.headers['set-cookie']).toBeUndefined();
    const verified = await request(origin)
      .post('/api/v1/auth/verify-email')
      .set('Origin', origin)
      .send({ token: await loggedVerificationToken(h, 'Ana@Example.com'), password: PASSWORD })
      .expect(200);
    expect(verified.body.data.account).toMatchObject({ email: 'Ana@Example.com', plan: 'free' });
    expect(verified.body.data.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = String(verified.headers['set-cookie']);
    expect(cookie).toMatch(/^skills_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure|Domain/);
  });

  it.each([
    ['too short', 'short-pass', 'at least 12 characters'],
    ['common', 'password1234', 'too common'],
    ['a repeated run', 'abcabcabcabc', 'too common'],
    ['the email', 'zed.lowry-1234-xyz', 'must not contain your email'],
  ])('refuses a %s password and creates nothing', async (what, password, message) => {
    const origin = h.gateway.url;
    // one email per case: failed sign-ins of one email from one address are throttled after 3
    const email = `zed.lowry@${what.replace(/\W/g, '-')}.example.com`;
    const res = await request(origin)
      .post('/api/v1/auth/sign-up')
      .set('Origin', origin)
      .send({ email, password })
      .expect(400);
    expect(res.body.error).toContain(message);
    await request(origin).post('/api/v1/auth/sign-in').set('Origin', origin).send({ email, password }).expect(401);
  });

  it('refuses a display name with a bidi control character at sign-up (400, EN/FR) and creates nothing', async () => {
    const origin = h.gateway.url;
    const body = { email: 'trojan@example.com', password: PASSWORD, name: 'invoice\u202Efdp.exe' };
    const en = await request(origin).post('/api/v1/auth/sign-up').set('Origin', origin).send(body).expect(400);
    expect(en.body).toEqual({ error: '"name" must not contain bidirectional control characters' });
    const fr = await request(origin)
      .post('/api/v1/auth/sign-up')
      .set('Origin', origin)
      .set('Accept-Language', 'fr')
      .send(body)
      .expect(400);
    expect(fr.body).toEqual({ error: '« name » ne doit pas contenir de caractères de contrôle bidirectionnel' });
    await request(origin)
      .post('/api/v1/auth/sign-up')
      .set('Origin', origin)
      .send({ ...body, name: 'invoice.pdf' })
      .expect(202);
    const token = await loggedVerificationToken(h, 'trojan@example.com');
    const named = await request(origin)
      .post('/api/v1/auth/verify-email')
      .set('Origin', origin)
      .send({ token, password: PASSWORD })
      .expect(200);
    expect(named.body.data.account).toMatchObject({ email: 'trojan@example.com', name: 'invoice.pdf' });
  });

  it('refuses sign-up and sign-in posted from another site (login CSRF)', async () => {
    const res = await request(h.gateway.url)
      .post('/api/v1/auth/sign-in')
      .set('Origin', 'https://evil.example')
      .send({ email: 'a@b.co', password: 'x' })
      .expect(403);
    expect(res.body).toEqual({ error: 'Request refused: it does not come from this site' });
    await request(h.gateway.url)
      .post('/api/v1/auth/sign-up')
      .send({ email: 'nobody@example.com', password: PASSWORD })
      .expect(403);
  });

  it('signs in with the password, and slows guessing: after 3 failures from one address even the right password waits (429)', async () => {
    const { email } = await signUp(h);
    await signIn(h, email);
    const origin = h.gateway.url;
    for (let i = 0; i < 3; i += 1) {
      const wrong = await request(origin)
        .post('/api/v1/auth/sign-in')
        .set('Origin', origin)
        .send({ email, password: 'wrong-password-1234' })
        .expect(401);
      expect(wrong.body).toEqual({ error: 'Wrong email or password' });
    }
    const throttled = await request(origin)
      .post('/api/v1/auth/sign-in')
      .set('Origin', origin)
      .set('Accept-Language', 'fr')
      .send({ email, password: PASSWORD })
      .expect(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(throttled.body.error).toMatch(/^Trop de tentatives de connexion échouées ; réessayez dans \d+ s$/);
  });

  it('lets a session call /api/v1 as its own account, whatever the plan, with CSRF and Origin on writes', async () => {
    const b = await signUp(h);
    const read = await b.agent.get('/api/v1/skills?q=pdf').expect(200);
    expect(read.body.data.principal).toEqual({
      kind: 'account',
      accountId: b.accountId,
      plan: 'free',
      keyId: expect.stringMatching(/^session:/),
    });

    const noToken = await b.agent
      .patch('/api/v1/me/collections/c1')
      .set('Origin', b.origin)
      .send({ name: 'x' })
      .expect(403);
    expect(noToken.body).toEqual({ error: 'Missing or invalid CSRF token' });
    await b.agent
      .patch('/api/v1/me/collections/c1')
      .set('Origin', b.origin)
      .set('X-CSRF-Token', 'A'.repeat(43))
      .send({ name: 'x' })
      .expect(403);
    const foreign = await b.agent
      .patch('/api/v1/me/collections/c1')
      .set('Origin', 'https://evil.example')
      .set('X-CSRF-Token', b.csrf)
      .send({ name: 'x' })
      .expect(403);
    expect(foreign.body).toEqual({ error: 'Request refused: it does not come from this site' });
    const noOrigin = await b.agent.delete('/api/v1/me/collections/c1').set('X-CSRF-Token', b.csrf).expect(403);
    expect(noOrigin.body.error).toBe('Request refused: it does not come from this site');
    const calls = h.collections.received.length;
    const ok = await write(b, 'patch', '/api/v1/me/collections/c1', { name: 'x' }).expect(200);
    expect(ok.body.data.principal.accountId).toBe(b.accountId);
    expect(h.collections.received.length).toBe(calls + 1);
  });

  it('signs out: the cookie is cleared and the session no longer works anywhere', async () => {
    const b = await signUp(h);
    await b.agent.get('/api/v1/auth/session').expect(200);
    const out = await write(b, 'delete', '/api/v1/auth/session').expect(200);
    expect(String(out.headers['set-cookie'])).toMatch(/skills_session=;.*Max-Age=0/);
    const after = await b.agent.get('/api/v1/auth/session').expect(401);
    expect(after.body).toEqual({ error: 'You are not signed in' });
    await b.agent.get('/api/v1/skills').expect(401);
  });

  it('signs out every other session of the account, keeping this one', async () => {
    const first = await signUp(h);
    const second = await signIn(h, first.email);
    const list = await first.agent.get('/api/v1/me/sessions').expect(200);
    expect(list.body.data.sessions).toHaveLength(2);
    expect(list.body.data.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const ended = await write(first, 'delete', '/api/v1/me/sessions').expect(200);
    expect(ended.body.data).toEqual({ signedOut: 1 });
    await second.agent.get('/api/v1/auth/session').expect(401);
    await first.agent.get('/api/v1/auth/session').expect(200);
  });

  it("does not let one account end another account's session (404)", async () => {
    const a = await signUp(h);
    const b = await signUp(h);
    const mine = await b.agent.get('/api/v1/me/sessions').expect(200);
    await write(a, 'delete', `/api/v1/me/sessions/${mine.body.data.sessions[0].id as string}`).expect(404);
    await b.agent.get('/api/v1/auth/session').expect(200);
  });

  it("signs in once with an operator's link, and resets a password with one (ending every other session)", async () => {
    const b = await signUp(h);
    const link = await h.admin('post', `/admin/v1/accounts/${b.accountId}/links`, { purpose: 'sign-in' }).expect(201);
    const url = link.body.data.link.url as string;
    expect(url).toMatch(new RegExp(`^${h.gateway.url}/console/link#token=[A-Za-z0-9_-]{43}$`));
    const token = url.split('#token=')[1];
    const other = request.agent(h.gateway.url);
    await other.post('/api/v1/auth/sign-in-link').set('Origin', h.gateway.url).send({ token }).expect(200);
    await other.get('/api/v1/auth/session').expect(200);
    const again = await request(h.gateway.url)
      .post('/api/v1/auth/sign-in-link')
      .set('Origin', h.gateway.url)
      .send({ token })
      .expect(400);
    expect(again.body).toEqual({ error: 'This link is invalid, already used or expired' });

    const reset = await h
      .admin('post', `/admin/v1/accounts/${b.accountId}/links`, { purpose: 'password-reset' })
      .expect(201);
    const resetToken = (reset.body.data.link.url as string).split('#token=')[1];
    const fresh = request.agent(h.gateway.url);
    await fresh
      .post('/api/v1/auth/password-reset')
      .set('Origin', h.gateway.url)
      .send({ token: resetToken, password: 'password1234' })
      .expect(400);
    await fresh
      .post('/api/v1/auth/password-reset')
      .set('Origin', h.gateway.url)
      .send({ token: resetToken, password: 'a-brand-new-secret-99' })
      .expect(200);
    await b.agent.get('/api/v1/auth/session').expect(401);
    await other.get('/api/v1/auth/session').expect(401);
    await fresh.get('/api/v1/auth/session').expect(200);
    await signIn(h, b.email, 'a-brand-new-secret-99');
  });

  it('lets an operator sign an account out everywhere', async () => {
    const b = await signUp(h);
    const res = await h.admin('delete', `/admin/v1/accounts/${b.accountId}/sessions`).expect(200);
    expect(res.body.data).toEqual({ signedOut: 1 });
    await b.agent.get('/api/v1/auth/session').expect(401);
  });
});

describe('gateway sign-up modes', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ signUpMode: 'invite' });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it('in invite mode, signs up only through an invitation, each usable once, and not used up by a taken address', async () => {
    const origin = h.gateway.url;
    const options = await request(origin).get('/api/v1/auth/options').expect(200);
    expect(options.body.data).toEqual({ signUpMode: 'invite', passwordResetByMail: false, oidc: null });
    const refused = await request(origin)
      .post('/api/v1/auth/sign-up')
      .set('Origin', origin)
      .send({ email: 'x@example.com', password: PASSWORD })
      .expect(403);
    expect(refused.body).toEqual({ error: 'Sign-up needs an invitation link' });
    const invitation = await h.admin('post', '/admin/v1/invitations').expect(201);
    const token = (invitation.body.data.invitation.url as string).split('#invitation=')[1];
    await request(origin)
      .post('/api/v1/auth/sign-up')
      .set('Origin', origin)
      .send({ email: 'x@example.com', password: PASSWORD, invitation: token })
      .expect(202);
    // The account (and the invitation's use) is stored after the answer; its verification link says it is done.
    const verification = await loggedVerificationToken(h, 'x@example.com');
    await request(origin)
      .post('/api/v1/auth/verify-email')
      .set('Origin', origin)
      .send({ token: verification, password: PASSWORD })
      .expect(200);
    const reused = await request(origin)
      .post('/api/v1/auth/sign-up')
      .set('Origin', origin)
      .send({ email: 'y@example.com', password: PASSWORD, invitation: token })
      .expect(400);
    expect(reused.body).toEqual({ error: 'This link is invalid, already used or expired' });

    const second = await h.admin('post', '/admin/v1/invitations').expect(201);
    const secondToken = (second.body.data.invitation.url as string).split('#invitation=')[1];
    await request(origin)
      .post('/api/v1/auth/sign-up')
      .set('Origin', origin)
      .send({ email: 'X@example.com', password: PASSWORD, invitation: secondToken })
      .expect(202);
    await waitForLog(h, (l) => l.email === 'X@example.com' && typeof l.signInLink === 'string');
    await request(origin)
      .post('/api/v1/auth/sign-up')
      .set('Origin', origin)
      .send({ email: 'z@example.com', password: PASSWORD, invitation: secondToken })
      .expect(202);
  });
});
