import { request as httpRequest } from 'node:http';
import { EMPTY_BODY, STREAMED_BODY, bodyDigest } from '@skills/common';
import { PRINCIPAL_KEYS, startHarness, type Harness } from './harness';

describe('gateway proxy', () => {
  let h: Harness;
  let auth: string;

  beforeAll(async () => {
    h = await startHarness({ upstreamTimeoutMs: 500 });
    auth = `Bearer ${(await h.accountWithKey('team')).key}`;
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it('forwards method, path and query unchanged to the owning service', async () => {
    const skills = await h.http
      .get('/api/v1/skills?q=pdf%20tools&type=skill&limit=5')
      .set('Authorization', auth)
      .expect(200);
    expect(skills.body.data).toMatchObject({
      upstream: 'catalog',
      method: 'GET',
      url: '/api/v1/skills?q=pdf%20tools&type=skill&limit=5',
    });
    const del = await h.http.delete('/api/v1/workspaces/w1/collections/c1').set('Authorization', auth).expect(200);
    expect(del.body.data).toMatchObject({
      upstream: 'collections',
      method: 'DELETE',
      url: '/api/v1/workspaces/w1/collections/c1',
    });
  });

  it('forwards HEAD on GET routes as HEAD, signed for HEAD', async () => {
    const res = await h.http.head('/api/v1/skills?q=x').set('Authorization', auth).expect(200);
    expect(res.headers['x-upstream']).toBe('catalog');
    expect(h.catalog.received.at(-1)).toBe('HEAD /api/v1/skills?q=x');
  });

  it('signs a principal bound to the method and path, which the service accepts once', async () => {
    const res = await h.http
      .patch('/api/v1/me/collections/c9?x=1')
      .set('Authorization', auth)
      .send({ name: 'n' })
      .expect(200);
    const header = res.body.data.principalHeader as string;
    // The service verified it already: a replay is refused, and so is any other path or method.
    await expect(h.collections.verifier.verify(header, 'PATCH', '/api/v1/me/collections/c9?x=1')).rejects.toThrow(
      /replayed/,
    );
    const fresh = PRINCIPAL_KEYS.verifier('collections-service');
    // meant for collections-service only: catalog-service refuses it
    await expect(
      PRINCIPAL_KEYS.verifier('catalog-service').verify(header, 'PATCH', '/api/v1/me/collections/c9?x=1'),
    ).rejects.toThrow(/audience/);
    await expect(fresh.verify(header, 'PATCH', '/api/v1/me/collections/other?x=1')).rejects.toThrow(/binding/);
    await expect(fresh.verify(header, 'DELETE', '/api/v1/me/collections/c9?x=1')).rejects.toThrow(/binding/);
    const verified = await fresh.verify(header, 'PATCH', '/api/v1/me/collections/c9?x=1');
    expect(verified.principal).toMatchObject({ kind: 'account', plan: 'team' });
    // bound to the body too: the digest of the exact bytes the service received
    expect(verified.body).toBe(bodyDigest('{"name":"n"}'));
    expect(res.body.data.bodyText).toBe('{"name":"n"}');
  });

  it('signs every body it forwards with its digest, but the streamed import as streamed', async () => {
    const body = '{ "name" : "spaced as the client sent it" }';
    const put = await h.http
      .delete('/api/v1/me/collections/c1')
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send(body)
      .expect(200);
    expect(put.body.data.signedBody).toBe(bodyDigest(body));
    expect(put.body.data.bodyText).toBe(body);
    const get = await h.http.get('/api/v1/me/collections').set('Authorization', auth).expect(200);
    expect(get.body.data.signedBody).toBe(EMPTY_BODY);
    const ndjson = '{"slug":"a"}\n';
    const imported = await h
      .admin('post', '/admin/v1/skills:import')
      .set('Content-Type', 'application/x-ndjson')
      .send(ndjson)
      .expect(201);
    expect(imported.body.data.signedBody).toBe(STREAMED_BODY);
    expect(imported.body.data.bodyText).toBe(ndjson);
  });

  it('streams the JSON body through and forwards only the allowed headers', async () => {
    const body = { name: 'Reading list', description: 'é'.repeat(100) };
    const res = await h.http
      .post('/api/v1/me/collections')
      .set('Authorization', auth)
      .set('Accept-Language', 'fr-CA')
      .set('Idempotency-Key', 'idem-1')
      .set('If-Match', '"v0"')
      .set('Cookie', 'session=secret')
      .set('X-Forwarded-For', '10.0.0.1')
      .send(body)
      .expect(201);
    const echo = res.body.data;
    expect(JSON.parse(echo.bodyText)).toEqual(body);
    expect(echo.headers).toMatchObject({
      'content-type': 'application/json',
      'accept-language': 'fr-CA',
      'idempotency-key': 'idem-1',
      'if-match': '"v0"',
    });
    expect(echo.headers.authorization).toBeUndefined();
    expect(echo.headers.cookie).toBeUndefined();
    expect(echo.headers['x-forwarded-for']).toBeUndefined();
  });

  it('keeps a well-formed X-Request-Id, replaces a bad one, and forwards it', async () => {
    const kept = await h.http
      .get('/api/v1/skills')
      .set('Authorization', auth)
      .set('X-Request-Id', 'req-abc.123')
      .expect(200);
    expect(kept.headers['x-request-id']).toBe('req-abc.123');
    expect(kept.body.data.headers['x-request-id']).toBe('req-abc.123');
    const made = await h.http
      .get('/api/v1/skills')
      .set('Authorization', auth)
      .set('X-Request-Id', 'bad id with spaces')
      .expect(200);
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.body.data.headers['x-request-id']).toBe(made.headers['x-request-id']);
  });

  it('copies the status and end-to-end headers of the answer, not hop-by-hop ones', async () => {
    const res = await h.http
      .post('/api/v1/workspaces/w1/collections')
      .set('Authorization', auth)
      .send({ name: 'x' })
      .expect(201);
    expect(res.headers['x-upstream']).toBe('collections');
    expect(res.headers.etag).toBe('"v1"');
    expect(res.headers['keep-alive']).toBeUndefined();
  });

  it('tags public reads with a strong ETag and answers If-None-Match with a bodiless 304', async () => {
    const url = '/api/v1/me/collections/stable';
    const first = await h.http.get(url).set('Authorization', auth).expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(etag).not.toBe('"v1"'); // the gateway's tag, not the service's
    expect(first.headers['cache-control']).toBe('private, no-cache');
    for (const condition of [etag, `W/${etag}`, `"stale", ${etag}`, '*']) {
      const again = await h.http.get(url).set('Authorization', auth).set('If-None-Match', condition).expect(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('private, no-cache');
      expect(again.headers['ratelimit-limit']).toBeDefined();
    }
    const stale = await h.http.get(url).set('Authorization', auth).set('If-None-Match', '"stale"').expect(200);
    expect(stale.body).toEqual(first.body);
    const search = await h.http.get('/api/v1/skills').set('Authorization', auth).expect(200);
    expect(search.headers['cache-control']).toBe('private, max-age=5');
    expect(search.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it('answers 404 for unknown paths and 405 with Allow for known ones, before asking for a key', async () => {
    const missing = await h.http.get('/api/v1/nothing-here').expect(404);
    expect(missing.body).toEqual({ error: 'Route not found' });
    const fr = await h.http.get('/api/v1/nothing-here').set('Accept-Language', 'fr').expect(404);
    expect(fr.body).toEqual({ error: 'Route introuvable' });
    const wrong = await h.http.put('/api/v1/me/collections/c1').set('Authorization', auth).expect(405);
    expect(wrong.headers.allow).toBe('GET, PATCH, DELETE');
    expect(wrong.body).toEqual({ error: 'Method PUT is not allowed on this route' });
    await h.http.delete('/api/v1/skills').expect(405).expect('Allow', 'GET');
  });

  it('refuses a body declared over 100 kB with 413 before contacting the service', async () => {
    const calls = h.collections.received.length;
    const res = await h.http
      .post('/api/v1/me/collections')
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(150 * 1024) }))
      .expect(413);
    expect(res.body.error).toContain('100kb');
    expect(h.collections.received.length).toBe(calls);
  });

  it('refuses a chunked body that grows over 100 kB with 413', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${h.gateway.url}/api/v1/me/collections`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.write(`{"name":"${'x'.repeat(60 * 1024)}`);
      req.end(`${'y'.repeat(60 * 1024)}"}`);
    });
    expect(status).toBe(413);
    expect(JSON.parse(body)).toEqual({ error: 'Request body is larger than 100kb' });
  });

  it('survives a client that goes away mid-request', async () => {
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${h.gateway.url}/api/v1/me/collections/slow`, { headers: { Authorization: auth } });
      req.on('error', () => resolve());
      req.end();
      setTimeout(() => req.destroy(), 100);
    });
    await h.http.get('/api/v1/skills').set('Authorization', auth).expect(200);
  });

  it('waits for an import longer than the upstream timeout: it is written before it is answered', async () => {
    // the harness's upstream timeout is 500 ms; this import takes 1.5 s
    h.collections.holdAnswers = new Promise<void>((resolve) => setTimeout(resolve, 1_500).unref());
    try {
      await h
        .admin('post', '/admin/v1/skills:import')
        .set('Content-Type', 'application/x-ndjson')
        .send('{"slug":"a"}\n')
        .expect(201);
    } finally {
      h.collections.holdAnswers = undefined;
    }
  });

  it('answers 504 when the service is too slow', async () => {
    const res = await h.http.get('/api/v1/me/collections/slow').set('Authorization', auth).expect(504);
    expect(res.body).toEqual({ error: 'The service did not answer in time' });
    expect(res.headers['retry-after']).toBe('1');
  });

  it.each([
    ['collections-service (streamed through)', 'collections', '/api/v1/me/collections'],
    ['catalog-service (a search, read whole)', 'catalog', '/api/v1/skills?q=relayed-503'],
  ] as const)(
    "relays %s's 503 with its own Retry-After, or with one when it sent none",
    async (_label, which, path) => {
      const service = which === 'catalog' ? h.catalog : h.collections;
      let retryAfter: string | undefined;
      service.answer = () => {
        const headers: Record<string, string> = retryAfter === undefined ? {} : { 'Retry-After': retryAfter };
        return { status: 503, body: { error: 'shedding' }, headers };
      };
      try {
        const bare = await h.http.get(path).set('Authorization', auth).expect(503);
        expect(bare.body).toEqual({ error: 'shedding' });
        expect(bare.headers['retry-after']).toBe('1');
        retryAfter = '7';
        const named = await h.http
          .get(`${path}${path.includes('?') ? '&' : '?'}again=1`)
          .set('Authorization', auth)
          .expect(503);
        expect(named.headers['retry-after']).toBe('7');
      } finally {
        service.answer = undefined;
      }
    },
  );

  it('answers 503 while a service is down, without waiting for the upstream timeout (504), and recovers when it is back', async () => {
    await h.collections.stop();
    try {
      // a refused connection is a 503 at once; only a service that accepts and stays silent costs the timeout (504, above)
      const down = await h.http.get('/api/v1/me/collections').set('Authorization', auth).expect(503);
      expect(down.body).toEqual({ error: 'The service is temporarily unavailable' });
      expect(down.headers['retry-after']).toBe('1');
      const fr = await h.http
        .post('/api/v1/me/collections')
        .set('Authorization', auth)
        .set('Accept-Language', 'fr')
        .send({ name: 'a' });
      expect(fr.status).toBe(503);
      expect(fr.body).toEqual({ error: 'Le service est temporairement indisponible' });
      await h.monitor.get('/readyz').expect(503, { error: 'Not ready: collections-service not answering' });
      // the public port (answering the check just made) says only that it is not ready
      const notReady = await h.http.get('/readyz').expect(503, { error: 'Not ready' });
      expect(notReady.headers['retry-after']).toBe('1');
      await h.http.get('/readyz').set('Accept-Language', 'fr').expect(503, { error: 'Pas prêt' });
      // The other service is unaffected.
      await h.http.get('/api/v1/skills').set('Authorization', auth).expect(200);
    } finally {
      await h.collections.start();
    }
    await h.http.get('/api/v1/me/collections').set('Authorization', auth).expect(200);
    await h.monitor.get('/readyz').expect(200, { data: { status: 'ready' } });
  });

  it('answers /healthz without a key', async () => {
    await h.http.get('/healthz').expect(200, { data: { status: 'ok' } });
    // the probes every process shares (common/src/http/health.ts)
    await h.http.post('/healthz').expect(405);
    await h.monitor.post('/readyz').expect(405);
  });

  it('serves Prometheus metrics labelled by route template, never by raw path', async () => {
    await h.http.get('/api/v1/me/collections/3f1c0b1e-metrics-probe').set('Authorization', auth).expect(200);
    const res = await h.monitor.get('/metrics').expect(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.text).toMatch(/http_requests_total\{[^}]*route="\/api\/v1\/me\/collections\/:id"[^}]*status="200"/);
    expect(res.text).not.toContain('metrics-probe');
  });
});
