/**
 * `npm run start:distributed`'s own environment, validated once. The
 * services' variables are not here: they come from docker-compose.yml.
 */
import { resolve } from 'node:path';
import Joi from 'joi';
import { env, loadConfig } from '@skills/common';

export interface DistributedConfig {
  port: number;
  dataDir: string;
  /** a superuser URL of the local Postgres server; each run creates and drops a database there */
  postgresServerUrl: string;
  adminToken?: string;
  logLevel: string;
  catalogReplicas: number;
}

interface DistributedEnv {
  PORT: number;
  DATA_DIR: string;
  POSTGRES_SERVER_URL: string;
  ADMIN_TOKEN?: string;
  LOG_LEVEL: string;
  CATALOG_REPLICAS: number;
}

const schema = Joi.object<DistributedEnv>({
  PORT: env.port(8080),
  // apart from `npm start`'s .data: the demo ids of one topology mean nothing to the other
  DATA_DIR: Joi.string().default('.data/distributed'),
  POSTGRES_SERVER_URL: env.postgresUrl().default('postgres://postgres@127.0.0.1:5432/test'),
  ADMIN_TOKEN: Joi.string().min(32).messages({ 'string.min': '{#label} must be at least 32 characters' }),
  // a person at a terminal: the services' warnings and worse
  LOG_LEVEL: env.logLevel().default('warn'),
  CATALOG_REPLICAS: Joi.number().integer().min(1).max(8).default(2),
});

export function loadDistributedConfig(vars: Record<string, string | undefined>): Readonly<DistributedConfig> {
  const e = loadConfig(schema, vars);
  return Object.freeze({
    port: e.PORT,
    dataDir: resolve(e.DATA_DIR),
    postgresServerUrl: e.POSTGRES_SERVER_URL,
    adminToken: e.ADMIN_TOKEN,
    logLevel: e.LOG_LEVEL,
    catalogReplicas: e.CATALOG_REPLICAS,
  });
}
