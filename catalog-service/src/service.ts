/**
 * catalog-service's start-up: the database, the search engine, the indexer on
 * the event log, the HTTP app and its listener; `close()` stops them in the
 * order that loses nothing (docs/operations.md "Shutdown").
 */
import {
  ConflictError,
  PrincipalVerifier,
  createServiceMetrics,
  listen,
  openKeysAndDatabase,
  publicKeysFileOf,
  type Logger,
  type RunningService,
} from '@skills/common';
import { createEventLog, createSearchEngine } from './adapters';
import { createCatalogApp } from './app';
import { openTextEmbedder } from './embedding';
import type { CatalogConfig } from './config';
import { Indexer } from './indexer/indexer';
import { registerIndexerMetrics } from './indexer/indexer-metrics';
import { SequelizeDeadLetterRepository } from './store/dead-letter.repository';
import type { RejectedEventSink } from './events/rejected-events';
import { itemsReaderSource } from './reindex/items-reader.source';
import { ReindexJobs } from './reindex/reindex.job';
import { ReindexJobRepository } from './reindex/reindex-job.repository';
import { CachingSearchEngine, registerSearchCacheMetrics } from './search-cache';
import { CATALOG_SCHEMA, catalogMigrations } from './store/migrations';
import { sharedReplayGuard } from '@skills/common/redis';
import type { Sequelize } from 'sequelize';
import type { TextEmbedder } from './embedding/text-embedder';
import { SequelizeItemVectorRepository } from './store/item-vector.repository';
import { MeaningSearchEngine } from './vectors/meaning-search-engine';
import { VectorBackfill } from './vectors/vector-backfill';
import { registerVectorMetrics } from './vectors/vector-metrics';

/** A running reindex whose progress (every 2 s) stopped this long ago belonged to a replica that died. */
const REINDEX_ABANDONED_AFTER_MS = 60_000;

/** What start-up may be handed instead of building it from the config (tests). */
export interface CatalogServiceDeps {
  /** the sentence-embedding model; null: search stays lexical */
  embedder?: TextEmbedder | null;
}

/** Migrates the schema, starts the engine, event log and indexer, then serves on `config.port` (0 picks a free port). */
export async function startCatalogService(
  config: Readonly<CatalogConfig>,
  logger: Logger,
  deps: CatalogServiceDeps = {},
): Promise<RunningService> {
  const database = await openKeysAndDatabase({
    name: 'catalog-service',
    config,
    keyFile: publicKeysFileOf(config),
    schema: CATALOG_SCHEMA,
    migrations: catalogMigrations,
    logger,
  });
  const { keys: publicKeys, sequelize } = database;
  const metrics = createServiceMetrics('catalog-service');
  const deadLetters = new SequelizeDeadLetterRepository(sequelize);
  let engine: CachingSearchEngine | undefined;
  let outdatedIndex: boolean | undefined;
  let eventLog;
  let indexer: Indexer | undefined;
  const indexerMetrics = registerIndexerMetrics(metrics, { indexer: () => indexer, deadLetters, logger });
  const cacheObserver = registerSearchCacheMetrics(metrics, () => engine);
  // null when the model is off or cannot be had: search stays lexical (said once in the log)
  const embedder =
    deps.embedder !== undefined
      ? deps.embedder
      : await openTextEmbedder({ ...config.embedding, logger: logger.child({ component: 'embedding' }) });
  let backfill: VectorBackfill | undefined;
  registerVectorMetrics(
    metrics,
    () => engine?.vectors,
    () => backfill,
  );
  try {
    // Indexer and reindex write through the cache, keyed by the engine's generation (engines/index.ts).
    const vectors = embedder ? { model: embedder.model, dimensions: embedder.dimensions } : undefined;
    const search = await createSearchEngine(config, { sequelize, logger, ...(vectors ? { vectors } : {}) });
    search.registerMetrics(metrics);
    outdatedIndex = search.needsRebuild;
    engine = new CachingSearchEngine({
      ...config.searchCache,
      // the query's vector is computed inside the cache: a cached answer costs no embedding
      engine: new MeaningSearchEngine({
        engine: search.engine,
        logger: logger.child({ component: 'meaning' }),
        ...(embedder ? { embedder } : {}),
      }),
      generation: search.generation,
      logger: logger.child({ component: 'search-cache' }),
      observer: cacheObserver,
    });
    await engine.start();
    // Events refused by the contract are dead letters too: stored, and counted with the indexer's.
    const rejected: RejectedEventSink = {
      reject: async (group, events) => {
        await deadLetters.reject(group, events);
        indexerMetrics.deadLettered(events.length);
      },
    };
    eventLog = createEventLog(config, { sequelize, logger, rejected });
    indexer = new Indexer({
      eventLog,
      engine,
      logger: logger.child({ component: 'indexer' }),
      deadLetters,
      onDeadLetters: (count) => indexerMetrics.deadLettered(count),
    });
    await indexer.start();
    backfill = startBackfill(engine, embedder, sequelize, logger);
  } catch (err) {
    await eventLog?.close();
    await engine?.close();
    await embedder?.close();
    await database.close();
    throw err;
  }
  const { collectionsUrl, itemsReaderToken } = config;
  const replayGuard = await sharedReplayGuard(config.redisUrl, logger, 'catalog-service');
  const reindex =
    collectionsUrl && itemsReaderToken
      ? new ReindexJobs({
          engine,
          logger,
          store: new ReindexJobRepository(sequelize, REINDEX_ABANDONED_AFTER_MS),
          source: (signal) => itemsReaderSource({ baseUrl: collectionsUrl, token: itemsReaderToken, signal }),
        })
      : undefined;
  if (outdatedIndex) rebuildOutdatedIndex(reindex, logger);
  const app = createCatalogApp({
    engine,
    eventLog,
    verifier: new PrincipalVerifier({ audience: 'catalog-service', keys: publicKeys, replayGuard }),
    logger,
    metrics,
    shedding: { maxDelayMs: config.shedEventLoopDelayMs },
    trust: { showsUnscanned: config.searchShowsUnscanned },
    reindex,
  });
  const http = await listen(app, { port: config.port, host: config.host });
  logger.info(
    { port: http.port, searchEngine: config.searchEngine, eventLog: config.eventLog },
    'catalog-service listening',
  );
  const running = { engine, eventLog, indexer, reindex, backfill };
  return {
    port: http.port,
    url: http.url,
    async close() {
      await running.backfill?.stop();
      await running.indexer.stop();
      await running.reindex?.close();
      await running.eventLog.close();
      await http.drain();
      await running.engine.close();
      await embedder?.close();
      await replayGuard?.close?.();
      await database.close();
    },
  };
}

/**
 * Item vectors are computed beside the indexer, from the store first
 * (src/vectors/vector-backfill.ts). Without a model, search is lexical
 * (openTextEmbedder said so once).
 */
function startBackfill(
  engine: CachingSearchEngine,
  embedder: TextEmbedder | null,
  sequelize: Sequelize,
  logger: Logger,
): VectorBackfill | undefined {
  const target = engine.vectors;
  if (!embedder || !target) return undefined;
  const backfill = new VectorBackfill({
    target,
    embedder,
    store: new SequelizeItemVectorRepository(sequelize),
    logger: logger.child({ component: 'vectors' }),
  });
  backfill.start();
  logger.info({ model: embedder.model }, 'search by meaning: hybrid by default');
  return backfill;
}

/**
 * An Elasticsearch index built by an older version of this service cannot
 * answer its queries: the first replica to start rebuilds it from the system
 * of record (one job runs in the whole deployment; the others find it
 * running). Searches find nothing until the swap.
 */
function rebuildOutdatedIndex(reindex: ReindexJobs | undefined, logger: Logger): void {
  if (!reindex) {
    logger.error(
      'the Elasticsearch index has an older layout and COLLECTIONS_URL or ITEMS_READER_TOKEN is not set: rebuild it with POST /admin/v1/reindex on a replica that has both',
    );
    return;
  }
  reindex.start().then(
    (job) => logger.warn({ jobId: job.id }, 'rebuilding the Elasticsearch index, built with an older layout'),
    (err: unknown) => {
      if (err instanceof ConflictError)
        logger.info('the rebuild of the outdated Elasticsearch index is already running elsewhere');
      else logger.error({ err }, 'could not start the rebuild of the outdated Elasticsearch index');
    },
  );
}
