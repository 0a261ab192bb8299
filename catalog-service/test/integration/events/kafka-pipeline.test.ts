// @store-specific the outbox relayed through Kafka, then the index compared with the record
/**
 * The Kafka path end to end, on a real Kafka-protocol peer (librdkafka's mock
 * cluster): collections.outbox → OutboxRelay → Kafka → KafkaEventLog →
 * Indexer → MemorySearchEngine. Crashes are injected where at-least-once delivery
 * must hold: the relay dies between the broker's ack and marking the rows;
 * the consumer dies between applying a batch and committing its offset. In
 * both cases events arrive twice and the index still equals the system of
 * record, because applying is idempotent by version.
 */
import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { ConsumerConfig, ConsumerRunConfig } from 'kafkajs';
import { createSequelize, runMigrations, SKILL_CHANGES_TOPIC } from '@skills/common';
import { createTestDatabase, eventually, type TestDatabase, silentLogger } from '@skills/common/testing';
import { COLLECTIONS_SCHEMA, collectionsMigrations } from '../../../../collections-service/src/store/migrations';
import {
  createKafkaProducer,
  KafkaOutboxPublisher,
  OutboxRelay,
  type OutboxRow,
} from '../../../../collections-service/src/relay';
import { CATALOG_SCHEMA, catalogMigrations } from '../../../src/store/migrations';
import { MemorySearchEngine } from '../../../src/engines/memory/memory.engine';
import { ReadModelTable } from '../../../src/engines/postgres/read-model.table';
import { Indexer } from '../../../src/indexer/indexer';
import { createKafkaClient, KafkaEventLog, type KafkaLike } from '../../../src/events/kafka';

import { REFUSE_NOTHING } from '../../support/rejected-events';
import {
  FAST_GROUP,
  mockClusterModule,
  startMockCluster,
  type MockCluster,
} from '../../support/events/kafka-mock-cluster';

const logger = silentLogger('kafka-pipeline-test');
const describeWithMock = mockClusterModule() ? describe : describe.skip;

describeWithMock('Kafka pipeline: outbox relay → mock cluster → KafkaEventLog → index', () => {
  let db: TestDatabase;
  let sequelize: Sequelize;
  let cluster: MockCluster;
  let engine: MemorySearchEngine;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    // PGlite's socket server can interleave the protocol messages of two busy
    // connections; one connection keeps relay, indexer and test queries apart.
    sequelize = createSequelize({ url: db.url, poolMax: db.kind === 'pglite' ? 1 : 4 });
    await runMigrations(sequelize, COLLECTIONS_SCHEMA, collectionsMigrations);
    await runMigrations(sequelize, CATALOG_SCHEMA, catalogMigrations);
    engine = new MemorySearchEngine({ table: new ReadModelTable({ sequelize, logger }), logger, pollMs: 60_000 });
  });
  afterAll(async () => {
    await sequelize.close();
    await db.drop();
  });
  beforeEach(async () => {
    // A fresh cluster per test: empty topics and no committed offsets.
    cluster = await startMockCluster();
    await sequelize.query('TRUNCATE collections.outbox, collections.items, catalog.search_items CASCADE');
  });
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
    await cluster.stop();
  });

  const kafka = (): KafkaLike => createKafkaClient({ brokers: cluster.brokers, clientId: 'pipeline', logger });
  const producer = () => createKafkaProducer({ brokers: cluster.brokers, clientId: 'pipeline-relay', logger });

  /** A write to the system of record as collections-service makes it: item row and outbox row in one transaction. */
  async function save(id: string, name: string, status: 'active' | 'deleted' = 'active'): Promise<void> {
    await sequelize.transaction(async (transaction) => {
      const [item] = await sequelize.query<Record<string, unknown> & { version: number; updated_at: Date }>(
        `INSERT INTO collections.items (id, slug, name, description, type, category, tags, status, visibility)
         VALUES ($1, $2, $3, '', 'skill', 'general', '{}', $4, 'public')
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, status = EXCLUDED.status,
           version = collections.items.version + 1, updated_at = now()
         RETURNING version, updated_at`,
        { bind: [id, `slug-${id}`, name, status], type: QueryTypes.SELECT, transaction },
      );
      const state = {
        id,
        slug: `slug-${id}`,
        name,
        description: '',
        type: 'skill',
        category: 'general',
        tags: [],
        status,
        visibility: 'public',
        updatedAt: item!.updated_at.toISOString(),
        version: item!.version,
      };
      const event = {
        type: status === 'deleted' ? 'skill.deleted' : 'skill.upserted',
        itemId: id,
        version: state.version,
        occurredAt: state.updatedAt,
        item: state,
      };
      await sequelize.query(
        `INSERT INTO collections.outbox (id, topic, key, event)
         SELECT s.id, $1, $2, $3::jsonb || jsonb_build_object('eventId', s.id::text)
         FROM (SELECT nextval('collections.outbox_id_seq') AS id) AS s`,
        { bind: [SKILL_CHANGES_TOPIC, id, JSON.stringify(event)], transaction },
      );
    });
  }

  async function recordOf(): Promise<string[]> {
    const rows = await sequelize.query<{ id: string; version: number; name: string; status: string }>(
      'SELECT id, version, name, status FROM collections.items ORDER BY id',
      { type: QueryTypes.SELECT },
    );
    return rows.map((r) => `${r.id}@${r.version}:${r.name}:${r.status}`);
  }
  async function indexOf(): Promise<string[]> {
    const rows = await sequelize.query<{ id: string; version: number; name: string; status: string }>(
      'SELECT id, version, name, status FROM catalog.search_items ORDER BY id',
      { type: QueryTypes.SELECT },
    );
    return rows.map((r) => `${r.id}@${r.version}:${r.name}:${r.status}`);
  }

  async function startIndexer(client: KafkaLike = kafka()): Promise<KafkaEventLog> {
    const eventLog = new KafkaEventLog({ kafka: client, logger, rejected: REFUSE_NOTHING, ...FAST_GROUP });
    const indexer = new Indexer({ eventLog, engine, logger });
    await indexer.start();
    stops.push(async () => {
      await indexer.stop();
      await eventLog.close();
    });
    return eventLog;
  }

  it('publishes again after the relay was killed between the ack and the mark; the index still equals the record', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await save(a, 'Alpha');
    await save(b, 'Beta');
    await save(a, 'Alpha renamed');
    await save(b, 'Beta', 'deleted');

    const real = producer();
    const published: string[] = [];
    const dying = new KafkaOutboxPublisher(real);
    const killedAfterAck = {
      publish: async (rows: readonly OutboxRow[]) => {
        await dying.publish(rows);
        published.push(...rows.map((r) => r.id));
        throw new Error('relay process killed before marking');
      },
      close: () => dying.close(),
    };
    await expect(new OutboxRelay({ sequelize, publisher: killedAfterAck, logger }).runOnce()).rejects.toThrow('killed');
    await killedAfterAck.close();
    expect(published).toHaveLength(4);

    const restarted = new OutboxRelay({
      sequelize,
      publisher: new KafkaOutboxPublisher(producer()),
      logger,
      idleMs: 50,
    });
    restarted.start();
    stops.push(() => restarted.stop());
    await eventually(async () => (await restarted.lag()) === 0, 'the outbox drained by the restarted relay');

    const apply = jest.spyOn(engine, 'apply');
    await startIndexer();
    await eventually(async () => (await indexOf()).join() === (await recordOf()).join(), 'index equal to the record');
    // Every event came twice; the replays were skipped as stale, not re-applied over newer states.
    await eventually(() => apply.mock.calls.flatMap(([items]) => items).length >= 8, 'all eight deliveries');
    const results = await Promise.all(
      apply.mock.results.map((r) => r.value as ReturnType<MemorySearchEngine['apply']>),
    );
    expect(results.reduce((n, r) => n + r.stale, 0)).toBeGreaterThanOrEqual(4);
    expect(await indexOf()).toEqual(await recordOf());
    apply.mockRestore();
  });

  it('redelivers after the consumer was killed between applying and committing; applying again changes nothing', async () => {
    const c = randomUUID();
    await save(c, 'Gamma');
    await save(c, 'Gamma v2');
    const relay = new OutboxRelay({ sequelize, publisher: new KafkaOutboxPublisher(producer()), logger, idleMs: 50 });
    relay.start();
    stops.push(() => relay.stop());
    await eventually(async () => (await relay.lag()) === 0, 'events published');

    // The first process applies each batch, then dies at every commit.
    let killedCommits = 0;
    const dyingAtCommit: KafkaLike = wrapConsumers(kafka(), (payload) => ({
      ...payload,
      commitOffsetsIfNecessary: async () => {
        killedCommits += 1;
        throw new Error('consumer process killed before committing');
      },
    }));
    const apply = jest.spyOn(engine, 'apply');
    const first = await startIndexer(dyingAtCommit);
    await eventually(() => killedCommits >= 1, 'the first consumer applying, then dying');
    expect(await indexOf()).toEqual(await recordOf());
    const appliedBefore = apply.mock.calls.length;
    await first.close();

    // The restarted process gets the uncommitted events again.
    await startIndexer();
    await eventually(() => apply.mock.calls.length > appliedBefore, 'redelivery to the restarted consumer');
    const replay = await (apply.mock.results[apply.mock.results.length - 1]!.value as ReturnType<
      MemorySearchEngine['apply']
    >);
    expect(replay.applied).toBe(0);
    expect(await indexOf()).toEqual(await recordOf());
    apply.mockRestore();
  });
});

type EachBatchPayload = Parameters<NonNullable<ConsumerRunConfig['eachBatch']>>[0];

/** Wraps a client so each consumer's eachBatch sees a payload rewritten by `rewrite` (fault injection). */
function wrapConsumers(client: KafkaLike, rewrite: (payload: EachBatchPayload) => EachBatchPayload): KafkaLike {
  return {
    producer: (config) => client.producer(config),
    admin: () => client.admin(),
    consumer: (config: ConsumerConfig) => {
      const consumer = client.consumer(config);
      return {
        connect: () => consumer.connect(),
        subscribe: (s) => consumer.subscribe(s),
        disconnect: () => consumer.disconnect(),
        run: (run) => consumer.run({ ...run, eachBatch: (payload) => run!.eachBatch!(rewrite(payload)) }),
      };
    },
  };
}
