import { startHarness, type Harness } from './harness';
import { until } from '@skills/common/testing';

/** Admission control and expired principals: overload is a prompt 503 with Retry-After after at most a short, bounded wait, never a 401. */
describe('gateway under overload', () => {
  let h: Harness;
  let auth: string;

  beforeAll(async () => {
    h = await startHarness({ admission: { reads: 2, writes: 1, maxWaitMs: 400 } });
    auth = `Bearer ${(await h.accountWithKey('pro')).key}`;
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);
  beforeEach(() => {
    h.catalog.received.length = 0;
    h.catalog.expireNext = 0;
    h.collections.expireNext = 0;
  });

  it('lets a burst past the bound wait its turn, sheds what the line cannot hold at once with 503, Retry-After and a message in the caller’s language', async () => {
    let release: () => void = () => undefined;
    h.catalog.holdAnswers = new Promise<void>((resolve) => (release = resolve));
    const held = [1, 2].map((n) =>
      h.http
        .get(`/api/v1/skills?q=held${n}`)
        .set('Authorization', auth)
        .then((r) => r),
    );
    await until(() => h.catalog.received.length === 2);
    // two places, two in line
    const waiting = [3, 4].map((n) =>
      h.http
        .get(`/api/v1/skills?q=waits${n}`)
        .set('Authorization', auth)
        .then((r) => r),
    );
    try {
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      const shed = await h.http.get('/api/v1/skills?q=fifth').set('Authorization', auth).expect(503);
      expect(Date.now() - started).toBeLessThan(300);
      expect(shed.headers['retry-after']).toBe('1');
      expect(shed.body).toEqual({ error: 'The server is busy; retry shortly' });
      const fr = await h.http
        .get('/api/v1/skills?q=sixth')
        .set('Authorization', auth)
        .set('Accept-Language', 'fr')
        .expect(503);
      expect(fr.body).toEqual({ error: 'Le serveur est surchargé ; réessayez dans un instant' });
      // Writes have places of their own: a flood of reads does not refuse them.
      await h.http.post('/api/v1/me/collections').set('Authorization', auth).send({ name: 'during' }).expect(201);
      // Neither the waiting nor the shed requests reached the service, so no principal was signed for them to age.
      expect(h.catalog.received).toEqual(['GET /api/v1/skills?q=held1', 'GET /api/v1/skills?q=held2']);
    } finally {
      h.catalog.holdAnswers = undefined;
      release();
    }
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
    // the two in line got the places the first two gave back
    expect((await Promise.all(waiting)).map((r) => r.status)).toEqual([200, 200]);
    expect(h.catalog.received.slice(2).sort()).toEqual(['GET /api/v1/skills?q=waits3', 'GET /api/v1/skills?q=waits4']);
    await h.http.get('/api/v1/skills?q=after').set('Authorization', auth).expect(200);
  });

  it('refuses while every place and the line are taken before counting the caller against its rate limit', async () => {
    const other = `Bearer ${(await h.accountWithKey('pro')).key}`;
    let release: () => void = () => undefined;
    h.catalog.holdAnswers = new Promise<void>((resolve) => (release = resolve));
    const taken = [1, 2, 3, 4].map((n) =>
      h.http
        .get(`/api/v1/skills?q=full${n}`)
        .set('Authorization', auth)
        .then((r) => r),
    );
    await until(() => h.catalog.received.length === 2);
    await new Promise((r) => setTimeout(r, 50));
    try {
      for (let i = 0; i < 3; i += 1) {
        const shed = await h.http.get(`/api/v1/skills?q=refused${i}`).set('Authorization', other).expect(503);
        expect(shed.headers['retry-after']).toBe('1');
        expect(shed.headers['x-request-id']).toEqual(expect.any(String));
        expect(shed.headers['x-content-type-options']).toBe('nosniff');
      }
    } finally {
      h.catalog.holdAnswers = undefined;
      release();
    }
    expect((await Promise.all(taken)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // the three refusals cost the other account nothing: its first admitted call is its first counted one
    const first = await h.http.get('/api/v1/skills?q=counted').set('Authorization', other).expect(200);
    expect(first.headers['ratelimit-remaining']).toBe(String(Number(first.headers['ratelimit-limit']) - 1));
  });

  it('answers 503 to a request that waited its longest for a place, and counts what it shed', async () => {
    let release: () => void = () => undefined;
    h.catalog.holdAnswers = new Promise<void>((resolve) => (release = resolve));
    const held = [1, 2].map((n) =>
      h.http
        .get(`/api/v1/skills?q=slow${n}`)
        .set('Authorization', auth)
        .then((r) => r),
    );
    await until(() => h.catalog.received.length === 2);
    try {
      const started = Date.now();
      const timedOut = await h.http.get('/api/v1/skills?q=patient').set('Authorization', auth).expect(503);
      expect(Date.now() - started).toBeGreaterThanOrEqual(390);
      expect(timedOut.headers['retry-after']).toBe('1');
      expect(h.catalog.received).toHaveLength(2);
    } finally {
      h.catalog.holdAnswers = undefined;
      release();
    }
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
    const metrics = await h.monitor.get('/metrics').expect(200);
    expect(metrics.text).toMatch(/skills_admission_shed_total\{class="catalog:read",service="gateway"\} [1-9]/);
    expect(metrics.text).toContain(
      'skills_admission_requests{class="catalog:read",state="waiting",service="gateway"} 0',
    );
  });

  it('re-signs and retries once when the service finds the principal expired', async () => {
    h.catalog.expireNext = 1;
    const res = await h.http.get('/api/v1/skills?q=late').set('Authorization', auth).expect(200);
    expect(res.body.data.url).toBe('/api/v1/skills?q=late');
    expect(h.catalog.received).toEqual(['GET /api/v1/skills?q=late', 'GET /api/v1/skills?q=late']);
    h.collections.expireNext = 1;
    const created = await h.http
      .post('/api/v1/me/collections')
      .set('Authorization', auth)
      .send({ name: 'late' })
      .expect(201);
    expect(JSON.parse(created.body.data.bodyText)).toEqual({ name: 'late' });
  });

  it('answers 503 with Retry-After, never 401, when the principal expires again', async () => {
    h.catalog.expireNext = 2;
    const res = await h.http.get('/api/v1/skills?q=later').set('Authorization', auth).expect(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['x-skills-principal-expired']).toBeUndefined();
    expect(res.body).toEqual({ error: 'The request waited too long inside the service; retry shortly' });
  });
});

describe('gateway under overload, with the answer cache', () => {
  let h: Harness;
  let auth: string;

  beforeAll(async () => {
    h = await startHarness({
      admission: { reads: 1, writes: 1, maxWaitMs: 400 },
      answerCache: { ttlMs: 1_000, maxEntries: 100 },
    });
    auth = `Bearer ${(await h.accountWithKey('pro')).key}`;
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it('still answers a search the cache holds while every place and the line are taken', async () => {
    const cached = await h.http.get('/api/v1/skills?q=kept').set('Authorization', auth).expect(200);
    let release: () => void = () => undefined;
    h.catalog.holdAnswers = new Promise<void>((resolve) => (release = resolve));
    const taken = ['a', 'b'].map((q) =>
      h.http
        .get(`/api/v1/skills?q=${q}`)
        .set('Authorization', auth)
        .then((r) => r),
    );
    await until(() => h.catalog.received.some((line) => line.endsWith('?q=a') || line.endsWith('?q=b')));
    await new Promise((r) => setTimeout(r, 50));
    try {
      await h.http.get('/api/v1/skills?q=other').set('Authorization', auth).expect(503);
      const again = await h.http.get('/api/v1/skills?q=kept').set('Authorization', auth).expect(200);
      expect(again.body).toEqual(cached.body);
    } finally {
      h.catalog.holdAnswers = undefined;
      release();
    }
    expect((await Promise.all(taken)).map((r) => r.status)).toEqual([200, 200]);
  });
});
