// @store-specific the index generation kept in Postgres
import type { Sequelize } from 'sequelize';
import { createSequelize, runMigrations } from '@skills/common';
import { createTestDatabase, eventually, type TestDatabase, silentLogger } from '@skills/common/testing';
import type { CatalogItemState } from '@skills/common';
import { MemoryIndex } from '../../../src/engines/memory/memory-index';
import { MemorySearchEngine } from '../../../src/engines/memory/memory.engine';
import { ReadModelTable } from '../../../src/engines/postgres/read-model.table';
import type {
  ApplyResult,
  ReindexProgress,
  SearchEngine,
  SearchQuery,
  SearchResult,
} from '../../../src/engines/search-engine';
import { CachingSearchEngine, type SearchCacheSettings } from '../../../src/search-cache/caching-search-engine';
import { SqlIndexGeneration, type IndexGeneration } from '../../../src/search-cache/index-generation';
import { catalogMigrations } from '../../../src/store/migrations';
import { itemState } from '../../support/engines/engine-items';
import { describeSearchEngineConformance } from '../../support/engines/search-engine.conformance';

const logger = silentLogger();
const SETTINGS: SearchCacheSettings = { maxEntries: 100, maxBytes: 1_000_000, ttlMs: 60_000, pollMs: 20 };

let db: TestDatabase;
let sequelize: Sequelize;
const open: CachingSearchEngine[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  sequelize = createSequelize({ url: db.url });
  await runMigrations(sequelize, 'catalog', catalogMigrations);
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await sequelize.close();
  await db.drop();
});

/**
 * An engine whose replicas share one store, as Elasticsearch replicas share
 * the cluster: what the shared (polled) generation exists for. Counts the
 * searches that reach it, and can hold them until released.
 */
let store = new MemoryIndex();
class CountingEngine implements SearchEngine {
  searches = 0;
  gate: Promise<void> | undefined;
  async search(query: SearchQuery): Promise<SearchResult> {
    this.searches++;
    await this.gate;
    return store.search(query);
  }
  async apply(items: CatalogItemState[]): Promise<ApplyResult> {
    const applied = store.apply(items);
    return { applied, stale: items.length - applied };
  }
  async reindex(): Promise<ReindexProgress> {
    throw new Error('not used by these tests');
  }
  async health() {
    return { ok: true as const };
  }
  async close(): Promise<void> {}
}

async function cached(
  settings: Partial<SearchCacheSettings> = {},
  generation: IndexGeneration = new SqlIndexGeneration(sequelize),
) {
  const engine = new CountingEngine();
  const cache = new CachingSearchEngine({ ...SETTINGS, ...settings, engine, generation, logger });
  open.push(cache);
  await cache.start();
  return { cache, engine };
}

const query = (q: string, page = 1): SearchQuery => ({ q, page, limit: 20, sort: 'relevance' });
const names = (result: SearchResult) => result.items.map((i) => i.name).sort();

/** The production pairing: a replica's memory engine, its cache keyed by the engine's own generation. */
async function memoryReplica(settings: Partial<SearchCacheSettings> = {}) {
  const engine = new MemorySearchEngine({ table: new ReadModelTable({ sequelize, logger }), logger, pollMs: 60_000 });
  await engine.start();
  const cache = new CachingSearchEngine({
    ...SETTINGS,
    ...settings,
    engine,
    generation: { current: () => engine.generation },
    logger,
  });
  open.push(cache);
  await cache.start();
  return { cache, engine };
}

describeSearchEngineConformance('CachingSearchEngine over MemorySearchEngine', async () => {
  await sequelize.query('TRUNCATE catalog.search_items');
  const { cache } = await memoryReplica();
  return { engine: cache, teardown: async () => {} };
});

describe('CachingSearchEngine over a replica memory engine', () => {
  beforeEach(async () => {
    await sequelize.query('TRUNCATE catalog.search_items');
  });

  it('stops serving a cached answer the moment the engine followed another replica’s write', async () => {
    const writer = await memoryReplica();
    const reader = await memoryReplica();
    await writer.cache.apply([itemState({ name: 'Alpha one' })]);
    // another database's open transaction on a shared server can hold one follow step back: bounded retries
    await eventually(
      async () => (await reader.engine.sync(), reader.engine.documents === 1),
      'the reader to follow the first write',
    );
    expect(names(await reader.cache.search(query('alpha')))).toEqual(['Alpha one']);
    await writer.cache.apply([itemState({ name: 'Alpha two' })]);
    expect(names(await reader.cache.search(query('alpha')))).toEqual(['Alpha one']); // not followed yet
    await eventually(
      async () => (await reader.engine.sync(), reader.engine.documents === 2),
      'the reader to follow the second write',
    );
    expect(names(await reader.cache.search(query('alpha')))).toEqual(['Alpha one', 'Alpha two']);
  });

  it('answers a repeat from the cache while the index has not changed', async () => {
    const { cache, engine } = await memoryReplica();
    await cache.apply([itemState({ name: 'Alpha one' })]);
    const search = jest.spyOn(engine, 'search');
    await cache.search(query('alpha'));
    await cache.search(query('ALPHA'));
    expect(search).toHaveBeenCalledTimes(1);
  });
});

describe('CachingSearchEngine with a shared generation', () => {
  beforeEach(() => {
    store = new MemoryIndex();
  });

  it('answers a repeated query (same words, other case and spacing) from the cache with the engine body', async () => {
    const { cache, engine } = await cached();
    await cache.apply([itemState({ name: 'Alpha beta' }), itemState({ name: 'Gamma' })]);
    const direct = await engine.search(query('alpha beta'));
    engine.searches = 0;
    const first = await cache.search(query('  Alpha   BETA '));
    const second = await cache.search(query('alpha beta'));
    expect(second).toEqual(first);
    expect(first).toEqual(direct);
    expect(names(first)).toEqual(['Alpha beta']);
    expect(engine.searches).toBe(1);
  });

  it('shows a write the indexer applied through it on the very next search', async () => {
    const { cache } = await cached();
    await cache.apply([itemState({ name: 'Alpha one' })]);
    expect(names(await cache.search(query('alpha')))).toEqual(['Alpha one']);
    await cache.apply([itemState({ name: 'Alpha two' })]);
    expect(names(await cache.search(query('alpha')))).toEqual(['Alpha one', 'Alpha two']);
  });

  it('shows a write applied by another replica once its generation poll sees the bump', async () => {
    const writer = await cached();
    const reader = await cached();
    await writer.cache.apply([itemState({ name: 'Alpha one' })]);
    await eventually(
      async () => (await reader.cache.search(query('alpha'))).items.length === 1,
      'the first item searchable',
    );
    reader.engine.searches = 0;
    await reader.cache.search(query('alpha'));
    expect(reader.engine.searches).toBe(0); // served from its cache until the generation moves
    await writer.cache.apply([itemState({ name: 'Alpha two' })]);
    const seen = await eventually(async () => {
      const found = await reader.cache.search(query('alpha'));
      return found.items.length === 2 ? found : undefined;
    }, 'both items searchable');
    expect(names(seen)).toEqual(['Alpha one', 'Alpha two']);
  });

  it('asks the engine every time while the generation cannot be read, and caches again once it can', async () => {
    const real = new SqlIndexGeneration(sequelize);
    let failing = false;
    let failedReads = 0;
    const generation: IndexGeneration = {
      read: async () => {
        if (!failing) return real.read();
        failedReads++;
        throw new Error('database down');
      },
      bump: () => real.bump(),
    };
    const { cache, engine } = await cached({}, generation);
    await cache.apply([itemState({ name: 'Alpha one' })]);
    await cache.search(query('alpha'));
    failing = true;
    await eventually(() => failedReads > 0, 'a failed read');
    // a write the cache was not told about (as if its generation bump were lost) is seen at once
    await engine.apply([itemState({ name: 'Alpha two' })]);
    engine.searches = 0;
    expect(names(await cache.search(query('alpha')))).toEqual(['Alpha one', 'Alpha two']);
    await cache.search(query('alpha'));
    expect(engine.searches).toBe(2);
    failing = false;
    await eventually(async () => {
      engine.searches = 0;
      await cache.search(query('alpha'));
      await cache.search(query('alpha'));
      return engine.searches < 2;
    }, 'the cache to serve again once reads work');
  });

  it('coalesces concurrent identical misses into one engine search', async () => {
    const { cache, engine } = await cached();
    await cache.apply([itemState({ name: 'Alpha one' })]);
    let release!: () => void;
    engine.gate = new Promise((resolve) => (release = resolve));
    const answers = Promise.all(Array.from({ length: 5 }, () => cache.search(query('alpha'))));
    release();
    const results = await answers;
    expect(engine.searches).toBe(1);
    for (const r of results) expect(names(r)).toEqual(['Alpha one']);
  });

  it('does not keep an answer computed before a write that landed while it was computed', async () => {
    const { cache, engine } = await cached();
    await cache.apply([itemState({ name: 'Alpha one' })]);
    let release!: () => void;
    engine.gate = new Promise((resolve) => (release = resolve));
    const before = cache.search(query('alpha'));
    await eventually(() => engine.searches === 1, 'the held search');
    await cache.apply([itemState({ name: 'Alpha two' })]);
    // the held search reads after the write here, but the cache cannot know that; it must not store it
    release();
    await before;
    engine.gate = undefined;
    expect(names(await cache.search(query('alpha')))).toEqual(['Alpha one', 'Alpha two']);
    expect(engine.searches).toBe(2);
  });

  it('evicts the least recently used answer beyond its entry limit', async () => {
    const { cache, engine } = await cached({ maxEntries: 2 });
    await cache.apply([itemState({ name: 'Alpha' }), itemState({ name: 'Beta' }), itemState({ name: 'Gamma' })]);
    for (const q of ['alpha', 'beta', 'alpha', 'gamma']) await cache.search(query(q));
    expect(cache.size).toBe(2);
    engine.searches = 0;
    await cache.search(query('alpha')); // used more recently than beta: kept
    expect(engine.searches).toBe(0);
    await cache.search(query('beta')); // evicted by gamma
    expect(engine.searches).toBe(1);
  });

  it('with 0 entries never caches, yet still bumps the generation for the other replicas', async () => {
    const { cache, engine } = await cached({ maxEntries: 0 });
    const generation = new SqlIndexGeneration(sequelize);
    const before = await generation.read();
    await cache.apply([itemState({ name: 'Alpha' })]);
    expect(await generation.read()).toBe(before + 1);
    engine.searches = 0;
    await cache.search(query('alpha'));
    await cache.search(query('alpha'));
    expect(engine.searches).toBe(2);
  });
});
