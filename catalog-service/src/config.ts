import Joi from 'joi';
import {
  KAFKA_CLIENT_CERTIFICATE,
  env,
  kafkaSecurityEnv,
  kafkaSecurityOf,
  loadConfig,
  parseBrokerList,
  type KafkaSecurityEnv,
  type KafkaSecuritySettings,
} from '@skills/common';

/** `memory`: each replica's in-memory index over the Postgres read model (`postgres`, its former name, is taken as an alias). */
export type SearchEngineKind = 'memory' | 'elasticsearch';
export type EventLogKind = 'postgres' | 'kafka';

export interface CatalogConfig {
  port: number;
  databaseUrl: string;
  /** PEM file of the one or two Ed25519 public keys principals are accepted from (docs/security.md "Principal keys") */
  principalPublicKeysFile: string;
  /** how often that file is read again (a rotation without restart); 0 reads it once */
  principalKeysReloadMs: number;
  /** Redis shared by the replicas to refuse a replayed principal on all of them; per process without it */
  redisUrl?: string;
  searchEngine: SearchEngineKind;
  eventLog: EventLogKind;
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
  /** set (validated) when eventLog is kafka */
  kafka?: { brokers: string[]; clientId: string; security: KafkaSecuritySettings };
  dbPoolMax: number;
  logLevel: string;
  /** requests are shed (503) while the event loop is this late; 0 never (common http/event-loop-shedding.ts) */
  shedEventLoopDelayMs: number;
  /** search answer cache (docs/search.md "Search cache"); maxEntries 0 turns it off */
  searchCache: { maxEntries: number; maxBytes: number; ttlMs: number; pollMs: number };
  /** whether a search without `trust=` shows unscanned items beside clean ones (docs/trust.md "Safe by default") */
  searchShowsUnscanned: boolean;
  /** address to listen on (loopback unless a deployment opens it) */
  host: string;
}

interface CatalogEnv extends KafkaSecurityEnv {
  PORT: number;
  DATABASE_URL: string;
  PRINCIPAL_PUBLIC_KEYS_FILE: string;
  PRINCIPAL_KEYS_RELOAD_MS: number;
  REDIS_URL?: string;
  SEARCH_ENGINE: SearchEngineKind | 'postgres';
  EVENT_LOG: EventLogKind;
  COLLECTIONS_URL?: string;
  ITEMS_READER_TOKEN?: string;
  ELASTICSEARCH_URL?: string;
  ELASTICSEARCH_INDEX: string;
  POLL_INTERVAL_MS: number;
  INDEX_POLL_MS: number;
  KAFKA_BROKERS?: string;
  KAFKA_CLIENT_ID: string;
  DB_POOL_MAX: number;
  LOG_LEVEL: string;
  SHED_EVENT_LOOP_DELAY_MS: number;
  SEARCH_CACHE_ENTRIES: number;
  SEARCH_CACHE_MAX_BYTES: number;
  SEARCH_CACHE_TTL_MS: number;
  SEARCH_CACHE_POLL_MS: number;
  SEARCH_SHOWS_UNSCANNED: boolean;
  HOST: string;
}

/** The variables this process reads (docs/configuration.md and docs/deploy.md describe each: a test checks). */
export const CATALOG_ENV = Joi.object<CatalogEnv>({
  PORT: env.port(8081),
  DATABASE_URL: env.postgresUrl().required(),
  PRINCIPAL_PUBLIC_KEYS_FILE: env.keyFile(),
  PRINCIPAL_KEYS_RELOAD_MS: env.keyReloadMs(),
  REDIS_URL: env.redisUrl(),
  SEARCH_ENGINE: Joi.string().valid('memory', 'elasticsearch', 'postgres').default('memory'),
  EVENT_LOG: env.eventLog(),
  KAFKA_BROKERS: env.kafkaBrokers(),
  ...kafkaSecurityEnv,
  KAFKA_CLIENT_ID: env.kafkaClientId('catalog-service'),
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
    .messages({ 'string.pattern.base': '{#label} must be a lowercase index name (letters, digits, ".", "_", "-"; at most 200 characters)' }),
  POLL_INTERVAL_MS: Joi.number().integer().min(10).max(60_000).default(250),
  // a write through another replica is searchable here at most this long (+ one read) after it committed
  INDEX_POLL_MS: Joi.number().integer().min(10).max(10_000).default(50),
  DB_POOL_MAX: Joi.number().integer().min(1).max(200).default(10),
  LOG_LEVEL: env.logLevel(),
  SHED_EVENT_LOOP_DELAY_MS: env.shedEventLoopDelayMs(),
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
  HOST: env.host(),
}).and(...KAFKA_CLIENT_CERTIFICATE);

/** Validates the environment once; throws ConfigError naming every bad variable. */
export function loadCatalogConfig(source: Record<string, string | undefined>): Readonly<CatalogConfig> {
  const e = loadConfig(CATALOG_ENV, source);
  return Object.freeze({
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    principalPublicKeysFile: e.PRINCIPAL_PUBLIC_KEYS_FILE,
    principalKeysReloadMs: e.PRINCIPAL_KEYS_RELOAD_MS,
    ...(e.REDIS_URL ? { redisUrl: e.REDIS_URL } : {}),
    searchEngine: e.SEARCH_ENGINE === 'postgres' ? 'memory' : e.SEARCH_ENGINE,
    eventLog: e.EVENT_LOG,
    collectionsUrl: e.COLLECTIONS_URL,
    itemsReaderToken: e.ITEMS_READER_TOKEN,
    elasticsearchUrl: e.ELASTICSEARCH_URL,
    elasticsearchIndex: e.ELASTICSEARCH_INDEX,
    pollIntervalMs: e.POLL_INTERVAL_MS,
    indexPollMs: e.INDEX_POLL_MS,
    kafka:
      e.EVENT_LOG === 'kafka' && e.KAFKA_BROKERS
        ? Object.freeze({ brokers: parseBrokerList(e.KAFKA_BROKERS), clientId: e.KAFKA_CLIENT_ID, security: kafkaSecurityOf(e) })
        : undefined,
    dbPoolMax: e.DB_POOL_MAX,
    logLevel: e.LOG_LEVEL,
    shedEventLoopDelayMs: e.SHED_EVENT_LOOP_DELAY_MS,
    searchCache: Object.freeze({
      maxEntries: e.SEARCH_CACHE_ENTRIES,
      maxBytes: e.SEARCH_CACHE_MAX_BYTES,
      ttlMs: e.SEARCH_CACHE_TTL_MS,
      pollMs: e.SEARCH_CACHE_POLL_MS,
    }),
    searchShowsUnscanned: e.SEARCH_SHOWS_UNSCANNED,
    host: e.HOST,
  });
}
