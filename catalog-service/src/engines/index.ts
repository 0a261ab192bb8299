/**
 * Picks the SearchEngine adapter from the validated config and readies it
 * (the memory engine loads its index from the read model; the Elasticsearch
 * engine makes sure its alias and first index exist), so a bad database or
 * cluster fails the start, not the first request, and a replica is ready
 * only once it can answer every search. Start-up gets with it everything it
 * needs to know of the adapter, so it never asks which one it got.
 */
import type { Sequelize } from 'sequelize';
import type { Logger, ServiceMetrics } from '@skills/common';
import { SqlIndexGeneration, type IndexGeneration, type LocalGeneration } from '../search-cache/index-generation';
import { ElasticsearchEngine } from './elasticsearch/elasticsearch.engine';
import { MemorySearchEngine } from './memory/memory.engine';
import { registerSearchIndexMetrics } from './memory/search-index-metrics';
import { ReadModelTable } from './postgres/read-model.table';
import type { SearchEngine } from './search-engine';
import { SequelizeItemVectorRepository } from '../store/item-vector.repository';

/** The part of CatalogConfig the engines need. */
export interface SearchEngineSettings {
  searchEngine: 'memory' | 'elasticsearch';
  /** required (validated in config.ts) when searchEngine is elasticsearch */
  elasticsearchUrl?: string;
  /** the alias searches and writes use; versioned indices are named after it */
  elasticsearchIndex: string;
  /** how often a replica's memory index reads what other replicas wrote to the read model */
  indexPollMs: number;
}

export interface SearchEngineDeps {
  sequelize: Sequelize;
  logger: Logger;
  /** the model whose item vectors the engine holds (search by meaning); absent: words only */
  vectors?: { model: string; dimensions: number };
}

/** A readied engine and what start-up needs to know of it. */
export interface ReadiedSearchEngine {
  engine: SearchEngine;
  /**
   * What the search cache keys its answers by: the memory engine's own
   * generation (it follows every replica's writes itself), or the shared
   * catalog.index_generation for an engine every replica reads alike.
   */
  generation: IndexGeneration | LocalGeneration;
  /** registers the engine's own gauges, if it has any */
  registerMetrics(metrics: ServiceMetrics): void;
  /** the index was built with an older layout: searches find nothing until it is rebuilt */
  needsRebuild: boolean;
}

export async function createSearchEngine(
  config: Readonly<SearchEngineSettings>,
  deps: SearchEngineDeps,
): Promise<ReadiedSearchEngine> {
  const logger = deps.logger.child({ component: 'search' });
  switch (config.searchEngine) {
    case 'memory': {
      // The read model stays in Postgres; searches are answered from this replica's memory.
      const engine = await readied(
        new MemorySearchEngine({
          table: new ReadModelTable({ sequelize: deps.sequelize, logger }),
          logger,
          pollMs: config.indexPollMs,
          ...(deps.vectors ? { vectors: deps.vectors } : {}),
        }),
        (e) => e.start(),
      );
      return {
        engine,
        generation: { current: () => engine.generation },
        registerMetrics: (metrics) => registerSearchIndexMetrics(metrics, engine),
        needsRebuild: false,
      };
    }
    case 'elasticsearch': {
      if (!config.elasticsearchUrl) throw new Error('ELASTICSEARCH_URL is required when SEARCH_ENGINE=elasticsearch');
      const vectors = deps.vectors
        ? { ...deps.vectors, store: new SequelizeItemVectorRepository(deps.sequelize) }
        : undefined;
      const engine = await readied(
        new ElasticsearchEngine({
          node: config.elasticsearchUrl,
          index: config.elasticsearchIndex,
          logger,
          ...(vectors ? { vectors } : {}),
        }),
        (e) => e.init(),
      );
      return {
        engine,
        generation: new SqlIndexGeneration(deps.sequelize),
        registerMetrics: () => undefined,
        needsRebuild: engine.needsRebuild,
      };
    }
  }
}

/** Runs the engine's start-up step; an engine that cannot start is closed, not leaked. */
async function readied<T extends SearchEngine>(engine: T, ready: (engine: T) => Promise<void>): Promise<T> {
  try {
    await ready(engine);
  } catch (err) {
    await engine.close();
    throw err;
  }
  return engine;
}
