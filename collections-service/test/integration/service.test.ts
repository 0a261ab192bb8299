// @not-store-specific the service's wiring; the database is a fixture
import request from 'supertest';
import { PRINCIPAL_HEADER, createSequelize } from '@skills/common';
import { createTestDatabase, freePort, type TestDatabase, silentLogger, publicKeysFile } from '@skills/common/testing';
import { createCollectionsApp, loadCollectionsConfig, startCollectionsService } from '@skills/collections-service';
import { AUDIENCE, KEYS, START_TIMEOUT_MS, account } from '../support/harness';

const logger = silentLogger('collections-test');

describe('startCollectionsService', () => {
  let db: TestDatabase;
  let keys: Awaited<ReturnType<typeof publicKeysFile>>;
  beforeAll(async () => {
    db = await createTestDatabase();
    keys = await publicKeysFile(KEYS);
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await db?.drop();
    await keys?.remove();
  });

  it('migrates, serves health, readiness and signed requests, and closes', async () => {
    const config = loadCollectionsConfig({ DATABASE_URL: db.url, PRINCIPAL_PUBLIC_KEYS_FILE: keys.path, PORT: '0' });
    const service = await startCollectionsService(config, logger);
    try {
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      // the probes every process shares (common/src/http/health.ts)
      expect((await fetch(`${service.url}/healthz`, { method: 'POST' })).status).toBe(405);
      const ready = await fetch(`${service.url}/readyz`);
      expect(await ready.json()).toEqual({ data: { status: 'ready' } });
      expect((await fetch(`${service.url}/api/v1/me/collections`)).status).toBe(401);
      const signer = KEYS.signer();
      const url = '/api/v1/me/collections';
      const res = await fetch(`${service.url}${url}`, {
        headers: { [PRINCIPAL_HEADER]: signer.sign(account(), AUDIENCE, 'GET', url) },
      });
      expect(await res.json()).toEqual({
        data: { collections: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0, hasMore: false } },
      });
    } finally {
      await service.close();
    }
    await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
    // a second start on the migrated schema applies nothing and still serves signed requests
    const applied = async () => {
      const sequelize = createSequelize({ url: db.url });
      try {
        const [rows] = await sequelize.query(
          'SELECT id, applied_at::text AS at FROM collections.schema_migrations ORDER BY id',
        );
        return rows;
      } finally {
        await sequelize.close();
      }
    };
    const before = await applied();
    expect(before.length).toBeGreaterThan(5);
    const again = await startCollectionsService(config, logger);
    try {
      expect((await fetch(`${again.url}/readyz`)).status).toBe(200);
      expect(await applied()).toEqual(before);
      const url = '/api/v1/me/collections';
      const res = await fetch(`${again.url}${url}`, {
        headers: { [PRINCIPAL_HEADER]: KEYS.signer().sign(account(), AUDIENCE, 'GET', url) },
      });
      expect(res.status).toBe(200);
    } finally {
      await again.close();
    }
  });

  it('answers /readyz with 503 when the database is gone, and unknown routes with 404', async () => {
    const sequelize = createSequelize({ url: db.url });
    const app = createCollectionsApp({ sequelize, verifier: KEYS.verifier(AUDIENCE), logger });
    await sequelize.close();
    const res = await request(app).get('/readyz').set('Accept-Language', 'fr');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'Pas prêt : database ne répond pas' });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    expect((await request(app).get('/nowhere')).status).toBe(404);
  });

  it('answers 503 with Retry-After while its database cannot be reached', async () => {
    // nothing listens there: every query fails to connect
    const sequelize = createSequelize({ url: `postgres://postgres@127.0.0.1:${await freePort()}/gone` });
    const app = createCollectionsApp({ sequelize, verifier: KEYS.verifier(AUDIENCE), logger });
    try {
      const url = '/api/v1/me/collections';
      const res = await request(app)
        .get(url)
        .set(PRINCIPAL_HEADER, KEYS.signer().sign(account(), AUDIENCE, 'GET', url))
        .set('Accept-Language', 'fr');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'Le service est temporairement indisponible' });
      expect(res.headers['retry-after']).toBe('1');
    } finally {
      await sequelize.close();
    }
  });
});
