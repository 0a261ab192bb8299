// @not-store-specific the probes' answers; the database is a fixture
/**
 * The probes answer the same way on every process (common/src/http/health.ts):
 * a load balancer, a Kubernetes probe or an operator's curl cannot tell the
 * services apart by them. The three services are started here as their own
 * main.ts starts them (env → load<Service>Config → start<Service>), on one
 * database (PGlite, or DATABASE_URL).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningService } from '@skills/common';
import { createTestDatabase, testPrincipalKeys, type TestDatabase, silentLogger } from '@skills/common/testing';
import { loadCatalogConfig, startCatalogService } from '@skills/catalog-service';
import { loadCollectionsConfig, startCollectionsService } from '@skills/collections-service';
import { loadGatewayConfig, startGateway } from '@skills/gateway';

const logger = silentLogger('health-routes-test');

/** What a client sees of one answer: status, Allow and body. */
async function answer(url: string, method: string) {
  const res = await fetch(url, { method });
  return { status: res.status, allow: res.headers.get('allow'), body: (await res.json()) as unknown };
}

describe('the health routes of every service', () => {
  let db: TestDatabase;
  let dir: string;
  const services: Array<[string, RunningService]> = [];
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'health-routes-'));
    const keys = await testPrincipalKeys().writeTo(dir);
    const backend = { DATABASE_URL: db.url, PRINCIPAL_PUBLIC_KEYS_FILE: keys.publicKeysFile, PORT: '0' };
    const collections = await startCollectionsService(loadCollectionsConfig(backend), logger);
    services.push(['collections-service', collections]);
    const catalog = await startCatalogService(loadCatalogConfig({ ...backend, POLL_INTERVAL_MS: '50' }), logger);
    services.push(['catalog-service', catalog]);
    const gatewayConfig = loadGatewayConfig({
      DATABASE_URL: db.url,
      PRINCIPAL_SIGNING_KEY_FILE: keys.signingKeyFile,
      ADMIN_TOKEN: 'admin-token-for-the-health-routes-test-0123',
      PORT: '0',
      METRICS_PORT: '0',
      CATALOG_URL: catalog.url,
      COLLECTIONS_URL: collections.url,
    });
    const gateway = await startGateway(gatewayConfig, logger);
    services.push(['gateway', gateway], ['gateway (monitoring port)', { ...gateway, url: gateway.metricsUrl }]);
  }, 120_000);
  afterAll(async () => {
    // the monitoring entry shares the gateway's close
    for (const [name, service] of [...services].reverse())
      if (!name.endsWith('(monitoring port)')) await service.close();
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it.each([
    ['GET', '/healthz', { status: 200, allow: null, body: { data: { status: 'ok' } } }],
    ['GET', '/readyz', { status: 200, allow: null, body: { data: { status: 'ready' } } }],
    ['POST', '/healthz', { status: 405, allow: 'GET', body: { error: 'Method POST is not allowed on this route' } }],
    ['DELETE', '/readyz', { status: 405, allow: 'GET', body: { error: 'Method DELETE is not allowed on this route' } }],
  ] as const)('answer %s %s identically', async (method, path, expected) => {
    const answers = await Promise.all(
      services.map(async ([name, service]) => [name, await answer(`${service.url}${path}`, method)] as const),
    );
    expect(answers).toEqual(services.map(([name]) => [name, expected]));
  });
});
