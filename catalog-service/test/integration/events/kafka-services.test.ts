// @store-specific the services on one server database (server only)
/**
 * The two services as `main` starts them with EVENT_LOG=kafka, on librdkafka's
 * mock cluster: an admin write to collections-service reaches the search of
 * catalog-service through the outbox relay and the Kafka consumer group.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { EMPTY_BODY, bodyDigest, type Principal, type PrincipalAudience, type RunningService } from '@skills/common';
import {
  createTestDatabase,
  eventually,
  type TestDatabase,
  silentLogger,
  publicKeysFile,
} from '@skills/common/testing';
import { loadCollectionsConfig, startCollectionsService } from '../../../../collections-service/src/index';
import { loadCatalogConfig, startCatalogService } from '../../../src/index';

import { mockClusterModule, startMockCluster, type MockCluster } from '../../support/events/kafka-mock-cluster';
import { KEYS } from '../../support/gateway-key-pair';

const signer = KEYS.signer();
const logger = silentLogger('kafka-services-test');
/**
 * On a Postgres server only: two services polling one PGlite through its
 * socket server can have their protocol messages interleaved (a Parse of one
 * connection between the Parse and Bind of another), which fails queries at
 * random; the Kafka relay is for the distributed setup anyway.
 */
const describeOnServerWithMock = mockClusterModule() && process.env.DATABASE_URL ? describe : describe.skip;

describeOnServerWithMock('services with EVENT_LOG=kafka (mock cluster, Postgres server)', () => {
  let db: TestDatabase;
  let cluster: MockCluster;
  let collections: RunningService;
  let catalog: RunningService;
  let keys: Awaited<ReturnType<typeof publicKeysFile>>;

  beforeAll(async () => {
    db = await createTestDatabase();
    cluster = await startMockCluster();
    keys = await publicKeysFile(KEYS);
    const env = {
      PORT: '0',
      DATABASE_URL: db.url,
      PRINCIPAL_PUBLIC_KEYS_FILE: keys.path,
      EVENT_LOG: 'kafka',
      KAFKA_BROKERS: cluster.brokers.join(','),
    };
    collections = await startCollectionsService(loadCollectionsConfig(env), logger);
    catalog = await startCatalogService(loadCatalogConfig(env), logger);
  });
  afterAll(async () => {
    await catalog?.close();
    await collections?.close();
    await cluster?.stop();
    await db?.drop();
    await keys?.remove();
  });

  /** A request signed as the gateway would: for this method, URL and body (JSON-encoded, as supertest sends it). */
  const call = (base: string, principal: Principal, method: 'GET' | 'PUT' | 'DELETE', url: string, body?: object) => {
    const audience: PrincipalAudience = base === catalog.url ? 'catalog-service' : 'collections-service';
    const verb = method.toLowerCase() as 'get' | 'put' | 'delete';
    const test = request(base)
      [verb](url)
      .set(
        'X-Skills-Principal',
        signer.sign(
          principal,
          audience,
          method,
          url,
          body === undefined ? EMPTY_BODY : bodyDigest(JSON.stringify(body)),
        ),
      );
    return body === undefined ? test : test.send(body);
  };
  const account: Principal = { kind: 'account', accountId: randomUUID(), plan: 'pro', keyId: 'k' };

  async function slugsFor(q: string): Promise<string[]> {
    const res = await call(catalog.url, account, 'GET', `/api/v1/skills?q=${q}`);
    expect(res.status).toBe(200);
    return (res.body.data.skills as { slug: string }[]).map((s) => s.slug);
  }

  it('makes an admin write searchable, and a deletion disappear, through Kafka', async () => {
    const put = await call(collections.url, { kind: 'admin' }, 'PUT', '/admin/v1/skills/kafka-lag-monitor', {
      name: 'Kafka lag monitor',
      description: 'Watches consumer groups',
      type: 'plugin',
      category: 'observability',
    });
    expect(put.status).toBe(201);
    await eventually(async () => (await slugsFor('lag')).includes('kafka-lag-monitor'), 'the skill searchable');

    const del = await call(collections.url, { kind: 'admin' }, 'DELETE', '/admin/v1/skills/kafka-lag-monitor');
    expect(del.status).toBe(200);
    await eventually(async () => !(await slugsFor('lag')).includes('kafka-lag-monitor'), 'the skill gone from search');
  });
});
