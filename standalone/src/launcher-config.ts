/**
 * The standalone launcher's environment, validated once (common's
 * loadConfig): every bad variable is named in one message.
 */
import { resolve } from 'node:path';
import Joi from 'joi';
import { env, loadConfig } from '@skills/common';

export interface LauncherConfig {
  /** port of the gateway, the only public listener */
  port: number;
  /** operator-given admin token; when absent one is generated and kept in dataDir */
  adminToken?: string;
  /** absolute path of the directory holding the embedded database and the token file */
  dataDir: string;
  /** a Postgres server to use instead of the embedded PGlite */
  databaseUrl?: string;
  logLevel: string;
  /** the gateway's rate limit, failure budget and answer cache settings, passed on as given (RATE_LIMIT_*_PER_MINUTE, AUTH_FAILURES_PER_MINUTE, SESSION_REQUESTS_PER_MINUTE, REDIS_URL, ANSWER_CACHE_*) */
  gatewayEnv: Readonly<Record<string, string>>;
  /** catalog-service search settings, passed on as given (SEARCH_CACHE_*, INDEX_POLL_MS, SEARCH_SHOWS_UNSCANNED); catalog-service validates them */
  catalogEnv: Readonly<Record<string, string>>;
  /** collections-service settings, passed on as given (REPORTS_PER_ACCOUNT_PER_DAY); collections-service validates them */
  collectionsEnv: Readonly<Record<string, string>>;
}

/** Gateway variables the launcher passes through, so a run (or the bench) can raise or disable limits and the answer cache. */
const GATEWAY_PASSTHROUGH = [
  'RATE_LIMIT_PRO_PER_MINUTE',
  'RATE_LIMIT_TEAM_PER_MINUTE',
  'AUTH_FAILURES_PER_MINUTE',
  'SESSION_REQUESTS_PER_MINUTE',
  'REDIS_URL',
  'ANSWER_CACHE_TTL_MS',
  'ANSWER_CACHE_ENTRIES',
] as const;
/** catalog-service variables passed through, e.g. SEARCH_CACHE_ENTRIES=0 npm start to search without the cache. */
const CATALOG_PASSTHROUGH = [
  'SEARCH_CACHE_ENTRIES',
  'SEARCH_CACHE_MAX_BYTES',
  'SEARCH_CACHE_TTL_MS',
  'INDEX_POLL_MS',
  'SEARCH_SHOWS_UNSCANNED',
  'EMBEDDING_MODEL',
  'EMBEDDING_MODEL_DIR',
  'EMBEDDING_FETCH',
] as const;
/** collections-service variables passed through, e.g. REPORTS_PER_ACCOUNT_PER_DAY=1 npm start to see the limit. */
const COLLECTIONS_PASSTHROUGH = ['REPORTS_PER_ACCOUNT_PER_DAY', 'WEBHOOK_ALLOW_PRIVATE_TARGETS', 'WEBHOOK_RETRY_SCHEDULE', 'WEBHOOK_GIVE_UP_AFTER_MS'] as const;

/** The variables of `names` that are set, as given: the service they are for validates them. */
function passedThrough(names: readonly string[], vars: Record<string, string | undefined>): Readonly<Record<string, string>> {
  return Object.freeze(Object.fromEntries(names.filter((name) => vars[name] !== undefined).map((name) => [name, vars[name] as string])));
}

interface LauncherEnv {
  PORT: number;
  ADMIN_TOKEN?: string;
  DATA_DIR: string;
  DATABASE_URL?: string;
  LOG_LEVEL: string;
  RATE_LIMIT_PRO_PER_MINUTE?: number;
  RATE_LIMIT_TEAM_PER_MINUTE?: number;
  AUTH_FAILURES_PER_MINUTE?: number;
  SESSION_REQUESTS_PER_MINUTE?: number;
  REDIS_URL?: string;
  ANSWER_CACHE_TTL_MS?: number;
  ANSWER_CACHE_ENTRIES?: number;
}

/** The variables this process reads (docs/configuration.md and docs/deploy.md describe each: a test checks). */
export const LAUNCHER_ENV = Joi.object<LauncherEnv>({
  PORT: env.port(8080),
  // The gateway refuses shorter admin tokens (common env.secret()).
  ADMIN_TOKEN: Joi.string().min(32).messages({ 'string.min': '{#label} must be at least 32 characters' }),
  DATA_DIR: Joi.string().default('.data'),
  DATABASE_URL: env.postgresUrl(),
  // The embedded run talks to a person at a terminal: only warnings and worse by default.
  LOG_LEVEL: env.logLevel().default('warn'),
  RATE_LIMIT_PRO_PER_MINUTE: Joi.number().integer().min(0),
  RATE_LIMIT_TEAM_PER_MINUTE: Joi.number().integer().min(0),
  AUTH_FAILURES_PER_MINUTE: Joi.number().integer().min(0),
  SESSION_REQUESTS_PER_MINUTE: Joi.number().integer().min(0),
  REDIS_URL: env.redisUrl(),
  // bounds are the gateway's own (its config refuses what it cannot honour)
  ANSWER_CACHE_TTL_MS: Joi.number().integer().min(0),
  ANSWER_CACHE_ENTRIES: Joi.number().integer().min(0),
});

export function loadLauncherConfig(vars: Record<string, string | undefined>): LauncherConfig {
  const parsed = loadConfig(LAUNCHER_ENV, vars);
  return Object.freeze({
    port: parsed.PORT,
    adminToken: parsed.ADMIN_TOKEN,
    dataDir: resolve(parsed.DATA_DIR),
    databaseUrl: parsed.DATABASE_URL,
    logLevel: parsed.LOG_LEVEL,
    gatewayEnv: Object.freeze(Object.fromEntries(GATEWAY_PASSTHROUGH.filter((name) => parsed[name] !== undefined).map((name) => [name, String(parsed[name])]))),
    catalogEnv: passedThrough(CATALOG_PASSTHROUGH, vars),
    collectionsEnv: passedThrough(COLLECTIONS_PASSTHROUGH, vars),
  });
}
