import { startHarness, type Harness } from './harness';

/** The gateway's micro-cache of public search answers, against a fake catalog that counts what reaches it. */
describe('gateway answer cache', () => {
  let h: Harness;
  let auth: string;
  const searches = () => h.catalog.received.filter((line) => line.startsWith('GET /api/v1/skills'));

  // The cache's clock: tests step over the time to live instead of waiting for it.
  let now = 1_000_000;

  beforeAll(async () => {
    h = await startHarness({ answerCache: { ttlMs: 1_000, maxEntries: 100 } }, { now: () => now });
    auth = `Bearer ${(await h.accountWithKey('pro')).key}`;
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);
  const lookups = async (result: 'hit' | 'miss') => {
    const metrics = await h.monitor.get('/metrics').expect(200);
    const pattern = new RegExp(`skills_answer_cache_lookups_total\\{result="${result}",service="gateway"\\} (\\d+)`);
    return Number(pattern.exec(metrics.text)?.[1] ?? 0);
  };
  beforeEach(() => {
    h.catalog.received.length = 0;
  });

  it('answers a repeated search from the gateway within the time to live, then asks catalog-service again', async () => {
    const url = '/api/v1/skills?q=cache-ttl&limit=5';
    const first = await h.http.get(url).set('Authorization', auth).expect(200);
    const again = await h.http.get(url).set('Authorization', auth).expect(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe('private, max-age=5');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(searches()).toEqual([`GET ${url}`]);
    const notModified = await h.http
      .get(url)
      .set('Authorization', auth)
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
    expect(notModified.text).toBe('');
    now += 999;
    await h.http.get(url).set('Authorization', auth).expect(200);
    expect(searches()).toEqual([`GET ${url}`]);
    now += 1; // the time to live is over
    await h.http.get(url).set('Authorization', auth).expect(200);
    expect(searches()).toEqual([`GET ${url}`, `GET ${url}`]);
  });

  it('gives each request its own X-Request-Id, and answers another query or another key only after the key check', async () => {
    const url = '/api/v1/skills?q=ids';
    const a = await h.http.get(url).set('Authorization', auth).set('X-Request-Id', 'req-a').expect(200);
    const b = await h.http.get(url).set('Authorization', auth).set('X-Request-Id', 'req-b').expect(200);
    expect([a.headers['x-request-id'], b.headers['x-request-id']]).toEqual(['req-a', 'req-b']);
    await h.http.get(url).set('Authorization', 'Bearer sk_live_00000000000000000000000000000000').expect(401);
    await h.http.get('/api/v1/skills?q=other').set('Authorization', auth).expect(200);
    expect(searches()).toEqual([`GET ${url}`, 'GET /api/v1/skills?q=other']);
  });

  it('sends concurrent requests for one search upstream once', async () => {
    const url = '/api/v1/skills?q=together';
    const missesBefore = await lookups('miss');
    // catalog-service answers only once all twelve requests have missed the cache, so they are truly concurrent
    let release = () => {};
    h.catalog.holdAnswers = new Promise<void>((resolve) => (release = resolve));
    try {
      const pending = Promise.all(
        Array.from({ length: 12 }, () =>
          h.http
            .get(url)
            .set('Authorization', auth)
            .then((r) => r),
        ),
      );
      const deadline = Date.now() + 10_000;
      while ((await lookups('miss')) < missesBefore + 12) {
        if (Date.now() > deadline)
          throw new Error(`only ${(await lookups('miss')) - missesBefore} of 12 requests missed the cache within 10 s`);
        await new Promise((r) => setTimeout(r, 10));
      }
      release();
      const answers = await pending;
      expect(answers.map((r) => r.status)).toEqual(Array(12).fill(200));
      expect(searches()).toEqual([`GET ${url}`]);
    } finally {
      h.catalog.holdAnswers = undefined;
      release();
    }
  });

  it('never keeps a failure: once catalog-service is back the next search reaches it', async () => {
    const url = '/api/v1/skills?q=outage';
    await h.catalog.stop();
    try {
      await h.http.get(url).set('Authorization', auth).expect(503);
    } finally {
      await h.catalog.start();
    }
    const res = await h.http.get(url).set('Authorization', auth).expect(200);
    expect(res.body.data.url).toBe(url);
  });

  it('answers HEAD upstream without storing its empty body for the GETs that follow', async () => {
    const url = '/api/v1/skills?q=head-first';
    await h.http.head(url).set('Authorization', auth).expect(200);
    const get = await h.http.get(url).set('Authorization', auth).expect(200);
    expect(get.body.data.method).toBe('GET');
  });

  it('counts hits and misses on /metrics', async () => {
    const before = { hit: await lookups('hit'), miss: await lookups('miss') };
    const url = '/api/v1/skills?q=counted';
    await h.http.get(url).set('Authorization', auth).expect(200);
    await h.http.get(url).set('Authorization', auth).expect(200);
    expect({ hit: await lookups('hit'), miss: await lookups('miss') }).toEqual({
      hit: before.hit + 1,
      miss: before.miss + 1,
    });
  });
});
