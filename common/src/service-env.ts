/**
 * The environment every service reads the same way, written once. A service's
 * schema is `serviceEnv(...)` or `backendServiceEnv(...)` with its own
 * variables appended (`.append<OwnEnv>({...})`), and its loader spreads
 * `serviceConfigOf(e)` or `backendServiceConfigOf(e)` into its typed config:
 * a shared variable's name, default, validation and meaning live here only.
 * Operators read them in docs/configuration.md ("Every service").
 */
import Joi from 'joi';
import {
  KAFKA_CLIENT_CERTIFICATE,
  env,
  kafkaSecurityEnv,
  kafkaSecurityOf,
  parseBrokerList,
  type KafkaSecurityEnv,
  type KafkaSecuritySettings,
} from './config';

/** The variables of every service (gateway, catalog-service, collections-service). */
export interface ServiceEnv {
  PORT: number;
  HOST: string;
  DATABASE_URL: string;
  PRINCIPAL_KEYS_RELOAD_MS: number;
  REDIS_URL?: string;
  DB_POOL_MAX: number;
  LOG_LEVEL: string;
}

/** What every service's config holds, from ServiceEnv. */
export interface ServiceConfig {
  /** PORT: where the service listens; 0 picks a free port */
  port: number;
  /** HOST: address to listen on (loopback unless a deployment opens it) */
  host: string;
  /** DATABASE_URL: the Postgres server; the service owns one schema there */
  databaseUrl: string;
  /** PRINCIPAL_KEYS_RELOAD_MS: how often the principal key file is read again (a rotation without restart); 0 reads it once */
  principalKeysReloadMs: number;
  /** REDIS_URL: Redis shared by the replicas (what for is each service's own); per process without it */
  redisUrl?: string;
  /** DB_POOL_MAX: connections in this process's pool */
  dbPoolMax: number;
  /** LOG_LEVEL: pino level */
  logLevel: string;
}

/** The schema of ServiceEnv; `port` is the service's default PORT. */
export function serviceEnv(defaults: { port: number }): Joi.ObjectSchema<ServiceEnv> {
  return Joi.object<ServiceEnv>({
    PORT: env.port(defaults.port),
    HOST: env.host(),
    DATABASE_URL: env.postgresUrl().required(),
    PRINCIPAL_KEYS_RELOAD_MS: env.keyReloadMs(),
    REDIS_URL: env.redisUrl(),
    DB_POOL_MAX: Joi.number().integer().min(1).max(200).default(10),
    LOG_LEVEL: env.logLevel(),
  });
}

export function serviceConfigOf(e: ServiceEnv): ServiceConfig {
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    principalKeysReloadMs: e.PRINCIPAL_KEYS_RELOAD_MS,
    ...(e.REDIS_URL ? { redisUrl: e.REDIS_URL } : {}),
    dbPoolMax: e.DB_POOL_MAX,
    logLevel: e.LOG_LEVEL,
  };
}

/**
 * The variables of a service behind the gateway (catalog-service,
 * collections-service): it checks principals with public keys, sheds load
 * itself, and writes or reads the event log.
 */
export interface BackendServiceEnv extends ServiceEnv, KafkaSecurityEnv {
  PRINCIPAL_PUBLIC_KEYS_FILE: string;
  SHED_EVENT_LOOP_DELAY_MS: number;
  EVENT_LOG: 'postgres' | 'kafka';
  KAFKA_BROKERS?: string;
  KAFKA_CLIENT_ID: string;
}

export interface BackendServiceConfig extends ServiceConfig {
  /** PRINCIPAL_PUBLIC_KEYS_FILE: PEM file of the one or two Ed25519 public keys principals are accepted from (docs/security.md "Principal keys") */
  principalPublicKeysFile: string;
  /** SHED_EVENT_LOOP_DELAY_MS: requests are shed (503) while the event loop is this late; 0 never (http/event-loop-shedding.ts) */
  shedEventLoopDelayMs: number;
  /** EVENT_LOG: the outbox read in place (postgres) or Kafka */
  eventLog: 'postgres' | 'kafka';
  /** set (validated) when eventLog is kafka */
  kafka?: { brokers: string[]; clientId: string; security: KafkaSecuritySettings };
}

/** The schema of BackendServiceEnv; `kafkaClientId` is the default KAFKA_CLIENT_ID (the service's name). */
export function backendServiceEnv(defaults: {
  port: number;
  kafkaClientId: string;
}): Joi.ObjectSchema<BackendServiceEnv> {
  return serviceEnv(defaults)
    .append<BackendServiceEnv>({
      PRINCIPAL_PUBLIC_KEYS_FILE: env.keyFile(),
      SHED_EVENT_LOOP_DELAY_MS: env.shedEventLoopDelayMs(),
      EVENT_LOG: env.eventLog(),
      KAFKA_BROKERS: env.kafkaBrokers(),
      ...kafkaSecurityEnv,
      KAFKA_CLIENT_ID: env.kafkaClientId(defaults.kafkaClientId),
    })
    .and(...KAFKA_CLIENT_CERTIFICATE);
}

export function backendServiceConfigOf(e: BackendServiceEnv): BackendServiceConfig {
  return {
    ...serviceConfigOf(e),
    principalPublicKeysFile: e.PRINCIPAL_PUBLIC_KEYS_FILE,
    shedEventLoopDelayMs: e.SHED_EVENT_LOOP_DELAY_MS,
    eventLog: e.EVENT_LOG,
    kafka:
      e.EVENT_LOG === 'kafka' && e.KAFKA_BROKERS
        ? Object.freeze({
            brokers: parseBrokerList(e.KAFKA_BROKERS),
            clientId: e.KAFKA_CLIENT_ID,
            security: kafkaSecurityOf(e),
          })
        : undefined,
  };
}
