/**
 * `node bench/dist/cache-visibility.js [--writes N]`: how long a SECOND
 * catalog replica, memory index and search cache together, hides a write.
 * Two replicas (MemorySearchEngine behind CachingSearchEngine, default
 * settings: the index follows the read model every 50 ms) share one
 * database; for each write the reader first caches the empty answer for a
 * word only that write contains, the writer applies it as its indexer would,
 * and the reader searches back to back until it sees the item. The time from
 * the writer's apply resolving to the reader's first answer with the item is
 * what a second replica adds to the index lag. DATABASE_URL: a fresh
 * bench_<ts> database on that server; else PGlite.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createSequelize, runMigrations, type CatalogItemState } from '@skills/common';
import {
  CachingSearchEngine,
  MemorySearchEngine,
  ReadModelTable,
  catalogMigrations,
  loadCatalogConfig,
} from '@skills/catalog-service';
import { startDatabase } from './processes';
import { lagOf } from './stats';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { writes: { type: 'string' } } });
  const writes = Number(values.writes ?? 200);
  const db = await startDatabase(process.env.DATABASE_URL || undefined);
  const logger = pino({ level: 'warn' });
  const sequelize = createSequelize({ url: db.url, poolMax: 10 });
  // the settings a deployment gets from its environment (SEARCH_CACHE_*), defaults otherwise
  const config = loadCatalogConfig({
    DATABASE_URL: db.url,
    PRINCIPAL_PUBLIC_KEYS_FILE: 'not-read-here.pem',
    ...process.env,
  });
  const settings = { ...config.searchCache, indexPollMs: config.indexPollMs };
  const replica = async () => {
    const engine = new MemorySearchEngine({
      table: new ReadModelTable({ sequelize, logger }),
      logger,
      pollMs: config.indexPollMs,
    });
    await engine.start();
    const cache = new CachingSearchEngine({
      ...config.searchCache,
      engine,
      generation: { current: () => engine.generation },
      logger,
    });
    await cache.start();
    return cache;
  };
  await runMigrations(sequelize, 'catalog', catalogMigrations, logger);
  const writer = await replica();
  const reader = await replica();
  try {
    const samples: number[] = [];
    let readerSearches = 0;
    const run = Date.now().toString(36);
    for (let n = 0; n < writes; n++) {
      const word = `visprobe${run}x${n}`;
      const query = { q: word, page: 1, limit: 1, sort: 'relevance' as const };
      await reader.search(query); // the answer without the item is now cached on the reader
      // a random phase against the reader's poll; otherwise every write lands just after a poll
      await new Promise((resolve) => setTimeout(resolve, Math.random() * settings.indexPollMs));
      await writer.apply([probe(`${run}-${n}`, word)]);
      const applied = performance.now();
      for (;;) {
        readerSearches++;
        // the item itself: typo tolerance also returns the previous probes (their names are one character away)
        if ((await reader.search(query)).items.some((item) => item.name.includes(word))) break;
        if (performance.now() - applied > 30_000) throw new Error(`${word} hidden by the reader's cache for 30 s`);
        await new Promise((resolve) => setImmediate(resolve));
      }
      samples.push(performance.now() - applied);
    }
    const result = {
      at: new Date().toISOString(),
      database: db.kind,
      settings,
      readerSearches,
      hiddenAfterApply: lagOf(samples),
    };
    const { p50Ms, p99Ms, maxMs } = result.hiddenAfterApply;
    process.stdout.write(
      `second replica saw each of ${writes} writes ${p50Ms.toFixed(1)} ms (p50), ${p99Ms.toFixed(1)} ms (p99), ${maxMs.toFixed(1)} ms (max) after the writer's apply (index poll ${settings.indexPollMs} ms)\n`,
    );
    const dir = join(__dirname, '..', 'results');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'cache-visibility.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await writer.close();
    await reader.close();
    await sequelize.close();
    await db.drop();
  }
}

function probe(id: string, word: string): CatalogItemState {
  return {
    id: randomUUID(),
    slug: `vis-probe-${id}`,
    name: `Visibility probe ${word}`,
    description: 'Written by the benchmark to time how long a replica cache hides a write.',
    type: 'skill',
    category: 'testing',
    tags: [],
    status: 'active',
    visibility: 'public',
    updatedAt: new Date().toISOString(),
    version: 1,
  };
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
