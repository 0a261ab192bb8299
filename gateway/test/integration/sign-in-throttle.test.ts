/**
 * The throttles and the bounded hasher against what the security review
 * tried: guessing from behind the Ingress, locking out a chosen account,
 * parallel bursts, and floods of sign-ups that cost a hash each.
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { startHarness, type Harness } from './harness';
import { PASSWORD, loggedVerificationToken } from './profile-harness';

const THROTTLE = { perAddress: 20, freeFailures: 3, signUpsPerAddress: 10, windowMs: 15 * 60_000 };

/** As the Ingress forwards a client: the gateway trusts loopback proxies in these suites. */
function from(h: Harness, client: string) {
  const origin = h.gateway.url;
  return {
    signIn: (email: string, password: string) =>
      request(origin)
        .post('/api/v1/auth/sign-in')
        .set('Origin', origin)
        .set('X-Forwarded-For', client)
        .send({ email, password }),
    signUp: (email: string, invitation?: string) =>
      request(origin)
        .post('/api/v1/auth/sign-up')
        .set('Origin', origin)
        .set('X-Forwarded-For', client)
        .send({ email, password: PASSWORD, ...(invitation ? { invitation } : {}) }),
  };
}

/** Signs `email` up from `client` and verifies it with the logged link, as its owner would. */
async function verified(h: Harness, client: string, email: string): Promise<void> {
  await from(h, client).signUp(email).expect(202);
  const token = await loggedVerificationToken(h, email);
  await request(h.gateway.url)
    .post('/api/v1/auth/verify-email')
    .set('Origin', h.gateway.url)
    .set('X-Forwarded-For', client)
    .send({ token, password: PASSWORD })
    .expect(200);
}

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

async function hashes(h: Harness, result: 'done' | 'shed'): Promise<number> {
  const metrics = await h.monitor.get('/metrics').expect(200);
  const found = new RegExp(`skills_password_hashes_total\\{result="${result}",service="gateway"\\} (\\d+)`).exec(
    metrics.text,
  );
  if (!found) throw new Error('no skills_password_hashes_total in /metrics');
  return Number(found[1]);
}

describe('sign-in throttle and bounded hashing (open sign-up)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      trustProxy: ['loopback'],
      signInThrottle: THROTTLE,
      hashing: { concurrency: 1, queue: 4 },
    });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it('counts the real client behind the proxy, and 25 wrong passwords from one client lock out neither the account nor anyone else', async () => {
    const victim = 'victim@example.com';
    await verified(h, '198.51.100.1', victim);
    const attacker = from(h, '203.0.113.66');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await attacker.signIn(victim, `wrong-guess-${i}-xyz`)).status);
    for (let i = 0; i < 20; i += 1)
      statuses.push((await attacker.signIn(`other${i}@example.com`, 'wrong-guess-xyz')).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 429, 429]);
    expect(statuses.at(-1)).toBe(429);
    // The owner, from their own address, is not slowed down; another client's mistake is a plain 401.
    await from(h, '198.51.100.1').signIn(victim, PASSWORD).expect(200);
    await from(h, '198.51.100.2').signIn(victim, 'wrong-guess-abc').expect(401);
  });

  it('counts a parallel burst before any password is verified: at most 3 wrong guesses get through', async () => {
    const email = 'burst@example.com';
    await from(h, '198.51.100.3').signUp(email).expect(202);
    await loggedVerificationToken(h, email);
    const guesser = from(h, '203.0.113.7');
    const statuses = (
      await Promise.all(Array.from({ length: 40 }, (_, i) => guesser.signIn(email, `guess-${i}-xyz`)))
    ).map((r) => r.status);
    expect(tally(statuses)).toEqual({ 401: 3, 429: 37 });
  });

  it('runs a bounded number of hashes and refuses the rest at once with 503 and Retry-After', async () => {
    const shedBefore = await hashes(h, 'shed');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        from(h, `192.0.2.${i + 1}`)
          .signIn(`nobody${i}@example.com`, 'wrong-guess-xyz')
          .set('Accept-Language', i % 2 ? 'fr' : 'en'),
      ),
    );
    const shed = answers.filter((r) => r.status === 503);
    expect(shed.length).toBeGreaterThan(0);
    expect(answers.every((r) => r.status === 401 || r.status === 503)).toBe(true);
    for (const r of shed) {
      expect(r.headers['retry-after']).toBe('1');
      expect(['The server is busy; retry shortly', 'Le serveur est surchargé ; réessayez dans un instant']).toContain(
        r.body.error,
      );
    }
    expect((await hashes(h, 'shed')) - shedBefore).toBe(shed.length);
  });

  it('throttles sign-ups per client address', async () => {
    const client = from(h, '203.0.113.99');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) statuses.push((await client.signUp(`flood${i}@example.com`)).status);
    expect(tally(statuses)).toEqual({ 202: 10, 429: 2 });
    await from(h, '203.0.113.100').signUp('neighbour@example.com').expect(202);
  });

  it('answers 200 sign-ups at once from one address with at most its 10 hashes: the throttle refuses the rest before hashing', async () => {
    const [done, shed] = [await hashes(h, 'done'), await hashes(h, 'shed')];
    const client = from(h, '203.0.113.150');
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => client.signUp(`one-address-${i}@example.com`).then((r) => r.status)),
    );
    const counted = tally(statuses);
    expect(counted[429]).toBe(190);
    expect((counted[202] ?? 0) + (counted[503] ?? 0)).toBe(10);
    expect((await hashes(h, 'done')) - done + ((await hashes(h, 'shed')) - shed)).toBe(10);
  });
});

describe('an address shared by many people (an office behind one address)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      trustProxy: ['loopback'],
      signInThrottle: { ...THROTTLE, perAddress: 5, addressMaxDelayMs: 4_000 },
    });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it('slows the address down progressively after its failures instead of locking everyone behind it out: a colleague signs in after seconds', async () => {
    const office = '198.51.100.77';
    const colleague = 'colleague@example.com';
    await verified(h, '192.0.2.50', colleague);
    const guesser = from(h, office);
    for (let i = 0; i < 5; i += 1) await guesser.signIn(`someone${i}@example.com`, 'wrong-guess-xyz').expect(401);
    const first = await guesser.signIn('someone-else@example.com', 'wrong-guess-xyz').expect(429);
    expect(first.headers['retry-after']).toBe('1');
    expect((await from(h, office).signIn(colleague, PASSWORD).expect(429)).headers['retry-after']).toBe('1');

    await new Promise((r) => setTimeout(r, 1_100));
    await guesser.signIn('someone-else@example.com', 'wrong-guess-xyz').expect(401);
    // each further failure doubles the wait, for a few seconds, never the 15 minutes of the window
    expect((await from(h, office).signIn(colleague, PASSWORD).expect(429)).headers['retry-after']).toBe('2');
    await new Promise((r) => setTimeout(r, 2_100));
    const signedIn = await from(h, office).signIn(colleague, PASSWORD).expect(200);
    expect(signedIn.body.data.account.email).toBe(colleague);
  }, 30_000);
});

describe('sign-up flood with made-up invitations (invite mode)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      trustProxy: ['loopback'],
      signUpMode: 'invite',
      signInThrottle: THROTTLE,
      hashing: { concurrency: 1, queue: 4 },
    });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it('checks the invitation before hashing: 200 parallel sign-ups with well-formed made-up links cost no hash, and searches keep answering', async () => {
    // One sign-in for an unknown email: its verification is a hash, so the counter is there and not zero.
    await from(h, '192.0.2.200').signIn('nobody@example.com', 'wrong-guess-xyz').expect(401);
    const before = await hashes(h, 'done');
    expect(before).toBeGreaterThan(0);
    const auth = `Bearer ${(await h.accountWithKey('pro')).key}`;
    let flooding = true;
    const latencies: number[] = [];
    const searching = (async () => {
      while (flooding) {
        const started = performance.now();
        await h.http.get('/api/v1/skills?q=during-flood').set('Authorization', auth).expect(200);
        latencies.push(performance.now() - started);
      }
    })();
    const flood = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        from(h, `10.1.${i >> 8}.${i & 255}`).signUp(`flood${i}@example.com`, randomBytes(32).toString('base64url')),
      ),
    );
    flooding = false;
    await searching;
    expect(tally(flood.map((r) => r.status))).toEqual({ 400: 200 });
    expect(await hashes(h, 'done')).toBe(before);
    // Every search answered 200 (above). Client, flood and gateway share this process and two shared cores,
    // so their latency is not asserted here: docs/security.md has the figure measured on `npm start`.
    expect(latencies.length).toBeGreaterThan(0);
  });
});

describe('single sign-on starts', () => {
  let h: Harness;
  beforeAll(async () => {
    // Nothing listens at this issuer: a start that gets through is sent back to the sign-in page; the count is what matters here.
    const oidc = {
      issuer: 'http://127.0.0.1:9',
      clientId: 'skills-console',
      clientSecret: 'a-client-secret-for-the-test',
      name: 'Nowhere IdP',
    };
    h = await startHarness({
      trustProxy: ['loopback'],
      signInThrottle: { ...THROTTLE, oidcStartsPerAddress: 3 },
      oidc,
    });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  const start = (client: string) =>
    request(h.gateway.url).get('/api/v1/auth/oidc/start').set('X-Forwarded-For', client);

  it('answers 429 with Retry-After once an address (an IPv6 /64) has started its share of flows; other clients still start', async () => {
    for (let i = 1; i <= 3; i += 1) expect((await start(`2001:db8:5:6::${i}`)).status).toBe(303);
    // another host of the same /64 is the same client
    const refused = await start('2001:db8:5:6::ffff').set('Accept-Language', 'fr');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.error).toMatch(/^Trop de tentatives d'authentification unique/);
    expect((await start('2001:db8:5:7::1')).status).toBe(303);
    expect((await start('198.51.100.9')).status).toBe(303);
  });
});
