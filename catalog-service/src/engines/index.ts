/**
 * Picks the SearchEngine adapter from the validated config and readies it
 * (the memory engine loads its index from the read model; the Elasticsearch
 * engine makes sure its alias and first index exist), so a bad database or
 * cluster fails the start, not the first request, and a replica is ready
 * only once it can answer every search.
 */
import type { Sequelize } from 'sequelize';
import type { Logger } from '@skills/common';
import { ElasticsearchEngine } from './elasticsearch/elasticsearch.engine';
import { MemorySearchEngine } from './memory/memory-search-engine';
import { ReadModelTable } from './postgres/read-model.table';
import type { SearchEngine } from './search-engine';

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
}

export async function createSearchEngine(config: Readonly<SearchEngineSettings>, deps: SearchEngineDeps): Promise<SearchEngine> {
  const logger = deps.logger.child({ component: 'search' });
  switch (config.searchEngine) {
    case 'memory': {
      // The read model stays in Postgres; searches are answered from this replica's memory.
      const engine = new MemorySearchEngine({ table: new ReadModelTable({ sequelize: deps.sequelize, logger }), logger, pollMs: config.indexPollMs });
      return readied(engine, () => engine.start());
    }
    case 'elasticsearch': {
      if (!config.elasticsearchUrl) throw new Error('ELASTICSEARCH_URL is required when SEARCH_ENGINE=elasticsearch');
      const engine = new ElasticsearchEngine({ node: config.elasticsearchUrl, index: config.elasticsearchIndex, logger });
      return readied(engine, () => engine.init());
    }
  }
}

/** Runs the engine's start-up step; an engine that cannot start is closed, not leaked. */
async function readied<T extends SearchEngine>(engine: T, ready: () => Promise<void>): Promise<T> {
  try {
    await ready();
  } catch (err) {
    await engine.close();
    throw err;
  }
  return engine;
}
