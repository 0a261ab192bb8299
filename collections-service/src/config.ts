import Joi from 'joi';
import { env, loadConfig, parseBrokerList } from '@skills/common';

export interface CollectionsConfig {
  port: number;
  databaseUrl: string;
  principalSecret: string;
  dbPoolMax: number;
  logLevel: string;
  /** where outbox rows go: read in place by catalog-service (postgres), or relayed to Kafka by this service */
  eventLog: 'postgres' | 'kafka';
  /** set (validated) when eventLog is kafka */
  kafka?: { brokers: string[]; clientId: string };
}

interface CollectionsEnv {
  PORT: number;
  DATABASE_URL: string;
  PRINCIPAL_SECRET: string;
  DB_POOL_MAX: number;
  LOG_LEVEL: string;
  EVENT_LOG: 'postgres' | 'kafka';
  KAFKA_BROKERS?: string;
  KAFKA_CLIENT_ID: string;
}

const schema = Joi.object<CollectionsEnv>({
  PORT: env.port(8082),
  DATABASE_URL: env.postgresUrl().required(),
  PRINCIPAL_SECRET: env.secret(),
  DB_POOL_MAX: Joi.number().integer().min(1).max(200).default(10),
  LOG_LEVEL: env.logLevel(),
  EVENT_LOG: env.eventLog(),
  KAFKA_BROKERS: env.kafkaBrokers(),
  KAFKA_CLIENT_ID: env.kafkaClientId('collections-service'),
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
    eventLog: e.EVENT_LOG,
    kafka:
      e.EVENT_LOG === 'kafka' && e.KAFKA_BROKERS
        ? Object.freeze({ brokers: parseBrokerList(e.KAFKA_BROKERS), clientId: e.KAFKA_CLIENT_ID })
        : undefined,
  });
}
