import Joi from 'joi';
import { env, loadConfig } from '@skills/common';

export interface CollectionsConfig {
  port: number;
  databaseUrl: string;
  principalSecret: string;
  dbPoolMax: number;
  logLevel: string;
}

interface CollectionsEnv {
  PORT: number;
  DATABASE_URL: string;
  PRINCIPAL_SECRET: string;
  DB_POOL_MAX: number;
  LOG_LEVEL: string;
}

const schema = Joi.object<CollectionsEnv>({
  PORT: env.port(8082),
  DATABASE_URL: env.postgresUrl().required(),
  PRINCIPAL_SECRET: env.secret(),
  DB_POOL_MAX: Joi.number().integer().min(1).max(200).default(10),
  LOG_LEVEL: env.logLevel(),
});

/** Validates the environment once; throws ConfigError naming every bad variable. */
export function loadCollectionsConfig(source: Record<string, string | undefined>): Readonly<CollectionsConfig> {
  const e = loadConfig(schema, source);
  return Object.freeze({
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    principalSecret: e.PRINCIPAL_SECRET,
    dbPoolMax: e.DB_POOL_MAX,
    logLevel: e.LOG_LEVEL,
  });
}
