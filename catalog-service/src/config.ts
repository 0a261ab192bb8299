import { resolve } from 'node:path';
import Joi from 'joi';
import {
  backendServiceConfigOf,
  backendServiceEnv,
  env,
  loadConfig,
  type BackendServiceConfig,
  type BackendServiceEnv,
} from '@skills/common';
import { DEFAULT_EMBEDDING_MODEL, EMBEDDING_MODEL_IDS } from './embedding/embedding-models';

/** The checkout's own `.data/models` (from src/ and from dist/ alike), whatever the working directory. */
const CHECKOUT_MODEL_DIR = resolve(__dirname, '..', '..', '.data', 'models');

/** `memory`: each replica's in-memory index over the Postgres read model (`postgres`, its former name, is taken as an alias). */
export type SearchEngineKind = 'memory' | 'elasticsearch';
export type EventLogKind = BackendServiceConfig['eventLog'];

/** The shared part (BackendServiceConfig) plus catalog-service's own; `redisUrl` refuses a replayed principal on every replica. */
export interface CatalogConfig extends BackendServiceConfig {
  searchEngine: SearchEngineKind;
  /** collections-service base URL, the source of a reindex; reindex is off without it */
  collectionsUrl?: string;
  /** the reindex's read-only credential for collections-service's items (set, validated, with collectionsUrl) */
  itemsReaderToken?: string;
  /** Elasticsearch cluster URL; set (validated) when searchEngine is elasticsearch */
  elasticsearchUrl?: string;
  /** the alias searches and writes use; indices behind it are `<alias>-v<epoch ms>` */
  elasticsearchIndex: string;
  /** how often the Postgres event log polls when no NOTIFY woke it */
  pollIntervalMs: number;
  /** how often the memory index reads the read model for writes made through other replicas */
  indexPollMs: number;
  /** search answer cache (docs/search.md "Search cache"); maxEntries 0 turns it off */
  searchCache: { maxEntries: number; maxBytes: number; ttlMs: number; pollMs: number };
  /** whether a search without `trust=` shows unscanned items beside clean ones (docs/trust.md "Safe by default") */
  searchShowsUnscanned: boolean;
  /** the sentence-embedding model of search by intent (docs/search.md "Search by intent: the model") */
  embedding: {
    /** a pinned model id, or `off` */
    model: string;
    /** where the model's files are kept; absolute */
    dir: string;
    /** whether start may fetch a model that is absent or altered */
    fetch: boolean;
  };
}

interface EmbeddingEnv {
  EMBEDDING_MODEL: string;
  EMBEDDING_MODEL_DIR: string;
  EMBEDDING_FETCH: boolean;
}

/** The model's variables, apart so `npm run model:fetch` reads them without the rest of the service's. */
const EMBEDDING_VARS = {
  EMBEDDING_MODEL: Joi.string()
    .valid(...EMBEDDING_MODEL_IDS, 'off')
    .default(DEFAULT_EMBEDDING_MODEL)
    .messages({ 'any.only': `{#label} must be off or a pinned model: ${EMBEDDING_MODEL_IDS.join(', ')}` }),
  EMBEDDING_MODEL_DIR: Joi.string().default(CHECKOUT_MODEL_DIR),
  // only `true` or `false`, like SEARCH_SHOWS_UNSCANNED
  EMBEDDING_FETCH: Joi.boolean().sensitive().default(true),
};

function embeddingConfigOf(e: EmbeddingEnv): Readonly<CatalogConfig['embedding']> {
  return Object.freeze({ model: e.EMBEDDING_MODEL, dir: resolve(e.EMBEDDING_MODEL_DIR), fetch: e.EMBEDDING_FETCH });
}

/** Only the model's variables (the model-fetch command). */
export function loadEmbeddingConfig(source: Record<string, string | undefined>): Readonly<CatalogConfig['embedding']> {
  return embeddingConfigOf(loadConfig(Joi.object<EmbeddingEnv>(EMBEDDING_VARS), source));
}

interface CatalogEnv extends BackendServiceEnv, EmbeddingEnv {
  SEARCH_ENGINE: SearchEngineKind | 'postgres';
  COLLECTIONS_URL?: string;
  ITEMS_READER_TOKEN?: string;
  ELASTICSEARCH_URL?: string;
  ELASTICSEARCH_INDEX: string;
  POLL_INTERVAL_MS: number;
  INDEX_POLL_MS: number;
  SEARCH_CACHE_ENTRIES: number;
  SEARCH_CACHE_MAX_BYTES: number;
  SEARCH_CACHE_TTL_MS: number;
  SEARCH_CACHE_POLL_MS: number;
  SEARCH_SHOWS_UNSCANNED: boolean;
}

/** The variables this process reads (docs/configuration.md and docs/deploy.md describe each: a test checks). */
export const CATALOG_ENV = backendServiceEnv({ port: 8081, kafkaClientId: 'catalog-service' }).append<CatalogEnv>({
  SEARCH_ENGINE: Joi.string().valid('memory', 'elasticsearch', 'postgres').default('memory'),
  COLLECTIONS_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  ITEMS_READER_TOKEN: env
    .secret()
    .optional()
    .when('COLLECTIONS_URL', { is: Joi.exist(), then: Joi.required() })
    .messages({ 'any.required': '{#label} is required when COLLECTIONS_URL is set (the reindex reads items with it)' }),
  ELASTICSEARCH_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .when('SEARCH_ENGINE', { is: 'elasticsearch', then: Joi.required() })
    .messages({
      'any.required': '{#label} is required when SEARCH_ENGINE=elasticsearch',
      'string.uriCustomScheme': '{#label} must be an http(s) URL, e.g. http://elasticsearch:9200',
    }),
  // an alias name obeys the index-name rules: lowercase, no leading - _ +, no \\ / * ? " < > | , # : or space
  ELASTICSEARCH_INDEX: Joi.string()
    .pattern(/^[a-z0-9][a-z0-9._-]{0,199}$/)
    .default('skills')
    .messages({
      'string.pattern.base':
        '{#label} must be a lowercase index name (letters, digits, ".", "_", "-"; at most 200 characters)',
    }),
  POLL_INTERVAL_MS: Joi.number().integer().min(10).max(60_000).default(250),
  // a write through another replica is searchable here at most this long (+ one read) after it committed
  INDEX_POLL_MS: Joi.number().integer().min(10).max(10_000).default(50),
  SEARCH_CACHE_ENTRIES: Joi.number().integer().min(0).max(1_000_000).default(10_000),
  SEARCH_CACHE_MAX_BYTES: Joi.number()
    .integer()
    .min(0)
    .default(64 * 1024 * 1024),
  SEARCH_CACHE_TTL_MS: Joi.number().integer().min(100).max(3_600_000).default(60_000),
  // the cache never hides a write longer than index lag + this (plus one poll query)
  SEARCH_CACHE_POLL_MS: Joi.number().integer().min(10).max(10_000).default(50),
  // only `true` or `false`: a typo ("flase", "no") fails the start instead of showing unscanned items
  SEARCH_SHOWS_UNSCANNED: Joi.boolean().sensitive().default(true),
  ...EMBEDDING_VARS,
});

/** Validates the environment once; throws ConfigError naming every bad variable. */
export function loadCatalogConfig(source: Record<string, string | undefined>): Readonly<CatalogConfig> {
  const e = loadConfig(CATALOG_ENV, source);
  return Object.freeze({
    ...backendServiceConfigOf(e),
    searchEngine: e.SEARCH_ENGINE === 'postgres' ? 'memory' : e.SEARCH_ENGINE,
    collectionsUrl: e.COLLECTIONS_URL,
    itemsReaderToken: e.ITEMS_READER_TOKEN,
    elasticsearchUrl: e.ELASTICSEARCH_URL,
    elasticsearchIndex: e.ELASTICSEARCH_INDEX,
    pollIntervalMs: e.POLL_INTERVAL_MS,
    indexPollMs: e.INDEX_POLL_MS,
    searchCache: Object.freeze({
      maxEntries: e.SEARCH_CACHE_ENTRIES,
      maxBytes: e.SEARCH_CACHE_MAX_BYTES,
      ttlMs: e.SEARCH_CACHE_TTL_MS,
      pollMs: e.SEARCH_CACHE_POLL_MS,
    }),
    searchShowsUnscanned: e.SEARCH_SHOWS_UNSCANNED,
    embedding: embeddingConfigOf(e),
  });
}
