/**
 * Picks the SearchEngine adapter from the validated config and readies it
 * (the Elasticsearch engine makes sure its alias and first index exist), so
 * a bad cluster fails the start, not the first request.
 */
import type { Sequelize } from 'sequelize';
import type { Logger } from '@skills/common';
import { ElasticsearchEngine } from './elasticsearch/elasticsearch.engine';
import { PostgresEngine } from './postgres/postgres-engine';
import type { SearchEngine } from './search-engine';

/** The part of CatalogConfig the engines need. */
export interface SearchEngineSettings {
  searchEngine: 'postgres' | 'elasticsearch';
  /** required (validated in config.ts) when searchEngine is elasticsearch */
  elasticsearchUrl?: string;
  /** the alias searches and writes use; versioned indices are named after it */
  elasticsearchIndex: string;
}

export interface SearchEngineDeps {
  sequelize: Sequelize;
  logger: Logger;
}

export async function createSearchEngine(config: Readonly<SearchEngineSettings>, deps: SearchEngineDeps): Promise<SearchEngine> {
  const logger = deps.logger.child({ component: 'search' });
  switch (config.searchEngine) {
    case 'postgres':
      return new PostgresEngine({ sequelize: deps.sequelize, logger });
    case 'elasticsearch': {
      if (!config.elasticsearchUrl) throw new Error('ELASTICSEARCH_URL is required when SEARCH_ENGINE=elasticsearch');
      const engine = new ElasticsearchEngine({ node: config.elasticsearchUrl, index: config.elasticsearchIndex, logger });
      try {
        await engine.init();
      } catch (err) {
        await engine.close();
        throw err;
      }
      return engine;
    }
  }
}
