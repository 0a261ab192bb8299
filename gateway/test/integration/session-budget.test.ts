/**
 * Console sessions as a credential with a budget (docs/security.md "Console sessions"): a
 * free account's session no longer calls without bound, session-only routes
 * (sessions, keys, profile) are rate-limited, and made-up session cookies
 * spend the address's failure budget before each costs a database read.
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { startHarness, type Harness } from './harness';
import { signIn, signUp } from './profile-harness';

describe('session request budget and session failures', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ trustProxy: ['loopback'], sessionRequestsPerMinute: 6, authFailuresPerMinute: 3 });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it("gives a free account's sessions one budget across the API and the session-only routes, then 429 with Retry-After", async () => {
    const person = await signUp(h);
    const paths = [
      '/api/v1/auth/session',
      '/api/v1/me/sessions',
      '/api/v1/me/api-keys',
      '/api/v1/skills?q=pdf',
      '/api/v1/auth/session',
      '/api/v1/me/sessions',
    ];
    for (const path of paths) await person.agent.get(path).expect(200);
    const refused = await person.agent.get('/api/v1/me/api-keys').set('Accept-Language', 'fr').expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.body).toEqual({
      error: expect.stringMatching(/^Limite de requêtes dépassée ; réessayez dans \d+ s$/),
    });
    // Per account: signing in again in another browser gives no more budget; another account has its own.
    const again = await signIn(h, person.email);
    await again.agent.get('/api/v1/skills?q=pdf').expect(429);
    const other = await signUp(h);
    await other.agent.get('/api/v1/me/sessions').expect(200);
  });

  it('counts made-up session cookies as failures of their address and refuses it before looking the next one up', async () => {
    const client = '203.0.113.77';
    const guess = () =>
      request(h.gateway.url)
        .get('/api/v1/me/sessions')
        .set('X-Forwarded-For', client)
        .set('Cookie', `skills_session=${randomBytes(32).toString('base64url')}`);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await guess()).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const refused = await guess();
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.body.error).toMatch(/Too many failed authentications from this address/);
    // Another address is not held back.
    await request(h.gateway.url)
      .get('/api/v1/me/sessions')
      .set('X-Forwarded-For', '203.0.113.78')
      .set('Cookie', 'skills_session=nope')
      .expect(401);
  });
});
