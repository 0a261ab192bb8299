// @store-specific the outbox's retention deletes
import { QueryTypes, type Sequelize } from 'sequelize';
import { PRINCIPAL_HEADER, bodyDigest, createSequelize, runMigrations } from '@skills/common';
import {
  createTestDatabase,
  eventually,
  type TestDatabase,
  silentLogger,
  publicKeysFile,
} from '@skills/common/testing';
import type { RunningService } from '@skills/common';
import { loadCollectionsConfig, startCollectionsService } from '@skills/collections-service';
// catalog-service's schema holds the consumer positions the pruner reads (EVENT_LOG=postgres).
import { CATALOG_SCHEMA, catalogMigrations } from '../../../catalog-service/src/store/migrations';
import { ADMIN, AUDIENCE, KEYS, START_TIMEOUT_MS } from '../support/harness';

const logger = silentLogger('collections-test');

describe('startCollectionsService: outbox size and retention', () => {
  let db: TestDatabase;
  let sequelize: Sequelize;
  let service: RunningService;
  let keys: Awaited<ReturnType<typeof publicKeysFile>>;

  beforeAll(async () => {
    db = await createTestDatabase();
    keys = await publicKeysFile(KEYS);
    const config = loadCollectionsConfig({
      DATABASE_URL: db.url,
      PRINCIPAL_PUBLIC_KEYS_FILE: keys.path,
      PORT: '0',
      EVENT_LOG: 'postgres',
      OUTBOX_RETENTION_MS: '0',
      OUTBOX_PRUNE_INTERVAL_MS: '1000',
      // PGlite's socket server serves one busy connection at a time well (see relay.test.ts).
      DB_POOL_MAX: db.kind === 'pglite' ? '1' : '4',
    });
    service = await startCollectionsService(config, logger);
    sequelize = createSequelize({ url: db.url, poolMax: 1 });
    await runMigrations(sequelize, CATALOG_SCHEMA, catalogMigrations);
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await sequelize?.close();
    await db?.drop();
    await keys?.remove();
  });

  async function putSkill(slug: string): Promise<void> {
    const url = `/admin/v1/skills/${slug}`;
    const body = JSON.stringify({ name: slug, description: '', type: 'skill', category: 'testing' });
    const res = await fetch(`${service.url}${url}`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        [PRINCIPAL_HEADER]: KEYS.signer().sign(ADMIN, AUDIENCE, 'PUT', url, bodyDigest(body)),
      },
      body,
    });
    expect(res.status).toBe(201);
  }

  /** The value of an unlabelled metric of this service, as Prometheus would scrape it. */
  async function metric(name: string): Promise<number | undefined> {
    const text = await (await fetch(`${service.url}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name}{`));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  }

  it('serves the outbox size on /metrics and prunes rows once every consumer group has read them', async () => {
    for (const slug of ['retention-a', 'retention-b', 'retention-c']) await putSkill(slug);
    expect(await metric('skills_outbox_rows')).toBe(3);
    expect(await metric('skills_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
    // Nothing is published with the Postgres event log: no relay, no depth.
    expect(await metric('skills_outbox_depth')).toBeUndefined();

    // No consumer group has a position yet: retention 0 or not, every row stays. Two passes
    // finished after the writes, so at least one ran wholly after them.
    const passes = (await metric('skills_outbox_prune_passes_total')) ?? 0;
    await eventually(
      async () => ((await metric('skills_outbox_prune_passes_total')) ?? 0) >= passes + 2,
      'two prune passes',
    );
    expect(await metric('skills_outbox_rows')).toBe(3);
    expect(await metric('skills_outbox_pruned_total')).toBe(0);

    // catalog-service's indexer saves its position past the first two rows.
    const inReadOrder = await sequelize.query<{ id: string; txid: string }>(
      'SELECT o.id::text AS id, o.txid::text AS txid FROM collections.outbox o ORDER BY o.txid, o.id',
      { type: QueryTypes.SELECT },
    );
    expect(inReadOrder).toHaveLength(3);
    await sequelize.query(
      "INSERT INTO catalog.event_positions (group_name, last_txid, last_id) VALUES ('catalog-indexer', $1::xid8, $2::bigint)",
      {
        bind: [inReadOrder[1]!.txid, inReadOrder[1]!.id],
      },
    );
    await eventually(async () => (await metric('skills_outbox_rows')) === 1, 'the two rows read pruned');
    expect(await metric('skills_outbox_pruned_total')).toBe(2);
  });
});
