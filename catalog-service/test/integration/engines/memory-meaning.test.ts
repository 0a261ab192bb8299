// @store-specific the item-vector repository: what a restart or a reindex embeds again
/**
 * Search by meaning on the memory engine over a real Postgres (PGlite, or
 * DATABASE_URL): the shared conformance cases, then the store's promise: an
 * item whose text did not change is never embedded again, neither by a
 * restart (a new replica) nor by a reindex, and one whose text changed is.
 */
import type { Sequelize } from 'sequelize';
import { createSequelize, runMigrations } from '@skills/common';
import { createTestDatabase, type TestDatabase, silentLogger } from '@skills/common/testing';
import { MemorySearchEngine } from '../../../src/engines/memory/memory.engine';
import { ReadModelTable } from '../../../src/engines/postgres/read-model.table';
import { catalogMigrations } from '../../../src/store/migrations';
import { SequelizeItemVectorRepository } from '../../../src/store/item-vector.repository';
import { MeaningSearchEngine } from '../../../src/vectors/meaning-search-engine';
import { VectorBackfill } from '../../../src/vectors/vector-backfill';
import { FakeTextEmbedder } from '../../support/fake-text-embedder';
import { itemState } from '../../support/engines/engine-items';
import { describeMeaningConformance, MEANING_SYNONYMS } from '../../support/engines/search-meaning.conformance';

const logger = silentLogger();
let db: TestDatabase;
let sequelize: Sequelize;
const open: MemorySearchEngine[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  sequelize = createSequelize({ url: db.url });
  await runMigrations(sequelize, 'catalog', catalogMigrations);
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

afterAll(async () => {
  await sequelize.close();
  await db.drop();
});

/** A replica with the model's vectors, loaded from the read model as at start. */
async function replica(embedder: FakeTextEmbedder): Promise<{ engine: MemorySearchEngine; backfill: VectorBackfill }> {
  const engine = new MemorySearchEngine({
    table: new ReadModelTable({ sequelize, logger }),
    logger,
    pollMs: 60_000,
    vectors: { model: embedder.model, dimensions: embedder.dimensions },
  });
  open.push(engine);
  await engine.start();
  const backfill = new VectorBackfill({
    target: engine.vectors!,
    embedder,
    store: new SequelizeItemVectorRepository(sequelize),
    logger,
  });
  return { engine, backfill };
}

async function drain(backfill: VectorBackfill): Promise<void> {
  while ((await backfill.step()) > 0);
}

async function* pages(items: ReturnType<typeof itemState>[]) {
  yield items;
}

describeMeaningConformance('MemorySearchEngine', async (embedder) => {
  await sequelize.query('TRUNCATE catalog.search_items, catalog.item_vectors');
  const { engine, backfill } = await replica(embedder);
  return { engine, drain: () => drain(backfill), teardown: async () => {} };
});

describe('MemorySearchEngine item vectors', () => {
  beforeEach(async () => {
    await sequelize.query('TRUNCATE catalog.search_items, catalog.item_vectors');
  });

  const documentsEmbedded = (embedder: FakeTextEmbedder) =>
    embedder.calls.filter((c) => c.kind === 'documents').flatMap((c) => c.texts);

  it('embeds each item once: a restart and a reindex find the unchanged ones in the store, and only a changed text is embedded again', async () => {
    const embedder = new FakeTextEmbedder({ synonyms: MEANING_SYNONYMS, dimensions: 384 });
    const docsmith = itemState({ name: 'Docsmith', description: 'Portable documents to markup' });
    const weather = itemState({ name: 'Weather Station', description: 'Reads barometric sensors' });
    const first = await replica(embedder);
    await first.engine.apply([docsmith, weather]);
    await drain(first.backfill);
    expect(documentsEmbedded(embedder)).toHaveLength(2);

    // a restart: a new replica loads the read model, its vectors from the store
    const restarted = await replica(embedder);
    await drain(restarted.backfill);
    expect(restarted.backfill.counts).toEqual({ embedded: 0, reused: 2 });
    const search = new MeaningSearchEngine({ engine: restarted.engine, embedder, logger });
    const found = await search.search({ q: 'turn a pdf into markdown', page: 1, limit: 20, sort: 'relevance' });
    expect(found.items.map((i) => i.name)).toEqual(['Docsmith']);

    // a reindex with one text changed: only that one goes to the model
    const changed = { ...weather, description: 'Turns pdf into markdown', version: 2 };
    await restarted.engine.reindex(pages([docsmith, changed]));
    await drain(restarted.backfill);
    expect(documentsEmbedded(embedder)).toEqual([
      expect.stringContaining('Docsmith'),
      expect.stringContaining('Weather Station'),
      expect.stringContaining('Turns pdf into markdown'),
    ]);
    const after = await search.search({ q: 'turn a pdf into markdown', page: 1, limit: 20, sort: 'relevance' });
    expect(after.items.map((i) => i.name).sort()).toEqual(['Docsmith', 'Weather Station']);
  });

  it('says how many searchable items hold a vector while the backlog drains', async () => {
    const embedder = new FakeTextEmbedder({ dimensions: 384 });
    const { engine, backfill } = await replica(embedder);
    await engine.apply([
      itemState({ name: 'One' }),
      itemState({ name: 'Two' }),
      itemState({ name: 'Three', status: 'draft' }),
    ]);
    await expect(engine.vectors!.progress()).resolves.toEqual({ withVector: 0, searchable: 2 });
    await drain(backfill);
    await expect(engine.vectors!.progress()).resolves.toEqual({ withVector: 2, searchable: 2 });
  });
});
