/**
 * The served document and docs page, and the gateway's own answers checked
 * with assertMatchesOpenApi on a real gateway (real database, fake upstreams).
 */
import type { Response } from 'supertest';
import { openApiDocument } from '../../src/openapi/document';
import { assertMatchesOpenApi } from '../../src/testing';
import { startHarness, type Harness } from './harness';

function conforms(method: string, path: string, res: Response): void {
  assertMatchesOpenApi(method, path, res.status, res.headers, res.type === 'application/json' ? res.body : res.text);
}

describe('OpenAPI document and docs page over HTTP', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ rateLimits: { pro: 2, team: 2 } });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  it('serves the document without a key', async () => {
    const res = await h.http
      .get('/api/v1/openapi.json')
      .expect(200)
      .expect('Content-Type', /application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(openApiDocument)));
    conforms('GET', '/api/v1/openapi.json', res);
  });

  it('answers 405 with Allow to another method on the document', async () => {
    const res = await h.http.post('/api/v1/openapi.json').send({}).expect(405);
    expect(res.headers.allow).toBe('GET');
  });

  it('serves the docs page and the renderer from its own origin', async () => {
    const page = await h.http
      .get('/docs')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    conforms('GET', '/docs', page);
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(sources.length).toBeGreaterThanOrEqual(3);
    for (const source of sources) {
      expect(source.startsWith('/')).toBe(true);
      await h.http.get(source).expect(200);
    }
    const init = await h.http
      .get('/docs/init.js')
      .expect(200)
      .expect('Content-Type', /javascript/);
    expect(init.text).toContain('"/api/v1/openapi.json"');
    const bundle = await h.http.get('/docs/assets/swagger-ui-bundle.js').expect(200);
    expect(bundle.text).toContain('SwaggerUIBundle');
  });

  it('documents what the gateway answers on the public API without a usable key', async () => {
    conforms('GET', '/api/v1/skills', await h.http.get('/api/v1/skills').expect(401));
    const fr = await h.http
      .get('/api/v1/me/collections')
      .set('Accept-Language', 'fr')
      .set('Authorization', 'Bearer nope')
      .expect(401);
    expect(fr.body).toEqual({ error: 'Clé API invalide ou révoquée' });
    conforms('GET', '/api/v1/me/collections', fr);

    const free = await h.accountWithKey('free');
    const refused = await h.http
      .post('/api/v1/me/collections')
      .set('Authorization', `Bearer ${free.key}`)
      .send({ name: 'x' })
      .expect(403);
    expect(refused.body).toEqual({ error: 'API access is available with a plan that includes API access' });
    conforms('POST', '/api/v1/me/collections', refused);

    conforms('PUT', '/api/v1/skills', await h.http.put('/api/v1/skills').expect(405));
  });

  it('documents the 429 of an exhausted key with its Retry-After and RateLimit headers', async () => {
    const { key } = await h.accountWithKey('pro');
    const call = () => h.http.get('/api/v1/me/collections').set('Authorization', `Bearer ${key}`);
    await call().expect(200);
    await call().expect(200);
    const limited = await call().expect(429);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    conforms('GET', '/api/v1/me/collections', limited);
  });

  it('documents the admin answers of the gateway itself', async () => {
    const created = await h
      .admin('post', '/admin/v1/accounts', { email: 'doc@example.com', name: 'Doc', plan: 'pro' })
      .expect(201);
    conforms('POST', '/admin/v1/accounts', created);
    const id = created.body.data.account.id as string;
    conforms(
      'POST',
      '/admin/v1/accounts',
      await h.admin('post', '/admin/v1/accounts', { email: 'doc@example.com', plan: 'pro' }).expect(409),
    );
    conforms(
      'POST',
      '/admin/v1/accounts',
      await h.admin('post', '/admin/v1/accounts', { email: 'no', plan: 'pro' }).expect(400),
    );

    const key = await h.admin('post', `/admin/v1/accounts/${id}/api-keys`, { name: 'ci' }).expect(201);
    conforms('POST', `/admin/v1/accounts/${id}/api-keys`, key);
    conforms(
      'PATCH',
      `/admin/v1/accounts/${id}`,
      await h.admin('patch', `/admin/v1/accounts/${id}`, { plan: 'team' }).expect(200),
    );
    conforms('GET', `/admin/v1/accounts/${id}`, await h.admin('get', `/admin/v1/accounts/${id}`).expect(200));
    const keyPath = `/admin/v1/api-keys/${key.body.data.apiKey.id as string}`;
    conforms('DELETE', keyPath, await h.admin('delete', keyPath).expect(200));
    conforms('GET', '/admin/v1/accounts/unknown', await h.admin('get', '/admin/v1/accounts/unknown').expect(404));
    conforms('POST', '/admin/v1/accounts', await h.http.post('/admin/v1/accounts').send({}).expect(401));
  });

  it('documents the health endpoints', async () => {
    conforms('GET', '/healthz', await h.http.get('/healthz').expect(200));
    conforms('GET', '/readyz', await h.http.get('/readyz'));
  });
});
