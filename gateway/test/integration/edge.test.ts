/**
 * The public edge: what the gateway's public port serves (and does not),
 * the monitoring listener, and the security headers on every answer.
 */
import { startHarness, type Harness } from './harness';

describe('the gateway edge', () => {
  let h: Harness;
  let auth: string;

  beforeAll(async () => {
    h = await startHarness();
    auth = `Bearer ${(await h.accountWithKey('pro')).key}`;
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  describe('monitoring listener', () => {
    it('serves /metrics and the live /readyz there, and neither /metrics on the public port', async () => {
      await h.http.get('/metrics').expect(404, { error: 'Route not found' });
      const metrics = await h.monitor.get('/metrics').expect(200);
      expect(metrics.text).toContain('http_requests_total');
      await h.monitor.get('/readyz').expect(200, { data: { status: 'ready' } });
      await h.monitor.get('/healthz').expect(200, { data: { status: 'ok' } });
      // nothing else: the API is not reachable through the monitoring port
      await h.monitor.get('/api/v1/skills').set('Authorization', auth).expect(404);
    });

    it('answers the public /readyz from a cached state: a flood costs at most one check', async () => {
      await h.http.get('/readyz').expect(200, { data: { status: 'ready' } });
      const before = h.catalog.healthChecks + h.collections.healthChecks;
      const answers = await Promise.all(Array.from({ length: 40 }, () => h.http.get('/readyz')));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(h.catalog.healthChecks + h.collections.healthChecks - before).toBeLessThanOrEqual(2);
      // the live check on the monitoring listener asks every time
      await h.monitor.get('/readyz').expect(200);
      await h.monitor.get('/readyz').expect(200);
      expect(h.catalog.healthChecks + h.collections.healthChecks - before).toBeGreaterThanOrEqual(4);
    });
  });

  describe('security headers', () => {
    const paths: Array<[string, string, number]> = [
      ['a refused API call', '/api/v1/skills', 401],
      ['an API answer', '/api/v1/skills?q=x', 200],
      ['an unknown route', '/nothing-here', 404],
      ['an admin call without the token', '/admin/v1/accounts/x', 401],
      ['health', '/healthz', 200],
      ['the OpenAPI document', '/api/v1/openapi.json', 200],
    ];

    it.each(paths)('sets them on %s', async (_what, path, status) => {
      const res = await h.http
        .get(path)
        .set('Authorization', path === '/api/v1/skills?q=x' ? auth : '')
        .expect(status);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'",
      );
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    });

    it('gives the docs page a policy that allows its own scripts and styles, and no inline script', async () => {
      const res = await h.http.get('/docs').expect(200);
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(res.text).not.toMatch(/<script>[^<]/);
    });

    it('sends Strict-Transport-Security when HSTS_MAX_AGE_SECONDS is set (a gateway behind TLS)', async () => {
      const tls = await startHarness({ hstsMaxAgeSeconds: 31_536_000 });
      try {
        const res = await tls.http.get('/healthz').expect(200);
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      } finally {
        await tls.close();
      }
    }, 90_000);
  });

  describe('docs assets', () => {
    it.each(['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png'])(
      'serves %s, which the page loads',
      async (file) => {
        const res = await h.http.get(`/docs/assets/${file}`).expect(200);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      },
    );

    it.each([
      'index.html',
      'oauth2-redirect.html',
      'oauth2-redirect.js',
      'swagger-initializer.js',
      'swagger-ui-bundle.js.map',
      'swagger-ui.css.map',
      'package.json',
      'README.md',
    ])('does not serve %s', async (file) => {
      await h.http.get(`/docs/assets/${file}`).expect(404);
    });
  });
});
