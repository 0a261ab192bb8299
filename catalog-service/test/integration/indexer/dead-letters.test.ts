// @store-specific the dead-letter repository
import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import {
  SKILL_CHANGES_TOPIC,
  ServiceUnavailableError,
  createSequelize,
  runMigrations,
  type CatalogItemState,
  type Health,
  type SkillChangeEvent,
} from '@skills/common';
import { createTestDatabase, eventually, type TestDatabase, silentLogger } from '@skills/common/testing';
import { collectionsMigrations } from '../../../../collections-service/src/store/migrations';
import { MemorySearchEngine } from '../../../src/engines/memory/memory.engine';
import { ReadModelTable } from '../../../src/engines/postgres/read-model.table';
import type { SearchEngine } from '../../../src/engines/search-engine';
import { PostgresEventLog } from '../../../src/events/postgres-event-log';
import { INDEXER_GROUP, Indexer } from '../../../src/indexer/indexer';
import { replayDeadLetters } from '../../../src/indexer/dead-letter-replay';
import { SequelizeDeadLetterRepository } from '../../../src/store/dead-letter.repository';
import { catalogMigrations } from '../../../src/store/migrations';
import { itemVersion } from '../../support/events/event-log.conformance';

/** Names the engine below refuses, as a mapping would refuse a document. */
const POISON = 'Poison';

/** The memory engine, refusing every batch that holds an item named POISON until `fixed`. */
function refusingEngine(): { engine: SearchEngine; fix(): void } {
  const real = new MemorySearchEngine({ table: new ReadModelTable({ sequelize, logger }), logger, pollMs: 60_000 });
  let fixed = false;
  const engine: SearchEngine = {
    search: (q) => real.search(q),
    health: () => real.health(),
    reindex: (src, p) => real.reindex(src, p),
    close: () => real.close(),
    apply: async (items) => {
      if (!fixed && items.some((i) => i.name === POISON))
        throw new Error('mapper_parsing_exception: the document was refused');
      return real.apply(items);
    },
  };
  return { engine, fix: () => (fixed = true) };
}

let db: TestDatabase;
let sequelize: Sequelize;
const logger = silentLogger();

beforeAll(async () => {
  db = await createTestDatabase();
  sequelize = createSequelize({ url: db.url });
  await runMigrations(sequelize, 'collections', collectionsMigrations);
  await runMigrations(sequelize, 'catalog', catalogMigrations);
  // A new PGlite cluster takes long on a loaded machine.
}, 120_000);

afterAll(async () => {
  await sequelize.close();
  await db.drop();
});

beforeEach(async () => {
  await sequelize.query(
    'TRUNCATE collections.outbox; TRUNCATE catalog.event_positions; TRUNCATE catalog.search_items; TRUNCATE catalog.dead_letters',
  );
});

async function publish(items: CatalogItemState[]): Promise<void> {
  for (const item of items) {
    const event: SkillChangeEvent = {
      eventId: '',
      type: 'skill.upserted',
      itemId: item.id,
      version: item.version,
      occurredAt: item.updatedAt,
      item,
    };
    await sequelize.query('INSERT INTO collections.outbox (topic, key, event) VALUES ($1, $2, $3::jsonb)', {
      bind: [SKILL_CHANGES_TOPIC, item.id, JSON.stringify(event)],
    });
  }
}

async function indexedIds(): Promise<string[]> {
  const rows = await sequelize.query<{ id: string }>('SELECT id::text AS id FROM catalog.search_items ORDER BY id', {
    type: QueryTypes.SELECT,
  });
  return rows.map((r) => r.id);
}

function run(engine: SearchEngine, retry = { attempts: 2, initialDelayMs: 1, maxDelayMs: 5 }) {
  const deadLetters = new SequelizeDeadLetterRepository(sequelize);
  const eventLog = new PostgresEventLog({
    sequelize,
    logger,
    rejected: deadLetters,
    pollIntervalMs: 20,
    retryMinMs: 10,
    retryMaxMs: 50,
  });
  let deadLettered = 0;
  const indexer = new Indexer({
    eventLog,
    engine,
    logger,
    deadLetters,
    retry,
    onDeadLetters: (n) => void (deadLettered += n),
  });
  return {
    indexer,
    deadLetters,
    deadLettered: () => deadLettered,
    async stop() {
      await indexer.stop();
      await eventLog.close();
    },
  };
}

describe('Indexer dead letters', () => {
  it('pages the letters in the order they were parked, ids compared as numbers: twelve in pages of five, each once', async () => {
    const repository = new SequelizeDeadLetterRepository(sequelize);
    const letters = Array.from({ length: 12 }, (_, i) => {
      const item = itemVersion(randomUUID(), 1);
      const event: SkillChangeEvent = {
        eventId: '',
        type: 'skill.upserted',
        itemId: item.id,
        version: 1,
        occurredAt: item.updatedAt,
        item,
      };
      return { event, reason: `reason ${i}`, attempts: 1 };
    });
    await repository.add(INDEXER_GROUP, letters);
    const seen: string[] = [];
    for (
      let page = await repository.list(INDEXER_GROUP, 5);
      page.length > 0;
      page = await repository.list(INDEXER_GROUP, 5, page.at(-1)?.id)
    ) {
      seen.push(...page.map((letter) => letter.reason));
    }
    expect(seen).toEqual(letters.map((letter) => letter.reason));
  });

  it('parks an event the engine refuses with its reason and indexes the rest of its batch', async () => {
    const good = Array.from({ length: 9 }, () => itemVersion(randomUUID(), 1));
    const poison = { ...itemVersion(randomUUID(), 1), name: POISON };
    await publish([...good.slice(0, 5), poison, ...good.slice(5)]);

    const refusing = refusingEngine();
    const subject = run(refusing.engine);
    await subject.indexer.start();
    try {
      await eventually(
        async () => (await indexedIds()).length === 9 && (await subject.deadLetters.count()) === 1,
        'the good events indexed',
      );
      expect(await indexedIds()).toEqual(good.map((i) => i.id).sort());
      const [letter] = await subject.deadLetters.list(INDEXER_GROUP);
      expect(letter?.event).toMatchObject({ itemId: poison.id, item: { name: POISON } });
      expect(letter?.reason).toMatch(/mapper_parsing_exception/);
      expect(letter?.attempts).toBeGreaterThan(0);
      expect(subject.deadLettered()).toBe(1);
      // The position moved past the poison event: later events keep flowing.
      const later = itemVersion(randomUUID(), 1);
      await publish([later]);
      await eventually(async () => (await indexedIds()).includes(later.id), 'a later event indexed');
      // The position is saved just after the batch is applied.
      await eventually(async () => (await subject.indexer.lag()) === 0, 'no lag');

      // Replay: refused again while the cause remains (kept), applied once it is fixed (removed).
      expect(await replayDeadLetters({ store: subject.deadLetters, engine: refusing.engine, logger })).toEqual({
        replayed: 0,
        failed: 1,
      });
      expect(await subject.deadLetters.count()).toBe(1);
      refusing.fix();
      expect(await replayDeadLetters({ store: subject.deadLetters, engine: refusing.engine, logger })).toEqual({
        replayed: 1,
        failed: 0,
      });
      expect(await subject.deadLetters.count()).toBe(0);
      expect(await indexedIds()).toContain(poison.id);
    } finally {
      await subject.stop();
    }
  });

  it('parks events that break the contract before the engine sees them, and keeps unknown fields out of the read model', async () => {
    const good = itemVersion(randomUUID(), 1);
    const unsafe = {
      ...itemVersion(randomUUID(), 1),
      details: {
        publisher: null,
        version: null,
        license: null,
        repositoryUrl: 'javascript:alert(document.cookie)',
        homepageUrl: null,
        downloads: 0,
      },
    };
    const pinned = { ...itemVersion(randomUUID(), 1), version: 2_147_483_647 + 1 };
    const extra = {
      ...itemVersion(randomUUID(), 1),
      details: {
        publisher: 'Acme',
        version: null,
        license: null,
        repositoryUrl: null,
        homepageUrl: null,
        downloads: 3,
        boost: 99,
      },
    };
    await publish([good, unsafe, pinned, extra]);
    const applied: string[] = [];
    const real = new MemorySearchEngine({ table: new ReadModelTable({ sequelize, logger }), logger, pollMs: 60_000 });
    const watched: SearchEngine = {
      search: (q) => real.search(q),
      health: () => real.health(),
      reindex: (src, p) => real.reindex(src, p),
      close: () => real.close(),
      apply: async (items) => {
        applied.push(...items.map((i) => i.id));
        return real.apply(items);
      },
    };
    const subject = run(watched);
    await subject.indexer.start();
    try {
      await eventually(
        async () => (await indexedIds()).length === 2 && (await subject.deadLetters.count()) === 2,
        'two indexed, two parked',
      );
      expect(new Set(applied)).toEqual(new Set([good.id, extra.id]));
      const letters = await subject.deadLetters.list(INDEXER_GROUP);
      expect(letters.map((l) => [(l.event as { itemId: string }).itemId, l.attempts])).toEqual([
        [unsafe.id, 0],
        [pinned.id, 0],
      ]);
      expect(letters[0]?.reason).toMatch(
        /^contract: breaks the event contract: item\.details\.repositoryUrl must be an http or https URL/,
      );
      expect(letters[1]?.reason).toMatch(/version must be an integer from 0 to 2147483647/);
      const [row] = await sequelize.query<{ details: object }>(
        'SELECT details FROM catalog.search_items WHERE id = $1',
        {
          type: QueryTypes.SELECT,
          bind: [extra.id],
        },
      );
      expect(Object.keys(row?.details ?? {})).not.toContain('boost');
      // A replay never lets in what the contract refused: the letters stay.
      expect(await replayDeadLetters({ store: subject.deadLetters, engine: watched, logger })).toEqual({
        replayed: 0,
        failed: 2,
      });
      expect(await subject.deadLetters.count()).toBe(2);
    } finally {
      await subject.stop();
    }
  });

  it('dead-letters nothing while the engine is down, and indexes everything once it is back', async () => {
    const real = new MemorySearchEngine({ table: new ReadModelTable({ sequelize, logger }), logger, pollMs: 60_000 });
    let down = true;
    let failedApplies = 0;
    const flaky: SearchEngine = {
      search: (q) => real.search(q),
      reindex: (s, p) => real.reindex(s, p),
      close: () => real.close(),
      apply: async (items) => {
        if (down) {
          failedApplies += 1;
          throw new Error('connect ECONNREFUSED');
        }
        return real.apply(items);
      },
      health: async (): Promise<Health> => (down ? { ok: false, reason: 'engine unreachable' } : real.health()),
    };
    const items = Array.from({ length: 4 }, () => itemVersion(randomUUID(), 1));
    await publish(items);
    const subject = run(flaky);
    await subject.indexer.start();
    try {
      // Several full rounds of retries and splitting have failed by now.
      await eventually(() => failedApplies > 20, 'repeated failures');
      expect(await subject.deadLetters.count()).toBe(0);
      expect(await subject.indexer.lag()).toBe(4);
      down = false;
      await eventually(async () => (await indexedIds()).length === 4, 'the batch indexed after the outage');
      expect(await subject.deadLetters.count()).toBe(0);
    } finally {
      await subject.stop();
    }
  });

  it('dead-letters nothing the engine refuses as unavailable while it reports itself healthy', async () => {
    const real = new MemorySearchEngine({ table: new ReadModelTable({ sequelize, logger }), logger, pollMs: 60_000 });
    let busy = true;
    let refused = 0;
    // a cluster that answers health checks but rejects writes (item-level 429/5xx past the writer's retries)
    const overloaded: SearchEngine = {
      search: (q) => real.search(q),
      reindex: (s, p) => real.reindex(s, p),
      close: () => real.close(),
      health: () => real.health(),
      apply: async (items) => {
        if (busy) {
          refused += 1;
          throw new ServiceUnavailableError('upstream.unavailable');
        }
        return real.apply(items);
      },
    };
    const items = Array.from({ length: 4 }, () => itemVersion(randomUUID(), 1));
    await publish(items);
    const subject = run(overloaded);
    await subject.indexer.start();
    try {
      await eventually(() => refused > 20, 'repeated refusals');
      expect(await subject.deadLetters.count()).toBe(0);
      busy = false;
      await eventually(
        async () => (await indexedIds()).length === 4,
        'the batch indexed once the cluster takes writes',
      );
      expect(await subject.deadLetters.count()).toBe(0);
    } finally {
      await subject.stop();
    }
  });

  it('stops during a retry backoff at once and leaves the batch unacknowledged', async () => {
    let failed = 0;
    const real = new MemorySearchEngine({ table: new ReadModelTable({ sequelize, logger }), logger, pollMs: 60_000 });
    const down: SearchEngine = {
      search: (q) => real.search(q),
      reindex: (src, p) => real.reindex(src, p),
      close: () => real.close(),
      health: async () => ({ ok: false, reason: 'down' }),
      apply: async () => {
        failed += 1;
        throw new Error('connect ECONNREFUSED');
      },
    };
    await publish([itemVersion(randomUUID(), 1), itemVersion(randomUUID(), 1)]);
    // A backoff longer than the test's timeout: only an interrupted wait lets stop() return in time.
    const subject = run(down, { attempts: 5, initialDelayMs: 600_000, maxDelayMs: 600_000 });
    await subject.indexer.start();
    await eventually(() => failed >= 1, 'a failed apply');
    await subject.stop();
    expect(failed).toBe(1);
    const [position] = await sequelize.query('SELECT 1 FROM catalog.event_positions', { type: QueryTypes.SELECT });
    expect(position).toBeUndefined();
    expect(await subject.deadLetters.count()).toBe(0);
  });
});
