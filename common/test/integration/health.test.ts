import express from 'express';
import request from 'supertest';
import { errorHandler, healthRouter, failingChecks, requestContext, type ReadinessCheck } from '../../src';
import { silentLogger } from '@skills/common/testing';

const logger = silentLogger('health-test');

function appWith(checks: ReadinessCheck[], nameFailing: boolean) {
  const app = express();
  app.use(requestContext());
  app.use(healthRouter({ failing: () => failingChecks(checks, logger), nameFailing }));
  app.use(errorHandler(logger));
  return app;
}

const up: ReadinessCheck = { name: 'database', health: async () => ({ ok: true }) };
const down: ReadinessCheck = { name: 'search engine', health: async () => ({ ok: false, reason: 'refused' }) };
const throws: ReadinessCheck = { name: 'event log', health: async () => Promise.reject(new Error('boom')) };

describe('healthRouter, the probes of every process', () => {
  it('answers liveness and readiness while every dependency answers', async () => {
    const app = appWith([up], true);
    expect((await request(app).get('/healthz')).body).toEqual({ data: { status: 'ok' } });
    expect((await request(app).get('/readyz')).body).toEqual({ data: { status: 'ready' } });
  });

  it('answers 503 naming the failing dependencies (one that throws fails), or naming none on a public port', async () => {
    const named = await request(appWith([up, down, throws], true)).get('/readyz');
    expect([named.status, named.body]).toEqual([503, { error: 'Not ready: search engine, event log not answering' }]);
    const unnamed = await request(appWith([down], false))
      .get('/readyz')
      .set('Accept-Language', 'fr');
    expect(unnamed.status).toBe(503);
    expect(unnamed.body.error).not.toContain('search engine');
    expect((await request(appWith([down], false)).get('/healthz')).status).toBe(200);
  });

  it.each(['/healthz', '/readyz'])('answers other methods on %s with 405 and Allow: GET', async (path) => {
    const res = await request(appWith([up], true)).post(path);
    expect([res.status, res.headers.allow, res.body]).toEqual([
      405,
      'GET',
      { error: 'Method POST is not allowed on this route' },
    ]);
  });
});
