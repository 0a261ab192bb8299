import Joi from 'joi';
import { env, loadConfig } from '@skills/common';

export type SearchEngineKind = 'postgres' | 'elasticsearch';
export type EventLogKind = 'postgres' | 'kafka';

export interface CatalogConfig {
  port: number;
  databaseUrl: string;
  principalSecret: string;
  searchEngine: SearchEngineKind;
  eventLog: EventLogKind;
  /** collections-service base URL, the source of a reindex; reindex is off without it */
  collectionsUrl?: string;
  /** how often the Postgres event log polls when no NOTIFY woke it */
  pollIntervalMs: number;
  dbPoolMax: number;
  logLevel: string;
}

interface CatalogEnv {
  PORT: number;
  DATABASE_URL: string;
  PRINCIPAL_SECRET: string;
  SEARCH_ENGINE: SearchEngineKind;
  EVENT_LOG: EventLogKind;
  COLLECTIONS_URL?: string;
  POLL_INTERVAL_MS: number;
  DB_POOL_MAX: number;
  LOG_LEVEL: string;
}

const schema = Joi.object<CatalogEnv>({
  PORT: env.port(8081),
  DATABASE_URL: env.postgresUrl().required(),
  PRINCIPAL_SECRET: env.secret(),
  SEARCH_ENGINE: Joi.string().valid('postgres', 'elasticsearch').default('postgres'),
  EVENT_LOG: Joi.string().valid('postgres', 'kafka').default('postgres'),
  COLLECTIONS_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  POLL_INTERVAL_MS: Joi.number().integer().min(10).max(60_000).default(250),
  DB_POOL_MAX: Joi.number().integer().min(1).max(200).default(10),
  LOG_LEVEL: env.logLevel(),
});

/** Validates the environment once; throws ConfigError naming every bad variable. */
export function loadCatalogConfig(source: Record<string, string | undefined>): Readonly<CatalogConfig> {
  const e = loadConfig(schema, source);
  return Object.freeze({
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    principalSecret: e.PRINCIPAL_SECRET,
    searchEngine: e.SEARCH_ENGINE,
    eventLog: e.EVENT_LOG,
    collectionsUrl: e.COLLECTIONS_URL,
    pollIntervalMs: e.POLL_INTERVAL_MS,
    dbPoolMax: e.DB_POOL_MAX,
    logLevel: e.LOG_LEVEL,
  });
}
